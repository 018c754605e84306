//! The call gate and the result gate: a `tools/call` is validated against the tool's full
//! input schema before it goes upstream, and its result is checked against the output schema,
//! scanned for instructions to the model, and held to the size budget before it reaches the
//! client.

use crate::proxy::gate::ToolSet;
use crate::proxy::policy::{OnInjection, OnInvalidOutput, ProxyOptions};
use serde_json::{Map, Value, json};
use toolpact::{DispatchOptions, Outcome, Registered, Target, ToolCall};

/// JSON-RPC's invalid params: an unknown or withheld tool.
pub(crate) const INVALID_PARAMS: i32 = -32602;

/// What becomes of a `tools/call`.
#[derive(Debug)]
pub(crate) enum CallDecision {
    /// Sent upstream; with new params when the name was renamed or arguments repaired.
    Forward {
        /// The params to send instead of the client's, if they changed.
        params: Option<Value>,
        /// The upstream name of the tool.
        tool: String,
        /// How many repairs lenient mode made.
        repairs: usize,
    },
    /// Answered by the proxy with this result (invalid arguments).
    Answer {
        /// The `isError` result.
        result: Value,
        /// The upstream name of the tool.
        tool: String,
        /// The errors, as toolpact reports them.
        errors: Value,
    },
    /// Refused with a JSON-RPC error.
    Refuse {
        /// The error code.
        code: i32,
        /// The message.
        message: String,
    },
}

/// Checks one call's params against the tools that passed the list gate.
pub(crate) fn check_call(set: &ToolSet, params: &Value, options: &ProxyOptions) -> CallDecision {
    let Some(exposed) = params.get("name").and_then(Value::as_str) else {
        return CallDecision::Refuse {
            code: INVALID_PARAMS,
            message: "tools/call needs the tool's name in params.name".to_owned(),
        };
    };
    let Some(registered) = set.get(exposed) else {
        let message = match set.withheld(exposed) {
            Some(reason) => format!("Tool {exposed} is withheld by toolpact proxy: {reason}"),
            None => {
                let hint = toolpact::closest_name(exposed, set.exposed_names())
                    .map(|n| format!(" Did you mean `{n}`?"))
                    .unwrap_or_default();
                format!("Unknown tool: {exposed}.{hint}")
            }
        };
        return CallDecision::Refuse {
            code: INVALID_PARAMS,
            message,
        };
    };
    let upstream = registered.tool().name.clone();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::Object(_)) => Ok(params.get("arguments").cloned().unwrap_or(Value::Null)),
        Some(other) => Err(format!(
            "the arguments are {}, not a JSON object",
            toolpact::json::json_type(other)
        )),
    };
    let call = ToolCall {
        format: Target::Mcp,
        id: None,
        name: upstream.clone(),
        arguments,
    };
    let dispatch = DispatchOptions {
        lenient: options.lenient,
        ..DispatchOptions::default()
    };
    let checked = toolpact::check_call(set.registry(), &call, &dispatch);
    match checked.outcome {
        Outcome::Ok => {
            let renamed = exposed != upstream;
            let repaired = checked.arguments.is_some();
            let params = (renamed || repaired).then(|| {
                let mut params = params.clone();
                if let Some(object) = params.as_object_mut() {
                    object.insert("name".to_owned(), Value::String(upstream.clone()));
                    if let Some(arguments) = checked.arguments.clone() {
                        object.insert("arguments".to_owned(), arguments);
                    }
                }
                params
            });
            CallDecision::Forward {
                params,
                tool: upstream,
                repairs: checked.repairs.len(),
            }
        }
        outcome => {
            let message = checked
                .message
                .clone()
                .unwrap_or_else(|| format!("Cannot call {exposed}."));
            let errors = match &outcome {
                Outcome::InvalidArguments { errors } => {
                    serde_json::to_value(errors).unwrap_or(Value::Null)
                }
                _ => Value::Array(vec![Value::String(message.clone())]),
            };
            CallDecision::Answer {
                result: error_result(&message),
                tool: upstream,
                errors,
            }
        }
    }
}

/// A tool result with `isError: true` and one text.
pub(crate) fn error_result(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

/// Something the result gate found in one result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Flag {
    /// `invalid-output`, `injection`, `too-large`.
    pub(crate) kind: &'static str,
    /// What was found, for the log.
    pub(crate) detail: Value,
    /// What was done: `warned`, `redacted`, `blocked`, `cut`.
    pub(crate) action: &'static str,
}

