use crate::analysis::message::thousands;
use crate::analysis::tokens::{Shared, TokenCounter};
use crate::context::Context;
use crate::engine::blocks::{Block, Sent, export_label};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{Part, ReadsExports, Rule, declare_rule, parts_of};

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

/// What the rule keeps of a block: for each export (or for the tool JSON, when no target is
/// configured), the tokens of each tool of the block (`None` where the target leaves it
/// out), and how many tools it leaves out.
struct Gathered {
    per_export: Vec<Vec<Option<usize>>>,
    left_out: Vec<usize>,
}

/// The tokens of the block's tools, for each export: `result[export][tool - start]`.
///
/// Tool by tool rather than target by target: the descriptions and names of one tool recur
/// in every target, so each is counted once and then found among the units remembered for
/// that tool; and the input schema, which most targets send as written, is counted once.
fn count_block(
    cx: &Context<'_>,
    block: &Block<'_>,
    counter: &mut TokenCounter,
) -> Vec<Vec<Option<usize>>> {
    let start = block.range.start;
    let columns: Vec<Vec<Option<Sent<'_>>>> = block
        .exports
        .iter()
        .map(|export| {
            let mut column = vec![None; block.range.len()];
            for sent in export.sent() {
                if let Some(slot) = column.get_mut(sent.index - start) {
                    *slot = Some(sent);
                }
            }
            column
        })
        .collect();
    let mut out = vec![Vec::with_capacity(block.range.len()); columns.len()];
    let mut buffer = Vec::new();
    for (i, entry) in cx.catalog.entries[block.range.clone()].iter().enumerate() {
        // Most targets send the input schema as written: its inside is counted once.
        let mut schema = Shared::new(&entry.tool.input_schema);
        for (column, counts) in columns.iter().zip(out.iter_mut()) {
            counts.push(column[i].map(|sent| {
                // The item is written around its input schema, so that no copy of the
                // schema is made: its text is the schema's.
                let lowered = sent.lowered;
                buffer.clear();
                let at = lowered.write_item_around_input_schema(&mut buffer);
                match (at, sent.input_schema()) {
                    (Some(at), Some(_)) if lowered.input_schema_as_written() => {
                        counter.count_json_around(&buffer, at, &mut schema)
                    }
                    (Some(at), Some(input)) => {
                        counter.count_json_holding(&buffer, at, input, &mut schema)
                    }
                    _ => counter.count_json_text(&buffer),
                }
            }));
        }
        counter.forget_units();
    }
    out
}

/// The neutral tool JSON of the block's tools, for when no target is configured.
fn count_tools(
    cx: &Context<'_>,
    block: &Block<'_>,
    counter: &mut TokenCounter,
) -> Vec<Option<usize>> {
    block
        .range
        .clone()
        .map(|i| {
            let tool = &cx.catalog.entries.get(i)?.tool;
            let count = serde_json::to_string(tool)
                .ok()
                .map(|json| counter.count(&json));
            counter.forget_units();
            count
        })
        .collect()
}

/// One worker's counter, kept from block to block in its scratch: the chunks it remembers
/// recur all over a catalog. `None` until the encoding is loaded.
#[derive(Default)]
struct Counter(Option<TokenCounter>);

impl Rule for CatalogTokens {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ReadsExports for CatalogTokens {
    fn gather(&self, cx: &Context<'_>, block: &Block<'_>) -> Part {
        block.scratch().with(|Counter(counter): &mut Counter| {
            if counter.is_none() {
                *counter = TokenCounter::new();
            }
            let Some(counter) = counter else {
                return Box::new(()) as Part;
            };
            Box::new(if block.exports.is_empty() {
                Gathered {
                    per_export: vec![count_tools(cx, block, counter)],
                    left_out: vec![0],
                }
            } else {
                Gathered {
                    per_export: count_block(cx, block, counter),
                    left_out: block.exports.iter().map(|e| e.left_out().len()).collect(),
                }
            })
        })
    }

    fn report(&self, cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>) {
        let tools = cx.catalog.len();
        if tools == 0 {
            return;
        }
        // No part when the encoding could not be loaded.
        let Some(mut counter) = TokenCounter::new() else {
            return;
        };
        let labels: Vec<String> = {
            let labels: Vec<String> = cx
                .export_targets()
                .map(|(target, strict)| export_label(target, strict))
                .collect();
            if labels.is_empty() {
                vec!["MCP tool JSON".to_owned()]
            } else {
                labels
            }
        };
        let mut costs: Vec<Costs> = labels
            .into_iter()
            .map(|label| Costs {
                label,
                per_tool: Vec::with_capacity(tools),
                total: 0,
                left_out: 0,
            })
            .collect();
        for part in parts_of::<Gathered>(parts) {
            for ((cost, per_tool), left_out) in
                costs.iter_mut().zip(part.per_export).zip(part.left_out)
            {
                cost.total += per_tool.iter().flatten().sum::<usize>();
                cost.per_tool.extend(per_tool);
                cost.left_out += left_out;
            }
        }
        if costs.iter().any(|c| c.per_tool.len() != tools) {
            return;
        }
        let threshold =
            usize::try_from(cx.option(&Self::META, "max-tool-tokens")).unwrap_or(usize::MAX);

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
                help: "shorten the description to what the tool does and when to call it, trim long enums and nested options, or split the tool into focused ones".into(),
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
            help: "every request carries the whole catalog: trim the most expensive tools first, and past a few dozen tools send only the ones a task needs (tool search)".into(),
        });
    }
}
