//! The catalog of the convert benchmark: 250 realistic tools (nested objects, arrays of
//! objects, enums, formats, `$ref`s into `$defs`, dotted names, output schemas, annotations),
//! as the bytes of an MCP `tools/list` result.

use crate::{Rng, capitalized};
use serde_json::{Map, Value, json};

/// How many tools the catalog holds.
pub const TOOLS: usize = 250;

/// Seed of the generator; change it only together with the figures in `docs/benchmarks.md`.
const SEED: u64 = 0x7001_9ac7_2025_0001;

const DOMAINS: &[&str] = &[
    "crm",
    "billing",
    "calendar",
    "files",
    "tickets",
    "inventory",
    "analytics",
    "mail",
    "deploy",
    "search",
];
const VERBS: &[&str] = &[
    "create", "update", "get", "list", "delete", "search", "archive", "export",
];
const NOUNS: &[&str] = &["record", "attachment", "comment", "report"];

const SENTENCES: &[&str] = &[
    "Results are sorted by most recent activity first unless a different order is requested.",
    "The caller must have at least read access to the workspace; otherwise the call fails with a permission error.",
    "Use this tool only after confirming the identifier with the user, because identifiers are not guessable.",
    "Large result sets are paginated: pass the cursor from the previous response to fetch the next page.",
    "Timestamps are interpreted in UTC when no offset is given, and returned in ISO 8601 format.",
    "This operation is rate limited to sixty calls per minute per workspace; back off when told to.",
    "Fields that are omitted keep their current value; send null explicitly to clear an optional field.",
    "Prefer the search tool when the user describes the item in words rather than giving its identifier.",
    "The response includes a link the user can open in the browser to review the change.",
    "Deleted items stay recoverable for thirty days from the trash before they are purged.",
    "Amounts are given in minor units of the currency, so 1250 in EUR means twelve euros fifty.",
    "Do not call this tool in a loop to poll for changes; subscribe to notifications instead.",
    "When several matches are found, ask the user which one they mean instead of picking one.",
    "Tags are case-insensitive and trimmed; at most twenty tags are kept per item.",
];

const PROPERTY_NAMES: &[&str] = &[
    "id",
    "workspaceId",
    "query",
    "title",
    "body",
    "status",
    "priority",
    "assignee",
    "tags",
    "dueDate",
    "createdAfter",
    "createdBefore",
    "limit",
    "cursor",
    "sortBy",
    "includeArchived",
    "amount",
    "currency",
    "email",
    "phone",
    "address",
    "owner",
    "period",
    "attachments",
    "lineItems",
    "filter",
    "notify",
    "visibility",
    "locale",
    "timezone",
    "parentId",
    "labels",
    "metadata",
    "recipients",
    "schedule",
    "target",
    "dryRun",
    "reason",
    "format",
    "fields",
];

/// Shared definitions a tool's schema may refer to through `$ref`.
fn definition(name: &str) -> Value {
    match name {
        "Address" => json!({
            "type": "object",
            "description": "A postal address.",
            "properties": {
                "street": {"type": "string", "maxLength": 200},
                "city": {"type": "string"},
                "postalCode": {"type": "string", "pattern": "^[A-Z0-9 -]{3,10}$"},
                "country": {"type": "string", "enum": ["FR", "DE", "US", "GB", "JP", "BR"]}
            },
            "required": ["street", "city", "country"],
            "additionalProperties": false
        }),
        "Money" => json!({
            "type": "object",
            "description": "An amount in minor units of a currency.",
            "properties": {
                "amount": {"type": "integer", "minimum": 0},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}
            },
            "required": ["amount", "currency"]
        }),
        "DateRange" => json!({
            "type": "object",
            "properties": {
                "from": {"type": "string", "format": "date-time"},
                "to": {"type": "string", "format": "date-time"}
            },
            "required": ["from"]
        }),
        "Person" => json!({
            "type": "object",
            "description": "Someone the item is shared with or assigned to.",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string", "format": "email"},
                "address": {"$ref": "#/$defs/Address"}
            },
            "required": ["email"]
        }),
        _ => json!({
            "type": "object",
            "properties": {
                "cursor": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
            }
        }),
    }
}

const DEFINITIONS: &[&str] = &["Address", "Money", "DateRange", "Person", "Pagination"];

fn property_description(rng: &mut Rng, name: &str) -> String {
    let lead = format!("The {name} of the item this call works on.");
    if rng.chance(40) {
        format!("{lead} {}", rng.pick(SENTENCES))
    } else {
        lead
    }
}

