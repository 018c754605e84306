//! Closing the loop: what a provider's model sends for an exported tool is read back through
//! the same lowering before it is validated against the tool as written.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::{Map, Value, json};
use std::path::Path;
use toolpact::{
    ArgumentErrorKind, CallContext, Catalog, Conversation, DispatchOptions, ExportOptions, Outcome,
    Registry, RequestOptions, Target, Tool, ToolError, ToolResult, build_request, check_call,
    dispatch_blocking, export, parse_call, push_response,
};

/// A registry of `tools` whose handlers answer with the arguments they were given.
fn echo_registry(tools: &[Tool]) -> Registry {
    let mut registry = Registry::new();
    for tool in tools {
        registry.register(tool.clone()).unwrap();
        registry
            .set_handler(
                &tool.name,
                |arguments: Value, _cx: CallContext| async move {
                    Ok::<_, ToolError>(ToolResult::structured(json!({ "received": arguments })))
                },
            )
            .unwrap();
    }
    registry
}

fn forecast() -> Tool {
    serde_json::from_value(json!({
        "name": "get_forecast",
        "description": "Daily forecast for a city.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
                "units": {"type": ["string", "null"], "enum": ["metric", "imperial", null]},
                "speed": {"enum": [0, 1, 2, 3]}
            },
            "required": ["city"],
            "additionalProperties": false
        }
    }))
    .unwrap()
}

fn options_for(tools: &[Tool], target: Target, strict: bool) -> DispatchOptions {
    let export = export(tools, target, ExportOptions { strict }).unwrap();
    DispatchOptions {
        read_back: Some(export.read_back),
        ..DispatchOptions::default()
    }
}

fn received(dispatched: &toolpact::Dispatched) -> Value {
    dispatched.result.structured.clone().unwrap()["received"].clone()
}

#[test]
fn strict_openai_calls_leave_optional_properties_out_with_null() {
    let tools = [forecast()];
    let registry = echo_registry(&tools);
    let arguments = "{\"city\": \"Lisbon\", \"days\": null, \"units\": null, \"speed\": null}";
    let calls = [
        (
            Target::OpenAiResponses,
            json!({"type": "function_call", "call_id": "c1", "name": "get_forecast", "arguments": arguments}),
        ),
        (
            Target::OpenAiChat,
            json!({"id": "c2", "type": "function", "function": {"name": "get_forecast", "arguments": arguments}}),
        ),
    ];
    for (target, call) in calls {
        let call = parse_call(&call, None, "").unwrap();
        // Read as it is, the strict model's way of leaving `days` out is refused.
        let plain = check_call(&registry, &call, &DispatchOptions::default());
        assert!(
            matches!(plain.outcome, Outcome::InvalidArguments { .. }),
            "{target}: {plain:?}"
        );
        let options = options_for(&tools, target, true);
        let dispatched = dispatch_blocking(&registry, &call, &options);
        assert_eq!(dispatched.outcome, Outcome::Ok, "{target}: {dispatched:?}");
        // `days` and `speed` are left out; `units` allows null as written, and keeps it.
        assert_eq!(
            received(&dispatched),
            json!({"city": "Lisbon", "units": null}),
            "{target}"
        );
        let steps: Vec<&str> = dispatched
            .read_back
            .iter()
            .map(|s| s.pointer.as_str())
            .collect();
        assert_eq!(steps, ["/days", "/speed"], "{target}");
        assert!(dispatched.read_back.iter().all(|s| s.to.is_none()));
        let meta = &dispatched.result.meta["toolpact/readBack"];
        assert_eq!(meta[0]["pointer"], "/days", "{target}: {meta}");
        assert!(
            meta[0]["why"].as_str().unwrap().contains("null"),
            "{target}: {meta}"
        );
        // A value the model did send is read as it is.
        let valid = parse_call(
            &json!({"name": "get_forecast", "arguments": {"city": "Porto", "days": 3}}),
            None,
            "",
        )
        .unwrap();
        let dispatched = dispatch_blocking(&registry, &valid, &options);
        assert_eq!(dispatched.outcome, Outcome::Ok);
        assert!(dispatched.read_back.is_empty());
        assert!(!dispatched.result.meta.contains_key("toolpact/readBack"));
    }
}

