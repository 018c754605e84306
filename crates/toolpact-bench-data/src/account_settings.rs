//! The large tool of the dispatch benchmark: an account-settings tool of over 200 properties
//! (nested objects, arrays of objects, enums, formats, patterns, ranges, `$ref`), with a valid
//! instance and an invalid one that holds one error of each kind.

use crate::{Rng, capitalized};
use serde_json::{Map, Value, json};
use toolpact::Tool;

/// Seed of the generator; change it only together with the figures in `docs/benchmarks.md`.
const SEED: u64 = 0x7001_9ac7_2025_0002;

/// Name of the generated tool.
pub const LARGE: &str = "update_account_settings";

const NOUNS: &[&str] = &[
    "account",
    "billing",
    "contact",
    "invoice",
    "renewal",
    "trial",
    "support",
    "owner",
    "region",
    "plan",
    "seat",
    "quota",
    "discount",
    "tax",
    "vendor",
    "partner",
    "project",
    "team",
    "device",
    "session",
    "webhook",
    "report",
    "export",
    "audit",
    "retention",
    "backup",
    "language",
    "channel",
    "segment",
    "campaign",
    "coupon",
    "warehouse",
    "carrier",
    "parcel",
    "payment",
    "refund",
    "ledger",
    "budget",
];

/// The sections of the settings object: one nested object each.
const SECTIONS: &[&str] = &[
    "billing",
    "shipping",
    "notifications",
    "security",
    "compliance",
    "integrations",
    "branding",
    "limits",
    "support",
];

const ENUMS: &[&[&str]] = &[
    &["draft", "active", "suspended", "closed"],
    &["free", "starter", "pro", "enterprise"],
    &["manual", "automatic", "scheduled"],
    &["low", "normal", "high", "critical"],
    &["daily", "weekly", "monthly", "quarterly", "yearly"],
    &["email", "sms", "push", "webhook", "none"],
];

/// Patterns with a value that matches; `n/a` matches none of them.
const PATTERNS: &[(&str, &str)] = &[
    ("^[A-Z]{3}$", "EUR"),
    ("^[A-Z]{2}$", "PT"),
    ("^\\+[1-9][0-9]{6,14}$", "+351912345678"),
    ("^[a-z0-9-]{3,40}$", "acme-europe"),
    ("^[A-Z0-9 -]{3,10}$", "1200-195"),
    ("^#[0-9a-fA-F]{6}$", "#1a2b3c"),
    ("^v[0-9]+\\.[0-9]+\\.[0-9]+$", "v2.14.0"),
    (
        "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$",
        "PT50000201231234567890154",
    ),
];

/// Formats with a conforming value and a non-conforming one (as a model might send).
const FORMATS: &[(&str, &str, &str, &str)] = &[
    // (format, name suffix, valid, invalid)
    (
        "date-time",
        "At",
        "2026-11-29T19:34:00Z",
        "29/11/2026 19:34",
    ),
    ("date", "Date", "2026-11-29", "29/11/2026"),
    (
        "email",
        "Email",
        "ana.silva@example.com",
        "ana.silva at example.com",
    ),
    (
        "uri",
        "Url",
        "https://example.com/accounts/42",
        "example dot com",
    ),
    (
        "uuid",
        "Id",
        "0f8fad5b-d9cb-469f-a165-70867728950e",
        "0f8fad5b-d9cb",
    ),
];

const SENTENCES: &[&str] = &[
    "Leave it out to keep the current value.",
    "Changes apply from the next billing period.",
    "Only workspace administrators may change it.",
    "Ask the user before changing it, because it affects every member of the account.",
    "The value is shown to customers on invoices and emails.",
];

fn description(rng: &mut Rng, name: &str) -> String {
    let lead = format!("The {name} setting of the account.");
    if rng.chance(40) {
        format!("{lead} {}", rng.pick(SENTENCES))
    } else {
        lead
    }
}

/// A property name not yet in `taken`: a noun and a suffix that says what the value is.
fn property_name(rng: &mut Rng, suffix: &str, taken: &Map<String, Value>) -> String {
    loop {
        let name = format!("{}{suffix}", rng.pick(NOUNS));
        if !taken.contains_key(&name) {
            return name;
        }
    }
}

