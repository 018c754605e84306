//! The call loop: every shape of call, argument errors in order, handler failures isolated,
//! output validated, results rendered in each provider's shape.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::time::Duration;
use toolpact::{
    ArgumentErrorKind, CallContext, Catalog, DispatchOptions, Json, Outcome, Registry, ToolError,
    ToolResult, TypedHandler, TypedTool, parse_call,
};
use toolpact::{check_call, check_coherence, dispatch_blocking, dispatch_owned};

fn fixture(path: &str) -> Catalog {
    let bytes = std::fs::read(format!(
        "{}/../../fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    Catalog::from_slice(&bytes, path, None).unwrap()
}

fn registry(path: &str) -> Registry {
    Registry::from_catalog(&fixture(path)).unwrap()
}

fn mcp_call(name: &str, arguments: Value) -> toolpact::ToolCall {
    parse_call(&json!({"name": name, "arguments": arguments}), None, "").unwrap()
}

/// The seeds' argument-checking exercise: `valid`, or the missing fields, then the fields of
/// the wrong type.
#[test]
fn the_argument_check_exercise() {
    let registry = registry("seeds/argument_check.json");
    let text = std::fs::read_to_string(format!(
        "{}/../../fixtures/cases/argument_check.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let cases: Value = serde_json::from_str(&text).unwrap();
    for case in cases["cases"].as_array().unwrap() {
        let call = mcp_call("create_reminder", case["arguments"].clone());
        let checked = check_call(&registry, &call, &DispatchOptions::default());
        let expected = &case["expected"];
        let (missing, wrong): (Vec<String>, Vec<String>) = match &checked.outcome {
            Outcome::Ok => (vec![], vec![]),
            Outcome::InvalidArguments { errors } => {
                let names = |kind| {
                    errors
                        .errors
                        .iter()
                        .filter(|e| e.kind == kind)
                        .map(|e| e.pointer.trim_start_matches('/').to_owned())
                        .collect()
                };
                (
                    names(ArgumentErrorKind::Missing),
                    names(ArgumentErrorKind::WrongType),
                )
            }
            other => panic!("{}: {other:?}", case["name"]),
        };
        assert_eq!(
            checked.outcome == Outcome::Ok,
            expected["valid"].as_bool().unwrap(),
            "{}",
            case["name"]
        );
        assert_eq!(json!(missing), expected["missing"], "{}", case["name"]);
        assert_eq!(json!(wrong), expected["wrong_type"], "{}", case["name"]);
        if let Some(message) = &checked.message {
            // Missing fields are reported before wrong types, in the message too.
            let m = message.find("is required");
            let w = message.find("must be");
            if let (Some(m), Some(w)) = (m, w) {
                assert!(m < w, "{message}");
            }
        }
    }
}

/// The `get_forecast` schema from the seeds, with each published mistake.
#[test]
fn get_forecast_mistakes_read_as_instructions() {
    let registry = registry("seeds/get_forecast.json");
    let cases = [
        (
            json!({"city": "Lisbon", "days": 0}),
            "`days` must be at least 1; got the integer 0.",
        ),
        (
            json!({"city": "Lisbon", "days": "3"}),
            "`days` must be an integer, not the string \"3\".",
        ),
        (
            json!({"city": "Lisbon", "units": "kelvin"}),
            "`units` must be one of \"celsius\" or \"fahrenheit\", not the string \"kelvin\".",
        ),
        (
            json!({"city": "Lisbon", "color": "red"}),
            "`color` is not an argument of this tool; remove it (it accepts only `city`, `days` or `units`).",
        ),
        (
            json!({"days": 3}),
            "`city` is required (a string): City name, for example \"Lisbon\".",
        ),
        (
            json!({"city": "L"}),
            "`city` must be at least 2 characters; got the string \"L\".",
        ),
    ];
    for (arguments, expected) in cases {
        let checked = check_call(
            &registry,
            &mcp_call("get_forecast", arguments.clone()),
            &DispatchOptions::default(),
        );
        let message = checked.message.unwrap_or_default();
        assert!(message.contains(expected), "{arguments}:\n{message}");
        assert!(
            message.starts_with("Invalid arguments for get_forecast: 1 problem."),
            "{message}"
        );
    }
}

#[test]
fn unknown_tools_list_the_closest_names() {
    let registry = registry("seeds/add_meal_food.json");
    let checked = check_call(
        &registry,
        &mcp_call("search_food", json!({})),
        &DispatchOptions::default(),
    );
    assert_eq!(
        checked.outcome,
        Outcome::UnknownTool {
            suggestions: vec!["search_foods".to_owned()]
        }
    );
    assert_eq!(
        checked.message.as_deref(),
        Some("Unknown tool: search_food. Did you mean `search_foods`?")
    );
}

#[test]
fn unknown_tools_with_no_close_name_list_the_tools_there_are() {
    let registry = registry("seeds/add_meal_food.json");
    let checked = check_call(
        &registry,
        &mcp_call("book_flight", json!({})),
        &DispatchOptions::default(),
    );
    assert_eq!(
        checked.outcome,
        Outcome::UnknownTool {
            suggestions: Vec::new()
        }
    );
    let names: Vec<String> = registry.tools().map(|t| format!("`{}`", t.name)).collect();
    assert!(names.len() > 1);
    assert_eq!(
        checked.message,
        Some(format!(
            "Unknown tool: book_flight. The tools are {}.",
            names.join(", ")
        ))
    );
}

#[test]
fn unknown_tools_in_a_large_catalog_say_how_many_there_are() {
    let catalog: toolpact::Catalog = (0..25)
        .map(|i| {
            serde_json::from_value::<toolpact::Tool>(
                json!({"name": format!("report_{i}"), "inputSchema": {"type": "object"}}),
            )
            .unwrap()
        })
        .collect();
    let registry = Registry::from_catalog(&catalog).unwrap();
    let checked = check_call(
        &registry,
        &mcp_call("book_flight", json!({})),
        &DispatchOptions::default(),
    );
    assert_eq!(
        checked.message.as_deref(),
        Some("Unknown tool: book_flight. None of the 25 tools has a similar name.")
    );
}

#[test]
fn names_rewritten_at_export_find_their_tool() {
    let registry = registry("lowering/name-dotted.json");
    let call = parse_call(
        &json!({"id": "call_1", "type": "function", "function": {"name": "admin_tools_list", "arguments": "{}"}}),
        None,
        "",
    )
    .unwrap();
    let checked = check_call(&registry, &call, &DispatchOptions::default());
    assert_eq!(checked.tool, Some("admin.tools.list"));
}

#[test]
fn malformed_argument_strings_get_a_readable_error_result() {
    let mut registry = registry("seeds/get_forecast.json");
    registry
        .set_handler("get_forecast", |_: Value, _: CallContext| async {
            Ok(ToolResult::text("sunny"))
        })
        .unwrap();
    let call = parse_call(
        &json!({"type": "function_call", "call_id": "call_7", "name": "get_forecast", "arguments": "{\"city\": Lisbon}"}),
        None,
        "",
    )
    .unwrap();
    let dispatched = dispatch_blocking(&registry, &call, &DispatchOptions::default());
    assert_eq!(dispatched.outcome, Outcome::MalformedArguments);
    let rendered = dispatched.render(&call);
    assert_eq!(rendered["type"], "function_call_output");
    assert_eq!(rendered["call_id"], "call_7");
    assert!(
        rendered["output"]
            .as_str()
            .unwrap()
            .starts_with("Cannot call get_forecast: the arguments are not valid JSON"),
        "{rendered}"
    );
}

fn forecast_registry() -> Registry {
    let mut registry = registry("seeds/get_forecast.json");
    registry
        .set_handler("get_forecast", |args: Value, _: CallContext| async move {
            match args["city"].as_str() {
                Some("Atlantis") => panic!("the forecast service fell into the sea"),
                Some("Slowtown") => {
                    futures_timer_sleep(Duration::from_secs(5)).await;
                    Ok(ToolResult::text("late"))
                }
                Some("Nowhere") => Ok(ToolResult::structured(json!({"city": "Nowhere"}))),
                Some("Closed") => Err(ToolError::for_model(
                    "The forecast for Closed is not published. Ask for a nearby city.",
                )),
                Some("Broken") => Err(ToolError::internal("database password rejected")),
                Some(city) => Ok(ToolResult::structured(
                    json!({"city": city, "highs": [21.5, 23.0]}),
                )),
                None => unreachable!("validated"),
            }
        })
        .unwrap();
    registry
}

async fn futures_timer_sleep(d: Duration) {
    // A handler that waits without blocking the executor's thread.
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    std::thread::spawn(move || {
        std::thread::sleep(d);
        let _ = tx.send(());
    });
    let _ = rx.await;
}

#[test]
fn handler_failures_are_isolated_and_the_registry_keeps_serving() {
    let registry = forecast_registry();
    let options = DispatchOptions {
        time_limit: Duration::from_millis(200),
        ..DispatchOptions::default()
    };
    let run = |city: &str| {
        dispatch_blocking(
            &registry,
            &mcp_call("get_forecast", json!({"city": city})),
            &options,
        )
    };

    let panicked = run("Atlantis");
    assert_eq!(panicked.outcome, Outcome::Panicked);
    assert!(panicked.result.is_error);
    let text = panicked.result.text_content();
    assert_eq!(
        text,
        "get_forecast failed with an internal error. Try again later."
    );
    assert!(!text.contains("sea"), "panic details never reach the model");

    let timed_out = run("Slowtown");
    assert_eq!(timed_out.outcome, Outcome::TimedOut);
    assert!(
        timed_out
            .result
            .text_content()
            .contains("did not finish within 200 ms")
    );

    let bad_output = run("Nowhere");
    assert_eq!(bad_output.outcome, Outcome::InvalidOutput);
    assert!(bad_output.result.is_error);
    assert!(
        bad_output.result.structured.is_none(),
        "non-conforming structuredContent is never sent"
    );

    let for_model = run("Closed");
    assert_eq!(for_model.outcome, Outcome::HandlerError);
    assert_eq!(
        for_model.result.text_content(),
        "The forecast for Closed is not published. Ask for a nearby city."
    );

    let internal = run("Broken");
    assert!(!internal.result.text_content().contains("password"));

    // After all of that, a good call still works.
    let ok = run("Lisbon");
    assert_eq!(ok.outcome, Outcome::Ok);
    assert_eq!(
        ok.result.structured,
        Some(json!({"city": "Lisbon", "highs": [21.5, 23.0]}))
    );
    assert_eq!(
        ok.result.text_content(),
        "{\"city\":\"Lisbon\",\"highs\":[21.5,23.0]}"
    );
}

#[test]
fn results_render_in_each_providers_shape() {
    let registry = forecast_registry();
    let options = DispatchOptions::default();
    let args = "{\"city\": \"Lisbon\"}";
    let calls = [
        json!({"type": "function_call", "call_id": "c1", "name": "get_forecast", "arguments": args}),
        json!({"id": "c1", "type": "function", "function": {"name": "get_forecast", "arguments": args}}),
        json!({"type": "tool_use", "id": "c1", "name": "get_forecast", "input": {"city": "Lisbon"}}),
        json!({"functionCall": {"id": "c1", "name": "get_forecast", "args": {"city": "Lisbon"}}}),
        json!({"name": "get_forecast", "arguments": {"city": "Lisbon"}}),
    ];
    let rendered: Vec<Value> = calls
        .iter()
        .map(|c| {
            let call = parse_call(c, None, "").unwrap();
            dispatch_blocking(&registry, &call, &options).render(&call)
        })
        .collect();
    // The owning entry point answers the same, without the call at hand.
    for (c, expected) in calls.iter().zip(&rendered) {
        let call = parse_call(c, None, "").unwrap();
        let borrowed = dispatch_blocking(&registry, &call, &options);
        assert_eq!(&borrowed.reply(), expected);
        let owned = futures::executor::block_on(dispatch_owned(&registry, call, &options));
        assert_eq!(owned, borrowed);
        assert_eq!(&owned.reply(), expected);
    }
    let text = "{\"city\":\"Lisbon\",\"highs\":[21.5,23.0]}";
    assert_eq!(
        rendered[0],
        json!({"type": "function_call_output", "call_id": "c1", "output": text})
    );
    assert_eq!(
        rendered[1],
        json!({"role": "tool", "tool_call_id": "c1", "content": text})
    );
    assert_eq!(
        rendered[2],
        json!({"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": text}]})
    );
    assert_eq!(
        rendered[3],
        json!({"functionResponse": {"id": "c1", "name": "get_forecast", "response": {"output": {"city": "Lisbon", "highs": [21.5, 23.0]}}}})
    );
    assert_eq!(
        rendered[4],
        json!({"content": [{"type": "text", "text": text}], "structuredContent": {"city": "Lisbon", "highs": [21.5, 23.0]}, "resultType": "complete"})
    );

    // Errors: Anthropic flags them, Gemini puts them under `error`, MCP sets isError.
    let bad = |c: Value| {
        let call = parse_call(&c, None, "").unwrap();
        dispatch_blocking(&registry, &call, &options).render(&call)
    };
    let anthropic =
        bad(json!({"type": "tool_use", "id": "c2", "name": "get_forecast", "input": {}}));
    assert_eq!(anthropic["is_error"], true);
    let gemini = bad(json!({"functionCall": {"name": "get_forecast", "args": {}}}));
    assert!(
        gemini["functionResponse"]["response"]["error"]
            .as_str()
            .unwrap()
            .contains("`city` is required")
    );
    assert!(gemini["functionResponse"].get("id").is_none());
    let mcp = bad(json!({"name": "get_forecast", "arguments": {}}));
    assert_eq!(mcp["isError"], true);
}

#[test]
fn lenient_mode_repairs_and_says_so() {
    let registry = forecast_registry();
    let call = mcp_call("get_forecast", json!({"city": "Lisbon", "days": "3"}));
    let strict = dispatch_blocking(&registry, &call, &DispatchOptions::default());
    assert!(
        matches!(strict.outcome, Outcome::InvalidArguments { .. }),
        "off by default"
    );
    let lenient = dispatch_blocking(
        &registry,
        &call,
        &DispatchOptions {
            lenient: true,
            ..DispatchOptions::default()
        },
    );
    assert_eq!(lenient.outcome, Outcome::Ok);
    assert_eq!(lenient.repairs.len(), 1);
    assert_eq!(
        lenient.result.meta["toolpact/repairs"],
        json!([{"pointer": "/days", "from": "3", "to": 3}])
    );
}

/// Suggest gifts. Call this when the user wants gift ideas.
#[derive(Debug, Deserialize, JsonSchema)]
struct SuggestGifts {
    /// Most to spend, in euros.
    #[schemars(range(min = 1))]
    max_budget: u32,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Gifts {
    ids: Vec<String>,
}

struct Suggest;

impl TypedTool for Suggest {
    type Input = SuggestGifts;
    type Output = Json<Gifts>;
    const NAME: &'static str = "suggest_gifts";
}

impl TypedHandler for Suggest {
    async fn call(&self, input: SuggestGifts, ctx: CallContext) -> Result<Json<Gifts>, ToolError> {
        let user = ctx.data::<String>().cloned().unwrap_or_default();
        Ok(Json(Gifts {
            ids: vec![format!("{user}-{}", input.max_budget)],
        }))
    }
}

#[test]
fn typed_handlers_get_typed_input_and_server_context() {
    let mut registry = Registry::new();
    registry.register_handler(Suggest).unwrap();
    let options = DispatchOptions {
        data: Some(std::sync::Arc::new("ana".to_owned())),
        ..DispatchOptions::default()
    };
    let ok = dispatch_blocking(
        &registry,
        &mcp_call("suggest_gifts", json!({"max_budget": 50})),
        &options,
    );
    assert_eq!(ok.outcome, Outcome::Ok);
    assert_eq!(ok.result.structured, Some(json!({"ids": ["ana-50"]})));
    // The schema's own constraint is enforced before the handler runs.
    let low = dispatch_blocking(
        &registry,
        &mcp_call("suggest_gifts", json!({"max_budget": 0})),
        &options,
    );
    assert!(matches!(low.outcome, Outcome::InvalidArguments { .. }));
    assert!(
        check_coherence(&registry).is_ok(),
        "{:?}",
        check_coherence(&registry)
    );
}

#[test]
fn coherence_names_tools_without_handlers_and_exports_that_fail() {
    let registry = registry("lowering/recursive-defs.json");
    let problems = check_coherence(&registry).unwrap_err();
    assert!(
        problems.iter().any(|p| p.contains("has no handler")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("gemini cannot export import_category_tree")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("anthropic --strict cannot export")),
        "{problems:?}"
    );
}
