//! Prompts a server offers (`prompts/list`, `prompts/get`): templates of messages a user picks,
//! filled in with arguments that are checked before the prompt is rendered, and the values
//! `completion/complete` suggests for those arguments.

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use toolpact::{Content, Role, ToolError};

/// An argument a [`Prompt`] takes (always a string, as the protocol defines).
#[derive(Debug, Clone, PartialEq)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// Whether `prompts/get` must give it.
    pub required: bool,
}

impl PromptArgument {
    /// An argument `prompts/get` must give.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        PromptArgument {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            required: true,
        }
    }

    /// An argument `prompts/get` may leave out.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        PromptArgument {
            required: false,
            ..PromptArgument::required(name, description)
        }
    }
}

/// One message of a rendered prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said: text, an image, audio, an embedded resource or a resource link.
    pub content: Content,
}

impl PromptMessage {
    /// A user message.
    pub fn user(content: Content) -> Self {
        PromptMessage {
            role: Role::User,
            content,
        }
    }

    /// An assistant message.
    pub fn assistant(content: Content) -> Self {
        PromptMessage {
            role: Role::Assistant,
            content,
        }
    }
}

/// The arguments of a `prompts/get`, checked against the prompt's declared arguments.
pub type PromptArguments = BTreeMap<String, String>;

type Render = dyn Fn(&PromptArguments) -> Result<Vec<PromptMessage>, ToolError> + Send + Sync;

/// A prompt: a name, its arguments, and how to render its messages from them.
///
/// ```
/// use toolpact::Content;
/// use toolpact_mcp::{Prompt, PromptArgument, PromptMessage};
///
/// let greet = Prompt::new("greet", "Greets someone by name.", |args| {
///     Ok(vec![PromptMessage::user(Content::text(format!("Say hello to {}.", args["name"])))])
/// })
/// .with_argument(PromptArgument::required("name", "Who to greet"))
/// .with_completion("name", ["Ada", "Alan", "Grace"]);
/// ```
#[derive(Clone)]
pub struct Prompt {
    pub(crate) name: String,
    title: Option<String>,
    description: String,
    pub(crate) arguments: Vec<PromptArgument>,
    pub(crate) completions: BTreeMap<String, Vec<String>>,
    render: Arc<Render>,
}

impl fmt::Debug for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prompt")
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}

impl Prompt {
    /// A prompt with a name, a description and its renderer; the renderer receives only
    /// arguments that passed the check (every required one given, none undeclared).
    pub fn new<F>(name: impl Into<String>, description: impl Into<String>, render: F) -> Self
    where
        F: Fn(&PromptArguments) -> Result<Vec<PromptMessage>, ToolError> + Send + Sync + 'static,
    {
        Prompt {
            name: name.into(),
            title: None,
            description: description.into(),
            arguments: Vec::new(),
            completions: BTreeMap::new(),
            render: Arc::new(render),
        }
    }

    /// A title for people.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Declares an argument.
    pub fn with_argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// The values `completion/complete` suggests for an argument (those that start with what
    /// the user typed).
    pub fn with_completion<I, S>(mut self, argument: impl Into<String>, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.completions.insert(
            argument.into(),
            values.into_iter().map(Into::into).collect(),
        );
        self
    }

    /// The prompt as `prompts/list` lists it.
    pub(crate) fn listed(&self) -> Value {
        let mut listed = json!({"name": self.name, "description": self.description});
        if let Some(title) = &self.title {
            listed["title"] = json!(title);
        }
        if !self.arguments.is_empty() {
            listed["arguments"] = Value::Array(
                self.arguments
                    .iter()
                    .map(|a| {
                        let mut argument = json!({"name": a.name, "required": a.required});
                        if let Some(title) = &a.title {
                            argument["title"] = json!(title);
                        }
                        if let Some(description) = &a.description {
                            argument["description"] = json!(description);
                        }
                        argument
                    })
                    .collect(),
            );
        }
        listed
    }