/// Anthropic strict mode keeps optional properties optional: its model may leave them out,
/// which is valid as written, or send null for them, which is read back as left out.
#[test]
fn strict_anthropic_calls_leave_optional_properties_out_by_omitting_them_or_with_null() {
    let tools = [forecast()];
    let registry = echo_registry(&tools);
    let export = export(&tools, Target::Anthropic, ExportOptions { strict: true }).unwrap();
    let schema = &export.payload[0]["input_schema"];
    assert_eq!(schema["required"], json!(["city"]));
    assert_eq!(schema["properties"]["days"]["type"], "integer");
    assert!(export.read_back.answers("get_forecast"));
    let options = options_for(&tools, Target::Anthropic, true);
    let omitted = parse_call(
        &json!({"type": "tool_use", "id": "c3", "name": "get_forecast", "input": {"city": "Lisbon"}}),
        None,
        "",
    )
    .unwrap();
    let dispatched = dispatch_blocking(&registry, &omitted, &options);
    assert_eq!(dispatched.outcome, Outcome::Ok, "{dispatched:?}");
    assert_eq!(received(&dispatched), json!({"city": "Lisbon"}));
    assert!(dispatched.read_back.is_empty());

    let with_null = parse_call(
        &json!({"type": "tool_use", "id": "c4", "name": "get_forecast", "input": {"city": "Lisbon", "days": null}}),
        None,
        "",
    )
    .unwrap();
    let plain = check_call(&registry, &with_null, &DispatchOptions::default());
    assert!(matches!(plain.outcome, Outcome::InvalidArguments { .. }));
    let dispatched = dispatch_blocking(&registry, &with_null, &options);
    assert_eq!(dispatched.outcome, Outcome::Ok, "{dispatched:?}");
    assert_eq!(received(&dispatched), json!({"city": "Lisbon"}));
    let step = &dispatched.read_back[0];
    assert_eq!((step.pointer.as_str(), &step.to), ("/days", &None));
    assert!(step.why.contains("keeps \"days\" optional"), "{}", step.why);
}

#[test]
fn a_gemini_call_with_an_integer_enum_sent_as_a_string_is_read_as_the_integer() {
    let tools = [forecast()];
    let registry = echo_registry(&tools);
    let call = parse_call(
        &json!({"functionCall": {"name": "get_forecast", "args": {"city": "Lisbon", "speed": "2"}}}),
        None,
        "",
    )
    .unwrap();
    let plain = check_call(&registry, &call, &DispatchOptions::default());
    assert!(matches!(plain.outcome, Outcome::InvalidArguments { .. }));
    let dispatched = dispatch_blocking(
        &registry,
        &call,
        &options_for(&tools, Target::Gemini, false),
    );
    assert_eq!(dispatched.outcome, Outcome::Ok, "{dispatched:?}");
    assert_eq!(received(&dispatched), json!({"city": "Lisbon", "speed": 2}));
    let step = &dispatched.read_back[0];
    assert_eq!(
        (step.pointer.as_str(), &step.from, &step.to),
        ("/speed", &json!("2"), &Some(json!(2)))
    );
    // A string that stands for no value of the enum is refused, with the schema's message.
    let wrong = parse_call(
        &json!({"functionCall": {"name": "get_forecast", "args": {"city": "Lisbon", "speed": "7"}}}),
        None,
        "",
    )
    .unwrap();
    let dispatched = dispatch_blocking(
        &registry,
        &wrong,
        &options_for(&tools, Target::Gemini, false),
    );
    assert!(matches!(
        dispatched.outcome,
        Outcome::InvalidArguments { .. }
    ));
    assert!(dispatched.read_back.is_empty());
    // The gemini-json target sends the schema as written: nothing to read back.
    assert!(
        export(&tools, Target::GeminiJson, ExportOptions::default())
            .unwrap()
            .read_back
            .is_empty()
    );
}

