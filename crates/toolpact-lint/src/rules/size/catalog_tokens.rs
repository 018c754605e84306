use super::tokens::TokenCounter;
use crate::context::{Context, TargetExport};
use crate::rule::{Rule, RuleMeta, RuleOption, Violation, declare_rule};
use crate::rules::exported::items_by_position;
use crate::rules::message::thousands;
use serde_json::Value;
use std::ops::Range;

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
    /// costs money and latency on every turn and takes context the conversation needs, and
    /// OpenAI advises fewer than 20 functions up front because models choose worse among
    /// many. Knowing which tools cost most says where trimming pays.
    ///
    /// ## Example
    /// A `do_everything` tool with a 2,300-character description and 30 properties for
    /// searching, ordering and paying: about 950 tokens on every request, whatever the user
    /// asks.
    ///
    /// ## Use instead
    /// Focused tools (`suggest_gifts`, `create_order`) with descriptions that say what each
    /// does and when to call it, a few hundred tokens each, and tool search or per-task
    /// catalogs once there are many.
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

/// Tokens per tool (by catalog position) for one way of sending the catalog.
struct Costs {
    label: String,
    per_tool: Vec<Option<usize>>,
    total: usize,
    left_out: usize,
}

/// An export's items by catalog position: `None` where the target left the tool out.
fn items_by_tool<'c>(export: &TargetExport<'c>, tools: usize) -> Vec<Option<&'c Value>> {
    let mut by_tool = vec![None; tools];
    for (index, item) in items_by_position(export, tools) {
        if let Some(slot) = by_tool.get_mut(index) {
            *slot = Some(item);
        }
    }
    by_tool
}

/// The tokens of the tools in `range`, for each export: `result[export][tool - start]`.
///
/// Tool by tool rather than target by target: the descriptions and names of one tool recur
/// in every target, so each is counted once and then found among the units remembered for
/// that tool.
fn count_range(
    columns: &[Vec<Option<&Value>>],
    range: Range<usize>,
    counter: &mut TokenCounter,
) -> Vec<Vec<Option<usize>>> {
    let mut out = vec![Vec::with_capacity(range.len()); columns.len()];
    let mut buffer = Vec::new();
    for i in range {
        for (column, counts) in columns.iter().zip(out.iter_mut()) {
            counts.push(column[i].map(|item| counter.count_json(item, &mut buffer)));
        }
        counter.forget_units();
    }
    out
}

/// The costs of every export, in their order. Large catalogs are split into ranges of
/// tools counted on separate threads, each with its own cache.
fn costs_of_exports(
    exports: &[TargetExport],
    tools: usize,
    counter: &mut TokenCounter,
) -> Vec<Costs> {
    let columns: Vec<Vec<Option<&Value>>> =
        exports.iter().map(|e| items_by_tool(e, tools)).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(tools / PARALLEL_FROM)
        .max(1);
    let counts: Vec<Vec<Option<usize>>> = if threads == 1 {
        count_range(&columns, 0..tools, counter)
    } else {
        let step = tools.div_ceil(threads);
        let ranges: Vec<Range<usize>> = (0..threads)
            .map(|t| (t * step).min(tools)..((t + 1) * step).min(tools))
            .collect();
        let parts: Vec<Vec<Vec<Option<usize>>>> = std::thread::scope(|scope| {
            let columns = &columns;
            let handles: Vec<_> = ranges
                .iter()
                .cloned()
                .map(|range| {
                    scope.spawn(move || {
                        let mut counter = TokenCounter::new()?;
                        Some(count_range(columns, range, &mut counter))
                    })
                })
                .collect();
            handles
                .into_iter()
                .zip(&ranges)
                .map(|(handle, range)| {
                    // A thread that failed is counted again here rather than lost.
                    handle
                        .join()
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| count_range(columns, range.clone(), counter))
                })
                .collect()
        });
        let mut merged = vec![Vec::with_capacity(tools); exports.len()];
        for part in parts {
            for (all, some) in merged.iter_mut().zip(part) {
                all.extend(some);
            }
        }
        merged
    };
    exports
        .iter()
        .zip(counts)
        .map(|(export, per_tool)| Costs {
            label: export.label(),
            total: per_tool.iter().flatten().sum(),
            left_out: export.export.report.left_out.len(),
            per_tool,
        })
        .collect()
}

/// How many tools each counting thread gets at least.
const PARALLEL_FROM: usize = 5_000;

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

    fn uses_exports(&self) -> bool {
        true
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
        let exports = cx.exports();
        let costs: Vec<Costs> = if exports.is_empty() {
            vec![costs_of_tools(cx, &mut counter)]
        } else {
            costs_of_exports(&exports, tools, &mut counter)
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
                "the catalog of {} tool{} costs about {} (o200k_base over compact JSON){not_counted}{most}",
                thousands(tools),
                if tools == 1 { "" } else { "s" },
                totals.join(", "),
            ),
            help: "every request carries the whole catalog: trim the most expensive tools first, and past a few dozen tools send only the ones a task needs (tool search)".to_owned(),
        });
    }
}
