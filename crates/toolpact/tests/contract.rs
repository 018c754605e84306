//! Pinning and comparing contracts: the canonical form is stable (key order, number forms and
//! Unicode normalisation never change a hash), lock files round-trip, every fixture pair under
//! `fixtures/diff/` gets the class its folder names, and random schema edits get the class
//! their kind of edit calls for.

// Tests fail loudly on purpose.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use toolpact::{Catalog, ChangeClass, LockFile, Tool, diff};
use toolpact::{canonical_json, contract_hash};

/// A tool's canonical contract as a value, read back from its canonical form.
fn canonical_contract(tool: &Tool) -> Value {
    serde_json::from_str(&canonical_json(tool)).unwrap()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read_tools(relative: &str) -> Vec<Tool> {
    let path = workspace().join(relative);
    let text = std::fs::read_to_string(&path).unwrap();
    Catalog::from_str_named(&text, relative, None)
        .unwrap()
        .tools()
        .cloned()
        .collect()
}

fn diff_cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(workspace().join("fixtures/diff"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "{cases:?}");
    cases
}

#[test]
fn the_same_contract_written_differently_has_one_hash() {
    // Reversed key order at every level, `12.0`, `1e0` and `1.2e1` for integers, and a
    // decomposed `é` in the description.
    let old = read_tools("fixtures/diff/unchanged-written-differently/old.json");
    let new = read_tools("fixtures/diff/unchanged-written-differently/new.json");
    assert_eq!(old.len(), new.len());
    for (a, b) in old.iter().zip(&new) {
        assert_ne!(a, b, "the fixture must write {} differently", a.name);
        assert_eq!(canonical_json(a), canonical_json(b));
        assert_eq!(contract_hash(a), contract_hash(b));
    }
    assert!(diff(&old, &new).is_empty());
}

#[test]
fn integers_in_any_form_and_text_in_any_normal_form_hash_the_same() {
    let forms = ["1", "1.0", "1e0", "0.1e1", "100e-2"];
    let hashes: BTreeSet<String> = forms
        .iter()
        .map(|form| {
            let schema: Value = serde_json::from_str(&format!(
                r#"{{"type": "object", "properties": {{"n": {{"type": "integer", "minimum": {form}}}}}}}"#
            ))
            .unwrap();
            contract_hash(&Tool::new("t", "Caf\u{e9}", schema))
        })
        .collect();
    assert_eq!(hashes.len(), 1, "{hashes:?}");
    let nfd = Tool::new(
        "t",
        "Cafe\u{301}",
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}),
    );
    assert!(hashes.contains(&contract_hash(&nfd)));
}

#[test]
fn the_canonical_form_does_not_drift() {
    // A pinned value: a change here would invalidate every lock file in use, so it must be a
    // deliberate new lock format version, never a side effect. (The hash was checked with
    // `sha256sum` and with Python's `json.dumps(sort_keys=True)` over the same tool.)
    let tools = read_tools("fixtures/diff/unchanged-written-differently/old.json");
    let find_tables = tools.iter().find(|t| t.name == "find_tables").unwrap();
    assert_eq!(
        canonical_json(find_tables),
        r#"{"annotations":{"openWorldHint":false,"readOnlyHint":true,"title":"Find free tables"},"description":"Lists the free tables for a date, a time and a party size. Call this before book_table when the user has not chosen a time.","inputSchema":{"additionalProperties":false,"properties":{"date":{"description":"Day to search, ISO 8601 YYYY-MM-DD, for example \"2026-08-18\".","format":"date","type":"string"},"partySize":{"description":"Number of guests, from 1 to 12.","maximum":12,"minimum":1,"type":"integer"}},"required":["date","partySize"],"type":"object"},"name":"find_tables","title":"Find free tables"}"#
    );
    assert_eq!(
        contract_hash(find_tables),
        "sha256:05303fd8cc685568bd0c9d220edc197209f413eeaf0937b600821e67da4908bb"
    );
}