#[test]
fn read_back_follows_references_merges_and_arrays() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "plan",
        "inputSchema": {
            "type": "object",
            "properties": {
                "stops": {"type": "array", "items": {"$ref": "#/$defs/Stop"}},
                "mode": {"allOf": [{"$ref": "#/$defs/Mode"}, {"description": "how to travel"}]}
            },
            "required": ["stops"],
            "$defs": {
                "Stop": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}},
                    "required": ["city"]
                },
                "Mode": {"type": "object", "properties": {"level": {"const": 1}, "note": {"type": "string"}}}
            }
        }
    }))
    .unwrap();
    let tools = [tool];
    let registry = echo_registry(&tools);
    let strict = parse_call(
        &json!({"name": "plan", "arguments": {
            "stops": [{"city": "Faro", "nights": null}, {"city": "Évora", "nights": 2}],
            "mode": {"level": 1, "note": null}
        }}),
        None,
        "",
    )
    .unwrap();
    for target in [Target::OpenAiResponses, Target::OpenAiChat] {
        let dispatched = dispatch_blocking(&registry, &strict, &options_for(&tools, target, true));
        assert_eq!(dispatched.outcome, Outcome::Ok, "{target}: {dispatched:?}");
        assert_eq!(
            received(&dispatched),
            json!({"stops": [{"city": "Faro"}, {"city": "Évora", "nights": 2}], "mode": {"level": 1}}),
            "{target}"
        );
    }
    let gemini = parse_call(
        &json!({"name": "plan", "arguments": {"stops": [{"city": "Faro"}], "mode": {"level": "1"}}}),
        None,
        "",
    )
    .unwrap();
    let dispatched = dispatch_blocking(
        &registry,
        &gemini,
        &options_for(&tools, Target::Gemini, false),
    );
    assert_eq!(dispatched.outcome, Outcome::Ok, "{dispatched:?}");
    assert_eq!(received(&dispatched)["mode"], json!({"level": 1}));
}

/// The conversation loop: the request carries its export's read-back, and the calls of the
/// model's answer pass with it.
#[test]
fn the_conversation_loop_reads_calls_back_through_the_request_it_sent() {
    let tools = [forecast()];
    let registry = echo_registry(&tools);
    let responses = [
        (
            Target::OpenAiResponses,
            true,
            json!({"status": "completed", "output": [{"type": "function_call", "call_id": "c1",
                "name": "get_forecast", "arguments": "{\"city\": \"Lisbon\", \"days\": null, \"units\": null, \"speed\": 1}"}]}),
            json!({"city": "Lisbon", "units": null, "speed": 1}),
        ),
        (
            Target::Gemini,
            false,
            json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall":
                {"name": "get_forecast", "args": {"city": "Lisbon", "speed": "3"}}}]}, "finishReason": "STOP"}]}),
            json!({"city": "Lisbon", "speed": 3}),
        ),
    ];
    for (target, strict, response, expected) in responses {
        let mut conversation = Conversation::new();
        conversation.push_user("Weather in Lisbon?");
        let options = RequestOptions {
            model: Some("m".to_owned()),
            max_tokens: Some(100),
            strict,
            ..RequestOptions::default()
        };
        let request = build_request(registry.tools(), target, &conversation, &options).unwrap();
        let reply = push_response(&mut conversation, target, &response, &request.names).unwrap();
        let dispatch = DispatchOptions {
            read_back: Some(request.read_back.clone()),
            ..DispatchOptions::default()
        };
        let dispatched = dispatch_blocking(&registry, &reply.calls[0], &dispatch);
        assert_eq!(dispatched.outcome, Outcome::Ok, "{target}: {dispatched:?}");
        assert_eq!(received(&dispatched), expected, "{target}");
    }
}

// ----- The round trip as a property, over every fixture, target and strict variant -----

/// A small deterministic generator of values for a schema.
struct Generator<'a> {
    root: &'a Value,
    state: u64,
    /// For each value generated: its pointer in the instance and the place of the schema
    /// node it was generated from.
    visits: Vec<(String, String)>,
    /// How many strings were made: each is new, so that `uniqueItems` holds.
    strings: usize,
    /// A `pattern` no candidate string matched, or a constraint between values the generator
    /// does not satisfy: the value may not be one a model could send.
    unmatched: bool,
}

