use crate::analysis::schema::{Facts, properties, resolved, walk};
use crate::analysis::words::{identifier_words, mentions_any};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Finds string properties for a closed set of values that accept any string.
    ///
    /// A property is for a closed set when its name names a category — `status`, `type`,
    /// `kind`, `category`, `mode`, `unit`, `sortOrder`, `priority`, `relationship`, `level`,
    /// `tier`, `role`, `currency`, `language`, … — or when its description lists the allowed
    /// values ("one of: …", "allowed values"). It accepts any string when it has no `enum`, no
    /// `const` and no `oneOf` of consts.
    ///
    /// The name is matched on its last word, in snake, kebab or camel case (`ticketPriority`,
    /// `sort_order`, `sort_by`), so `orderId` or `unitPrice` are not categories. Arrays of such
    /// strings (`categories`, `roles`) are checked on their items. A `pattern`, a `format`, or
    /// a description that names a standard code list (ISO 4217, BCP 47, …) counts as closed.
    ///
    /// ## Why is this bad?
    /// A free string for a closed set invites invented values: asked for the relationship to
    /// the recipient, a model writes `"bro"`, `"bestie"` or `"my sister's husband"`, and the
    /// handler has to guess what they mean — or fails. An `enum` is enforced by strict modes,
    /// shown to the model as the list of choices, and checked on every call.
    ///
    /// ## Example
    /// ```json
    /// "relationship": {"type": "string", "description": "Relationship with the recipient"}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// "relationship": {
    ///   "type": "string",
    ///   "enum": ["friend", "partner", "sibling", "colleague", "parent"],
    ///   "description": "friend (a friend), partner (a romantic partner), sibling (a brother or sister), colleague (a co-worker), parent (a mother or father)"
    /// }
    /// ```
    ///
    /// ## References
    /// - A closed set is an enum, with each value explained
    /// - JSON Schema 2020-12 Validation, §6.1.2 `enum` and §6.1.3 `const`
    pub struct CategoryWithoutEnum {
        code: "TP201",
        name: "category-without-enum",
        category: Design,
        severity: Warning,
        options: [],
    }
}

/// Last words of a property name that name a closed set of values.
const CATEGORY_WORDS: &[&str] = &[
    "status",
    "type",
    "kind",
    "category",
    "mode",
    "unit",
    "units",
    "sort",
    "order",
    "priority",
    "relationship",
    "level",
    "tier",
    "plan",
    "role",
    "currency",
    "language",
    "lang",
    "direction",
    "visibility",
    "severity",
    "frequency",
    "granularity",
    "environment",
    "platform",
];

/// Plurals of [`CATEGORY_WORDS`], for arrays of categories.
const CATEGORY_PLURALS: &[(&str, &str)] = &[
    ("statuses", "status"),
    ("types", "type"),
    ("kinds", "kind"),
    ("categories", "category"),
    ("modes", "mode"),
    ("priorities", "priority"),
    ("relationships", "relationship"),
    ("levels", "level"),
    ("tiers", "tier"),
    ("plans", "plan"),
    ("roles", "role"),
    ("currencies", "currency"),
    ("languages", "language"),
    ("severities", "severity"),
    ("environments", "environment"),
    ("platforms", "platform"),
];

/// Words before the category word that make it an open, externally defined set
/// (`mimeType`, `content_type`) or not a category at all (`purchase_order`).
fn is_open_compound(words: &[String], head: &str) -> bool {
    let before = words
        .len()
        .checked_sub(2)
        .and_then(|i| words.get(i))
        .map(String::as_str);
    match head {
        "type" => matches!(before, Some("mime" | "content" | "media")),
        // `order` alone or `sort_order` is a sort order; `purchase_order` is a document.
        "order" => !matches!(before, None | Some("sort")),
        // `plan` alone may be free text (an agent's plan); a subscription plan is closed.
        "plan" => !matches!(
            before,
            Some("subscription" | "billing" | "pricing" | "price" | "membership")
        ),
        _ => false,
    }
}

/// The category a property name names, if any: `sort_by` → `sort`, `ticketPriority` →
/// `priority`, `categories` (for arrays) → `category`.
fn category_of(name: &str, plural: bool) -> Option<&'static str> {
    let mut words = identifier_words(name);
    if words.len() >= 2 && words.last().is_some_and(|w| w == "by") {
        words.pop();
        // `sort_by`, `order_by` and `group_by` pick one of a fixed set of fields.
        if words.last().is_some_and(|w| w == "group") {
            return Some("group");
        }
        if words.last().is_some_and(|w| w == "order") {
            return Some("order");
        }
    }
    let head = words.last()?.as_str();
    let category = if plural {
        CATEGORY_PLURALS
            .iter()
            .find(|(p, _)| *p == head)
            .map(|(_, s)| *s)
            .or_else(|| CATEGORY_WORDS.iter().find(|w| **w == head).copied())
    } else {
        CATEGORY_WORDS.iter().find(|w| **w == head).copied()
    }?;
    if is_open_compound(&words, category) {
        return None;
    }
    Some(category)
}

/// Phrases that show a description enumerates the allowed values.
const LISTS_VALUES: &[&str] = &[
    "one of:",
    "one of the following",
    "one of \"",
    "one of '",
    "one of `",
    "possible values",
    "allowed values",
    "valid values",
    "accepted values",
    "supported values",
    "must be one",
    "options are",
];

