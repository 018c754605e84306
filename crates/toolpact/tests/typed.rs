//! Tools defined by Rust types: doc comments become descriptions, `Option` fields become
//! optional properties without null unions, and the root must be an object.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolpact::{
    Annotations, Json, Registry, Target, TypedTool, TypedToolError, Unstructured, tool_of,
};

/// Who the gift is for.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Relationship {
    /// A partner or spouse.
    Partner,
    /// A friend.
    Friend,
    /// A parent.
    Parent,
}

/// Suggest gift ideas for a person. Call this when the user asks what to give someone; then
/// let the user pick one and call `create_order` with its id.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // Read through serde in dispatch, not here.
struct SuggestGifts {
    /// How the user is related to the person.
    relationship: Relationship,
    /// Most the user wants to spend, in euros.
    max_budget: f64,
    /// Short interest tags such as "hiking" or "jazz".
    #[schemars(length(min = 1))]
    interests: Vec<String>,
    /// Age in years, when the user mentions it.
    age: Option<u8>,
}

/// One suggested gift.
#[derive(Debug, Serialize, JsonSchema)]
struct Gift {
    id: String,
    title: String,
    price: f64,
}

/// Suggested gifts.
#[derive(Debug, Serialize, JsonSchema)]
struct Gifts {
    gifts: Vec<Gift>,
}

struct SuggestGiftsTool;

impl TypedTool for SuggestGiftsTool {
    type Input = SuggestGifts;
    type Output = Json<Gifts>;
    const NAME: &'static str = "suggest_gifts";

    fn annotations() -> Option<Annotations> {
        Some(Annotations {
            read_only_hint: Some(true),
            open_world_hint: Some(false),
            ..Annotations::default()
        })
    }
}

#[test]
fn doc_comments_become_descriptions() {
    let tool = tool_of::<SuggestGiftsTool>().unwrap();
    assert_eq!(
        tool.description.as_deref(),
        Some(
            "Suggest gift ideas for a person. Call this when the user asks what to give someone; then \
             let the user pick one and call `create_order` with its id."
        )
    );
    let props = &tool.input_schema["properties"];
    assert_eq!(
        props["maxBudget"]["description"],
        json!("Most the user wants to spend, in euros.")
    );
    assert_eq!(
        props["interests"]["description"],
        json!("Short interest tags such as \"hiking\" or \"jazz\".")
    );
    // The root carries neither the Rust type's name nor a `$schema` URL clients may try to fetch.
    assert!(tool.input_schema.get("title").is_none());
    assert!(tool.input_schema.get("$schema").is_none());
    assert!(tool.input_schema.get("description").is_none());
}

#[test]
fn option_fields_are_optional_and_not_nullable() {
    let tool = tool_of::<SuggestGiftsTool>().unwrap();
    assert_eq!(
        tool.input_schema["required"],
        json!(["relationship", "maxBudget", "interests"])
    );
    let age = &tool.input_schema["properties"]["age"];
    assert_eq!(
        age["type"],
        json!("integer"),
        "Option<u8> must not be a [\"integer\", \"null\"] union: {age}"
    );
    assert!(!age.to_string().contains("null"));
}

/// Every integer and float type a Rust tool might take.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)] // Only the schema is read.
struct Numbers {
    /// A byte.
    small: u8,
    /// A count.
    count: u32,
    /// A big count.
    big: u64,
    /// A length.
    size: usize,
    /// A signed offset.
    offset: i16,
    /// A timestamp.
    millis: i64,
    /// A ratio.
    ratio: f64,
}