impl Generator<'_> {
    fn next(&mut self, below: u64) -> u64 {
        // xorshift64*: enough to vary the choices, and the same on every run.
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        (self.state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % below.max(1)
    }

    /// The node with its `allOf` branches merged in (properties and `required` united, any
    /// other keyword from the first that has it), for the generator to satisfy them all.
    fn merge_all_of(&self, map: &Map<String, Value>, branches: &[Value]) -> Value {
        let mut merged = map.clone();
        merged.remove("allOf");
        for branch in branches {
            let mut branch = branch;
            if let Some(target) = branch
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| self.root.pointer(r.trim_start_matches('#')))
            {
                branch = target;
            }
            let Value::Object(branch) = branch else {
                continue;
            };
            for (key, value) in branch {
                match (key.as_str(), merged.get_mut(key), value) {
                    ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                        for (name, schema) in theirs {
                            mine.entry(name.clone()).or_insert_with(|| schema.clone());
                        }
                    }
                    ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                        for name in theirs {
                            if !mine.contains(name) {
                                mine.push(name.clone());
                            }
                        }
                    }
                    (_, None, _) => {
                        merged.insert(key.clone(), value.clone());
                    }
                    _ => {}
                }
            }
        }
        Value::Object(merged)
    }

    /// A new string within the node's length limits, matching its `pattern` when one of
    /// the examples the schema gives, or a few usual shapes, does.
    fn string(&mut self, map: &Map<String, Value>) -> Value {
        self.strings += 1;
        let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(1) as usize;
        let max = map.get("maxLength").and_then(Value::as_u64).unwrap_or(64) as usize;
        let mut word = String::new();
        let mut n = self.strings;
        while n > 0 || word.is_empty() {
            word.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
        }
        while word.len() < min {
            word.push('a');
        }
        word.truncate(max.max(1));
        let Some(pattern) = map.get("pattern") else {
            return json!(word);
        };
        let Ok(matcher) =
            toolpact::CompiledSchema::new(&json!({"type": "string", "pattern": pattern}))
        else {
            self.unmatched = true;
            return json!(word);
        };
        let given = ["examples", "example", "default"]
            .iter()
            .filter_map(|k| map.get(*k))
            .flat_map(|v| match v {
                Value::Array(items) => items.clone(),
                other => vec![other.clone()],
            });
        let usual = [
            "ABC",
            "abc",
            "a1",
            "123",
            "A1B2",
            "abc-def",
            "2026-01-02",
            "ana@example.com",
        ]
        .map(|s| json!(s));
        let made = pattern.as_str().and_then(example_of).map(Value::String);
        match given
            .chain(made)
            .chain(usual)
            .find(|c| c.is_string() && matcher.is_valid(c))
        {
            Some(found) => found,
            None => {
                self.unmatched = true;
                json!(word)
            }
        }
    }

    fn value(&mut self, schema: &Value, place: &str, at: &str, depth: usize) -> Value {
        self.visits.push((at.to_owned(), place.to_owned()));
        let Value::Object(map) = schema else {
            return json!("any");
        };
        if depth > 40 {
            self.unmatched = true;
            return Value::Null;
        }
        // Deep in a recursive schema, only what is required: the value ends.
        let shallow = depth > 8;
        // Constraints between values this generator does not satisfy: a value made here
        // would not be one a model that reads them sends.
        if [
            "not",
            "if",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "patternProperties",
            "multipleOf",
            "minProperties",
            "maxProperties",
            "contains",
        ]
        .iter()
        .any(|k| map.contains_key(*k))
        {
            self.unmatched = true;
        }
        if let Some(Value::Array(branches)) = map.get("allOf") {
            let merged = self.merge_all_of(map, branches);
            return self.value(&merged, place, at, depth + 1);
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let fragment = reference.trim_start_matches('#');
            if let Some(target) = self.root.pointer(fragment) {
                return self.value(target, fragment, at, depth + 1);
            }
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && !values.is_empty()
        {
            let nullable = map.get("nullable") == Some(&Value::Bool(true));
            if nullable && self.next(4) == 0 {
                return Value::Null;
            }
            return values[self.next(values.len() as u64) as usize].clone();
        }
        if let Some(value) = map.get("const") {
            return value.clone();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key)
                && !branches.is_empty()
            {
                let i = self.next(branches.len() as u64) as usize;
                return self.value(&branches[i], &format!("{place}/{key}/{i}"), at, depth + 1);
            }
        }
        if map.get("nullable") == Some(&Value::Bool(true)) && self.next(4) == 0 {
            return Value::Null;
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ if map.contains_key("properties") => vec!["object"],
            _ => vec!["string"],
        };
        let kind = types[self.next(types.len() as u64) as usize];
        match kind {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.next(2) == 0),
            "integer" | "number" => {
                let bound = |key: &str, step: i64| {
                    map.get(key).and_then(Value::as_f64).map(|b| {
                        if step > 0 {
                            b.floor() as i64 + step
                        } else {
                            b.ceil() as i64 + step
                        }
                    })
                };
                let low = map
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .map(|b| b.ceil() as i64)
                    .or(bound("exclusiveMinimum", 1))
                    .unwrap_or(0);
                let high = map
                    .get("maximum")
                    .and_then(Value::as_f64)
                    .map(|b| b.floor() as i64)
                    .or(bound("exclusiveMaximum", -1))
                    .unwrap_or(low + 10)
                    .max(low);
                json!(low + self.next((high - low + 1) as u64) as i64)
            }
            "array" => {
                let tuple = match (map.get("prefixItems"), map.get("items")) {
                    (Some(Value::Array(prefix)), _) => Some(("prefixItems", prefix)),
                    (_, Some(Value::Array(prefix))) => Some(("items", prefix)),
                    _ => None,
                };
                let mut items: Vec<Value> = match tuple {
                    Some((key, prefix)) => prefix
                        .iter()
                        .enumerate()
                        .map(|(i, schema)| {
                            self.value(
                                schema,
                                &format!("{place}/{key}/{i}"),
                                &format!("{at}/{i}"),
                                depth + 1,
                            )
                        })
                        .collect(),
                    None => {
                        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                        let n = if shallow { min } else { min + self.next(3) };
                        let n = map
                            .get("maxItems")
                            .and_then(Value::as_u64)
                            .map_or(n, |m| n.min(m));
                        (0..n)
                            .map(|i| {
                                let item_at = format!("{at}/{i}");
                                let item_place = format!("{place}/items");
                                match map.get("items") {
                                    Some(items) => {
                                        self.value(items, &item_place, &item_at, depth + 1)
                                    }
                                    None => {
                                        self.visits.push((item_at, item_place));
                                        json!("item")
                                    }
                                }
                            })
                            .collect()
                    }
                };
                if map.get("uniqueItems") == Some(&Value::Bool(true)) {
                    let mut unique: Vec<Value> = Vec::new();
                    items.retain(|item| {
                        let new = !unique.contains(item);
                        unique.push(item.clone());
                        new
                    });
                }
                Value::Array(items)
            }
            "object" => {
                let mut out = Map::new();
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Some(Value::Object(properties)) = map.get("properties") {
                    for (name, property) in properties {
                        if property == &Value::Bool(false) {
                            continue; // No value is allowed: the model sends none.
                        }
                        if required.contains(&name.as_str()) || (!shallow && self.next(2) == 0) {
                            let token = name.replace('~', "~0").replace('/', "~1");
                            let value = self.value(
                                property,
                                &format!("{place}/properties/{token}"),
                                &format!("{at}/{token}"),
                                depth + 1,
                            );
                            out.insert(name.clone(), value);
                        }
                    }
                }
                Value::Object(out)
            }
            _ => match map.get("format").and_then(Value::as_str) {
                Some("date-time") => json!("2026-01-02T03:04:05Z"),
                Some("date") => json!("2026-01-02"),
                Some("email") => json!("ana@example.com"),
                Some("uri") | Some("url") => json!("https://example.com/a"),
                Some("uuid") => json!("0b0e8c34-4c5c-4a8f-9c1e-2f1d3c4b5a69"),
                _ => self.string(map),
            },
        }
    }
}

