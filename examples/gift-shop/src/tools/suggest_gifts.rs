//! `suggest_gifts`: ranks the catalog for one person and returns gift cards for the widget.

use super::plain_numbers;
use crate::catalog::{
    AgeGroup, CURRENCY, Gift, GiftCatalog, Occasion, Relationship, euros, normalize,
};
use crate::{GiftShop, WIDGET_URI};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::cmp::Reverse;
use toolpact::{Annotations, CallContext, Json, ToolError, TypedHandler, TypedTool};

/// How many gifts come back when the model does not say.
const DEFAULT_RESULTS: usize = 5;

/// At most this many suggestions from one category (books, kitchen, …) before the others
/// get a turn, so that five results are not five books.
const PER_CATEGORY: usize = 2;

/// The arguments of `suggest_gifts`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(transform = plain_numbers)]
pub(crate) struct SuggestGiftsInput {
    /// Who the gift is for, seen from the user: partner, parent, grandparent, sibling, child (the user's son or daughter, of any age), friend or colleague.
    relationship: Relationship,
    /// The person's interests as short tags, one hobby or topic each, such as ["hiking", "coffee", "board games"]; at least one.
    #[schemars(length(min = 1, max = 8), inner(length(min = 2, max = 40)))]
    interests: Vec<String>,
    /// Most to spend on one gift, in euros (EUR), for example 50; convert other currencies to euros first.
    #[schemars(range(min = 1, max = 5000))]
    max_budget: f64,
    /// Least to spend on one gift, in euros (EUR), for example 20; leave out for no lower limit.
    #[schemars(range(min = 0, max = 5000))]
    min_budget: Option<f64>,
    /// What the gift is for; leave out when the user does not say.
    occasion: Option<Occasion>,
    /// The person's age in years, only when the user mentions it, for example 34; gifts for other ages are left out.
    #[schemars(range(max = 120))]
    age: Option<u8>,
    /// How many gifts to suggest, 1 to 10; 5 when left out.
    #[schemars(range(min = 1, max = 10))]
    max_results: Option<u8>,
}

/// One suggested gift, as the widget renders it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub(crate) struct GiftCard {
    /// The gift's id: the giftId for get_gift_details and create_order.
    id: String,
    title: String,
    /// One sentence about the gift.
    blurb: String,
    /// Price in `currency`.
    price: f64,
    /// ISO 4217 code, always "EUR".
    currency: String,
    /// The gift's page in the shop.
    #[schemars(extend("format" = "uri"))]
    link: String,
    /// A photo of the gift.
    #[schemars(extend("format" = "uri"))]
    image: String,
    /// Why it was suggested.
    reason: String,
}

/// What `suggest_gifts` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(transform = plain_numbers)]
pub(crate) struct Suggestions {
    /// Best match first; empty when nothing fits.
    gifts: Vec<GiftCard>,
    /// What to try when nothing fits.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

pub(crate) struct SuggestGifts {
    pub(crate) shop: GiftShop,
}

impl TypedTool for SuggestGifts {
    type Input = SuggestGiftsInput;
    type Output = Json<Suggestions>;
    const NAME: &'static str = "suggest_gifts";

    fn title() -> Option<String> {
        Some("Suggest gifts".to_owned())
    }

    fn description() -> Option<String> {
        Some(
            "Suggests gifts from this shop's catalog for one person, ranked by how well they \
             match the person's interests, the occasion and the relationship, within a budget in \
             euros (EUR). Call this when the user wants gift ideas for someone. Each suggestion \
             has an id, title, price and link; pass the id as giftId to get_gift_details for more \
             about a gift, or to create_order once the user has picked one. Only this shop's \
             gifts are searched."
                .to_owned(),
        )
    }

    fn annotations() -> Option<Annotations> {
        Some(Annotations {
            title: Some("Suggest gifts".to_owned()),
            read_only_hint: Some(true),
            open_world_hint: Some(false),
            ..Annotations::default()
        })
    }

