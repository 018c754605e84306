//! The MCP server the official conformance suite (`@modelcontextprotocol/conformance`) tests:
//! every tool, resource and prompt its server scenarios call, built on toolpact.
//!
//! ```text
//! toolpact-conformance-server --http 127.0.0.1:3000   # Streamable HTTP at http://127.0.0.1:3000/mcp
//! toolpact-conformance-server                         # stdio
//! ```
//!
//! `scripts/conformance/run.sh` starts it and runs the suite against it. The tools show what a
//! handler can do with its [`CallContext`]: report progress, send log messages, ask the
//! client's model for a completion (sampling) and ask the user for values (elicitation), with
//! plain handlers over JSON and typed ones alike.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;
use toolpact::{
    CallContext, Content, ElicitationRequest, LogLevel, Progress, Registry, SamplingMessage,
    SamplingRequest, Tool, ToolError, ToolResult, TypedHandler, TypedTool, Unstructured,
};
use toolpact_mcp::{
    HttpOptions, Prompt, PromptArgument, PromptMessage, Resource, ResourceTemplate, Server,
};

/// A 1×1 red PNG, base64-encoded.
const RED_PIXEL: &str = include_str!("../data/red-pixel.png.b64");
/// A tenth of a second of silence as WAV, base64-encoded.
const SILENCE: &str = include_str!("../data/silence.wav.b64");
/// The form `test_elicitation` asks the user to fill in.
const USER_FORM: &str = include_str!("../data/elicitation-user.json");
/// A form with a default for every primitive type (SEP-1034).
const DEFAULTS_FORM: &str = include_str!("../data/elicitation-defaults.json");
/// A form with every kind of enum (SEP-1330).
const ENUMS_FORM: &str = include_str!("../data/elicitation-enums.json");
/// An input schema with JSON Schema 2020-12 keywords (SEP-1613).
const SCHEMA_2020_12: &str = include_str!("../data/json-schema-2020-12.json");

/// The pause between the steps of the tools that report as they go.
const STEP: Duration = Duration::from_millis(50);

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut http = None;
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--http", Some(addr)) => match addr.parse::<SocketAddr>() {
                Ok(addr) => http = Some(addr),
                Err(e) => return usage(&format!("--http {addr}: {e}")),
            },
            _ => return usage(&format!("unexpected argument {arg:?}")),
        }
    }
    let server = match server() {
        Ok(server) => server,
        Err(e) => {
            eprintln!("toolpact-conformance-server: {e}");
            return ExitCode::from(2);
        }
    };
    let served = toolpact_mcp::block_on(async move {
        match http {
            Some(addr) => {
                let options = HttpOptions {
                    addr,
                    ..HttpOptions::default()
                };
                let http = server.bind_http(options).await?;
                eprintln!("listening on {}", http.url());
                http.serve_until(toolpact_mcp::shutdown_signal()).await
            }
            None => server.serve_stdio(toolpact_mcp::shutdown_signal()).await,
        }
    });
    match served {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("toolpact-conformance-server: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("toolpact-conformance-server: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "toolpact-conformance-server: {problem}\nusage: toolpact-conformance-server [--http ADDR]"
    );
    ExitCode::from(2)
}

/// The server: its tools, resources and prompts.
fn server() -> Result<Server, Box<dyn std::error::Error>> {
    let registry = registry()?;
    let server = Server::new(registry)?
        .with_name("toolpact-conformance-server", env!("CARGO_PKG_VERSION"))
        .with_resource(
            Resource::text(
                "test://static-text",
                "static-text",
                "text/plain",
                "This is the content of the static text resource.",
            )
            .with_description("A static text resource"),
        )
        .with_resource(
            Resource::blob(
                "test://static-binary",
                "static-binary",
                "image/png",
                RED_PIXEL.trim(),
            )
            .with_description("A static binary resource: a 1x1 red pixel"),
        )
        .with_resource(
            Resource::text(
                "test://watched-resource",
                "watched-resource",
                "text/plain",
                "A resource clients subscribe to.",
            )
            .with_description("A resource to subscribe to"),
        )
        .with_resource_template(
            ResourceTemplate::new("test://template/{id}/data", "template-data", |uri, vars| {
                let id = &vars["id"];
                let data =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                Ok(Resource::text(
                    uri,
                    "template-data",
                    "application/json",
                    data.to_string(),
                ))
            })
            .with_mime_type("application/json")
            .with_description("Data for an id")
            .with_completion("id", ["123", "456", "789"]),
        );
    Ok(prompts(server))
}

