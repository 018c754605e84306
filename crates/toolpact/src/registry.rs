//! The central list: every tool once, each schema compiled when it is registered.

use crate::catalog::Catalog;
use crate::handler::Handler;
use crate::json::json_type;
use crate::schema::{MAX_DEPTH, depth, refs};
use crate::tool::Tool;
use crate::typed::{Typed, TypedHandler, TypedTool, TypedToolError, tool_of};
use crate::validate::{ArgumentErrors, check};
use foldhash::HashMap;
use jsonschema::ReferencingError;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Validator};
use serde_json::Value;
use std::sync::Arc;

/// Why a tool cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    #[error("duplicate tool name {name:?}: {first} and {second} both declare it")]
    Duplicate {
        /// The shared name.
        name: String,
        /// Where the tool registered first came from.
        first: String,
        /// Where the rejected tool came from.
        second: String,
    },
    /// A schema is not valid JSON Schema, or uses what toolpact refuses.
    #[error("tool {tool:?} ({source_label}): {pointer}: {problem}")]
    Schema {
        /// The tool's name.
        tool: String,
        /// Where the tool came from.
        source_label: String,
        /// JSON pointer of the problem in the tool (`/inputSchema/properties/x`).
        pointer: String,
        /// What is wrong.
        problem: SchemaProblem,
    },
    /// A typed tool's Rust type does not give an object schema.
    #[error(transparent)]
    Typed(#[from] TypedToolError),
    /// No tool has this name.
    #[error("no tool is named {0:?}")]
    UnknownTool(String),
}

/// What is wrong with a schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaProblem {
    /// The input schema's root is not `type: "object"`.
    #[error(
        "the input schema must have `\"type\": \"object\"` at its root (tool arguments are always a JSON object){found}"
    )]
    NotObject {
        /// What was found, as a suffix for the message.
        found: String,
    },
    /// `$schema` names a dialect toolpact cannot validate.
    #[error(
        "unsupported JSON Schema dialect {0:?}; toolpact validates drafts 4, 6, 7, 2019-09 and 2020-12 (the default)"
    )]
    UnsupportedDialect(String),
    /// A `$ref` that would need the network or the file system.
    #[error(
        "remote reference {0:?} is never fetched; bundle the schema into `$defs` and point at it with \"#/$defs/…\""
    )]
    RemoteRef(String),
    /// The schema nests too deep.
    #[error("the schema nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The validator rejected the schema.
    #[error("{0}")]
    Invalid(String),
}

/// A tool with its compiled schemas and, once set, its handler.
pub struct Registered {
    tool: Tool,
    source: String,
    input: Validator,
    output: Option<Validator>,
    handler: Option<Arc<dyn Handler>>,
}

impl std::fmt::Debug for Registered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registered")
            .field("tool", &self.tool.name)
            .field("source", &self.source)
            .field("handler", &self.handler.is_some())
            .finish()
    }
}

impl Registered {
    /// The tool as declared.
    pub fn tool(&self) -> &Tool {
        &self.tool
    }

    /// Where the tool came from: a Rust type, a file position, or the order of registration.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Validates a call's arguments against the tool's input schema, compiled at
    /// registration, as dispatch does before lenient repairs.
    pub fn validate(&self, arguments: &Value) -> Result<(), ArgumentErrors> {
        check(&self.input, &self.tool.input_schema, arguments)
    }

    /// Validates structured content against the tool's output schema; always `Ok` when the
    /// tool declares none.
    pub fn validate_output(&self, structured: &Value) -> Result<(), ArgumentErrors> {
        match (&self.output, &self.tool.output_schema) {
            (Some(validator), Some(schema)) => check(validator, schema, structured),
            _ => Ok(()),
        }
    }

    /// The compiled input schema.
    pub(crate) fn input_validator(&self) -> &Validator {
        &self.input
    }

    /// The compiled output schema, when the tool declares one.
    pub(crate) fn output_validator(&self) -> Option<&Validator> {
        self.output.as_ref()
    }