    fn meta() -> Option<Map<String, Value>> {
        let mut meta = Map::new();
        meta.insert("openai/outputTemplate".to_owned(), json!(WIDGET_URI));
        meta.insert(
            "openai/toolInvocation/invoking".to_owned(),
            json!("Looking for gifts…"),
        );
        meta.insert(
            "openai/toolInvocation/invoked".to_owned(),
            json!("Found gift ideas"),
        );
        Some(meta)
    }
}

impl TypedHandler for SuggestGifts {
    async fn call(
        &self,
        input: SuggestGiftsInput,
        _ctx: CallContext,
    ) -> Result<Json<Suggestions>, ToolError> {
        suggest(self.shop.catalog(), &input).map(Json)
    }
}

/// One gift with its score and what matched.
struct Scored<'a> {
    gift: &'a Gift,
    score: u32,
    matched: Vec<String>,
    occasion: bool,
}

fn suggest(catalog: &GiftCatalog, input: &SuggestGiftsInput) -> Result<Suggestions, ToolError> {
    let min_budget = input.min_budget.unwrap_or(0.0);
    if min_budget > input.max_budget {
        return Err(ToolError::for_model(format!(
            "minBudget ({min_budget} EUR) is above maxBudget ({} EUR); swap them or leave minBudget out.",
            input.max_budget
        )));
    }
    // Budgets compare in cents, as prices are stored; rounding the limits outwards keeps a
    // 49.999 budget from excluding a 50.00 gift over a float's last digit.
    let max_cents = (input.max_budget * 100.0).round();
    let min_cents = (min_budget * 100.0).round();
    let age_group = input.age.map(AgeGroup::of_age);
    let interests: Vec<Interest> = input
        .interests
        .iter()
        .map(|text| Interest::new(catalog, text))
        .collect();

    let mut scored: Vec<Scored> = catalog
        .gifts()
        .iter()
        .filter(|gift| {
            let price = f64::from(gift.price_cents);
            price <= max_cents && price >= min_cents
        })
        .filter(|gift| age_group.is_none_or(|group| gift.age_groups.contains(&group)))
        .filter_map(|gift| score(gift, &interests, input))
        .collect();
    // Best score first; among equals, the gift whose price uses the budget best (closest to
    // 80% of it), then the id, so that the order never depends on anything but the input.
    let target = max_cents * 0.8;
    scored.sort_by(|a, b| {
        let fit = |s: &Scored| (f64::from(s.gift.price_cents) - target).abs();
        Reverse(a.score)
            .cmp(&Reverse(b.score))
            .then(fit(a).total_cmp(&fit(b)))
            .then(a.gift.id.cmp(&b.gift.id))
    });

    let wanted = input
        .max_results
        .map_or(DEFAULT_RESULTS, |n| usize::from(n).clamp(1, 10));
    let picked = pick_varied(scored, wanted);
    let note = picked.is_empty().then(|| {
        format!(
            "No gift in the shop matches {} between {} and {} EUR{}. Try broader or different interests, a higher maxBudget, or leave out age.",
            quoted_list(&input.interests),
            min_budget,
            input.max_budget,
            input
                .age
                .map(|age| format!(" for age {age}"))
                .unwrap_or_default()
        )
    });
    let gifts = picked
        .into_iter()
        .map(|s| GiftCard {
            id: s.gift.id.clone(),
            title: s.gift.title.clone(),
            blurb: s.gift.description.clone(),
            price: euros(s.gift.price_cents),
            currency: CURRENCY.to_owned(),
            link: s.gift.link.clone(),
            image: s.gift.image.clone(),
            reason: reason(&s, input),
        })
        .collect();
    Ok(Suggestions { gifts, note })
}

/// An interest as the model wrote it, resolved against the catalog's vocabulary.
struct Interest<'a> {
    text: &'a str,
    /// The catalog tag it names, if any.
    tag: Option<&'a str>,
    /// The normalized text, for matching words of titles and descriptions.
    key: String,
}