fn prompts(server: Server) -> Server {
    server
        .with_prompt(Prompt::new(
            "test_simple_prompt",
            "A prompt without arguments",
            |_| {
                Ok(vec![PromptMessage::user(Content::text(
                    "This is a simple prompt for testing.",
                ))])
            },
        ))
        .with_prompt(
            Prompt::new(
                "test_prompt_with_arguments",
                "A prompt with two arguments",
                |args| {
                    Ok(vec![PromptMessage::user(Content::text(format!(
                        "Prompt with arguments: arg1='{}', arg2='{}'",
                        args["arg1"], args["arg2"]
                    )))])
                },
            )
            .with_argument(PromptArgument::required("arg1", "First test argument"))
            .with_argument(PromptArgument::required("arg2", "Second test argument"))
            .with_completion("arg1", ["paris", "park", "party", "test", "testing"]),
        )
        .with_prompt(
            Prompt::new(
                "test_prompt_with_embedded_resource",
                "A prompt that embeds a resource",
                |args| {
                    Ok(vec![
                        PromptMessage::user(Content::Resource {
                            resource: json!({
                                "uri": args["resourceUri"],
                                "mimeType": "text/plain",
                                "text": "Embedded resource content for testing.",
                            }),
                        }),
                        PromptMessage::user(Content::text(
                            "Please process the embedded resource above.",
                        )),
                    ])
                },
            )
            .with_argument(PromptArgument::required(
                "resourceUri",
                "URI of the resource to embed",
            )),
        )
        .with_prompt(Prompt::new(
            "test_prompt_with_image",
            "A prompt with an image",
            |_| {
                Ok(vec![
                    PromptMessage::user(image()),
                    PromptMessage::user(Content::text("Please analyze the image above.")),
                ])
            },
        ))
}

fn image() -> Content {
    Content::Image {
        data: RED_PIXEL.trim().to_owned(),
        mime_type: "image/png".to_owned(),
    }
}

