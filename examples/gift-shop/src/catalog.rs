//! The gift catalog: the shipped `data/gifts.json`, read and checked when the shop opens, and
//! the interest vocabulary that turns what a model writes ("board games", "gaming") into the
//! catalog's tags.

use crate::Error;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The catalog shipped with the shop.
pub(crate) const BUNDLED: &str = include_str!("../data/gifts.json");

/// The name the bundled catalog goes by in error messages.
pub(crate) const BUNDLED_NAME: &str = "data/gifts.json";

/// The one currency the shop sells in; every price in the catalog is in it.
pub(crate) const CURRENCY: &str = "EUR";

/// The highest price the catalog accepts, in cents: anything above is a typo.
const MAX_PRICE_CENTS: u32 = 500_000;

/// What a gift is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub(crate) enum Occasion {
    Birthday,
    Anniversary,
    Wedding,
    Housewarming,
    Graduation,
    NewBaby,
    Christmas,
    ValentinesDay,
    MothersDay,
    FathersDay,
    ThankYou,
    Retirement,
    GetWell,
    JustBecause,
}

impl Occasion {
    /// How the occasion reads in a sentence ("a birthday gift").
    pub(crate) fn as_phrase(self) -> &'static str {
        match self {
            Occasion::Birthday => "birthday",
            Occasion::Anniversary => "anniversary",
            Occasion::Wedding => "wedding",
            Occasion::Housewarming => "housewarming",
            Occasion::Graduation => "graduation",
            Occasion::NewBaby => "new baby",
            Occasion::Christmas => "Christmas",
            Occasion::ValentinesDay => "Valentine's Day",
            Occasion::MothersDay => "Mother's Day",
            Occasion::FathersDay => "Father's Day",
            Occasion::ThankYou => "thank-you",
            Occasion::Retirement => "retirement",
            Occasion::GetWell => "get-well",
            Occasion::JustBecause => "just-because",
        }
    }
}

/// How the user is related to the person who receives the gift.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub(crate) enum Relationship {
    Partner,
    Parent,
    Grandparent,
    Sibling,
    Child,
    Friend,
    Colleague,
}

impl Relationship {
    /// How the relationship reads in a sentence ("suits a partner").
    pub(crate) fn as_phrase(self) -> &'static str {
        match self {
            Relationship::Partner => "a partner",
            Relationship::Parent => "a parent",
            Relationship::Grandparent => "a grandparent",
            Relationship::Sibling => "a brother or sister",
            Relationship::Child => "a son or daughter",
            Relationship::Friend => "a friend",
            Relationship::Colleague => "a colleague",
        }
    }
}

/// Whom a gift suits by age: baby (under 3), kid (3 to 12), teen (13 to 17), adult (18 and
/// over).
// The variants carry no doc comments so that the schema stays a plain `enum`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub(crate) enum AgeGroup {
    Baby,
    Kid,
    Teen,
    Adult,
}

impl AgeGroup {
    /// The group an age in years falls into.
    pub(crate) fn of_age(years: u8) -> AgeGroup {
        match years {
            0..=2 => AgeGroup::Baby,
            3..=12 => AgeGroup::Kid,
            13..=17 => AgeGroup::Teen,
            _ => AgeGroup::Adult,
        }
    }
}

/// One gift of the catalog, checked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gift {
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) price_cents: u32,
    pub(crate) tags: Vec<String>,
    pub(crate) occasions: Vec<Occasion>,
    pub(crate) recipients: Vec<Relationship>,
    pub(crate) age_groups: Vec<AgeGroup>,
    pub(crate) link: String,
    pub(crate) image: String,
}

/// The catalog file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    currency: String,
    tags: BTreeMap<String, Vec<String>>,
    gifts: Vec<GiftRecord>,
}

/// One gift as written in the file.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GiftRecord {
    id: String,
    title: String,
    description: String,
    price: f64,
    currency: String,
    tags: Vec<String>,
    occasions: Vec<Occasion>,
    recipients: Vec<Relationship>,
    age_groups: Vec<AgeGroup>,
    link: String,
    image: String,
}

/// Every gift of the shop, with the interest vocabulary.
#[derive(Debug, Clone)]
pub(crate) struct GiftCatalog {
    gifts: Vec<Gift>,
    /// Upper-cased id → position in `gifts`.
    by_id: HashMap<String, usize>,
    /// Normalized tag or alias → tag.
    vocabulary: HashMap<String, String>,
}