impl<'a> Interest<'a> {
    fn new(catalog: &'a GiftCatalog, text: &'a str) -> Interest<'a> {
        Interest {
            text,
            tag: catalog.tag_for(text),
            key: normalize(text),
        }
    }
}

/// Points for a gift, or `None` when it matches none of the interests: a gift that suits the
/// occasion but none of the person's interests is not a suggestion.
fn score<'a>(
    gift: &'a Gift,
    interests: &[Interest],
    input: &SuggestGiftsInput,
) -> Option<Scored<'a>> {
    let mut points = 0;
    let mut matched = Vec::new();
    for interest in interests {
        let hit = match interest.tag {
            Some(tag) if gift.tags.iter().any(|t| t == tag) => Some((6, tag.to_owned())),
            _ if mentions(gift, &interest.key) => Some((2, interest.text.trim().to_owned())),
            _ => None,
        };
        if let Some((p, label)) = hit {
            points += p;
            if !matched.contains(&label) {
                matched.push(label);
            }
        }
    }
    if points == 0 {
        return None;
    }
    let occasion = input.occasion.is_some_and(|o| gift.occasions.contains(&o));
    if occasion {
        points += 3;
    }
    if gift.recipients.contains(&input.relationship) {
        points += 2;
    }
    Some(Scored {
        gift,
        score: points,
        matched,
        occasion,
    })
}

/// Whether a word of the gift's title or description is the interest ("espresso" in a moka
/// pot's description), for interests the vocabulary does not know. Short words are left out:
/// "art" would match "start".
fn mentions(gift: &Gift, key: &str) -> bool {
    if key.len() < 4 {
        return false;
    }
    gift.title
        .split(|c: char| !c.is_alphanumeric())
        .chain(gift.description.split(|c: char| !c.is_alphanumeric()))
        .any(|word| {
            let word = normalize(word);
            word == key
                || word.strip_suffix('s') == Some(key)
                || key.strip_suffix('s') == Some(word.as_str())
        })
}

/// The first `wanted` gifts, at most [`PER_CATEGORY`] from one category while others remain.
fn pick_varied(scored: Vec<Scored>, wanted: usize) -> Vec<Scored> {
    let category = |s: &Scored| s.gift.id.split('-').next().unwrap_or_default().to_owned();
    let mut picked: Vec<Scored> = Vec::with_capacity(wanted);
    let mut deferred = Vec::new();
    for s in scored {
        if picked.len() == wanted {
            break;
        }
        let same = picked
            .iter()
            .filter(|p| category(p) == category(&s))
            .count();
        if same < PER_CATEGORY {
            picked.push(s);
        } else {
            deferred.push(s);
        }
    }
    let room = wanted - picked.len();
    picked.extend(deferred.into_iter().take(room));
    picked
}

fn reason(s: &Scored, input: &SuggestGiftsInput) -> String {
    let mut reason = format!("Matches {}", s.matched.join(", "));
    if let (true, Some(occasion)) = (s.occasion, input.occasion) {
        reason.push_str(&format!("; a {} gift", occasion.as_phrase()));
    }
    if s.gift.recipients.contains(&input.relationship) {
        reason.push_str(&format!("; suits {}", input.relationship.as_phrase()));
    }
    reason.push('.');
    reason
}

fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("{:?}", i.trim())).collect();
    match quoted.as_slice() {
        [] => "those interests".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn input(value: Value) -> SuggestGiftsInput {
        serde_json::from_value(value).unwrap()
    }

    fn ids(s: &Suggestions) -> Vec<&str> {
        s.gifts.iter().map(|g| g.id.as_str()).collect()
    }

    #[test]
    fn ranks_interest_matches_within_budget() {
        let catalog = GiftCatalog::bundled().unwrap();
        let found = suggest(
            &catalog,
            &input(json!({"relationship": "friend", "interests": ["coffee"], "maxBudget": 60, "occasion": "birthday"})),
        )
        .unwrap();
        assert_eq!(found.gifts.len(), 5);
        for card in &found.gifts {
            let gift = catalog.get(&card.id).unwrap();
            assert!(gift.tags.iter().any(|t| t == "coffee"), "{}", card.id);
            assert!(card.price <= 60.0, "{}", card.id);
            assert!(card.reason.starts_with("Matches coffee"), "{}", card.reason);
        }
        assert!(found.note.is_none());
    }

    #[test]
    fn results_are_deterministic_and_varied() {
        let catalog = GiftCatalog::bundled().unwrap();
        let query = json!({"relationship": "partner", "interests": ["cooking", "travel"], "maxBudget": 150, "maxResults": 8});
        let first = suggest(&catalog, &input(query.clone())).unwrap();
        let second = suggest(&catalog, &input(query)).unwrap();
        assert_eq!(ids(&first), ids(&second));
        assert_eq!(first.gifts.len(), 8);
        // No category takes more than two places while others match.
        for card in &first.gifts {
            let prefix = card.id.split('-').next().unwrap();
            let same = first
                .gifts
                .iter()
                .filter(|c| c.id.starts_with(prefix))
                .count();
            assert!(same <= PER_CATEGORY, "{:?}", ids(&first));
        }
    }

    #[test]
    fn aliases_plurals_and_words_find_tags() {
        let catalog = GiftCatalog::bundled().unwrap();
        for interest in ["Board Games", "board-games", "boardgame"] {
            let found = suggest(
                &catalog,
                &input(
                    json!({"relationship": "sibling", "interests": [interest], "maxBudget": 100}),
                ),
            )
            .unwrap();
            assert!(!found.gifts.is_empty(), "{interest}");
            for card in &found.gifts {
                let gift = catalog.get(&card.id).unwrap();
                assert!(
                    gift.tags.iter().any(|t| t == "boardgames"),
                    "{interest}: {}",
                    card.id
                );
            }
        }
        // Not a tag nor an alias, but a word of a description.
        let found = suggest(
            &catalog,
            &input(
                json!({"relationship": "friend", "interests": ["lighthouse"], "maxBudget": 100}),
            ),
        )
        .unwrap();
        assert_eq!(ids(&found), ["BOOK-007"]);
    }

    #[test]
    fn age_excludes_gifts_for_other_ages() {
        let catalog = GiftCatalog::bundled().unwrap();
        let found = suggest(
            &catalog,
            &input(json!({"relationship": "child", "interests": ["science"], "maxBudget": 100, "age": 7, "maxResults": 10})),
        )
        .unwrap();
        assert!(!found.gifts.is_empty());
        for card in &found.gifts {
            let gift = catalog.get(&card.id).unwrap();
            assert!(gift.age_groups.contains(&AgeGroup::Kid), "{}", card.id);
        }
    }

    #[test]
    fn budget_bounds_are_inclusive_and_checked() {
        let catalog = GiftCatalog::bundled().unwrap();
        let found = suggest(
            &catalog,
            &input(json!({"relationship": "friend", "interests": ["coffee"], "minBudget": 42, "maxBudget": 42})),
        )
        .unwrap();
        assert_eq!(ids(&found), ["KITC-004"]);
        let error = suggest(
            &catalog,
            &input(json!({"relationship": "friend", "interests": ["coffee"], "minBudget": 60, "maxBudget": 40})),
        )
        .err()
        .unwrap();
        assert_eq!(
            error,
            ToolError::for_model(
                "minBudget (60 EUR) is above maxBudget (40 EUR); swap them or leave minBudget out."
            )
        );
    }

    #[test]
    fn nothing_found_says_what_to_try() {
        let catalog = GiftCatalog::bundled().unwrap();
        let found = suggest(
            &catalog,
            &input(json!({"relationship": "friend", "interests": ["yachting", "polo"], "maxBudget": 5})),
        )
        .unwrap();
        assert!(found.gifts.is_empty());
        assert_eq!(
            found.note.as_deref(),
            Some(
                "No gift in the shop matches \"yachting\" or \"polo\" between 0 and 5 EUR. Try broader or different interests, a higher maxBudget, or leave out age."
            )
        );
    }
}