/// A string matching a simple regular expression (anchors, literals, classes, `\\d`, `\\w`
/// and counted repeats), or `None` when the expression has more than that.
fn example_of(pattern: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = pattern
        .trim_start_matches('^')
        .trim_end_matches('$')
        .chars()
        .peekable();
    while let Some(c) = chars.next() {
        let unit = match c {
            '[' => {
                let first = chars.next()?;
                let first = if first == '\\' { chars.next()? } else { first };
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                }
                match first {
                    'd' => '0',
                    'w' => 'a',
                    '^' => return None,
                    other => other,
                }
            }
            '\\' => match chars.next()? {
                'd' => '0',
                'w' => 'a',
                '.' => '.',
                '-' => '-',
                _ => return None,
            },
            '(' | ')' | '|' | '.' => return None,
            other => other,
        };
        let count = match chars.peek() {
            Some('{') => {
                chars.next();
                let mut digits = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    digits.push(c);
                }
                digits.split(',').next()?.parse::<usize>().ok()?
            }
            Some('+') => {
                chars.next();
                1
            }
            Some('*') | Some('?') => {
                chars.next();
                0
            }
            _ => 1,
        };
        out.extend(std::iter::repeat_n(unit, count));
    }
    Some(out)
}

fn fixture_tools() -> Vec<(String, Tool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut tools = Vec::new();
    for dir in ["lowering", "seeds"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).unwrap();
            let label = format!("{dir}/{}", file.file_name().unwrap().to_string_lossy());
            let Ok(catalog) = Catalog::from_slice(&bytes, &label, None) else {
                continue;
            };
            for tool in catalog.tools() {
                tools.push((label.clone(), tool.clone()));
            }
        }
    }
    tools
}