impl GiftCatalog {
    /// Reads and checks a catalog; `file` names it in errors.
    pub(crate) fn from_json(text: &str, file: &str) -> Result<GiftCatalog, Error> {
        let malformed = |problem: String| Error::Catalog {
            file: file.to_owned(),
            problem,
        };
        let deserializer = &mut serde_json::Deserializer::from_str(text);
        let parsed: CatalogFile = serde_path_to_error::deserialize(deserializer).map_err(|e| {
            let inner = e.inner();
            malformed(format!(
                "line {}, column {}, at {}: {}",
                inner.line(),
                inner.column(),
                e.path(),
                without_position(&inner.to_string())
            ))
        })?;
        if parsed.currency != CURRENCY {
            return Err(malformed(format!(
                "the catalog's currency is {:?}, but the shop sells in {CURRENCY}",
                parsed.currency
            )));
        }
        let vocabulary = vocabulary(&parsed.tags).map_err(malformed)?;
        if parsed.gifts.is_empty() {
            return Err(malformed("the catalog has no gifts".to_owned()));
        }
        let mut gifts = Vec::with_capacity(parsed.gifts.len());
        let mut by_id = HashMap::with_capacity(parsed.gifts.len());
        for (index, record) in parsed.gifts.into_iter().enumerate() {
            let at = format!("gifts[{index}] ({:?})", record.id);
            let gift =
                check_gift(record, &parsed.tags).map_err(|p| malformed(format!("{at}: {p}")))?;
            if let Some(first) = by_id.insert(gift.id.to_ascii_uppercase(), index) {
                return Err(malformed(format!(
                    "{at}: the id is already used by gifts[{first}]"
                )));
            }
            gifts.push(gift);
        }
        Ok(GiftCatalog {
            gifts,
            by_id,
            vocabulary,
        })
    }

    /// The catalog shipped with the shop.
    pub(crate) fn bundled() -> Result<GiftCatalog, Error> {
        GiftCatalog::from_json(BUNDLED, BUNDLED_NAME)
    }

    /// Every gift, in catalog order.
    pub(crate) fn gifts(&self) -> &[Gift] {
        &self.gifts
    }

    /// The gift with this id; ids are matched without regard to case or surrounding spaces,
    /// as models sometimes change either.
    pub(crate) fn get(&self, id: &str) -> Option<&Gift> {
        self.by_id
            .get(&id.trim().to_ascii_uppercase())
            .and_then(|&i| self.gifts.get(i))
    }

    /// The catalog tag an interest names, through the tag itself or one of its aliases
    /// ("Board games" → `boardgames`, "dogs" → `dogs`, "cat" → `cats`).
    pub(crate) fn tag_for(&self, interest: &str) -> Option<&str> {
        let key = normalize(interest);
        if key.is_empty() {
            return None;
        }
        let found = self.vocabulary.get(&key).or_else(|| {
            // A plural or singular the vocabulary does not list: "hikes", "puzzle".
            key.strip_suffix('s')
                .and_then(|singular| self.vocabulary.get(singular))
                .or_else(|| self.vocabulary.get(&format!("{key}s")))
        });
        found.map(String::as_str)
    }
}

/// Lower-case letters and digits only: "Board-Games" and "board games" are `boardgames`.
pub(crate) fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// serde_json ends its messages with " at line L column C", which the caller already says.
fn without_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

fn vocabulary(tags: &BTreeMap<String, Vec<String>>) -> Result<HashMap<String, String>, String> {
    if tags.is_empty() {
        return Err("the tag vocabulary (\"tags\") is empty".to_owned());
    }
    let mut vocabulary: HashMap<String, String> = HashMap::new();
    for (tag, aliases) in tags {
        if tag.is_empty() || normalize(tag) != *tag {
            return Err(format!(
                "tags: {tag:?} is not a tag; tags are lower-case letters and digits only"
            ));
        }
        for word in std::iter::once(tag).chain(aliases) {
            let key = normalize(word);
            if key.is_empty() {
                return Err(format!(
                    "tags.{tag}: the alias {word:?} has no letters or digits"
                ));
            }
            if let Some(other) = vocabulary.insert(key, tag.clone())
                && other != *tag
            {
                return Err(format!(
                    "tags.{tag}: {word:?} is also a name of the tag {other:?}; an interest must lead to one tag"
                ));
            }
        }
    }
    Ok(vocabulary)
}