/// Words one of [`LISTS_VALUES`] holds: a description without them lists no values.
const LISTS_CUES: &[&str] = &["one", "values", "options"];

/// Words one of [`STANDARD_LISTS`] starts with.
const STANDARD_CUES: &[&str] = &["iso", "bcp", "bcp47", "ietf", "iana", "rfc", "mime"];

/// Phrases that name an external code list a model already knows.
const STANDARD_LISTS: &[&str] = &[
    "iso 4217", "iso-4217", "iso 639", "iso-639", "iso 3166", "iso-3166", "bcp 47", "bcp-47",
    "bcp47", "ietf", "iana", "rfc ", "mime",
];

/// Whether a string schema is constrained enough not to invite invented values: a closed set,
/// a `pattern` or a `format` — on the schema, or on every string branch of its
/// `anyOf`/`oneOf`.
fn is_constrained<'v>(root: &'v Value, facts: &Facts<'v>) -> bool {
    let own = |f: &Facts<'v>| f.is_closed_set(root) || f.pattern.is_some() || f.format.is_some();
    if own(facts) {
        return true;
    }
    if facts.declares("string") {
        return false;
    }
    facts
        .branches()
        .map(|b| resolved(root, b).1)
        .filter(|b| b.declares("string"))
        .all(|b| own(&b))
}

fn lowercase(text: Option<&str>) -> String {
    text.map(str::to_lowercase).unwrap_or_default()
}

impl Rule for CategoryWithoutEnum {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for CategoryWithoutEnum {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let root = &tool.input_schema;
        let tool_words = identifier_words(&tool.name);
        walk(root, "/inputSchema", &mut |node| {
            let Some(props) = properties(node.schema) else {
                return;
            };
            for (name, raw) in props {
                let (_, facts) = resolved(root, raw);
                let (target, plural) = if facts.has_type("string") {
                    (facts, false)
                } else if facts.has_type("array")
                    && let Some(items) = facts.items.filter(|v| v.is_object())
                    && let (_, items) = resolved(root, items)
                    && items.has_type("string")
                {
                    (items, true)
                } else {
                    continue;
                };
                if is_constrained(root, &target) {
                    continue;
                }
                let category = category_of(name, plural).filter(|c| {
                    // `order` on a tool about orders is the order itself, not a sort order.
                    *c != "order" || !tool_words.iter().any(|w| w.starts_with("order"))
                });
                let description = facts.description.unwrap_or_default();
                let lists = category.is_none() && mentions_any(description, LISTS_CUES);
                if category.is_none() && !lists {
                    continue;
                }
                let text = lowercase(facts.description);
                let names_standard = |text: &str| {
                    mentions_any(text, STANDARD_CUES)
                        && STANDARD_LISTS.iter().any(|s| text.contains(s))
                };
                if names_standard(&text)
                    || (plural && names_standard(&lowercase(target.description)))
                {
                    continue;
                }
                let accepts = if plural {
                    "its items accept any string"
                } else {
                    "its schema accepts any string"
                };
                let (message, help) = if let Some(category) = category {
                    let help = match category {
                        "currency" | "language" | "lang" => format!(
                            "list the values you accept in `enum`, or name the standard and constrain the form: \"ISO 4217 code\" with \"pattern\": \"^[A-Z]{{3}}$\" for a currency, \"BCP 47 tag\" for a language; a free string for `{name}` invites invented values"
                        ),
                        _ => format!(
                            "list the values in `enum` and explain each in the description (\"enum\": [\"a\", \"b\"], \"a (when …), b (when …)\"); a free string for `{name}` invites invented values"
                        ),
                    };
                    (
                        format!("`{name}` names a closed category ({category}) but {accepts}"),
                        help,
                    )
                } else if lists && LISTS_VALUES.iter().any(|p| text.contains(p)) {
                    (
                        format!("the description of `{name}` lists its allowed values but {accepts}"),
                        "move the values the description lists into `enum`, so that strict modes and argument validation enforce them".to_owned(),
                    )
                } else {
                    continue;
                };
                let mut pointer = child_pointer(&child_pointer(node.pointer, "properties"), name);
                if plural {
                    pointer.push_str("/items");
                }
                out.push(Violation {
                    tool: Some(i),
                    pointer,
                    message,
                    help: help.into(),
                });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::category_of;

    #[test]
    fn finds_categories_by_last_word() {
        assert_eq!(category_of("status", false), Some("status"));
        assert_eq!(category_of("ticketPriority", false), Some("priority"));
        assert_eq!(category_of("sort_order", false), Some("order"));
        assert_eq!(category_of("sort_by", false), Some("sort"));
        assert_eq!(category_of("orderBy", false), Some("order"));
        assert_eq!(category_of("group_by", false), Some("group"));
        assert_eq!(category_of("categories", true), Some("category"));
        assert_eq!(category_of("orderId", false), None);
        assert_eq!(category_of("unitPrice", false), None);
        assert_eq!(category_of("mimeType", false), None);
        assert_eq!(category_of("purchase_order", false), None);
        assert_eq!(category_of("plan", false), None);
        assert_eq!(category_of("subscription_plan", false), Some("plan"));
        assert_eq!(category_of("statusMessage", false), None);
        assert_eq!(category_of("", false), None);
    }
}
