//! Lenient mode: repairs the slips models make most often, and nothing else.
//!
//! A JSON-encoded string where the schema wants an object, array, number or boolean (`"{\"a\":1}"`,
//! `"[1,2]"`, `"true"`), and a numeric string where it wants an integer or a number (`"10"`).
//! Each repair is recorded; the repaired arguments are validated again. Off by default.

use crate::validate::{ArgumentErrorKind, check};
use jsonschema::Validator;
use serde::Serialize;
use serde_json::Value;

/// One repair lenient mode made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// JSON pointer to the repaired argument.
    pub pointer: String,
    /// What the model sent.
    pub from: Value,
    /// What was used instead.
    pub to: Value,
}

/// How many rounds of repair: a repaired object may hold more encoded strings.
const ROUNDS: usize = 4;

/// Repairs `arguments` where a wrong-type error has an obvious fix; returns the arguments and
/// the repairs made. The caller validates the result again.
pub(crate) fn repair(
    validator: &Validator,
    schema: &Value,
    mut arguments: Value,
) -> (Value, Vec<Repair>) {
    let mut repairs = Vec::new();
    for _ in 0..ROUNDS {
        let Err(errors) = check(validator, schema, &arguments) else {
            break;
        };
        let mut changed = false;
        for error in errors
            .errors
            .iter()
            .filter(|e| e.kind == ArgumentErrorKind::WrongType)
        {
            let Some(Value::String(text)) = &error.got else {
                continue;
            };
            let Some(fixed) = decode(text, &error.expected) else {
                continue;
            };
            if let Some(slot) = arguments.pointer_mut(&error.pointer) {
                repairs.push(Repair {
                    pointer: error.pointer.clone(),
                    from: slot.clone(),
                    to: fixed.clone(),
                });
                *slot = fixed;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (arguments, repairs)
}

/// The value a string stands for, when it is of an expected type (`expected` as the
/// validation error words it: "an integer", "an object or null", …).
fn decode(text: &str, expected: &str) -> Option<Value> {
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let wants = |t: &str| {
        expected
            .split(" or ")
            .any(|e| e.trim_start_matches("an ").trim_start_matches("a ") == t)
    };
    let fits = match &value {
        Value::Object(_) => wants("object"),
        Value::Array(_) => wants("array"),
        Value::Bool(_) => wants("boolean"),
        Value::Number(n) => {
            wants("number")
                || (wants("integer")
                    && (n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)))
        }
        _ => false,
    };
    fits.then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repairs_encoded_values_and_records_them() {
        let schema = json!({
            "type": "object",
            "properties": {
                "days": {"type": "integer"},
                "filters": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}},
                "note": {"type": "string"}
            }
        });
        let validator = jsonschema::validator_for(&schema).unwrap();
        let args = json!({"days": "10", "filters": "{\"tags\": \"[\\\"a\\\"]\"}", "note": "10"});
        let (fixed, repairs) = repair(&validator, &schema, args);
        assert_eq!(
            fixed,
            json!({"days": 10, "filters": {"tags": ["a"]}, "note": "10"})
        );
        assert_eq!(repairs.len(), 3);
        assert_eq!(repairs[0].pointer, "/days");
        assert_eq!(repairs[0].from, json!("10"));
        assert!(validator.is_valid(&fixed));
    }

    #[test]
    fn leaves_what_it_cannot_repair() {
        let schema = json!({"type": "object", "properties": {"days": {"type": "integer"}}});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let (fixed, repairs) = repair(&validator, &schema, json!({"days": "ten"}));
        assert_eq!(fixed, json!({"days": "ten"}));
        assert!(repairs.is_empty());
        let (_, repairs) = repair(&validator, &schema, json!({"days": "2.5"}));
        assert!(repairs.is_empty(), "2.5 is not an integer");
    }
}