#[test]
fn every_part_of_the_contract_changes_the_hash() {
    let base = read_tools("fixtures/diff/unchanged-written-differently/old.json");
    let base_hash = contract_hash(&base[0]);
    let mut hashes = BTreeSet::from([base_hash]);
    let edits: &[fn(&mut Tool)] = &[
        |t| t.name.push('2'),
        |t| t.title = None,
        |t| t.description.as_mut().unwrap().push('!'),
        |t| t.input_schema["properties"]["date"]["description"] = json!("Day."),
        |t| t.output_schema = None,
        |t| t.annotations.as_mut().unwrap().open_world_hint = Some(false),
        |t| t.annotations = Some(Default::default()),
        |t| t.annotations = None,
        |t| t.meta = None,
        |t| {
            t.icons = Some(vec![toolpact::Icon {
                src: "data:,".into(),
                mime_type: None,
                sizes: None,
                theme: None,
                extra: Map::new(),
            }])
        },
        |t| {
            t.extra
                .insert("execution".into(), json!({"taskSupport": "optional"}));
        },
    ];
    for edit in edits {
        let mut tool = base[0].clone();
        edit(&mut tool);
        assert!(hashes.insert(contract_hash(&tool)), "{tool:?}");
        let changes = diff(&base[..1], std::slice::from_ref(&tool));
        assert!(!changes.is_empty(), "{tool:?}");
    }
}

#[test]
fn lock_files_round_trip_exactly() {
    let mut tools = Vec::new();
    for dir in ["fixtures/seeds", "fixtures/lowering"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(workspace().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let relative = file.strip_prefix(workspace()).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(&file).unwrap();
            if let Ok(catalog) = Catalog::from_str_named(&text, &relative, None) {
                for tool in catalog.tools() {
                    // Several seeds share a name; a lock pins each name once.
                    if !tools.iter().any(|t: &Tool| t.name == tool.name) {
                        tools.push(tool.clone());
                    }
                }
            }
        }
    }
    assert!(tools.len() > 30, "{}", tools.len());
    let lock = LockFile::new(&tools).unwrap();
    let text = lock.to_json_string();
    let read = LockFile::from_str_named(&text, "seeds.lock").unwrap();
    assert_eq!(read, lock);
    assert_eq!(read.to_json_string(), text);
    // A lock of the lock's own tools is the same lock.
    let again = LockFile::new(read.tools()).unwrap();
    assert_eq!(again.to_json_string(), text);
    // And the pinned tools compare equal to the originals.
    assert!(diff(&tools, &read.tools().cloned().collect::<Vec<_>>()).is_empty());
}

#[test]
fn every_fixture_pair_gets_the_class_its_folder_names() {
    for case in diff_cases() {
        let dir = format!("fixtures/diff/{case}");
        let d = diff(
            &read_tools(&format!("{dir}/old.json")),
            &read_tools(&format!("{dir}/new.json")),
        );
        let expected = match case.split('-').next().unwrap() {
            "breaking" => Some(ChangeClass::Breaking),
            "behaviour" => Some(ChangeClass::Behaviour),
            "description" => Some(ChangeClass::Description),
            "compatible" => Some(ChangeClass::Compatible),
            "unchanged" => None,
            other => panic!("{case}: unknown class {other:?}"),
        };
        assert_eq!(d.max_class(), expected, "{case}: {:#?}", d.changes);
    }
}

#[test]
fn every_change_points_into_the_old_or_the_new_contract() {
    for case in diff_cases() {
        let dir = format!("fixtures/diff/{case}");
        let old = read_tools(&format!("{dir}/old.json"));
        let new = read_tools(&format!("{dir}/new.json"));
        for change in diff(&old, &new).changes {
            let resolves = |tools: &[Tool]| {
                tools
                    .iter()
                    .filter(|t| t.name == change.tool)
                    .any(|t| canonical_contract(t).pointer(&change.pointer).is_some())
            };
            // An annotation that follows from another (readOnlyHint) may be set on neither side.
            let parent = change.pointer.rsplit_once('/').map_or("", |(p, _)| p);
            let parent_resolves = |tools: &[Tool]| {
                tools
                    .iter()
                    .filter(|t| t.name == change.tool)
                    .any(|t| canonical_contract(t).pointer(parent).is_some())
            };
            assert!(
                resolves(&old)
                    || resolves(&new)
                    || (parent.ends_with("/annotations") || parent == "/annotations")
                        && (parent_resolves(&old) || parent_resolves(&new)),
                "{case}: {change:?}"
            );
        }
    }
}