    /// The handler, once one is set.
    pub fn handler(&self) -> Option<&Arc<dyn Handler>> {
        self.handler.as_ref()
    }
}

/// Every tool of a server or harness, once.
#[derive(Debug, Default)]
pub struct Registry {
    tools: Vec<Registered>,
    /// Names to positions. foldhash rather than SipHash: every call starts with this lookup,
    /// and foldhash is several times faster on short names while still seeded per process, so
    /// a hostile catalog cannot precompute colliding names.
    index: HashMap<String, usize>,
    /// Names rewritten for a provider (`admin_tools_list` for `admin.tools.list`), so that a
    /// call under the exported name finds the tool. The first tool to claim an alias keeps it,
    /// as export does.
    aliases: HashMap<String, usize>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Registers a tool; its source in messages is its position in the registry.
    pub fn register(&mut self, tool: Tool) -> Result<&Registered, RegistryError> {
        let source = format!("tool #{} registered", self.tools.len() + 1);
        self.register_from(tool, source)
    }

    /// Registers a tool, naming where it came from for messages (a file position, a type).
    pub fn register_from(
        &mut self,
        tool: Tool,
        source: impl Into<String>,
    ) -> Result<&Registered, RegistryError> {
        let source = source.into();
        if let Some(&i) = self.index.get(&tool.name) {
            return Err(RegistryError::Duplicate {
                name: tool.name,
                first: self.tools[i].source.clone(),
                second: source,
            });
        }
        let schema_error = |pointer: &str, problem| RegistryError::Schema {
            tool: tool.name.clone(),
            source_label: source.clone(),
            pointer: pointer.to_owned(),
            problem,
        };
        match tool.input_schema.get("type") {
            Some(Value::String(t)) if t == "object" => {}
            other => {
                let found = match other {
                    Some(t) => format!(", found `\"type\": {t}`"),
                    None => String::new(),
                };
                return Err(schema_error(
                    "/inputSchema",
                    SchemaProblem::NotObject { found },
                ));
            }
        }
        let input = compile(&tool.input_schema)
            .map_err(|(p, problem)| schema_error(&format!("/inputSchema{p}"), problem))?;
        let output = match &tool.output_schema {
            Some(schema) => Some(
                compile(schema)
                    .map_err(|(p, problem)| schema_error(&format!("/outputSchema{p}"), problem))?,
            ),
            None => None,
        };
        let i = self.tools.len();
        self.index.insert(tool.name.clone(), i);
        for rule in [
            crate::name::MCP,
            crate::name::OPENAI,
            crate::name::ANTHROPIC,
            crate::name::GEMINI,
        ] {
            if let Some(alias) = rule.rewrite(&tool.name)
                && alias != tool.name
            {
                self.aliases.entry(alias).or_insert(i);
            }
        }
        self.tools.push(Registered {
            tool,
            source,
            input,
            output,
            handler: None,
        });
        Ok(&self.tools[i])
    }

    /// Registers a tool defined by a Rust type, without a handler.
    pub fn register_typed<T: TypedTool>(&mut self) -> Result<&Registered, RegistryError> {
        let tool = tool_of::<T>()?;
        self.register_from(tool, format!("type {}", std::any::type_name::<T>()))
    }

    /// Registers a typed tool with its implementation.
    pub fn register_handler<T>(&mut self, handler: T) -> Result<&Registered, RegistryError>
    where
        T: TypedHandler,
        T::Input: Send,
        T::Output: Send,
    {
        let tool = tool_of::<T>()?;
        let name = tool.name.clone();
        self.register_from(tool, format!("type {}", std::any::type_name::<T>()))?;
        self.set_handler(&name, Typed(Arc::new(handler)))?;
        self.get(&name).ok_or(RegistryError::UnknownTool(name))
    }

    /// Sets the handler of a registered tool (replacing any earlier one).
    pub fn set_handler(&mut self, name: &str, handler: impl Handler) -> Result<(), RegistryError> {
        let &i = self
            .index
            .get(name)
            .ok_or_else(|| RegistryError::UnknownTool(name.to_owned()))?;
        self.tools[i].handler = Some(Arc::new(handler));
        Ok(())
    }

