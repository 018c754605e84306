//! Hostile schemas: bounded work and a clear reason, never a stall.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::json;
use toolpact::{ExportOptions, LossKind, Target, Tool, export};

/// A tool whose schema is a tree of references that doubles at each of `levels` levels;
/// `sibling` puts a keyword beside each `$ref`, so that OpenAI strict mode inlines them too.
fn doubling(name: &str, levels: usize, sibling: bool) -> Tool {
    let reference = |i: usize| {
        let mut r = json!({"$ref": format!("#/$defs/d{i}")});
        if sibling {
            r["description"] = json!("one half");
        }
        r
    };
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": reference(i + 1), "b": reference(i + 1)}}),
        );
    }
    defs.insert(format!("d{levels}"), json!({"type": "string"}));
    serde_json::from_value(json!({
        "name": name,
        "description": "A tool whose schema doubles at each level of references.",
        "inputSchema": {"type": "object", "properties": {"root": reference(0)}, "$defs": defs}
    }))
    .unwrap()
}

fn variants() -> Vec<(Target, bool)> {
    let mut all = Vec::new();
    for target in Target::ALL {
        all.push((target, false));
        if target.has_strict_mode() {
            all.push((target, true));
        }
    }
    all
}

#[test]
fn a_doubling_reference_tree_is_refused_by_the_targets_that_inline_it() {
    let tools = [doubling("bomb", 40, true)];
    for (target, strict) in variants() {
        let export = export(&tools, target, ExportOptions { strict }).unwrap();
        let inlines = target == Target::Gemini
            || (strict && matches!(target, Target::OpenAiResponses | Target::OpenAiChat));
        if inlines {
            let left = &export.report.left_out;
            assert_eq!(left.len(), 1, "{target} {strict}");
            assert_eq!(left[0].pointer, "/inputSchema");
            assert_eq!(
                left[0].reason,
                "schema grows past 100000 nodes when its references are inlined"
            );
        } else {
            // Sent as written (or with references kept): nothing grows.
            assert!(export.report.left_out.is_empty(), "{target} {strict}");
        }
    }
}

#[test]
fn a_thousand_such_tools_are_refused_one_by_one() {
    let tools: Vec<Tool> = (0..1000)
        .map(|i| doubling(&format!("bomb_{i}"), 40, false))
        .collect();
    let export = export(&tools, Target::Gemini, ExportOptions::default()).unwrap();
    assert_eq!(export.report.left_out.len(), 1000);
    assert!(export.report.losses.is_empty());
}

#[test]
fn a_tree_just_under_the_limit_is_inlined_in_full() {
    // 2^13 leaves: about 33,000 nodes once inlined, under the 100,000 the walker allows.
    let tools = [doubling("big", 13, false)];
    let export = export(&tools, Target::Gemini, ExportOptions::default()).unwrap();
    assert!(
        export.report.left_out.is_empty(),
        "{:?}",
        export.report.left_out
    );
    let text = export.payload.to_string();
    assert_eq!(text.matches("\"type\":\"string\"").count(), 1 << 13);
    // Each inlined reference is reported once, at the place it was used.
    let inlined = export
        .report
        .losses
        .iter()
        .filter(|l| l.kind == LossKind::Inlined)
        .count();
    assert_eq!(inlined, (1 << 14) - 1);
}

#[test]
fn remote_references_are_reported_kept_or_refused() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "remote",
        "description": "Looks a thing up by a schema kept elsewhere.",
        "inputSchema": {"type": "object", "properties": {
            "thing": {"$ref": "http://example.com/schemas/thing.json"},
            "list": {"type": "array", "items": [{"$ref": "https://example.com/a.json#/x"}]}
        }}
    }))
    .unwrap();
    for (target, strict) in variants() {
        let export = export([&tool], target, ExportOptions { strict }).unwrap();
        let inlines = target == Target::Gemini || strict;
        if inlines {
            assert_eq!(export.report.left_out.len(), 1, "{target} {strict}");
            assert!(
                export.report.left_out[0]
                    .reason
                    .contains("remote reference")
            );
        } else {
            let kept: Vec<&str> = export
                .report
                .losses
                .iter()
                .filter(|l| l.kind == LossKind::Kept && l.message.contains("remote reference"))
                .map(|l| l.pointer.as_str())
                .collect();
            assert_eq!(
                kept,
                [
                    "/inputSchema/properties/thing/$ref",
                    "/inputSchema/properties/list/items/0/$ref"
                ],
                "{target} {strict}"
            );
        }
    }
}