/// Shared definitions the large schema refers to through `$ref`.
fn definitions() -> Map<String, Value> {
    let defs = json!({
        "Address": {
            "type": "object",
            "description": "A postal address.",
            "properties": {
                "street": {"type": "string", "minLength": 1, "maxLength": 200},
                "city": {"type": "string", "minLength": 1},
                "postalCode": {"type": "string", "pattern": "^[A-Z0-9 -]{3,10}$"},
                "country": {"type": "string", "enum": ["PT", "FR", "DE", "US", "GB", "JP", "BR"]}
            },
            "required": ["street", "city", "country"],
            "additionalProperties": false
        },
        "Money": {
            "type": "object",
            "description": "An amount in minor units of a currency.",
            "properties": {
                "amount": {"type": "integer", "minimum": 0, "maximum": 100_000_000},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}
            },
            "required": ["amount", "currency"],
            "additionalProperties": false
        },
        "Person": {
            "type": "object",
            "description": "Someone the account is shared with.",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 120},
                "email": {"type": "string", "format": "email"},
                "address": {"$ref": "#/$defs/Address"}
            },
            "required": ["email"]
        }
    });
    match defs {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

/// One property schema. Objects and arrays of objects only above `depth` 2, as in real tools.
fn property(rng: &mut Rng, depth: usize, taken: &Map<String, Value>) -> (String, Value) {
    let kinds = if depth < 2 { 15 } else { 12 };
    let (name, mut schema) = match rng.range(0, kinds - 1) {
        0 => {
            let suffix = rng.pick(&["Name", "Label", "Note", "Summary", "Title", "Reference"]);
            let max = rng.range(40, 400);
            (
                property_name(rng, suffix, taken),
                json!({"type": "string", "minLength": 1, "maxLength": max}),
            )
        }
        1 | 2 => {
            let suffix = rng.pick(&["Status", "Tier", "Mode", "Level", "Frequency", "Channel"]);
            let values = rng.pick(ENUMS);
            (
                property_name(rng, suffix, taken),
                json!({"type": "string", "enum": values}),
            )
        }
        3 => {
            let suffix = rng.pick(&["Count", "Limit", "Days", "Seats", "Retries"]);
            let max = rng.range(10, 10_000);
            (
                property_name(rng, suffix, taken),
                json!({"type": "integer", "minimum": 0, "maximum": max}),
            )
        }
        4 => {
            let suffix = rng.pick(&["Amount", "Rate", "Ratio", "Weight"]);
            (
                property_name(rng, suffix, taken),
                json!({"type": "number", "minimum": 0, "exclusiveMaximum": 1_000_000}),
            )
        }
        5 => {
            let suffix = rng.pick(&["Enabled", "Required", "Locked", "Visible"]);
            (
                property_name(rng, suffix, taken),
                json!({"type": "boolean", "default": false}),
            )
        }
        6 | 7 => {
            let (format, suffix, _, _) = FORMATS[rng.range(0, FORMATS.len() - 1)];
            (
                property_name(rng, suffix, taken),
                json!({"type": "string", "format": format}),
            )
        }
        8 => {
            let (pattern, _) = PATTERNS[rng.range(0, PATTERNS.len() - 1)];
            (
                property_name(rng, "Code", taken),
                json!({"type": "string", "pattern": pattern}),
            )
        }
        9 => {
            let suffix = rng.pick(&["Tags", "Aliases", "Keywords"]);
            let max = rng.range(5, 50);
            (
                property_name(rng, suffix, taken),
                json!({
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 64},
                    "maxItems": max,
                    "uniqueItems": true
                }),
            )
        }
        10 => {
            let values = rng.pick(ENUMS);
            (
                property_name(rng, "Options", taken),
                json!({
                    "type": "array",
                    "items": {"type": "string", "enum": values},
                    "minItems": 1,
                    "uniqueItems": true
                }),
            )
        }
        11 => (
            property_name(rng, "Comment", taken),
            json!({"type": ["string", "null"], "maxLength": 2000}),
        ),
        12 => {
            let (suffix, def) = match rng.range(0, 2) {
                0 => ("Address", "Address"),
                1 => ("Price", "Money"),
                _ => ("Contact", "Person"),
            };
            (
                property_name(rng, suffix, taken),
                json!({"$ref": format!("#/$defs/{def}")}),
            )
        }
        13 => (
            property_name(rng, "", taken),
            object_schema(rng, depth + 1, 3, 7),
        ),
        _ => (
            property_name(rng, "Entries", taken),
            json!({"type": "array", "items": object_schema(rng, depth + 1, 3, 6), "maxItems": 100}),
        ),
    };
    schema["description"] = Value::String(description(rng, &name));
    (name, schema)
}