fn check_gift(record: GiftRecord, tags: &BTreeMap<String, Vec<String>>) -> Result<Gift, String> {
    let id_ok = !record.id.is_empty()
        && record.id.len() <= 32
        && record
            .id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-');
    if !id_ok {
        return Err(
            "the id must be 1 to 32 upper-case letters, digits and dashes, such as \"BOOK-001\""
                .to_owned(),
        );
    }
    for (field, value) in [
        ("title", &record.title),
        ("description", &record.description),
    ] {
        if value.trim().is_empty() {
            return Err(format!("the {field} is empty"));
        }
    }
    if record.currency != CURRENCY {
        return Err(format!(
            "the price is in {:?}, but the shop sells in {CURRENCY}",
            record.currency
        ));
    }
    let price_cents = cents(record.price).ok_or_else(|| {
        format!(
            "the price {} is not an amount of euros and cents between 0.01 and {}",
            record.price,
            MAX_PRICE_CENTS / 100
        )
    })?;
    if record.tags.is_empty() || record.occasions.is_empty() || record.recipients.is_empty() {
        return Err("tags, occasions and recipients each need at least one value".to_owned());
    }
    if record.age_groups.is_empty() {
        return Err("ageGroups needs at least one value".to_owned());
    }
    if let Some(unknown) = record.tags.iter().find(|t| !tags.contains_key(*t)) {
        return Err(format!(
            "the tag {unknown:?} is not in the tag vocabulary (\"tags\" at the top of the file)"
        ));
    }
    for (field, url) in [("link", &record.link), ("image", &record.image)] {
        if !url.starts_with("https://") || url.len() <= "https://".len() {
            return Err(format!("the {field} {url:?} is not an https:// URL"));
        }
    }
    Ok(Gift {
        id: record.id,
        title: record.title,
        description: record.description,
        price_cents,
        tags: record.tags,
        occasions: record.occasions,
        recipients: record.recipients,
        age_groups: record.age_groups,
        link: record.link,
        image: record.image,
    })
}

/// A price in cents, when it is positive, within the catalog's limit and has at most two
/// decimals.
fn cents(price: f64) -> Option<u32> {
    let scaled = price * 100.0;
    let rounded = scaled.round();
    if !price.is_finite() || (scaled - rounded).abs() > 1e-6 {
        return None;
    }
    if rounded < 1.0 || rounded > f64::from(MAX_PRICE_CENTS) {
        return None;
    }
    // In 1..=MAX_PRICE_CENTS and integral, checked just above.
    Some(rounded as u32)
}