/// Checks and, by policy, changes the `result` of a call to `tool`; returns what it found.
/// `bytes` is the size of the result as it arrived, which stands while nothing changes it.
pub(crate) fn gate_result(
    result: &mut Value,
    bytes: usize,
    tool: Option<&Registered>,
    options: &ProxyOptions,
) -> Vec<Flag> {
    let mut flags = Vec::new();
    let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
    if let (Some(tool), Some(structured), false) = (tool, result.get("structuredContent"), is_error)
        && let Err(errors) = tool.validate_output(structured)
    {
        let message = format!(
            "The result of {} breaks its output schema: {}",
            tool.tool().name,
            errors
                .errors
                .iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let action = match options.on_invalid_output {
            OnInvalidOutput::Warn => "warned",
            OnInvalidOutput::Block => {
                *result = error_result(&message);
                "blocked"
            }
        };
        flags.push(Flag {
            kind: "invalid-output",
            detail: json!({"message": message, "errors": errors}),
            action,
        });
    }
    let mut found = Vec::new();
    for part in ["content", "structuredContent"] {
        if let Some(value) = result.get(part) {
            for detection in toolpact_lint::scan_value(value) {
                found.push((format!("/{part}{}", detection.pointer), detection));
            }
        }
    }
    if !found.is_empty() {
        let detail: Vec<Value> = found
            .iter()
            .map(|(pointer, d)| {
                json!({
                    "pointer": pointer,
                    "code": d.technique.code(),
                    "what": d.technique.what(),
                    "quote": d.quote,
                    "encoding": d.encoding,
                    "obfuscated": d.obfuscated,
                })
            })
            .collect();
        let action = match options.on_injection {
            OnInjection::Warn => "warned",
            // A passage no note can replace (in an object key) blocks the whole result:
            // redacting around it would pass it on to the model.
            OnInjection::Redact
                if found
                    .iter()
                    .all(|(pointer, _)| is_redactable(result, pointer)) =>
            {
                // The note names the technique by its label, not by the words of it: a
                // scan of the result further on (a second proxy, the client's own) must not
                // report the note. A string with several passages is named by the first.
                for (pointer, d) in found.iter().rev() {
                    if let Some(slot) = result.pointer_mut(pointer) {
                        *slot = Value::String(redaction_note(d.technique));
                    }
                }
                "redacted"
            }
            OnInjection::Redact | OnInjection::Block => {
                let (_, first) = &found[0];
                *result = error_result(&block_note(first.technique, found.len()));
                "blocked"
            }
        };
        flags.push(Flag {
            kind: "injection",
            detail: Value::Array(detail),
            action,
        });
    }
    let size = if flags.is_empty() {
        bytes
    } else {
        result.to_string().len()
    };
    if size > options.max_result_bytes {
        cut_to_budget(result, size, options.max_result_bytes);
        flags.push(Flag {
            kind: "too-large",
            detail: json!({"bytes": size, "budget": options.max_result_bytes}),
            action: "cut",
        });
    }
    flags
}

/// The note a string that carries a passage of `technique` is replaced with.
fn redaction_note(technique: toolpact_lint::Technique) -> String {
    format!(
        "[toolpact proxy removed this text: {} {}]",
        technique.code(),
        technique.label()
    )
}

/// The text of the error result a blocked result is replaced with, named by its first
/// passage's technique (by label, as [`redaction_note`] does).
fn block_note(technique: toolpact_lint::Technique, passages: usize) -> String {
    format!(
        "toolpact proxy blocked this result: {} {}, {passages} passage{} in all.",
        technique.code(),
        technique.label(),
        if passages == 1 { "" } else { "s" }
    )
}

/// Whether the passage the scan found at `pointer` is in a string a note can replace. The scan
/// reads object keys too and reports a key at its member's pointer: a key that carries the
/// passage would stay in the result when the member's value is replaced, and a member whose
/// value is not a string has nothing to replace.
fn is_redactable(result: &Value, pointer: &str) -> bool {
    let in_key = pointer.rsplit_once('/').is_some_and(|(parent, token)| {
        result.pointer(parent).is_some_and(Value::is_object)
            && !toolpact_lint::scan_text(&token.replace("~1", "/").replace("~0", "~")).is_empty()
    });
    !in_key && result.pointer(pointer).is_some_and(Value::is_string)
}

/// Cuts a result to about `budget` bytes: content blocks are kept in order while they fit,
/// the first text that does not fit is shortened, the rest and a `structuredContent` that
/// does not fit are dropped, and a note says so.
fn cut_to_budget(result: &mut Value, size: usize, budget: usize) {
    let note = format!(
        "[toolpact proxy cut this result: it was {size} bytes, over the budget of {budget} bytes]"
    );
    let Some(object) = result.as_object_mut() else {
        return;
    };
    // Room for the note and the JSON around it.
    let mut room = budget.saturating_sub(note.len() + 64);
    let structured_size = object
        .get("structuredContent")
        .map_or(0, |v| v.to_string().len());
    if structured_size > room / 2 {
        object.remove("structuredContent");
    } else {
        room -= structured_size;
    }
    let mut kept = Vec::new();
    if let Some(Value::Array(blocks)) = object.remove("content") {
        for mut block in blocks {
            let block_size = block.to_string().len();
            if block_size <= room {
                room -= block_size;
                kept.push(block);
                continue;
            }
            if let Some(Value::String(text)) = block.get_mut("text") {
                let mut end = room.saturating_sub(64).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
                kept.push(block);
            }
            break;
        }
    }
    kept.push(json!({"type": "text", "text": note}));
    object.insert("content".to_owned(), Value::Array(kept));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_that_replace_a_passage_are_not_reported_by_a_scan_of_their_own() {
        for technique in toolpact_lint::Technique::ALL {
            let note = redaction_note(technique);
            assert!(note.contains(technique.code()), "{note}");
            assert_eq!(toolpact_lint::scan_text(&note), [], "{note}");
            let blocked = block_note(technique, 2);
            assert!(blocked.contains(technique.code()), "{blocked}");
            assert_eq!(toolpact_lint::scan_text(&blocked), [], "{blocked}");
        }
    }

    #[test]
    fn a_cut_result_fits_its_budget_and_says_so() {
        let mut result = json!({"content": [
            {"type": "text", "text": "a".repeat(5000)},
            {"type": "text", "text": "b".repeat(5000)}
        ]});
        let size = result.to_string().len();
        cut_to_budget(&mut result, size, 2000);
        let text = result.to_string();
        assert!(text.len() <= 2000, "{}", text.len());
        assert!(text.contains("over the budget of 2000 bytes"), "{text}");
        assert!(!text.contains("bbb"), "{text}");
    }
}
