//! Benchmarks of argument validation and call dispatch, each against the raw `jsonschema`
//! validator it wraps, measured in the same run.
//!
//! Four input schemas: three seed tools read from `fixtures/seeds/` (`get_forecast`,
//! `suggest_gifts`, `create_order`) and a large account-settings tool generated from a fixed
//! seed by `toolpact_bench_data::account_settings` (over 200 properties: nested objects,
//! arrays of objects, enums, formats, patterns, ranges, `$ref`). Each has a valid instance and
//! an invalid one with several errors.
//!
//! For every schema, the raw baselines (`is_valid`, `iter_errors`) use a validator compiled
//! with the options the [`Registry`] compiles with at registration (offline, formats
//! asserted), so the ratios compare wrapper against validator and nothing else.
//! Full dispatch starts from the JSON text of an OpenAI Chat `tool_calls` entry and ends with
//! the rendered `role: "tool"` message, around a handler that returns at once.
//! `get_forecast` and `suggest_gifts` also have a typed twin (a [`TypedHandler`] with the
//! seed's constraints), which adds the deserialization into the Rust type.

// A benchmark is not library code: a setup that cannot build its input should stop the run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use futures::executor::block_on;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use toolpact::{
    CallContext, Catalog, Content, DispatchOptions, Outcome, Registry, Tool, ToolError, ToolResult,
    TypedHandler, TypedTool, Unstructured, parse_call,
};
use toolpact::{check_call, dispatch_blocking, dispatch_owned};
use toolpact_bench_data::account_settings::{LARGE, count_properties, large_case};

// ---------------------------------------------------------------------------------------
// The seed tools, and typed versions of two of them
// ---------------------------------------------------------------------------------------

fn seed_tool(file: &str, name: &str) -> Tool {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/seeds")
        .join(file);
    let bytes = std::fs::read(&path).unwrap();
    let catalog = Catalog::from_slice(&bytes, file, None).unwrap();
    let mut tool = catalog.tools().find(|t| t.name == name).unwrap().clone();
    // A text-only result would break the output schema (and be replaced by an error);
    // output validation depends on what a handler returns and is left out of these figures.
    tool.output_schema = None;
    tool
}

