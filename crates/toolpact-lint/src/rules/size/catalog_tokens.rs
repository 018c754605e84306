use super::thousands;
use super::tokens::TokenCounter;
use crate::context::{Context, TargetExport};
use crate::rule::{Rule, RuleMeta, RuleOption, Violation, declare_rule};
use serde_json::Value;
use std::collections::HashSet;
use toolpact::Target;

declare_rule! {
    /// ## What it does
    /// Counts what the catalog costs in tokens, for each configured target: every tool as
    /// that target receives it (compact JSON), counted with OpenAI's `o200k_base` encoding.
    /// It reports one line for the whole catalog, naming the most expensive tools, and one
    /// for each tool above a threshold (1,000 tokens unless configured).
    ///
    /// The figures are estimates of what the model reads: providers render tool definitions
    /// into the prompt in their own ways, and other models use other tokenizers. They are
    /// good for comparing tools and for watching a catalog grow.
    ///
    /// ## Why is this bad?
    /// The whole catalog is sent with every request, before the user has said a word: it
    /// costs money and latency on every turn and takes context the conversation needs. Past
    /// a few dozen tools, models also choose worse. Knowing which tools cost most says
    /// where trimming pays.
    ///
    /// ## Example
    /// A `do_everything` tool with a 3,000-character description, a 40-value enum with
    /// long explanations and a nested `filters` object: about 2,400 tokens, a third of the
    /// catalog.
    ///
    /// ## Use instead
    /// Focused tools (`search_orders`, `get_order`, `cancel_order`) with short descriptions
    /// that say what each does and when to call it — a few hundred tokens each — and tool
    /// search or per-task catalogs once there are many.
    ///
    /// ## References
    /// - OpenAI, "Function calling": functions count against the context limit and are
    ///   billed as input tokens
    /// - Anthropic, "Tool use": tool definitions add input tokens to every request
    /// - `tiktoken`, `o200k_base` encoding
    pub struct CatalogTokens {
        code: "TP402",
        name: "catalog-tokens",
        category: Size,
        severity: Info,
        options: [RuleOption {
            name: "max-tool-tokens",
            default: 1000,
            doc: "the tokens above which a single tool gets its own finding",
        }],
    }
}

/// How many of the most expensive tools the catalog finding names.
const TOP: usize = 3;

/// The tools an export carries, in catalog order.
fn exported_items(export: &TargetExport) -> &[Value] {
    let payload = &export.export.payload;
    let items = match export.target {
        Target::Mcp => payload.get("tools"),
        Target::Gemini | Target::GeminiJson => payload
            .get(0)
            .and_then(|tool| tool.get("functionDeclarations")),
        Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic => Some(payload),
    };
    items.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Tokens per tool (by catalog position) for one way of sending the catalog.
struct Costs {
    label: String,
    per_tool: Vec<Option<usize>>,
    total: usize,
    left_out: usize,
}

fn costs_of_export(export: &TargetExport, tools: usize, counter: &mut TokenCounter) -> Costs {
    let left_out: HashSet<usize> = export
        .export
        .report
        .left_out
        .iter()
        .map(|u| u.index)
        .collect();
    let mut per_tool = vec![None; tools];
    let mut total = 0;
    let positions = (0..tools).filter(|i| !left_out.contains(i));
    let mut buffer = Vec::new();
    for (index, item) in positions.zip(exported_items(export)) {
        let tokens = counter.count_json(item, &mut buffer);
        per_tool[index] = Some(tokens);
        total += tokens;
    }
    Costs {
        label: export.label(),
        per_tool,
        total,
        left_out: left_out.len(),
    }
}

/// The costs of every export, in their order. Targets are counted on separate threads
/// when the catalog is large enough for it to pay: each export is independent, and most of
/// the time goes into hashing chunks, which parallelizes well.
fn costs_of_exports(
    exports: &[TargetExport],
    tools: usize,
    counter: &mut TokenCounter,
) -> Vec<Costs> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(exports.len());
    if threads <= 1 || tools < PARALLEL_FROM {
        return exports
            .iter()
            .map(|export| costs_of_export(export, tools, counter))
            .collect();
    }
    let per_thread = exports.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = exports
            .chunks(per_thread)
            .map(|group| {
                scope.spawn(move || {
                    let mut counter = TokenCounter::new()?;
                    Some(
                        group
                            .iter()
                            .map(|export| costs_of_export(export, tools, &mut counter))
                            .collect::<Vec<_>>(),
                    )
                })
            })
            .collect();
        let mut costs = Vec::with_capacity(exports.len());
        for (handle, group) in handles.into_iter().zip(exports.chunks(per_thread)) {
            // A thread that failed is counted again here rather than lost.
            match handle.join().ok().flatten() {
                Some(done) => costs.extend(done),
                None => costs.extend(group.iter().map(|e| costs_of_export(e, tools, counter))),
            }
        }
        costs
    })
}

