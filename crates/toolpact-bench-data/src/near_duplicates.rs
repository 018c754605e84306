//! The catalogs of the linter's benchmark: 10,000 or 100,000 varied, real-looking tools, with
//! near-duplicates (small edits) so that the overlap rule has work. The lint benchmark and
//! `toolpact-lint`'s `large_catalog` example both check these, so that the one-shot figures of
//! docs/benchmarks.md are taken on the very catalog the benchmark checks.

use crate::Rng;
use serde_json::{Value, json};
use toolpact::{Catalog, Tool};

const VERBS: &[&str] = &[
    "get", "list", "search", "create", "update", "delete", "send", "cancel", "find", "export",
];
const NOUNS: &[&str] = &[
    "order",
    "invoice",
    "customer",
    "ticket",
    "shipment",
    "product",
    "review",
    "coupon",
    "refund",
    "report",
    "meeting",
    "calendar_event",
    "document",
    "folder",
    "payment",
    "subscription",
    "playlist",
    "forecast",
];
const DOMAINS: &[&str] = &[
    "the shop",
    "the help desk",
    "the warehouse",
    "the billing system",
    "the team calendar",
    "the drive",
];
const PROPS: &[(&str, &str, &str)] = &[
    (
        "query",
        "string",
        "Keywords to search for, for example \"red scarf\".",
    ),
    (
        "limit",
        "integer",
        "How many results to return, from 1 to 50.",
    ),
    ("status", "string", "Filter by status."),
    (
        "since",
        "string",
        "Only items changed on or after this date, as YYYY-MM-DD.",
    ),
    (
        "amount",
        "number",
        "Amount in euros (EUR), for example 12.50.",
    ),
    (
        "note",
        "string",
        "A short note shown to the customer, for example \"Thanks!\".",
    ),
    (
        "tags",
        "array",
        "Short tags such as [\"urgent\", \"vip\"]; at least one.",
    ),
    (
        "customer_id",
        "string",
        "The customer's id, as returned by search_customer.",
    ),
    (
        "include_archived",
        "boolean",
        "Whether to include archived items.",
    ),
    ("address", "object", "Delivery address."),
];

fn tool(rng: &mut Rng, i: usize) -> Tool {
    let verb = rng.pick(VERBS);
    let noun = rng.pick(NOUNS);
    let domain = rng.pick(DOMAINS);
    let name = format!("{verb}_{noun}_{i}");
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    let count = 2 + (rng.next() % 6) as usize;
    for k in 0..count {
        let (prop, ty, desc) = PROPS[(rng.next() as usize + k) % PROPS.len()];
        let schema = match ty {
            "array" => {
                json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "description": desc})
            }
            "object" => json!({"type": "object", "description": desc, "properties": {
                "street": {"type": "string", "description": "Street and number."},
                "city": {"type": "string", "description": "City, for example \"Lisbon\"."}
            }, "required": ["street", "city"], "additionalProperties": false}),
            _ => json!({"type": ty, "description": desc}),
        };
        properties.insert(prop.to_owned(), schema);
        if k == 0 {
            required.push(Value::String(prop.to_owned()));
        }
    }
    let description = format!(
        "{} a {} in {domain} and returns it with its details. Call this when the user asks to {verb} a {noun} ({i} of the catalog).",
        verb[..1].to_uppercase() + &verb[1..],
        noun.replace('_', " ")
    );
    let mut tool = Tool::new(
        name,
        description,
        json!({
            "type": "object", "properties": properties, "required": required, "additionalProperties": false
        }),
    );
    tool.annotations = Some(toolpact::Annotations {
        read_only_hint: Some(matches!(
            verb,
            "get" | "list" | "search" | "find" | "export"
        )),
        destructive_hint: Some(matches!(verb, "delete" | "cancel")),
        ..Default::default()
    });
    tool
}

/// `n` tools; one in fifty is a copy of an earlier tool with a word changed.
pub fn catalog(n: usize) -> Catalog {
    let mut rng = Rng(0x005E_ED0F_7001);
    let mut tools: Vec<Tool> = Vec::with_capacity(n);
    for i in 0..n {
        if i > 10 && i % 50 == 0 {
            let j = (rng.next() % i as u64) as usize;
            let mut copy = tools[j].clone();
            copy.name = format!("{}_v2", copy.name);
            copy.description = copy
                .description
                .map(|d| d.replacen("returns it", "gives it back", 1));
            tools.push(copy);
        } else {
            tools.push(tool(&mut rng, i));
        }
    }
    tools.into_iter().collect()
}