    /// The tool a call names: its original name, or a name rewritten for a provider.
    pub fn resolve(&self, name: &str) -> Option<&Registered> {
        self.get(name)
            .or_else(|| self.aliases.get(name).map(|&i| &self.tools[i]))
    }

    /// A registry holding every tool of a catalog; fails on the first tool that cannot be
    /// registered.
    pub fn from_catalog(catalog: &Catalog) -> Result<Registry, RegistryError> {
        let mut registry = Registry::new();
        for entry in &catalog.entries {
            registry.register_from(entry.tool.clone(), entry.origin.to_string())?;
        }
        Ok(registry)
    }

    /// The registered tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Registered> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    /// The tools, in the order they were registered.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter().map(|r| &r.tool)
    }

    /// The registered tools with their compiled schemas.
    pub fn entries(&self) -> impl Iterator<Item = &Registered> {
        self.tools.iter()
    }

    /// How many tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the registry is empty.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// A JSON Schema compiled as toolpact compiles every tool schema at registration, to
/// validate many values against it.
pub struct CompiledSchema {
    validator: Validator,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema").finish_non_exhaustive()
    }
}

impl CompiledSchema {
    /// Compiles a schema as toolpact does at registration: the dialect from `$schema`
    /// (2020-12 by default), no remote references, formats asserted. The error carries a
    /// pointer relative to the schema and what is wrong there.
    pub fn new(schema: &Value) -> Result<Self, (String, SchemaProblem)> {
        compile(schema).map(|validator| CompiledSchema { validator })
    }

    /// Whether `value` conforms to the schema.
    pub fn is_valid(&self, value: &Value) -> bool {
        self.validator.is_valid(value)
    }

    /// Validates `value`, as dispatch validates arguments; `schema` is the schema this was
    /// compiled from, used to name expected types and suggest the closest declared property.
    pub fn check(&self, schema: &Value, value: &Value) -> Result<(), ArgumentErrors> {
        check(&self.validator, schema, value)
    }
}

/// Compiles a schema as toolpact does at registration: the dialect from `$schema` (2020-12 by
/// default), no remote references, formats asserted. The error carries a pointer relative to
/// the schema.
pub(crate) fn compile(schema: &Value) -> Result<Validator, (String, SchemaProblem)> {
    if !schema.is_object() && !schema.is_boolean() {
        return Err((
            String::new(),
            SchemaProblem::Invalid(format!(
                "a schema must be a JSON object, found {}",
                json_type(schema)
            )),
        ));
    }
    if depth(schema) > MAX_DEPTH {
        return Err((String::new(), SchemaProblem::TooDeep));
    }
    let draft = match schema.get("$schema") {
        None => Draft::Draft202012,
        Some(Value::String(uri)) => match Draft::from_schema_uri(uri) {
            Draft::Unknown => {
                return Err((
                    "/$schema".to_owned(),
                    SchemaProblem::UnsupportedDialect(uri.clone()),
                ));
            }
            known => known,
        },
        Some(other) => {
            return Err((
                "/$schema".to_owned(),
                SchemaProblem::Invalid(format!("`$schema` must be a URI string, found {other}")),
            ));
        }
    };
    jsonschema::options()
        .with_draft(draft)
        .offline()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| match e.kind() {
            // The validator resolves references against `$id`s itself, and knows the
            // meta-schemas; what it would have to fetch is refused, never fetched.
            ValidationErrorKind::Referencing(ReferencingError::Unretrievable { uri, .. }) => {
                let pointer = refs(schema)
                    .into_iter()
                    .find(|(_, r)| r == uri || uri.ends_with(r.as_str()))
                    .map(|(p, _)| p)
                    .unwrap_or_default();
                (pointer, SchemaProblem::RemoteRef(uri.clone()))
            }
            _ => (
                e.instance_path().to_string(),
                SchemaProblem::Invalid(e.to_string()),
            ),
        })
}
