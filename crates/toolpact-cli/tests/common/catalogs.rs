//! Catalogs generated for the tests that need more than a fixture: many realistic tools, a
//! very large catalog, and documents that are not tools at all.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SUBJECTS: [(&str, &str); 10] = [
    ("order", "a customer order"),
    ("invoice", "an invoice"),
    ("ticket", "a support ticket"),
    ("event", "a calendar event"),
    ("contact", "a CRM contact"),
    ("shipment", "a parcel shipment"),
    ("forecast", "a weather forecast"),
    ("document", "a shared document"),
    ("product", "a catalog product"),
    ("refund", "a payment refund"),
];

const VERBS: [&str; 5] = ["get", "list", "create", "update", "search"];

const STATUSES: [&str; 5] = ["draft", "open", "pending", "closed", "archived"];

/// The name of the `i`th generated tool: `verb_subject_i`, unique and valid for every target.
pub fn tool_name(i: usize) -> String {
    let (subject, _) = SUBJECTS[i % SUBJECTS.len()];
    let verb = VERBS[(i / SUBJECTS.len()) % VERBS.len()];
    format!("{verb}_{subject}_{i}")
}

/// The `i`th of a family of realistic MCP tools. Five shapes take turns: flat scalars with
/// constraints, nested objects, arrays of objects, `$ref`s into `$defs`, and nullable
/// unions; some tools carry a title, annotations or an output schema.
pub fn realistic_tool(i: usize) -> Value {
    let (subject, what) = SUBJECTS[i % SUBJECTS.len()];
    let name = tool_name(i);
    let description = format!(
        "Works on {what} in the back office (variant {i}). Call this when the user asks about \
         {subject}s by id, status or date; it never contacts the customer."
    );
    let input_schema = match i % 5 {
        0 => json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{6}$", "description": format!("The {subject} id, e.g. \"AB-123456\"")},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                "status": {"type": "string", "enum": STATUSES, "description": "Only this status"},
                "include_archived": {"type": "boolean", "default": false},
                "query": {"type": "string", "minLength": 2, "maxLength": 200}
            },
            "required": ["id"],
            "additionalProperties": false
        }),
        1 => json!({
            "type": "object",
            "properties": {
                "filters": {
                    "type": "object",
                    "description": "Narrow the results",
                    "properties": {
                        "created": {
                            "type": "object",
                            "properties": {
                                "from": {"type": "string", "format": "date"},
                                "to": {"type": "string", "format": "date"}
                            },
                            "required": ["from"]
                        },
                        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10, "uniqueItems": true},
                        "owner": {"type": "string", "format": "email"}
                    }
                },
                "sort": {"type": "string", "enum": ["newest", "oldest", "relevance"]}
            },
            "required": ["filters"]
        }),
        2 => json!({
            "type": "object",
            "properties": {
                "customer_id": {"type": "string"},
                "lines": {
                    "type": "array",
                    "minItems": 1,
                    "description": "One entry per product",
                    "items": {
                        "type": "object",
                        "properties": {
                            "sku": {"type": "string"},
                            "quantity": {"type": "integer", "minimum": 1},
                            "unit_price": {"type": "number", "exclusiveMinimum": 0}
                        },
                        "required": ["sku", "quantity"]
                    }
                },
                "currency": {"type": "string", "enum": ["EUR", "USD", "GBP", "JPY"]}
            },
            "required": ["customer_id", "lines"],
            "additionalProperties": false
        }),
        3 => json!({
            "type": "object",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": {
                        "street": {"type": "string"},
                        "city": {"type": "string"},
                        "postal_code": {"type": "string"},
                        "country": {"type": "string", "enum": ["PT", "ES", "FR", "DE", "US"]}
                    },
                    "required": ["street", "city", "country"]
                }
            },
            "properties": {
                "recipient": {"type": "string"},
                "shipping": {"$ref": "#/$defs/address"},
                "billing": {"$ref": "#/$defs/address"}
            },
            "required": ["recipient", "shipping"]
        }),
        _ => json!({
            "type": "object",
            "properties": {
                "note": {"type": ["string", "null"], "description": "Free text, or null to clear it"},
                "priority": {"type": ["integer", "null"], "enum": [1, 2, 3, null]},
                "assignee": {
                    "anyOf": [
                        {"type": "string", "format": "email"},
                        {"type": "integer", "description": "Staff number"}
                    ]
                },
                "kind": {"const": subject}
            },
            "required": ["note"]
        }),
    };
    let mut tool = json!({
        "name": name,
        "description": description,
        "inputSchema": input_schema,
    });
    if i.is_multiple_of(3) {
        tool["title"] = json!(format!("{} {subject} ({i})", VERBS[i % VERBS.len()]));
    }
    if i.is_multiple_of(4) {
        tool["annotations"] = json!({"readOnlyHint": true, "openWorldHint": false});
    }
    if i.is_multiple_of(7) {
        tool["outputSchema"] = json!({
            "type": "object",
            "properties": {"id": {"type": "string"}, "status": {"type": "string"}},
            "required": ["id"]
        });
    }
    tool
}

/// An MCP `tools/list` result with `count` realistic tools.
pub fn realistic_catalog(count: usize) -> Value {
    json!({ "tools": (0..count).map(realistic_tool).collect::<Vec<_>>() })
}

/// A tool whose description and enum are long: a product catalog with thousands of SKUs is
/// the kind of server that produces such tools.
fn bulky_tool(i: usize) -> Value {
    let sentence = "Returns the stock level, price and delivery estimate of one product. ";
    let description = format!("{}(variant {i})", sentence.repeat(120));
    let skus: Vec<String> = (0..40)
        .map(|k| {
            format!(
                "SKU-{i:06}-{k:04}-{}",
                "WATERPROOF-HIKING-JACKET-BLUE-".repeat(3)
            )
        })
        .collect();
    json!({
        "name": format!("get_stock_{i}"),
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {
                "sku": {"type": "string", "enum": skus, "description": "The product"},
                "warehouse": {"type": "string", "enum": ["lisbon", "porto", "madrid"]}
            },
            "required": ["sku"]
        }
    })
}

/// Writes a pretty-printed MCP catalog of bulky tools, at least `min_bytes` long, and
/// returns how many tools it holds.
pub fn write_bulky_catalog(path: &Path, min_bytes: u64) -> usize {
    let one = serde_json::to_vec_pretty(&bulky_tool(0)).unwrap().len() as u64;
    let count = usize::try_from(min_bytes / one + 1).unwrap();
    let doc = json!({ "tools": (0..count).map(bulky_tool).collect::<Vec<_>>() });
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    serde_json::to_writer_pretty(&mut file, &doc).unwrap();
    file.into_inner().unwrap().sync_all().unwrap();
    let written = std::fs::metadata(path).unwrap().len();
    assert!(
        written >= min_bytes,
        "the generated catalog has {written} bytes, fewer than {min_bytes}"
    );
    count
}

/// `len` bytes of deterministic noise (a xorshift generator), not valid UTF-8 past the first
/// few bytes.
pub fn noise_bytes(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// `len` bytes of printable text that is not JSON: words, spaces and newlines.
pub fn noise_text(len: usize) -> Vec<u8> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz      \n";
    noise_bytes(len)
        .into_iter()
        .map(|b| ALPHABET[usize::from(b) % ALPHABET.len()])
        .collect()
}

/// A file in `dir`, written with `bytes`.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}