/// `get_forecast` as a Rust type, with the seed's constraints.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// The handler only receives the value: deserializing it is what is measured.
#[allow(dead_code)]
struct ForecastArgs {
    /// City name, for example "Lisbon".
    #[schemars(length(min = 2))]
    city: String,
    #[schemars(range(min = 1, max = 7))]
    days: Option<u8>,
    units: Option<Units>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// `suggest_gifts` as a Rust type, with the seed's constraints.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
// As above: only deserialized.
#[allow(dead_code)]
struct SuggestGiftsArgs {
    #[schemars(range(max = 120))]
    age: Option<u8>,
    relationship: Relationship,
    #[schemars(range(min = 0))]
    min_budget: Option<f64>,
    #[schemars(range(min = 0))]
    max_budget: f64,
    #[schemars(length(min = 1))]
    interests: Option<Vec<String>>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Relationship {
    Friend,
    Partner,
    Sibling,
    Colleague,
    Parent,
}

struct TypedForecast;

impl TypedTool for TypedForecast {
    type Input = ForecastArgs;
    type Output = Unstructured;
    const NAME: &'static str = "get_forecast_typed";
}

impl TypedHandler for TypedForecast {
    async fn call(&self, input: ForecastArgs, _: CallContext) -> Result<Unstructured, ToolError> {
        black_box(input);
        Ok(Unstructured(vec![Content::text("ok")]))
    }
}

struct TypedSuggestGifts;

impl TypedTool for TypedSuggestGifts {
    type Input = SuggestGiftsArgs;
    type Output = Unstructured;
    const NAME: &'static str = "suggest_gifts_typed";
}

impl TypedHandler for TypedSuggestGifts {
    async fn call(
        &self,
        input: SuggestGiftsArgs,
        _: CallContext,
    ) -> Result<Unstructured, ToolError> {
        black_box(input);
        Ok(Unstructured(vec![Content::text("ok")]))
    }
}

/// The JSON text of an OpenAI Chat `tool_calls` entry: arguments travel as a JSON string.
fn chat_call(name: &str, arguments: &Value) -> String {
    json!({
        "id": "call_Vd3kQm9XbL2pR7sT",
        "type": "function",
        "function": {"name": name, "arguments": arguments.to_string()}
    })
    .to_string()
}

/// One schema to measure: its tool in the registry, a valid and an invalid instance, and the
/// typed tool (if any) that takes the same valid arguments.
struct Case {
    label: &'static str,
    tool: String,
    valid: Value,
    invalid: Value,
    typed: Option<&'static str>,
}

fn registry_and_cases() -> (Registry, Vec<Case>) {
    let (large, large_valid, large_invalid) = large_case();
    let tools = [
        seed_tool("get_forecast.json", "get_forecast"),
        seed_tool("suggest_gifts.json", "suggest_gifts"),
        seed_tool("create_order.json", "create_order"),
        large,
    ];
    let mut registry = Registry::new();
    for tool in tools {
        let name = tool.name.clone();
        registry.register(tool).unwrap();
        registry
            .set_handler(&name, |_: Value, _: CallContext| async {
                Ok::<_, ToolError>(ToolResult::text("ok"))
            })
            .unwrap();
    }
    registry.register_handler(TypedForecast).unwrap();
    registry.register_handler(TypedSuggestGifts).unwrap();

    let cases = vec![
        Case {
            label: "get_forecast",
            tool: "get_forecast".to_owned(),
            valid: json!({"city": "Lisbon", "days": 3, "units": "celsius"}),
            // Missing, out of range, not allowed, unknown.
            invalid: json!({"days": 9, "units": "kelvin", "colour": "blue"}),
            typed: Some(TypedForecast::NAME),
        },
        Case {
            label: "suggest_gifts",
            tool: "suggest_gifts".to_owned(),
            valid: json!({
                "age": 34,
                "relationship": "sibling",
                "minBudget": 20,
                "maxBudget": 60,
                "interests": ["boardgames", "books"]
            }),
            // Out of range, not allowed, wrong type, too short.
            invalid: json!({"age": -1, "relationship": "cousin", "maxBudget": "60", "interests": []}),
            typed: Some(TypedSuggestGifts::NAME),
        },
        Case {
            label: "create_order",
            tool: "create_order".to_owned(),
            valid: json!({"giftId": "gift-1", "quantity": 2}),
            // Missing (the model wrote `giftID`), out of range, unknown.
            invalid: json!({"giftID": "gift-1", "quantity": 12}),
            typed: None,
        },
        Case {
            label: "account_settings",
            tool: LARGE.to_owned(),
            valid: large_valid,
            invalid: large_invalid,
            typed: None,
        },
    ];
    (registry, cases)
}

/// The raw `jsonschema` validator of a schema, with the options the registry compiles with:
/// the dialect from `$schema` (2020-12 by default), offline, formats asserted.
fn raw_validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .offline()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

fn dispatch(c: &mut Criterion) {
    let (registry, cases) = registry_and_cases();
    let options = DispatchOptions::default();

    for case in &cases {
        let registered = registry.get(&case.tool).unwrap();
        // A validator compiled as the registry compiles at registration: the raw
        // baselines and every toolpact path below use this same one.
        let schema = &registered.tool().input_schema;
        let validator = &raw_validator(schema);
        let valid_text = chat_call(&case.tool, &case.valid);
        let invalid_text = chat_call(&case.tool, &case.invalid);
        let valid_call = parse_call(&serde_json::from_str(&valid_text).unwrap(), None, "").unwrap();

        // The cases are what they claim to be.
        let problems: Vec<String> = validator
            .iter_errors(&case.valid)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(problems.is_empty(), "{}: {problems:?}", case.label);
        let errors = validator.iter_errors(&case.invalid).count();
        assert!(errors >= 3, "{}: {errors} errors", case.label);
        let outcome = |text: &str| {
            let call = parse_call(&serde_json::from_str(text).unwrap(), None, "").unwrap();
            dispatch_blocking(&registry, &call, &options).outcome
        };
        assert_eq!(outcome(&valid_text), Outcome::Ok);
        assert!(matches!(
            outcome(&invalid_text),
            Outcome::InvalidArguments { .. }
        ));
        eprintln!(
            "{}: {} properties, schema {} bytes compact; valid arguments {} bytes (call text {} bytes), invalid {} bytes with {errors} errors",
            case.label,
            count_properties(schema),
            schema.to_string().len(),
            case.valid.to_string().len(),
            valid_text.len(),
            case.invalid.to_string().len(),
        );

        let mut group = c.benchmark_group(format!("dispatch_{}", case.label));
        // Iterations take from a few hundred nanoseconds to a few hundred microseconds;
        // equal-sized samples keep the run short and the estimates comparable.
        group.sampling_mode(SamplingMode::Flat);

        group.bench_function(BenchmarkId::new("valid", "raw_is_valid"), |b| {
            b.iter(|| validator.is_valid(black_box(&case.valid)))
        });
        group.bench_function(BenchmarkId::new("valid", "check"), |b| {
            b.iter(|| registered.validate(black_box(&case.valid)))
        });
        group.bench_function(BenchmarkId::new("valid", "check_call"), |b| {
            b.iter(|| check_call(&registry, black_box(&valid_call), &options))
        });
        // The least any dispatcher must do from the same text: parse the call, parse its
        // arguments string, validate. The second baseline of `valid/dispatch`.
        group.bench_function(BenchmarkId::new("valid", "raw_parse_is_valid"), |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(&valid_text)).unwrap();
                let arguments = value["function"]["arguments"].as_str().unwrap();
                validator.is_valid(&serde_json::from_str::<Value>(arguments).unwrap())
            })
        });
        // The first stage of dispatch alone: text to `ToolCall`.
        group.bench_function(BenchmarkId::new("valid", "parse"), |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(&valid_text)).unwrap();
                parse_call(&value, None, "").unwrap()
            })
        });
        // As a harness does it: the call is consumed, its arguments move into the handler.
        group.bench_function(BenchmarkId::new("valid", "dispatch"), |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(&valid_text)).unwrap();
                let call = parse_call(&value, None, "").unwrap();
                block_on(dispatch_owned(&registry, call, &options)).reply()
            })
        });
        // The borrowing entry point: the handler gets a copy of the arguments.
        group.bench_function(BenchmarkId::new("valid", "dispatch_borrowed"), |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(&valid_text)).unwrap();
                let call = parse_call(&value, None, "").unwrap();
                let dispatched = dispatch_blocking(&registry, &call, &options);
                dispatched.render(&call)
            })
        });

        group.bench_function(BenchmarkId::new("invalid", "raw_is_valid"), |b| {
            b.iter(|| validator.is_valid(black_box(&case.invalid)))
        });
        group.bench_function(BenchmarkId::new("invalid", "raw_iter_errors_count"), |b| {
            b.iter(|| validator.iter_errors(black_box(&case.invalid)).count())
        });
        group.bench_function(BenchmarkId::new("invalid", "check"), |b| {
            b.iter(|| registered.validate(black_box(&case.invalid)))
        });
        group.bench_function(BenchmarkId::new("invalid", "dispatch"), |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(&invalid_text)).unwrap();
                let call = parse_call(&value, None, "").unwrap();
                block_on(dispatch_owned(&registry, call, &options)).reply()
            })
        });

        if let Some(typed) = case.typed {
            // The typed tool has its own schema (from the Rust type, with the seed's
            // constraints), hence its own raw baseline.
            let typed_validator = &raw_validator(&registry.get(typed).unwrap().tool().input_schema);
            assert!(typed_validator.is_valid(&case.valid));
            let typed_text = chat_call(typed, &case.valid);
            assert_eq!(outcome(&typed_text), Outcome::Ok);
            group.bench_function(BenchmarkId::new("typed", "raw_is_valid"), |b| {
                b.iter(|| typed_validator.is_valid(black_box(&case.valid)))
            });
            group.bench_function(BenchmarkId::new("typed", "dispatch"), |b| {
                b.iter(|| {
                    let value: Value = serde_json::from_str(black_box(&typed_text)).unwrap();
                    let call = parse_call(&value, None, "").unwrap();
                    block_on(dispatch_owned(&registry, call, &options)).reply()
                })
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // 44 benchmarks of well under a millisecond each: under two minutes in all.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500));
    targets = dispatch
}
criterion_main!(benches);