/// Distinct property names for one object.
fn property_names<'a>(rng: &mut Rng, count: usize) -> Vec<&'a str> {
    let mut names: Vec<&'a str> = Vec::with_capacity(count);
    while names.len() < count {
        let name = rng.pick(PROPERTY_NAMES);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// One property schema; `defs` collects the definitions it refers to.
fn property(rng: &mut Rng, name: &str, depth: usize, defs: &mut Map<String, Value>) -> Value {
    let description = property_description(rng, name);
    // Objects and arrays of objects only near the root, as real tools do.
    let kinds = if depth < 2 { 12 } else { 7 };
    match rng.range(0, kinds - 1) {
        0 => {
            json!({"type": "string", "description": description, "minLength": 1, "maxLength": rng.range(40, 4000)})
        }
        1 => {
            let values: Vec<String> = (0..rng.range(3, 6))
                .map(|i| {
                    format!(
                        "{name}_{}",
                        ["low", "normal", "high", "open", "closed", "draft"][i]
                    )
                })
                .collect();
            json!({"type": "string", "description": description, "enum": values})
        }
        2 => {
            json!({"type": "integer", "description": description, "minimum": 0, "maximum": rng.range(10, 10_000), "default": 10})
        }
        3 => json!({"type": "boolean", "description": description, "default": false}),
        4 => {
            let format = rng.pick(&["date-time", "email", "uri", "uuid"]);
            json!({"type": "string", "format": format, "description": description})
        }
        5 => json!({
            "type": "array",
            "description": description,
            "items": {"type": "string", "maxLength": 64},
            "minItems": 0,
            "maxItems": rng.range(5, 50),
            "uniqueItems": true
        }),
        6 => json!({"type": ["string", "null"], "description": description}),
        7 => json!({
            "type": "array",
            "description": description,
            "items": object_schema(rng, depth + 1, defs, 2, 4),
            "maxItems": 100
        }),
        8 => {
            let mut nested = object_schema(rng, depth + 1, defs, 2, 5);
            nested["description"] = Value::String(description);
            nested
        }
        9 | 10 => {
            let def = rng.pick(DEFINITIONS);
            defs.insert(def.to_owned(), definition(def));
            if def == "Person" {
                defs.insert("Address".to_owned(), definition("Address"));
            }
            json!({"$ref": format!("#/$defs/{def}"), "description": description})
        }
        _ => json!({
            "description": description,
            "oneOf": [
                {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]}
            ]
        }),
    }
}

fn object_schema(
    rng: &mut Rng,
    depth: usize,
    defs: &mut Map<String, Value>,
    min: usize,
    max: usize,
) -> Value {
    let count = rng.range(min, max);
    let names = property_names(rng, count);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for name in names {
        properties.insert(name.to_owned(), property(rng, name, depth, defs));
        if rng.chance(45) {
            required.push(name);
        }
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    if rng.chance(35) {
        schema["additionalProperties"] = Value::Bool(false);
    }
    schema
}

fn tool(rng: &mut Rng, index: usize) -> Value {
    let domain = DOMAINS[index % DOMAINS.len()];
    let k = index / DOMAINS.len();
    let (verb, noun) = (VERBS[k % VERBS.len()], NOUNS[k / VERBS.len()]);
    // A few names use the dots MCP allows and OpenAI and Anthropic do not.
    let name = if index % 20 == 7 {
        format!("{domain}.{verb}_{noun}")
    } else {
        format!("{domain}_{verb}_{noun}")
    };
    let mut description = format!("{} a {noun} in {domain}.", capitalized(verb));
    for _ in 0..rng.range(2, 5) {
        description.push(' ');
        description.push_str(rng.pick(SENTENCES));
    }
    let mut defs = Map::new();
    let mut input = object_schema(rng, 0, &mut defs, 3, 12);
    if !defs.is_empty() {
        input["$defs"] = Value::Object(defs);
    }
    if rng.chance(30) {
        // Schemas generated by zod or pydantic usually name their dialect.
        let mut with_dialect = Map::new();
        with_dialect.insert(
            "$schema".to_owned(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        with_dialect.extend(input.as_object().cloned().unwrap());
        input = Value::Object(with_dialect);
    }
    let mut tool = json!({"name": name, "description": description, "inputSchema": input});
    if rng.chance(25) {
        tool["title"] = json!(format!("{verb} {noun} ({domain})"));
    }
    if rng.chance(35) {
        let mut defs = Map::new();
        let mut output = object_schema(rng, 1, &mut defs, 2, 6);
        if !defs.is_empty() {
            output["$defs"] = Value::Object(defs);
        }
        tool["outputSchema"] = output;
    }
    if rng.chance(50) {
        let read_only = matches!(verb, "get" | "list" | "search" | "export");
        tool["annotations"] = json!({
            "readOnlyHint": read_only,
            "destructiveHint": verb == "delete",
            "openWorldHint": false
        });
    }
    tool
}

/// The MCP `tools/list` result of 250 tools, as the bytes a file would hold.
pub fn catalog_bytes() -> Vec<u8> {
    let mut rng = Rng(SEED);
    let tools: Vec<Value> = (0..TOOLS).map(|i| tool(&mut rng, i)).collect();
    serde_json::to_vec_pretty(&json!({ "tools": tools })).unwrap()
}