    /// Checks the arguments of a `prompts/get` and renders the prompt: the `GetPromptResult`
    /// as JSON, or the reason the arguments are refused (for a `-32602` error).
    pub(crate) fn get(&self, arguments: Option<&Map<String, Value>>) -> Result<Value, String> {
        let mut given = PromptArguments::new();
        for (name, value) in arguments.into_iter().flatten() {
            if !self.arguments.iter().any(|a| &a.name == name) {
                return Err(format!(
                    "prompt {:?} has no argument {name:?}; it takes {}",
                    self.name,
                    self.argument_names()
                ));
            }
            let Some(text) = value.as_str() else {
                return Err(format!(
                    "argument {name:?} of prompt {:?} must be a string, not {}",
                    self.name,
                    json_type(value)
                ));
            };
            given.insert(name.clone(), text.to_owned());
        }
        let missing: Vec<String> = self
            .arguments
            .iter()
            .filter(|a| a.required && !given.contains_key(&a.name))
            .map(|a| match &a.description {
                Some(description) => format!("{:?} ({description})", a.name),
                None => format!("{:?}", a.name),
            })
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "prompt {:?} needs the argument{} {}",
                self.name,
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            ));
        }
        let messages = (self.render)(&given).map_err(|e| match e {
            ToolError::ForModel(message) => message,
            other => {
                tracing::error!(prompt = %self.name, error = %other, "prompt failed");
                format!("prompt {:?} failed with an internal error", self.name)
            }
        })?;
        let mut result = json!({
            "description": self.description,
            "messages": messages
                .iter()
                .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
                .collect::<Vec<_>>(),
        });
        if result["description"] == "" {
            result
                .as_object_mut()
                .map(|object| object.remove("description"));
        }
        Ok(result)
    }

    fn argument_names(&self) -> String {
        if self.arguments.is_empty() {
            return "no arguments".to_owned();
        }
        self.arguments
            .iter()
            .map(|a| format!("{:?}", a.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The JSON type of a value, as messages name it.
pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The values of `candidates` that start with `typed`, as a `completion` object: at most 100
/// values (the protocol's limit), with the total and whether more exist.
pub(crate) fn complete(candidates: &[String], typed: &str) -> Value {
    const MAX_VALUES: usize = 100;
    let matching: Vec<&String> = candidates
        .iter()
        .filter(|value| value.starts_with(typed))
        .collect();
    json!({
        "values": matching.iter().take(MAX_VALUES).collect::<Vec<_>>(),
        "total": matching.len(),
        "hasMore": matching.len() > MAX_VALUES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn greet() -> Prompt {
        Prompt::new("greet", "Greets someone.", |args| {
            Ok(vec![PromptMessage::user(Content::text(format!(
                "Hello {}",
                args["name"]
            )))])
        })
        .with_argument(PromptArgument::required("name", "Who to greet"))
        .with_argument(PromptArgument::optional("tone", "How"))
    }

    #[test]
    fn arguments_are_checked_before_rendering() {
        let prompt = greet();
        let ok = prompt.get(json!({"name": "Ada"}).as_object()).unwrap();
        assert_eq!(ok["messages"][0]["content"]["text"], "Hello Ada");
        assert_eq!(
            prompt.get(None).unwrap_err(),
            r#"prompt "greet" needs the argument "name" (Who to greet)"#
        );
        assert_eq!(
            prompt
                .get(json!({"name": "Ada", "mood": "x"}).as_object())
                .unwrap_err(),
            r#"prompt "greet" has no argument "mood"; it takes "name", "tone""#
        );
        assert_eq!(
            prompt.get(json!({"name": 3}).as_object()).unwrap_err(),
            r#"argument "name" of prompt "greet" must be a string, not number"#
        );
    }

    #[test]
    fn completion_filters_by_prefix() {
        let values: Vec<String> = ["paris", "park", "rome"].map(String::from).into();
        assert_eq!(
            complete(&values, "par"),
            json!({"values": ["paris", "park"], "total": 2, "hasMore": false})
        );
    }
}