fn object_schema(rng: &mut Rng, depth: usize, min: usize, max: usize) -> Value {
    let mut properties = Map::new();
    for _ in 0..rng.range(min, max) {
        let (name, schema) = property(rng, depth, &properties);
        properties.insert(name, schema);
    }
    let required: Vec<String> = properties
        .keys()
        .filter(|_| rng.chance(35))
        .cloned()
        .collect();
    let mut schema = json!({"type": "object", "properties": properties, "required": required});
    if rng.chance(60) {
        schema["additionalProperties"] = Value::Bool(false);
    }
    schema
}

/// The input schema of the large tool: scalar settings at the root, one nested object per
/// section, and shared definitions.
fn large_schema(rng: &mut Rng) -> Value {
    let mut properties = Map::new();
    properties.insert(
        "accountId".to_owned(),
        json!({"type": "string", "format": "uuid", "description": "The account to update."}),
    );
    for _ in 0..16 {
        let (name, schema) = property(rng, 0, &properties);
        properties.insert(name, schema);
    }
    for section in SECTIONS {
        let mut schema = object_schema(rng, 1, 12, 18);
        schema["description"] = json!(format!("{} settings.", capitalized(section)));
        properties.insert((*section).to_owned(), schema);
    }
    json!({
        "type": "object",
        "description": "Settings of one customer account.",
        "properties": properties,
        "required": ["accountId", "billing"],
        "additionalProperties": false,
        "$defs": definitions()
    })
}

/// How many properties a schema declares, at every depth and in `$defs`.
pub fn count_properties(schema: &Value) -> usize {
    match schema {
        Value::Object(map) => {
            let own = map
                .get("properties")
                .and_then(Value::as_object)
                .map_or(0, Map::len);
            own + map.values().map(count_properties).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(count_properties).sum(),
        _ => 0,
    }
}

/// One change that makes a valid instance invalid, at a JSON pointer.
#[derive(Clone)]
struct Edit {
    /// Which kind of error it causes; one edit of each kind goes into the invalid instance.
    kind: &'static str,
    pointer: String,
    /// The new value, or `None` to remove the property.
    value: Option<Value>,
}

/// Builds a valid instance of `schema` (the subset of JSON Schema the generator writes) and
/// records the edits that would break it.
struct Sampler<'a> {
    root: &'a Value,
    rng: Rng,
    edits: Vec<Edit>,
}

impl Sampler<'_> {
    fn sample(&mut self, schema: &Value, at: &str) -> Value {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let target = self.root.pointer(&reference[1..]).unwrap();
            return self.sample(target, at);
        }
        let edit = |kind, value| Edit {
            kind,
            pointer: at.to_owned(),
            value: Some(value),
        };
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            self.edits.push(edit("not-allowed", json!("unknown")));
            return values[self.rng.range(0, values.len() - 1)].clone();
        }
        match schema.get("type") {
            Some(Value::Array(_)) => json!("Call the billing contact first."),
            Some(Value::String(t)) => match t.as_str() {
                "string" => self.string(schema, at),
                "integer" => {
                    let max = schema["maximum"].as_u64().unwrap();
                    self.edits.push(edit("out-of-range", json!(max + 1)));
                    self.edits.push(edit("wrong-type", json!(max.to_string())));
                    json!(self.rng.range(0, max as usize))
                }
                "number" => {
                    self.edits.push(edit("out-of-range", json!(-1.5)));
                    json!(self.rng.range(0, 99_999) as f64 / 4.0)
                }
                "boolean" => json!(self.rng.chance(50)),
                "array" => self.array(schema, at),
                "object" => self.object(schema, at),
                other => unreachable!("the generator writes no type {other}"),
            },
            _ => unreachable!("the generator writes a type everywhere: {schema}"),
        }
    }

    fn string(&mut self, schema: &Value, at: &str) -> Value {
        let edit = |kind, value| Edit {
            kind,
            pointer: at.to_owned(),
            value: Some(value),
        };
        if let Some(format) = schema.get("format").and_then(Value::as_str) {
            let &(_, _, valid, invalid) = FORMATS.iter().find(|f| f.0 == format).unwrap();
            self.edits.push(edit("format", json!(invalid)));
            return json!(valid);
        }
        if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
            let &(_, valid) = PATTERNS.iter().find(|p| p.0 == pattern).unwrap();
            self.edits.push(edit("pattern", json!("n/a")));
            return json!(valid);
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
            self.edits
                .push(edit("length", json!("x".repeat(max as usize + 1))));
        }
        let words = ["Acme Europe", "Renewal terms", "Main office", "Q4 review"];
        json!(words[self.rng.range(0, words.len() - 1)])
    }

    fn array(&mut self, schema: &Value, at: &str) -> Value {
        let items = &schema["items"];
        if let Some(values) = items.get("enum").and_then(Value::as_array) {
            let n = self.rng.range(1, values.len());
            return Value::Array(values[..n].to_vec());
        }
        if items["type"] == "string" {
            let tags = ["vip", "eu", "beta", "annual"];
            let n = self.rng.range(0, tags.len());
            return json!(tags[..n]);
        }
        let n = self.rng.range(1, 3);
        Value::Array(
            (0..n)
                .map(|i| self.sample(items, &format!("{at}/{i}")))
                .collect(),
        )
    }

    fn object(&mut self, schema: &Value, at: &str) -> Value {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        for (name, property) in schema["properties"].as_object().unwrap() {
            let is_required = required.contains(&name.as_str());
            // Models fill most optional arguments of a settings tool, not all.
            if !is_required && !self.rng.chance(80) {
                continue;
            }
            let pointer = format!("{at}/{name}");
            if is_required {
                self.edits.push(Edit {
                    kind: "missing",
                    pointer: pointer.clone(),
                    value: None,
                });
            }
            let value = self.sample(property, &pointer);
            out.insert(name.clone(), value);
        }
        if schema["additionalProperties"] == false {
            // The slip models make: the snake_case spelling of a camelCase name.
            if let Some(name) = out.keys().find(|k| k.chars().any(char::is_uppercase)) {
                let snake: String = name
                    .chars()
                    .flat_map(|c| {
                        let lower = c.to_ascii_lowercase();
                        if c.is_uppercase() {
                            vec!['_', lower]
                        } else {
                            vec![lower]
                        }
                    })
                    .collect();
                self.edits.push(Edit {
                    kind: "unknown",
                    pointer: format!("{at}/{snake}"),
                    value: Some(out[name].clone()),
                });
            }
        }
        Value::Object(out)
    }
}