/// For every fixture, target and strict variant: values generated from the schema the model
/// sees are valid for the tool as written once read back, or refused with an error at a
/// place the export's loss report names.
#[test]
fn every_lowered_value_is_read_back_or_refused_where_the_report_says() {
    let tools = fixture_tools();
    assert!(tools.len() > 40, "fixtures: {}", tools.len());
    let mut checked = 0;
    let mut read_back = 0;
    let mut unmatched = 0;
    let mut failures = Vec::new();
    for (label, tool) in &tools {
        let mut registry = Registry::new();
        if registry.register(tool.clone()).is_err() {
            continue; // The registry refuses the schema as written: nothing reaches dispatch.
        }
        for target in Target::ALL {
            for strict in [false, true] {
                if strict && !target.has_strict_mode() {
                    continue;
                }
                let export = export([tool], target, ExportOptions { strict }).unwrap();
                let exporter = toolpact::Exporter::new(target, ExportOptions { strict }).unwrap();
                let Some(Ok(named)) = exporter.name_all([tool]).pop() else {
                    continue;
                };
                let Ok(lowered) = exporter.lower(tool, &named) else {
                    continue;
                };
                let Some(schema) = lowered.input_schema.as_deref() else {
                    continue;
                };
                let options = DispatchOptions {
                    read_back: Some(export.read_back.clone()),
                    ..DispatchOptions::default()
                };
                for seed in 1..=12u64 {
                    let mut generator = Generator {
                        root: schema,
                        state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                        visits: Vec::new(),
                        strings: 0,
                        unmatched: false,
                    };
                    let arguments = generator.value(schema, "", "", 0);
                    if generator.unmatched {
                        unmatched += 1;
                        continue;
                    }
                    let call = parse_call(
                        &json!({"name": tool.name, "arguments": arguments}),
                        None,
                        "",
                    )
                    .unwrap();
                    let result = check_call(&registry, &call, &options);
                    checked += 1;
                    if !result.read_back.is_empty() {
                        read_back += 1;
                    }
                    let Outcome::InvalidArguments { errors } = &result.outcome else {
                        continue;
                    };
                    for error in &errors.errors {
                        // The schema places the wrong value, and what is in it, were
                        // generated from; for a missing value, its parent.
                        let wrong = if error.kind == ArgumentErrorKind::Missing {
                            error
                                .pointer
                                .rsplit_once('/')
                                .map_or("", |(parent, _)| parent)
                        } else {
                            error.pointer.as_str()
                        };
                        let places: Vec<String> = generator
                            .visits
                            .iter()
                            .filter(|(at, _)| at == wrong || at.starts_with(&format!("{wrong}/")))
                            .flat_map(|(_, place)| {
                                // Losses inside an inlined definition are reported where it is
                                // used; the source map points into the definition.
                                [lowered.input_origin(place), format!("/inputSchema{place}")]
                            })
                            .collect();
                        // The rewrites that reading back inverts explain no error: a call
                        // that follows them must come back valid.
                        let inverted = |loss: &&toolpact::Loss| {
                            loss.message.contains("sends null to leave it out")
                                || loss.message.contains("are written as strings")
                        };
                        let explained =
                            export
                                .report
                                .losses
                                .iter()
                                .filter(|l| !inverted(l))
                                .any(|loss| {
                                    places.iter().any(|origin| {
                                        loss.pointer == *origin
                                            || loss.pointer.starts_with(&format!("{origin}/"))
                                    })
                                });
                        if !explained {
                            failures.push(format!(
                                "{label} {} → {target}{}: {} ({}) for {} — places {places:?}",
                                tool.name,
                                if strict { " --strict" } else { "" },
                                error.message,
                                error.pointer,
                                call.arguments.as_ref().unwrap(),
                            ));
                        }
                    }
                }
            }
        }
    }
    failures.dedup_by(|a, b| a.split(" for ").next() == b.split(" for ").next());
    assert!(
        failures.is_empty(),
        "{} of {checked} generated calls were refused without a loss to explain it:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(read_back > 0, "no generated call needed reading back");
    // Patterns and constraints between values the generator cannot satisfy leave out few
    // of the calls.
    assert!(
        unmatched * 20 < checked,
        "{unmatched} of {checked} calls left out"
    );
    eprintln!("{checked} generated calls, {read_back} read back, {unmatched} left out");
}