#[test]
fn a_description_change_that_adds_an_instruction_shows_it_in_the_word_diff() {
    let dir = "fixtures/diff/description-tool-description";
    let d = diff(
        &read_tools(&format!("{dir}/old.json")),
        &read_tools(&format!("{dir}/new.json")),
    );
    let text = d.changes[0].text.as_ref().unwrap();
    assert_eq!(
        text.render(),
        "… the user the booking id.{+ Before calling, always ask the user for their phone number and put it in notes.+}"
    );
    let rebuilt_new: String = text
        .words
        .iter()
        .filter(|w| w.op != toolpact::WordOp::Delete)
        .map(|w| w.text.as_str())
        .collect();
    assert_eq!(Some(rebuilt_new), text.new);
}

#[test]
fn the_order_of_the_input_does_not_change_the_diff() {
    let old = read_tools("fixtures/diff/breaking-tool-renamed/old.json");
    let new = read_tools("fixtures/diff/breaking-tool-renamed/new.json");
    let mut old_reversed = old.clone();
    old_reversed.reverse();
    let mut new_reversed = new.clone();
    new_reversed.reverse();
    assert_eq!(diff(&old, &new), diff(&old_reversed, &new_reversed));
}

/// One property of the random base tool.
#[derive(Debug, Clone)]
enum Prop {
    Text { values: Vec<String> },
    Count { min: i64, max: i64 },
}

#[derive(Debug, Clone)]
struct Base {
    props: Vec<(String, Prop, bool)>,
    read_only: bool,
}

impl Base {
    fn tool(&self) -> Value {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for (name, prop, is_required) in &self.props {
            let schema = match prop {
                Prop::Text { values } => json!({
                    "type": "string", "enum": values, "description": format!("The {name}.")
                }),
                Prop::Count { min, max } => json!({
                    "type": "integer", "minimum": min, "maximum": max,
                    "description": format!("How many {name}.")
                }),
            };
            properties.insert(name.clone(), schema);
            if *is_required {
                required.push(json!(name));
            }
        }
        json!({
            "name": "random_tool",
            "description": "Does one thing with its arguments.",
            "inputSchema": {"type": "object", "properties": properties, "required": required},
            "annotations": {"readOnlyHint": self.read_only}
        })
    }
}

fn base() -> impl Strategy<Value = Base> {
    let text = prop::collection::btree_set("[a-z]{1,6}", 2..5)
        .prop_map(|values| Prop::Text {
            values: values.into_iter().collect(),
        })
        .boxed();
    let count = (-50i64..50, 0i64..50)
        .prop_map(|(min, span)| Prop::Count {
            min,
            max: min + span,
        })
        .boxed();
    let prop = prop_oneof![text.clone(), count.clone()];
    (
        text,
        count,
        prop::collection::vec((prop, any::<bool>()), 0..4),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(text, count, extra, t_req, c_req, read_only)| {
            let mut props = vec![
                ("kind".to_owned(), text, t_req),
                ("items".to_owned(), count, c_req),
            ];
            for (i, (p, r)) in extra.into_iter().enumerate() {
                props.push((format!("extra{i}"), p, r));
            }
            Base { props, read_only }
        })
}

/// A random edit of the kind a server release makes, and the class it must get.
#[derive(Debug, Clone)]
enum Edit {
    AddRequiredProperty,
    RemoveProperty(prop::sample::Index),
    WidenEnum,
    NarrowEnum(prop::sample::Index),
    WidenRange { lower: bool, by: i64 },
    NarrowRange { lower: bool, by: i64 },
    ChangeDescription { of_property: bool },
    FlipReadOnly,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        Just(Edit::AddRequiredProperty),
        any::<prop::sample::Index>().prop_map(Edit::RemoveProperty),
        Just(Edit::WidenEnum),
        any::<prop::sample::Index>().prop_map(Edit::NarrowEnum),
        (any::<bool>(), 1i64..20).prop_map(|(lower, by)| Edit::WidenRange { lower, by }),
        (any::<bool>(), 1i64..20).prop_map(|(lower, by)| Edit::NarrowRange { lower, by }),
        any::<bool>().prop_map(|of_property| Edit::ChangeDescription { of_property }),
        Just(Edit::FlipReadOnly),
    ]
}

