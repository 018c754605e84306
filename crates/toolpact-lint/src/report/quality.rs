//! The quality score as the JSON and SARIF reports write it: the catalog's overall score
//! and component means, then each tool's, rounded to one decimal.

use crate::quality::{COMPONENTS, Quality, rounded};
use serde_json::{Map, Value, json};

/// `{"overall": 3.4, "purpose": 3.9, …, "tools": [{"tool": "…", "overall": 3.5, …}]}`.
pub(super) fn quality_value(quality: &Quality) -> Value {
    let mut catalog = Map::new();
    catalog.insert("overall".to_owned(), json!(rounded(quality.overall())));
    for (name, score) in COMPONENTS.iter().zip(quality.components()) {
        catalog.insert((*name).to_owned(), json!(rounded(score)));
    }
    let tools: Vec<Value> = quality
        .tools
        .iter()
        .map(|tool| {
            let mut entry = Map::new();
            entry.insert("tool".to_owned(), json!(tool.tool));
            entry.insert("overall".to_owned(), json!(rounded(tool.overall())));
            for (name, score) in COMPONENTS.iter().zip(tool.scores) {
                entry.insert((*name).to_owned(), json!(score));
            }
            Value::Object(entry)
        })
        .collect();
    catalog.insert("tools".to_owned(), Value::Array(tools));
    Value::Object(catalog)
}