fn no_arguments() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Registers a tool whose handler is a plain async function of the JSON arguments.
fn plain<F, Fut>(
    registry: &mut Registry,
    tool: Tool,
    handler: F,
) -> Result<(), toolpact::RegistryError>
where
    F: Fn(Value, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ToolResult, ToolError>> + Send + 'static,
{
    let name = tool.name.clone();
    registry.register(tool)?;
    registry.set_handler(&name, handler)
}

fn registry() -> Result<Registry, Box<dyn std::error::Error>> {
    let mut registry = Registry::new();
    let r = &mut registry;
    plain(
        r,
        Tool::new("test_simple_text", "Returns a simple text", no_arguments()),
        |_, _| async {
            Ok(ToolResult::text(
                "This is a simple text response for testing.",
            ))
        },
    )?;
    plain(
        r,
        Tool::new("test_image_content", "Returns an image", no_arguments()),
        |_, _| async { Ok(result(vec![image()])) },
    )?;
    plain(
        r,
        Tool::new("test_audio_content", "Returns audio", no_arguments()),
        |_, _| async {
            Ok(result(vec![Content::Audio {
                data: SILENCE.trim().to_owned(),
                mime_type: "audio/wav".to_owned(),
            }]))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_embedded_resource",
            "Returns an embedded resource",
            no_arguments(),
        ),
        |_, _| async {
            Ok(result(vec![Content::Resource {
                resource: json!({
                    "uri": "test://embedded-resource",
                    "mimeType": "text/plain",
                    "text": "This is an embedded resource content.",
                }),
            }]))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_multiple_content_types",
            "Returns text, an image and an embedded resource",
            no_arguments(),
        ),
        |_, _| async {
            Ok(result(vec![
                Content::text("Multiple content types test:"),
                image(),
                Content::Resource {
                    resource: json!({
                        "uri": "test://mixed-content-resource",
                        "mimeType": "application/json",
                        "text": json!({"test": "data", "value": 123}).to_string(),
                    }),
                },
            ]))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_tool_with_logging",
            "Sends three log messages while it runs",
            no_arguments(),
        ),
        |_, ctx| async move {
            ctx.log(LogLevel::Info, "Tool execution started").await?;
            tokio::time::sleep(STEP).await;
            ctx.log(LogLevel::Info, "Tool processing data").await?;
            tokio::time::sleep(STEP).await;
            ctx.log(LogLevel::Info, "Tool execution completed").await?;
            Ok(ToolResult::text("Tool with logging executed successfully"))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_tool_with_progress",
            "Reports its progress while it runs",
            no_arguments(),
        ),
        |_, ctx| async move {
            for step in [0.0, 50.0, 100.0] {
                if ctx.cancellation.is_cancelled() {
                    return Err(ToolError::for_model("The call was cancelled."));
                }
                ctx.progress(Progress::of(step, 100.0)).await?;
                if step < 100.0 {
                    tokio::time::sleep(STEP).await;
                }
            }
            Ok(ToolResult::text("Tool with progress executed successfully"))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_error_handling",
            "Always fails, to show how a tool reports an error",
            no_arguments(),
        ),
        |_, _| async {
            Err(ToolError::for_model(
                "This tool intentionally returns an error for testing",
            ))
        },
    )?;
    plain(
        r,
        Tool::new(
            "test_elicitation_sep1034_defaults",
            "Asks the user for values, each with a default",
            no_arguments(),
        ),
        |_, ctx| async move { elicit(&ctx, "Please review the defaults", DEFAULTS_FORM).await },
    )?;
    plain(
        r,
        Tool::new(
            "test_elicitation_sep1330_enums",
            "Asks the user to choose among enum values of every kind",
            no_arguments(),
        ),
        |_, ctx| async move { elicit(&ctx, "Please choose", ENUMS_FORM).await },
    )?;
    plain(
        r,
        Tool::new(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            serde_json::from_str(SCHEMA_2020_12)?,
        ),
        |arguments, _| async move { Ok(ToolResult::text(format!("Received {arguments}"))) },
    )?;
    plain(
        r,
        Tool::new(
            "test_reconnection",
            "Answers after a pause, for clients that test resuming a stream",
            no_arguments(),
        ),
        |_, _| async {
            tokio::time::sleep(STEP).await;
            Ok(ToolResult::text("Reconnection test completed successfully"))
        },
    )?;
    r.register_handler(Sampling)?;
    r.register_handler(Elicitation)?;
    Ok(registry)
}

fn result(content: Vec<Content>) -> ToolResult {
    ToolResult {
        content,
        ..ToolResult::default()
    }
}

async fn elicit(ctx: &CallContext, message: &str, form: &str) -> Result<ToolResult, ToolError> {
    let schema: Value =
        serde_json::from_str(form).map_err(|e| ToolError::internal(e.to_string()))?;
    let answer = ctx.elicit(ElicitationRequest::new(message, schema)).await?;
    Ok(ToolResult::text(format!(
        "Elicitation completed: action={}, content={}",
        answer.action.as_str(),
        answer.content.map(Value::Object).unwrap_or(Value::Null)
    )))
}

/// Asks the client's model to answer a prompt (sampling).
#[derive(Deserialize, JsonSchema)]
struct SamplingInput {
    /// The prompt to send to the model.
    prompt: String,
}

/// `test_sampling`: a typed tool that asks the client's model for a completion.
struct Sampling;

impl TypedTool for Sampling {
    type Input = SamplingInput;
    type Output = Unstructured;
    const NAME: &'static str = "test_sampling";
}

impl TypedHandler for Sampling {
    async fn call(
        &self,
        input: SamplingInput,
        ctx: CallContext,
    ) -> Result<Unstructured, ToolError> {
        let request = SamplingRequest::new(vec![SamplingMessage::user(input.prompt)], 100);
        let answer = ctx.create_message(request).await?;
        Ok(Unstructured(vec![Content::text(format!(
            "LLM response: {}",
            answer.text()
        ))]))
    }
}

/// Asks the user for their name and email address (elicitation).
#[derive(Deserialize, JsonSchema)]
struct ElicitationInput {
    /// The message to show the user.
    message: String,
}

/// `test_elicitation`: a typed tool that asks the user for values.
struct Elicitation;

impl TypedTool for Elicitation {
    type Input = ElicitationInput;
    type Output = Unstructured;
    const NAME: &'static str = "test_elicitation";
}

impl TypedHandler for Elicitation {
    async fn call(
        &self,
        input: ElicitationInput,
        ctx: CallContext,
    ) -> Result<Unstructured, ToolError> {
        let schema: Value =
            serde_json::from_str(USER_FORM).map_err(|e| ToolError::internal(e.to_string()))?;
        let answer = ctx
            .elicit(ElicitationRequest::new(input.message, schema))
            .await?;
        Ok(Unstructured(vec![Content::text(format!(
            "User response: action={}, content={}",
            answer.action.as_str(),
            answer.content.map(Value::Object).unwrap_or(Value::Null)
        ))]))
    }
}