fn apply(base: &Base, edit: &Edit) -> (Value, ChangeClass) {
    let mut tool = base.tool();
    let schema = &mut tool["inputSchema"];
    let class = match edit {
        Edit::AddRequiredProperty => {
            schema["properties"]["addedArgument"] = json!({"type": "string"});
            schema["required"]
                .as_array_mut()
                .unwrap()
                .push(json!("addedArgument"));
            ChangeClass::Breaking
        }
        Edit::RemoveProperty(index) => {
            let name = base.props[index.index(base.props.len())].0.clone();
            schema["properties"].as_object_mut().unwrap().remove(&name);
            ChangeClass::Breaking
        }
        Edit::WidenEnum => {
            schema["properties"]["kind"]["enum"]
                .as_array_mut()
                .unwrap()
                .push(json!("ADDED"));
            ChangeClass::Compatible
        }
        Edit::NarrowEnum(index) => {
            let values = schema["properties"]["kind"]["enum"].as_array_mut().unwrap();
            let i = index.index(values.len());
            values.remove(i);
            ChangeClass::Breaking
        }
        Edit::WidenRange { lower, by } => {
            let (key, delta) = if *lower {
                ("minimum", -by)
            } else {
                ("maximum", *by)
            };
            let bound = &mut schema["properties"]["items"][key];
            *bound = json!(bound.as_i64().unwrap() + delta);
            ChangeClass::Compatible
        }
        Edit::NarrowRange { lower, by } => {
            let (key, delta) = if *lower {
                ("minimum", *by)
            } else {
                ("maximum", -by)
            };
            let bound = &mut schema["properties"]["items"][key];
            *bound = json!(bound.as_i64().unwrap() + delta);
            ChangeClass::Breaking
        }
        Edit::ChangeDescription { of_property } => {
            if *of_property {
                schema["properties"]["items"]["description"] = json!("How many, at most.");
            } else {
                tool["description"] = json!("Does one thing with its arguments, and logs them.");
            }
            ChangeClass::Description
        }
        Edit::FlipReadOnly => {
            tool["annotations"]["readOnlyHint"] = json!(!base.read_only);
            ChangeClass::Behaviour
        }
    };
    (tool, class)
}

/// JSON values built from schema keywords, for comparing arbitrary (and hostile) schemas.
fn schema_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(|n| json!(n)),
        prop_oneof![Just(0.5f64), Just(1.0), Just(-2.25)].prop_map(|x| json!(x)),
        prop_oneof![
            Just("string"),
            Just("integer"),
            Just("number"),
            Just("object"),
            Just("a"),
            Just("e\u{301}"),
            Just("\u{e9}")
        ]
        .prop_map(|s| json!(s)),
    ];
    let keys = prop_oneof![
        Just("type"),
        Just("properties"),
        Just("required"),
        Just("enum"),
        Just("const"),
        Just("items"),
        Just("minimum"),
        Just("maximum"),
        Just("exclusiveMinimum"),
        Just("multipleOf"),
        Just("pattern"),
        Just("additionalProperties"),
        Just("anyOf"),
        Just("allOf"),
        Just("$defs"),
        Just("$ref"),
        Just("description"),
        Just("default"),
        Just("x"),
        Just("\u{e9}"),
        Just("e\u{301}"),
    ];
    leaf.prop_recursive(5, 48, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..5).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_edits_get_the_class_of_their_kind(base in base(), edit in edit()) {
        let (edited, expected) = apply(&base, &edit);
        let old: Tool = serde_json::from_value(base.tool()).unwrap();
        let new: Tool = serde_json::from_value(edited).unwrap();
        let d = diff(&[old], &[new]);
        let classes: BTreeSet<ChangeClass> = d.changes.iter().map(|c| c.class).collect();
        prop_assert_eq!(classes, BTreeSet::from([expected]), "{:#?}", d.changes);
    }

    #[test]
    fn a_different_hash_always_shows_a_change(a in schema_like(), b in schema_like()) {
        let old = Tool::new("t", "d", a);
        let new = Tool::new("t", "d", b);
        let d = diff(std::slice::from_ref(&old), std::slice::from_ref(&new));
        prop_assert_eq!(contract_hash(&old) != contract_hash(&new), !d.is_empty(), "{:#?}", d.changes);
    }
}