/// Whether one pointer is the other or inside it.
fn overlaps(a: &str, b: &str) -> bool {
    let inside = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    inside(a, b) || inside(b, a)
}

/// A copy of `valid` with one edit of each kind, at places that do not overlap.
fn break_instance(valid: &Value, edits: &[Edit], rng: &mut Rng) -> (Value, Vec<Edit>) {
    let mut chosen: Vec<Edit> = Vec::new();
    let kinds = [
        "missing",
        "wrong-type",
        "not-allowed",
        "out-of-range",
        "length",
        "pattern",
        "format",
        "unknown",
    ];
    for kind in kinds {
        let free: Vec<&Edit> = edits
            .iter()
            .filter(|e| e.kind == kind && !chosen.iter().any(|c| overlaps(&c.pointer, &e.pointer)))
            .collect();
        if !free.is_empty() {
            chosen.push(free[rng.range(0, free.len() - 1)].clone());
        }
    }
    let mut invalid = valid.clone();
    for edit in &chosen {
        let (parent, key) = edit.pointer.rsplit_once('/').unwrap();
        match (invalid.pointer_mut(parent).unwrap(), &edit.value) {
            (Value::Object(map), None) => {
                map.shift_remove(key);
            }
            (Value::Object(map), Some(value)) => {
                map.insert(key.to_owned(), value.clone());
            }
            (Value::Array(items), Some(value)) => {
                items[key.parse::<usize>().unwrap()] = value.clone()
            }
            _ => unreachable!("edits point into objects and arrays"),
        }
    }
    (invalid, chosen)
}

/// The large tool, a valid instance and an invalid one with one error of each kind.
pub fn large_case() -> (Tool, Value, Value) {
    let mut rng = Rng(SEED);
    let schema = large_schema(&mut rng);
    let mut sampler = Sampler {
        root: &schema,
        rng: Rng(SEED ^ 1),
        edits: Vec::new(),
    };
    let valid = sampler.sample(&schema, "");
    let edits = sampler.edits;
    let (invalid, chosen) = break_instance(&valid, &edits, &mut rng);
    assert_eq!(chosen.len(), 8, "one edit of each kind");
    eprintln!(
        "  errors put into the invalid instance: {}",
        chosen
            .iter()
            .map(|e| format!("{} at {}", e.kind, e.pointer))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let tool = Tool {
        name: LARGE.to_owned(),
        title: Some("Update account settings".to_owned()),
        description: Some(
            "Updates the settings of one customer account. Send only the settings to change."
                .to_owned(),
        ),
        input_schema: schema,
        output_schema: None,
        annotations: None,
        icons: None,
        meta: None,
        extra: Map::new(),
    };
    (tool, valid, invalid)
}