/// From how many tools the targets are counted in parallel.
const PARALLEL_FROM: usize = 2_000;

/// The neutral tool JSON, for when no target is configured.
fn costs_of_tools(cx: &Context<'_>, counter: &mut TokenCounter) -> Costs {
    let per_tool: Vec<Option<usize>> = cx
        .tools()
        .map(|(_, tool)| {
            serde_json::to_string(tool)
                .ok()
                .map(|json| counter.count(&json))
        })
        .collect();
    Costs {
        label: "MCP tool JSON".to_owned(),
        total: per_tool.iter().flatten().sum(),
        per_tool,
        left_out: 0,
    }
}

impl Rule for CatalogTokens {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        let tools = cx.catalog.len();
        if tools == 0 {
            return;
        }
        let Some(mut counter) = TokenCounter::new() else {
            return;
        };
        let threshold =
            usize::try_from(cx.option(&Self::META, "max-tool-tokens")).unwrap_or(usize::MAX);
        let costs: Vec<Costs> = if cx.exports.is_empty() {
            vec![costs_of_tools(cx, &mut counter)]
        } else {
            costs_of_exports(&cx.exports, tools, &mut counter)
        };

        // Each tool's highest cost over the targets, and where.
        let mut worst: Vec<(usize, usize, &str)> = (0..tools)
            .filter_map(|i| {
                costs
                    .iter()
                    .filter_map(|c| c.per_tool[i].map(|t| (t, c.label.as_str())))
                    .max_by_key(|(t, _)| *t)
                    .map(|(t, label)| (i, t, label))
            })
            .collect();

        for &(i, tokens, label) in &worst {
            if tokens <= threshold {
                continue;
            }
            let Some(tool) = cx.catalog.entries.get(i).map(|e| &e.tool) else {
                continue;
            };
            let description = tool.description.as_deref().map_or(0, |d| counter.count(d));
            let schema = counter.count_json(&tool.input_schema, &mut Vec::new());
            out.push(Violation {
                tool: Some(i),
                pointer: String::new(),
                message: format!(
                    "the tool costs about {} tokens as {label}, over the {}-token threshold ({} in its description, {} in its input schema)",
                    thousands(tokens),
                    thousands(threshold),
                    thousands(description),
                    thousands(schema)
                ),
                help: "shorten the description to what the tool does and when to call it, trim long enums and nested options, or split the tool into focused ones".to_owned(),
            });
        }

        worst.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let names: Vec<String> = worst
            .iter()
            .take(TOP)
            .filter_map(|&(i, tokens, _)| {
                let tool = &cx.catalog.entries.get(i)?.tool;
                Some(format!("`{}` ({})", tool.name, thousands(tokens)))
            })
            .collect();
        let totals: Vec<String> = costs
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let unit = if k == 0 { " tokens" } else { "" };
                format!("{}{unit} as {}", thousands(c.total), c.label)
            })
            .collect();
        // Targets that cannot take some tools, grouped by how many.
        let mut left_out: Vec<(usize, Vec<&str>)> = Vec::new();
        for c in costs.iter().filter(|c| c.left_out > 0) {
            match left_out.iter_mut().find(|(n, _)| *n == c.left_out) {
                Some((_, labels)) => labels.push(&c.label),
                None => left_out.push((c.left_out, vec![&c.label])),
            }
        }
        let not_counted: String = left_out
            .iter()
            .map(|(n, labels)| {
                format!(
                    "; not counted: {n} tool{} that {} cannot take",
                    if *n == 1 { "" } else { "s" },
                    labels.join(", ")
                )
            })
            .collect();
        let most = if names.is_empty() {
            String::new()
        } else {
            format!("; the most expensive: {}", names.join(", "))
        };
        out.push(Violation {
            tool: None,
            pointer: String::new(),
            message: format!(
                "the catalog of {tools} tool{} costs about {} (o200k_base over compact JSON){not_counted}{most}",
                if tools == 1 { "" } else { "s" },
                totals.join(", "),
            ),
            help: "every request carries the whole catalog: trim the most expensive tools first, and past a few dozen tools send only the ones a task needs (tool search)".to_owned(),
        });
    }
}