/// Euros from cents, for output.
pub(crate) fn euros(cents: u32) -> f64 {
    f64::from(cents) / 100.0
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn problem(text: &str) -> String {
        match GiftCatalog::from_json(text, "test.json") {
            Err(Error::Catalog { file, problem }) => {
                assert_eq!(file, "test.json");
                problem
            }
            Err(other) => panic!("not a catalog error: {other}"),
            Ok(_) => panic!("accepted: {text}"),
        }
    }

    fn with_gift(gift: &str) -> String {
        format!(
            r#"{{"currency": "EUR", "tags": {{"coffee": ["espresso"], "tea": []}}, "gifts": [{gift}]}}"#
        )
    }

    const GOOD: &str = r#"{"id": "KITC-001", "title": "Moka pot", "description": "Six cups.", "price": 34.9, "currency": "EUR", "tags": ["coffee"], "occasions": ["birthday"], "recipients": ["friend"], "ageGroups": ["adult"], "link": "https://gifts.example/p/kitc-001", "image": "https://gifts.example/images/kitc-001.jpg"}"#;

    #[test]
    fn the_bundled_catalog_loads_and_is_large_and_varied() {
        let catalog = GiftCatalog::bundled().unwrap();
        assert!(catalog.gifts().len() >= 150, "{}", catalog.gifts().len());
        let mut categories: Vec<&str> = catalog
            .gifts()
            .iter()
            .filter_map(|g| g.id.split('-').next())
            .collect();
        categories.sort_unstable();
        categories.dedup();
        assert!(categories.len() >= 12, "{categories:?}");
        for gift in catalog.gifts() {
            assert!(
                gift.link.starts_with("https://gifts.example/"),
                "{}",
                gift.id
            );
            assert!(gift.description.len() >= 30, "{}", gift.id);
        }
    }

    #[test]
    fn a_good_gift_loads() {
        let catalog = GiftCatalog::from_json(&with_gift(GOOD), "test.json").unwrap();
        let gift = catalog.get(" kitc-001 ").unwrap();
        assert_eq!(gift.price_cents, 3490);
        assert_eq!(catalog.tag_for("Espresso"), Some("coffee"));
        assert_eq!(catalog.tag_for("teas"), Some("tea"));
        assert_eq!(catalog.tag_for("knitting"), None);
    }

    #[test]
    fn malformed_json_names_line_column_and_field() {
        let text = with_gift(&GOOD.replace("34.9", "\"34.90\""));
        let problem = problem(&text);
        assert!(problem.starts_with("line 1, column "), "{problem}");
        assert!(
            problem.contains("at gifts[0].price: invalid type: string"),
            "{problem}"
        );
        let problem = self::problem("{\"currency\": \"EUR\",\n  \"tags\": {}\n  \"gifts\": []}");
        assert!(problem.starts_with("line 3, column 3"), "{problem}");
    }

    #[test]
    fn unknown_fields_and_enum_values_are_refused() {
        let problem1 = problem(&with_gift(&GOOD.replace("\"link\"", "\"url\"")));
        assert!(problem1.contains("unknown field `url`"), "{problem1}");
        let problem2 = problem(&with_gift(&GOOD.replace("\"birthday\"", "\"bday\"")));
        assert!(problem2.contains("at gifts[0].occasions[0]"), "{problem2}");
        assert!(problem2.contains("unknown variant `bday`"), "{problem2}");
    }

    #[test]
    fn checks_say_which_gift_and_what_is_wrong() {
        let cases = [
            (
                GOOD.replace("34.9", "34.999"),
                "the price 34.999 is not an amount",
            ),
            (GOOD.replace("34.9", "0"), "the price 0 is not an amount"),
            (
                GOOD.replace("34.9", "9000"),
                "the price 9000 is not an amount",
            ),
            (
                GOOD.replace("\"coffee\"]", "\"wine\"]"),
                "the tag \"wine\" is not in the tag vocabulary",
            ),
            (
                GOOD.replace("\"currency\": \"EUR\"", "\"currency\": \"USD\""),
                "the price is in \"USD\"",
            ),
            (
                GOOD.replace("https://gifts.example/p/kitc-001", "gifts.example/p"),
                "the link \"gifts.example/p\" is not an https:// URL",
            ),
            (GOOD.replace("\"Moka pot\"", "\" \""), "the title is empty"),
            (GOOD.replace("KITC-001", "kitc 1"), "the id must be"),
            (
                GOOD.replace("[\"adult\"]", "[]"),
                "ageGroups needs at least one value",
            ),
        ];
        for (gift, expected) in cases {
            let problem = problem(&with_gift(&gift));
            assert!(problem.starts_with("gifts[0] ("), "{problem}");
            assert!(problem.contains(expected), "{expected}: {problem}");
        }
    }

    #[test]
    fn duplicate_ids_and_ambiguous_aliases_are_refused() {
        let twice = format!("{GOOD}, {GOOD}");
        let problem1 = problem(&with_gift(&twice));
        assert!(
            problem1.starts_with("gifts[1] (\"KITC-001\"): the id is already used by gifts[0]"),
            "{problem1}"
        );
        let ambiguous =
            r#"{"currency": "EUR", "tags": {"coffee": ["brew"], "beer": ["brew"]}, "gifts": []}"#;
        let problem2 = problem(ambiguous);
        assert!(
            problem2.contains("\"brew\" is also a name of the tag"),
            "{problem2}"
        );
        let problem3 = problem(r#"{"currency": "EUR", "tags": {"coffee": []}, "gifts": []}"#);
        assert_eq!(problem3, "the catalog has no gifts");
        let problem4 = problem(r#"{"currency": "GBP", "tags": {"coffee": []}, "gifts": []}"#);
        assert!(problem4.contains("the shop sells in EUR"), "{problem4}");
    }
}