#[test]
fn rust_integer_formats_are_left_out_and_their_ranges_kept() {
    let schema = toolpact::schema_for::<Numbers>();
    let props = &schema["properties"];
    // No JSON Schema vocabulary or provider knows `uint8` or `uint32`: they go, and the range
    // they stood for is in `minimum` and `maximum`.
    for name in ["small", "count", "big", "size", "offset"] {
        assert_eq!(props[name].get("format"), None, "{name}: {}", props[name]);
        assert_eq!(props[name]["type"], json!("integer"), "{name}");
    }
    assert_eq!(props["small"]["minimum"], json!(0));
    assert_eq!(props["small"]["maximum"], json!(255));
    assert_eq!(props["count"]["minimum"], json!(0));
    assert_eq!(props["count"]["maximum"], json!(u32::MAX));
    assert_eq!(props["big"]["minimum"], json!(0));
    assert_eq!(props["offset"]["minimum"], json!(i16::MIN));
    assert_eq!(props["offset"]["maximum"], json!(i16::MAX));
    // The OpenAPI formats stay: Gemini reads them.
    assert_eq!(props["millis"]["format"], json!("int64"));
    assert_eq!(props["ratio"]["format"], json!("double"));
    // The other keywords keep their order; the bound comes last.
    let keys: Vec<&str> = props["count"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["type", "minimum", "description", "maximum"]);
}

#[test]
fn vec_with_minimum_length_and_documented_enum() {
    let tool = tool_of::<SuggestGiftsTool>().unwrap();
    let interests = &tool.input_schema["properties"]["interests"];
    assert_eq!(interests["type"], json!("array"));
    assert_eq!(interests["minItems"], json!(1));
    // Each enum value keeps its explanation, wherever schemars puts the enum.
    let text = tool.input_schema.to_string();
    for (value, doc) in [
        ("partner", "A partner or spouse."),
        ("friend", "A friend."),
        ("parent", "A parent."),
    ] {
        assert!(
            text.contains(&format!("\"{value}\"")),
            "enum value {value} missing: {text}"
        );
        assert!(text.contains(doc), "explanation of {value} missing: {text}");
    }
}

#[test]
fn structured_output_declares_an_output_schema() {
    let tool = tool_of::<SuggestGiftsTool>().unwrap();
    let output = tool
        .output_schema
        .clone()
        .expect("Json<T> output has a schema");
    assert_eq!(output["type"], json!("object"));
    assert_eq!(output["required"], json!(["gifts"]));
    assert!(tool.is_read_only() && !tool.is_destructive() && !tool.is_open_world());
}

#[test]
fn typed_tools_register_and_export_everywhere() {
    let mut registry = Registry::new();
    registry.register_typed::<SuggestGiftsTool>().unwrap();
    for target in Target::ALL {
        let export =
            toolpact::export(registry.tools(), target, toolpact::ExportOptions::default()).unwrap();
        assert!(
            export.report.left_out.is_empty(),
            "{target}: {:?}",
            export.report.left_out
        );
    }
    // The enum of documented values reaches Gemini as a plain string enum or anyOf, never lost.
    let gemini = toolpact::export(
        registry.tools(),
        Target::Gemini,
        toolpact::ExportOptions::default(),
    )
    .unwrap();
    assert!(gemini.payload.to_string().contains("partner"));
}

/// A bare string is not a valid tool input.
#[derive(Deserialize, JsonSchema)]
struct NotAnObject(#[allow(dead_code)] String);

struct BadTool;

impl TypedTool for BadTool {
    type Input = NotAnObject;
    type Output = Unstructured;
    const NAME: &'static str = "bad_tool";
}

#[test]
fn an_input_type_that_is_not_an_object_is_a_clear_error() {
    let err = tool_of::<BadTool>().unwrap_err();
    let TypedToolError::NotObject {
        tool, type_name, ..
    } = &err
    else {
        panic!("expected NotObject, got {err:?}");
    };
    assert_eq!(tool, "bad_tool");
    assert!(type_name.ends_with("NotAnObject"));
    let message = err.to_string();
    assert!(
        message.contains("is not a struct with named fields"),
        "{message}"
    );
    assert!(message.contains("\"string\""), "{message}");
    assert!(Registry::new().register_typed::<BadTool>().is_err());
}
