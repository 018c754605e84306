//! Comparing two versions of a set of tools: every change to every tool's contract, with the
//! tool, the JSON pointer, a class and one line saying what changed.
//!
//! # Classes
//!
//! - **Breaking** for callers: a tool removed; a new required property; a property removed
//!   or made required; a type, enum, range, length or item count narrowed; a `pattern` or
//!   `format` added or changed; `additionalProperties` closed; a keyword whose effect cannot
//!   be judged (`$ref`, `not`, `if`, …) changed. For the output schema the direction turns
//!   around, since clients read results and MCP clients check them against the output
//!   schema: an output property removed or no longer required, an output type changed or
//!   widened, an output enum value added, the output schema removed.
//! - **Behaviour**: annotations (`readOnlyHint` going from true to false and `destructiveHint`
//!   coming to apply are marked security-relevant), `_meta`, icons, a schema's `default`,
//!   unknown fields and keywords.
//! - **Description**: the text the model reads: titles, descriptions (of the tool and of
//!   every property) and `examples`, each with a word diff.
//! - **Compatible**: a new tool, a new optional property, an enum or range widened, a
//!   required property made optional, and the same meaning written differently (`true`
//!   for `{}`, `required` names reordered).
//!
//! Tools are matched by name (in NFC). A tool that disappears while another appears with
//! nearly the same contract is reported as removed and added, with a "probably renamed" hint:
//! nearly the same means the same input schema with at least one property, or contracts
//! (without the name) that share at least 80% of the lines of their pretty canonical JSON
//! (the Sørensen–Dice coefficient over the lines that are more than brackets).
//!
//! Contracts are compared in canonical form (see [`crate::canonical`]), so key order, `1`
//! against `1.0` and NFC against NFD never show as changes, and two tools with different
//! hashes always show at least one change. Schemas are walked through `properties`, `items`,
//! `prefixItems`, `$defs`, `anyOf`/`oneOf`/`allOf` and the other subschema keywords, at most
//! [`MAX_DEPTH`] levels deep; a change deeper than that is reported once, as breaking, at the
//! level where the walk stopped.

use crate::canonical::{canonical_contract, to_canonical_string, utf16_cmp};
use crate::schema::{MAX_DEPTH, child_pointer};
use crate::tool::Tool;
use serde::Serialize;
use serde_json::{Map, Value};
use similar::{Algorithm, ChangeTag};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

/// How a change affects the tool's users. Ordered from least to most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeClass {
    /// Existing callers and clients keep working.
    Compatible,
    /// Only text the model reads changed (titles, descriptions, examples).
    Description,
    /// What the tool says about its effects changed (annotations, `_meta`, defaults).
    Behaviour,
    /// Existing callers or clients may break.
    Breaking,
}

impl ChangeClass {
    /// Every class, most serious first (the order of a report).
    pub const ALL: [ChangeClass; 4] = [
        ChangeClass::Breaking,
        ChangeClass::Behaviour,
        ChangeClass::Description,
        ChangeClass::Compatible,
    ];

    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeClass::Compatible => "compatible",
            ChangeClass::Description => "description",
            ChangeClass::Behaviour => "behaviour",
            ChangeClass::Breaking => "breaking",
        }
    }
}

impl fmt::Display for ChangeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of change, for programs that read a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// A tool is gone.
    ToolRemoved,
    /// A tool is new.
    ToolAdded,
    /// A property is gone.
    PropertyRemoved,
    /// A property is new (required or optional; the message says which).
    PropertyAdded,
    /// An existing property became required.
    RequiredAdded,
    /// A required property became optional.
    RequiredRemoved,
    /// `type` accepts fewer types.
    TypeNarrowed,
    /// `type` accepts more types.
    TypeWidened,
    /// `type` accepts other types.
    TypeChanged,
    /// An `enum` value is gone.
    EnumValueRemoved,
    /// An `enum` value is new.
    EnumValueAdded,
    /// A constraint (range, length, item count, pattern, format, `enum` or `const` as a
    /// whole) accepts fewer values.
    ConstraintNarrowed,
    /// A constraint accepts more values.
    ConstraintWidened,
    /// A constraint accepts other values.
    ConstraintChanged,
    /// `additionalProperties` now refuses properties it allowed.
    AdditionalPropertiesClosed,
    /// `additionalProperties` now allows properties it refused.
    AdditionalPropertiesOpened,
    /// The output schema is gone.
    OutputSchemaRemoved,
    /// The output schema is new.
    OutputSchemaAdded,
    /// Another schema keyword changed (`$ref`, `anyOf` branches, `$defs`, `not`, …).
    SchemaChanged,
    /// A schema's `default` changed.
    DefaultChanged,
    /// An annotation changed.
    AnnotationChanged,
    /// A `_meta` entry changed.
    MetaChanged,
    /// The icons changed.
    IconsChanged,
    /// A field toolpact does not know changed.
    FieldChanged,
    /// A title, description or `examples` changed.
    TextChanged,
    /// The same meaning, written differently (reordered, or `true` for `{}`).
    Rewritten,
}

impl ChangeKind {
    /// The kebab-case name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::ToolRemoved => "tool-removed",
            ChangeKind::ToolAdded => "tool-added",
            ChangeKind::PropertyRemoved => "property-removed",
            ChangeKind::PropertyAdded => "property-added",
            ChangeKind::RequiredAdded => "required-added",
            ChangeKind::RequiredRemoved => "required-removed",
            ChangeKind::TypeNarrowed => "type-narrowed",
            ChangeKind::TypeWidened => "type-widened",
            ChangeKind::TypeChanged => "type-changed",
            ChangeKind::EnumValueRemoved => "enum-value-removed",
            ChangeKind::EnumValueAdded => "enum-value-added",
            ChangeKind::ConstraintNarrowed => "constraint-narrowed",
            ChangeKind::ConstraintWidened => "constraint-widened",
            ChangeKind::ConstraintChanged => "constraint-changed",
            ChangeKind::AdditionalPropertiesClosed => "additional-properties-closed",
            ChangeKind::AdditionalPropertiesOpened => "additional-properties-opened",
            ChangeKind::OutputSchemaRemoved => "output-schema-removed",
            ChangeKind::OutputSchemaAdded => "output-schema-added",
            ChangeKind::SchemaChanged => "schema-changed",
            ChangeKind::DefaultChanged => "default-changed",
            ChangeKind::AnnotationChanged => "annotation-changed",
            ChangeKind::MetaChanged => "meta-changed",
            ChangeKind::IconsChanged => "icons-changed",
            ChangeKind::FieldChanged => "field-changed",
            ChangeKind::TextChanged => "text-changed",
            ChangeKind::Rewritten => "rewritten",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change to one tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// The tool's name (in NFC).
    pub tool: String,
    /// JSON pointer into the tool's contract (MCP field names), such as
    /// `/inputSchema/properties/city`; empty for the whole tool.
    pub pointer: String,
    /// How the change affects users.
    pub class: ChangeClass,
    /// What kind of change.
    pub kind: ChangeKind,
    /// What changed, in one line.
    pub message: String,
    /// Whether the change matters for security: a tool that was read-only no longer is, or a
    /// tool may now destroy data.
    pub security: bool,
    /// For a text change: the old and new text and their word diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<TextChange>,
    /// For a new tool: the removed tool it was probably renamed from.
    #[serde(rename = "renamedFrom", skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// For a removed tool: the new tool it was probably renamed to.
    #[serde(rename = "renamedTo", skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
}

/// A text that changed, with its word diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextChange {
    /// The old text, or `None` when there was none.
    pub old: Option<String>,
    /// The new text, or `None` when there is none.
    pub new: Option<String>,
    /// The word diff: runs of equal, deleted and inserted text, which put together give the
    /// old text (equal and deleted runs) and the new text (equal and inserted runs).
    pub words: Vec<WordChange>,
}

/// One run of a word diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WordChange {
    /// Whether the run is in both texts, only the old, or only the new.
    pub op: WordOp,
    /// The run, with the whitespace inside it.
    pub text: String,
}

/// The operation of a word-diff run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WordOp {
    /// In both texts.
    Equal,
    /// Only in the old text.
    Delete,
    /// Only in the new text.
    Insert,
}

/// Texts longer than this many words (either side) are shown as replaced whole, so that a
/// hostile megabyte of description cannot make the word diff quadratic.
const MAX_DIFF_WORDS: usize = 2000;

/// Words of unchanged text kept around each change when a word diff is rendered.
const CONTEXT_WORDS: usize = 5;

impl TextChange {
    /// The word diff of two texts.
    pub fn new(old: Option<&str>, new: Option<&str>) -> TextChange {
        let (a, b) = (old.unwrap_or(""), new.unwrap_or(""));
        let mut words: Vec<WordChange> = Vec::new();
        let mut push = |op: WordOp, text: &str| {
            if text.is_empty() {
                return;
            }
            match words.last_mut() {
                Some(last) if last.op == op => last.text.push_str(text),
                _ => words.push(WordChange {
                    op,
                    text: text.to_owned(),
                }),
            }
        };
        let too_long = |s: &str| s.split_whitespace().nth(MAX_DIFF_WORDS).is_some();
        if too_long(a) || too_long(b) {
            push(WordOp::Delete, a);
            push(WordOp::Insert, b);
        } else {
            for (tag, run) in similar::utils::diff_words(Algorithm::Myers, a, b) {
                let op = match tag {
                    ChangeTag::Equal => WordOp::Equal,
                    ChangeTag::Delete => WordOp::Delete,
                    ChangeTag::Insert => WordOp::Insert,
                };
                push(op, run);
            }
        }
        TextChange {
            old: old.map(str::to_owned),
            new: new.map(str::to_owned),
            words,
        }
    }

    /// The word diff on one line, as `git diff --word-diff` writes it: `[-deleted-]{+inserted+}`,
    /// unchanged text shortened to a few words around each change, line breaks shown as `\n`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let last = self.words.len().saturating_sub(1);
        for (i, run) in self.words.iter().enumerate() {
            match run.op {
                WordOp::Delete => {
                    out.push_str("[-");
                    out.push_str(&run.text);
                    out.push_str("-]");
                }
                WordOp::Insert => {
                    out.push_str("{+");
                    out.push_str(&run.text);
                    out.push_str("+}");
                }
                WordOp::Equal => out.push_str(&shorten(&run.text, i == 0, i == last)),
            }
        }
        out.replace("\r\n", "\\n").replace('\n', "\\n")
    }
}

/// Unchanged text around changes, cut to [`CONTEXT_WORDS`] words on each side that touches one.
fn shorten(text: &str, first: bool, last: bool) -> String {
    let words: Vec<(usize, usize)> = word_spans(text);
    let n = CONTEXT_WORDS;
    match (first, last) {
        (true, true) => text.to_owned(),
        (true, false) if words.len() > n => format!("… {}", &text[words[words.len() - n].0..]),
        (false, true) if words.len() > n => format!("{} …", &text[..words[n - 1].1]),
        (false, false) if words.len() > 2 * n => format!(
            "{} … {}",
            &text[..words[n - 1].1],
            &text[words[words.len() - n].0..]
        ),
        _ => text.to_owned(),
    }
}

/// Byte ranges of the words (runs of non-whitespace) of a text.
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// Every change between two versions of a set of tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Diff {
    /// The changes, sorted by tool name, then pointer.
    pub changes: Vec<Change>,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The most serious class among the changes.
    pub fn max_class(&self) -> Option<ChangeClass> {
        self.changes.iter().map(|c| c.class).max()
    }

    /// How many changes are of `class`.
    pub fn count(&self, class: ChangeClass) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// The names of the tools with at least one change, sorted.
    pub fn changed_tools(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.changes.iter().map(|c| c.tool.as_str()).collect();
        names.sort_by(|a, b| utf16_cmp(a, b));
        names.dedup();
        names
    }

    /// The changes to one tool.
    pub fn of_tool<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Change> + 'a {
        self.changes.iter().filter(move |c| c.tool == name)
    }
}

/// Every change from `old` to `new` (see the [module documentation](self) for the classes).
pub fn diff(old: &[Tool], new: &[Tool]) -> Diff {
    let old: Vec<(String, Value)> = old.iter().map(named_contract).collect();
    let new: Vec<(String, Value)> = new.iter().map(named_contract).collect();
    // Tools are paired by name; when a name appears more than once on a side, the k-th tool
    // of that name on one side pairs with the k-th on the other.
    let mut unpaired_new: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (j, (name, _)) in new.iter().enumerate() {
        unpaired_new.entry(name.as_str()).or_default().push_back(j);
    }
    let mut changes = Vec::new();
    let mut removed = Vec::new();
    let mut paired_new = vec![false; new.len()];
    for (i, (name, contract)) in old.iter().enumerate() {
        match unpaired_new
            .get_mut(name.as_str())
            .and_then(VecDeque::pop_front)
        {
            Some(j) => {
                paired_new[j] = true;
                if *contract != new[j].1 {
                    let mut differ = Differ {
                        tool: name,
                        out: &mut changes,
                    };
                    differ.tool_contract(contract, &new[j].1);
                }
            }
            None => removed.push(i),
        }
    }
    let added: Vec<usize> = (0..new.len()).filter(|&j| !paired_new[j]).collect();
    let renames = probable_renames(&old, &new, &removed, &added);
    for &i in &removed {
        let rename = renames.iter().find(|r| r.old == i);
        let renamed_to = rename.map(|r| new[r.new].0.clone());
        let message = match &renamed_to {
            Some(to) => format!("tool removed; probably renamed to {to:?}"),
            None => "tool removed".to_owned(),
        };
        changes.push(Change {
            renamed_to,
            ..change(
                &old[i].0,
                "",
                ChangeClass::Breaking,
                ChangeKind::ToolRemoved,
                message,
            )
        });
    }
    for &j in &added {
        let rename = renames.iter().find(|r| r.new == j);
        let renamed_from = rename.map(|r| old[r.old].0.clone());
        let message = match (rename, &renamed_from) {
            (Some(r), Some(from)) => {
                format!("new tool; probably renamed from {from:?} ({})", r.why)
            }
            _ => "new tool".to_owned(),
        };
        changes.push(Change {
            renamed_from,
            ..change(
                &new[j].0,
                "",
                ChangeClass::Compatible,
                ChangeKind::ToolAdded,
                message,
            )
        });
    }
    changes.sort_by(|a, b| utf16_cmp(&a.tool, &b.tool).then_with(|| a.pointer.cmp(&b.pointer)));
    Diff { changes }
}

fn named_contract(tool: &Tool) -> (String, Value) {
    let contract = canonical_contract(tool);
    let name = contract
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    (name, contract)
}

fn change(
    tool: &str,
    pointer: &str,
    class: ChangeClass,
    kind: ChangeKind,
    message: String,
) -> Change {
    Change {
        tool: tool.to_owned(),
        pointer: pointer.to_owned(),
        class,
        kind,
        message,
        security: false,
        text: None,
        renamed_from: None,
        renamed_to: None,
    }
}

struct Rename {
    old: usize,
    new: usize,
    why: String,
}

/// Contracts (without the name) at least this alike are probably one tool renamed.
const RENAME_SIMILARITY: f64 = 0.8;

/// Past this many removed × added pairs, only identical input schemas count as a rename, so
/// that a catalog replaced whole does not cost a comparison of every pair.
const RENAME_MAX_PAIRS: usize = 10_000;

fn probable_renames(
    old: &[(String, Value)],
    new: &[(String, Value)],
    removed: &[usize],
    added: &[usize],
) -> Vec<Rename> {
    let compare_lines = removed.len().saturating_mul(added.len()) <= RENAME_MAX_PAIRS;
    let lines_of = |contract: &Value| -> HashMap<String, usize> {
        if compare_lines {
            contract_lines(contract)
        } else {
            HashMap::new()
        }
    };
    let old_lines: HashMap<usize, HashMap<String, usize>> =
        removed.iter().map(|&i| (i, lines_of(&old[i].1))).collect();
    let new_lines: HashMap<usize, HashMap<String, usize>> =
        added.iter().map(|&j| (j, lines_of(&new[j].1))).collect();
    let mut candidates: Vec<(f64, usize, usize, String)> = Vec::new();
    for &i in removed {
        for &j in added {
            let (a, b) = (&old[i].1, &new[j].1);
            let same_input = a.get("inputSchema") == b.get("inputSchema")
                && a.pointer("/inputSchema/properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
            let similarity = match (old_lines.get(&i), new_lines.get(&j)) {
                (Some(x), Some(y)) => dice(x, y),
                _ => 0.0,
            };
            if same_input {
                candidates.push((1.0 + similarity, i, j, "the same input schema".to_owned()));
            } else if similarity >= RENAME_SIMILARITY {
                let percent = (similarity * 100.0).floor();
                candidates.push((similarity, i, j, format!("{percent}% alike")));
            }
        }
    }
    // Best pairs first; ties in the order of the names, so the result does not depend on
    // the order of the input.
    candidates.sort_by(|x, y| {
        y.0.total_cmp(&x.0)
            .then_with(|| utf16_cmp(&old[x.1].0, &old[y.1].0))
            .then_with(|| utf16_cmp(&new[x.2].0, &new[y.2].0))
    });
    let mut taken_old = HashSet::new();
    let mut taken_new = HashSet::new();
    let mut renames = Vec::new();
    for (_, i, j, why) in candidates {
        if taken_old.contains(&i) || taken_new.contains(&j) {
            continue;
        }
        taken_old.insert(i);
        taken_new.insert(j);
        renames.push(Rename {
            old: i,
            new: j,
            why,
        });
    }
    renames
}

/// The lines of a contract's pretty canonical JSON that say something (not only brackets),
/// without the name and without trailing commas, with how often each occurs.
fn contract_lines(contract: &Value) -> HashMap<String, usize> {
    let mut contract = contract.clone();
    if let Some(obj) = contract.as_object_mut() {
        obj.shift_remove("name");
    }
    let text = serde_json::to_string_pretty(&contract).unwrap_or_default();
    let mut lines = HashMap::new();
    for line in text.lines() {
        let line = line.trim().trim_end_matches(',');
        if line.chars().any(char::is_alphanumeric) {
            *lines.entry(line.to_owned()).or_insert(0) += 1;
        }
    }
    lines
}

/// How alike two multisets of lines are: twice the lines they share over all their lines
/// (the Sørensen–Dice coefficient), from 0 to 1. Linear in the number of lines, unlike a diff.
fn dice(a: &HashMap<String, usize>, b: &HashMap<String, usize>) -> f64 {
    let total: usize = a.values().sum::<usize>() + b.values().sum::<usize>();
    if total == 0 {
        return 0.0;
    }
    let shared: usize = a
        .iter()
        .map(|(line, n)| (*n).min(b.get(line).copied().unwrap_or(0)))
        .sum();
    2.0 * shared as f64 / total as f64
}

/// Whether a schema describes what the caller sends (arguments) or what the tool returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

/// Which way a constraint moved: the values the new schema accepts, against the old.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Fewer values.
    Narrower,
    /// More values.
    Wider,
    /// Other values (some lost, some gained), or no way to tell.
    Changed,
    /// The same values.
    Same,
}

/// Arguments are sent by callers: accepting fewer breaks them. Results are read by clients:
/// producing values the old schema did not allow breaks them.
fn class_of(side: Side, direction: Direction) -> ChangeClass {
    match (side, direction) {
        (_, Direction::Changed) => ChangeClass::Breaking,
        (_, Direction::Same) => ChangeClass::Compatible,
        (Side::Input, Direction::Narrower) | (Side::Output, Direction::Wider) => {
            ChangeClass::Breaking
        }
        (Side::Input, Direction::Wider) | (Side::Output, Direction::Narrower) => {
            ChangeClass::Compatible
        }
    }
}

const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// Keywords holding one subschema that constrains in the same direction as its parent; an
/// absent one is the schema `true`.
const SAME_DIRECTION_SUBSCHEMAS: &[&str] = &[
    "items",
    "additionalItems",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];

/// Keywords whose change toolpact cannot judge the direction of.
const OPAQUE_KEYWORDS: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "not",
    "if",
    "contains",
    "dependentRequired",
    "dependencies",
    "contentMediaType",
    "contentEncoding",
];

struct Differ<'a> {
    tool: &'a str,
    out: &'a mut Vec<Change>,
}

impl Differ<'_> {
    fn push(
        &mut self,
        pointer: &str,
        class: ChangeClass,
        kind: ChangeKind,
        message: String,
    ) -> &mut Change {
        self.out
            .push(change(self.tool, pointer, class, kind, message));
        let last = self.out.len() - 1;
        &mut self.out[last]
    }

    fn rewritten(&mut self, pointer: &str, what: &str) {
        self.push(
            pointer,
            ChangeClass::Compatible,
            ChangeKind::Rewritten,
            format!("{what} written differently; same meaning"),
        );
    }

    fn tool_contract(&mut self, old: &Value, new: &Value) {
        let empty = Map::new();
        let o = old.as_object().unwrap_or(&empty);
        let n = new.as_object().unwrap_or(&empty);
        for key in union_keys(o, n) {
            let (a, b) = (o.get(key), n.get(key));
            if a == b {
                continue;
            }
            let at = child_pointer("", key);
            let before = self.out.len();
            match key {
                "title" | "description" => {
                    self.text(&at, &format!("tool {key}"), a, b, ChangeClass::Description)
                }
                "inputSchema" => self.schema(
                    Side::Input,
                    &at,
                    a.unwrap_or(&Value::Bool(true)),
                    b.unwrap_or(&Value::Bool(true)),
                    0,
                ),
                "outputSchema" => match (a, b) {
                    (Some(a), Some(b)) => self.schema(Side::Output, &at, a, b, 0),
                    (Some(_), None) => {
                        self.push(
                            &at,
                            ChangeClass::Breaking,
                            ChangeKind::OutputSchemaRemoved,
                            "output schema removed: clients can no longer rely on structured results"
                                .to_owned(),
                        );
                    }
                    _ => {
                        self.push(
                            &at,
                            ChangeClass::Compatible,
                            ChangeKind::OutputSchemaAdded,
                            "output schema added".to_owned(),
                        );
                    }
                },
                "annotations" => self.annotations(a, b),
                "_meta" => self.meta(a, b),
                "icons" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::IconsChanged,
                        format!("icons {}", verb(a, b)),
                    );
                }
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::FieldChanged,
                        format!("field {key:?} {}", from_to(a, b)),
                    );
                }
            }
            if self.out.len() == before {
                self.rewritten(&at, &format!("`{key}`"));
            }
        }
    }

    fn text(
        &mut self,
        pointer: &str,
        what: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        class: ChangeClass,
    ) {
        let (sa, sb) = (a.and_then(Value::as_str), b.and_then(Value::as_str));
        if (a.is_some() && sa.is_none()) || (b.is_some() && sb.is_none()) {
            self.push(
                pointer,
                class,
                ChangeKind::TextChanged,
                format!("{what} {}", from_to(a, b)),
            );
            return;
        }
        let change = self.push(
            pointer,
            class,
            ChangeKind::TextChanged,
            format!("{what} {}", verb(a, b)),
        );
        change.text = Some(TextChange::new(sa, sb));
    }

    fn schema(&mut self, side: Side, pointer: &str, old: &Value, new: &Value, depth: usize) {
        if old == new {
            return;
        }
        if depth > MAX_DEPTH {
            self.push(
                pointer,
                class_of(side, Direction::Changed),
                ChangeKind::SchemaChanged,
                format!(
                    "the schema changed more than {MAX_DEPTH} levels deep, where toolpact stops comparing"
                ),
            );
            return;
        }
        // `true` and `{}` both accept everything: compare `true` as `{}`, keyword by keyword.
        let empty = Map::new();
        if let (Some(o), Some(n)) = (as_schema_object(old, &empty), as_schema_object(new, &empty)) {
            if o == n {
                self.rewritten(pointer, "the schema");
            } else {
                self.schema_object(side, pointer, o, n, depth);
            }
            return;
        }
        let direction = match (old, new) {
            (_, Value::Bool(false)) => Direction::Narrower,
            (Value::Bool(false), _) => Direction::Wider,
            _ => Direction::Changed,
        };
        let kind = match direction {
            Direction::Narrower => ChangeKind::ConstraintNarrowed,
            Direction::Wider => ChangeKind::ConstraintWidened,
            _ => ChangeKind::SchemaChanged,
        };
        self.push(
            pointer,
            class_of(side, direction),
            kind,
            format!("schema changed from {} to {}", show(old), show(new)),
        );
    }

    fn schema_object(
        &mut self,
        side: Side,
        pointer: &str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        depth: usize,
    ) {
        let mut object_keywords_done = false;
        for key in union_keys(o, n) {
            let (a, b) = (o.get(key), n.get(key));
            if a == b {
                continue;
            }
            let at = child_pointer(pointer, key);
            let before = self.out.len();
            match key {
                "properties" | "required" | "additionalProperties" => {
                    if !object_keywords_done {
                        object_keywords_done = true;
                        self.object_keywords(side, pointer, o, n, depth);
                    }
                    continue;
                }
                "type" => self.type_keyword(side, &at, a, b),
                "enum" => self.enum_keyword(side, &at, a, b),
                "const" => {
                    let direction = match (a, b) {
                        (None, Some(_)) => Direction::Narrower,
                        (Some(_), None) => Direction::Wider,
                        _ => Direction::Changed,
                    };
                    self.constraint(side, &at, direction, format!("const {}", from_to(a, b)));
                }
                k if LOWER_BOUNDS.contains(&k) => self.bound(side, &at, k, a, b, true),
                k if UPPER_BOUNDS.contains(&k) => self.bound(side, &at, k, a, b, false),
                "multipleOf" => self.multiple_of(side, &at, a, b),
                "pattern" | "format" => {
                    let direction = match (a, b) {
                        (None, Some(_)) => Direction::Narrower,
                        (Some(_), None) => Direction::Wider,
                        _ => Direction::Changed,
                    };
                    self.constraint(side, &at, direction, format!("{key} {}", from_to(a, b)));
                }
                "uniqueItems" => {
                    let (x, y) = (a == Some(&Value::Bool(true)), b == Some(&Value::Bool(true)));
                    if x != y {
                        let (direction, message) = if y {
                            (Direction::Narrower, "items must now be unique")
                        } else {
                            (Direction::Wider, "items no longer need to be unique")
                        };
                        self.constraint(side, &at, direction, message.to_owned());
                    }
                }
                "description" | "title" => {
                    let what = format!("{key} of {}", subject(pointer));
                    self.text(&at, &what, a, b, ChangeClass::Description);
                }
                "examples" | "$comment" => {
                    self.push(
                        &at,
                        ChangeClass::Description,
                        ChangeKind::TextChanged,
                        format!("{key} of {} {}", subject(pointer), from_to(a, b)),
                    );
                }
                "default" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::DefaultChanged,
                        format!(
                            "default of {} {}: the value used when the argument is left out",
                            subject(pointer),
                            from_to(a, b)
                        ),
                    );
                }
                "deprecated" | "readOnly" | "writeOnly" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::AnnotationChanged,
                        format!("{key} of {} {}", subject(pointer), from_to(a, b)),
                    );
                }
                k if SAME_DIRECTION_SUBSCHEMAS.contains(&k) => match (a, b) {
                    (Some(Value::Array(x)), Some(Value::Array(y))) => {
                        self.positional(side, &at, x, y, depth);
                    }
                    _ => self.schema(
                        side,
                        &at,
                        a.unwrap_or(&Value::Bool(true)),
                        b.unwrap_or(&Value::Bool(true)),
                        depth + 1,
                    ),
                },
                "prefixItems" => match (a, b) {
                    (Some(Value::Array(x)), Some(Value::Array(y))) => {
                        self.positional(side, &at, x, y, depth);
                    }
                    (None, Some(_)) => {
                        self.constraint(side, &at, Direction::Narrower, "prefixItems added".into())
                    }
                    (Some(_), None) => {
                        self.constraint(side, &at, Direction::Wider, "prefixItems removed".into())
                    }
                    _ => self.opaque(side, &at, key, a, b),
                },
                "$defs" | "definitions" => self.definitions(side, &at, a, b, depth),
                "patternProperties" | "dependentSchemas" => {
                    self.schema_map(side, &at, key, a, b, depth)
                }
                "anyOf" | "oneOf" | "allOf" => self.branches(side, &at, key, a, b, depth),
                k if OPAQUE_KEYWORDS.contains(&k) => self.opaque(side, &at, key, a, b),
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::SchemaChanged,
                        format!(
                            "keyword `{key}` {}; toolpact does not know what it does",
                            from_to(a, b)
                        ),
                    );
                }
            }
            if self.out.len() == before {
                self.rewritten(&at, &format!("`{key}`"));
            }
        }
    }

    fn constraint(&mut self, side: Side, pointer: &str, direction: Direction, message: String) {
        let kind = match direction {
            Direction::Narrower => ChangeKind::ConstraintNarrowed,
            Direction::Wider => ChangeKind::ConstraintWidened,
            Direction::Changed => ChangeKind::ConstraintChanged,
            Direction::Same => ChangeKind::Rewritten,
        };
        self.push(pointer, class_of(side, direction), kind, message);
    }

    fn opaque(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
    ) {
        self.push(
            pointer,
            class_of(side, Direction::Changed),
            ChangeKind::SchemaChanged,
            format!("`{key}` {}", from_to(a, b)),
        );
    }

    fn object_keywords(
        &mut self,
        side: Side,
        pointer: &str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        depth: usize,
    ) {
        let empty = Map::new();
        let old_props = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_props = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let old_required = names(o.get("required"));
        let new_required = names(n.get("required"));
        let old_extra = Extra::of(o.get("additionalProperties"));
        let props_at = child_pointer(pointer, "properties");

        if o.get("properties") != n.get("properties") {
            let before = self.out.len();
            let malformed = |v: Option<&Value>| v.is_some_and(|v| !v.is_object());
            if malformed(o.get("properties")) || malformed(n.get("properties")) {
                self.opaque(
                    side,
                    &props_at,
                    "properties",
                    o.get("properties"),
                    n.get("properties"),
                );
            }
            for name in union_keys(old_props, new_props) {
                let at = child_pointer(&props_at, name);
                match (old_props.get(name), new_props.get(name)) {
                    (Some(x), Some(y)) => self.schema(side, &at, x, y, depth + 1),
                    (Some(_), None) => {
                        let message = match side {
                            Side::Input => {
                                let was = if old_required.contains(&name) {
                                    "required"
                                } else {
                                    "optional"
                                };
                                format!("property {name:?} removed (it was {was})")
                            }
                            Side::Output => format!(
                                "output property {name:?} removed: clients can no longer rely on it"
                            ),
                        };
                        self.push(
                            &at,
                            ChangeClass::Breaking,
                            ChangeKind::PropertyRemoved,
                            message,
                        );
                    }
                    (None, Some(_)) => {
                        let required = new_required.contains(&name);
                        let (class, message) = match side {
                            Side::Input if required => (
                                ChangeClass::Breaking,
                                format!(
                                    "new required property {name:?}: callers that leave it out are refused"
                                ),
                            ),
                            Side::Input => (
                                ChangeClass::Compatible,
                                format!("new optional property {name:?}"),
                            ),
                            Side::Output if old_extra == Extra::Closed => (
                                ChangeClass::Breaking,
                                format!(
                                    "new output property {name:?}, which the old output schema refused (additionalProperties: false)"
                                ),
                            ),
                            Side::Output => (
                                ChangeClass::Compatible,
                                format!("new output property {name:?}"),
                            ),
                        };
                        self.push(&at, class, ChangeKind::PropertyAdded, message);
                    }
                    (None, None) => {}
                }
            }
            if self.out.len() == before {
                self.rewritten(&props_at, "`properties`");
            }
        }

        if o.get("required") != n.get("required") {
            let at = child_pointer(pointer, "required");
            let before = self.out.len();
            let malformed = |v: Option<&Value>| v.is_some_and(|v| !v.is_array());
            if malformed(o.get("required")) || malformed(n.get("required")) {
                self.opaque(side, &at, "required", o.get("required"), n.get("required"));
            }
            for name in new_required.iter().filter(|r| !old_required.contains(r)) {
                if new_props.contains_key(*name) && !old_props.contains_key(*name) {
                    continue; // reported as a new property
                }
                let (class, message) = match side {
                    Side::Input => (
                        ChangeClass::Breaking,
                        format!("property {name:?} is now required"),
                    ),
                    Side::Output => (
                        ChangeClass::Compatible,
                        format!("output property {name:?} is now always present"),
                    ),
                };
                self.push(&at, class, ChangeKind::RequiredAdded, message);
            }
            for name in old_required.iter().filter(|r| !new_required.contains(r)) {
                if old_props.contains_key(*name) && !new_props.contains_key(*name) {
                    continue; // reported as a removed property
                }
                let (class, message) = match side {
                    Side::Input => (
                        ChangeClass::Compatible,
                        format!("required property {name:?} is now optional"),
                    ),
                    Side::Output => (
                        ChangeClass::Breaking,
                        format!(
                            "output property {name:?} is no longer required: results may leave it out"
                        ),
                    ),
                };
                self.push(&at, class, ChangeKind::RequiredRemoved, message);
            }
            let mut x = old_required.clone();
            let mut y = new_required.clone();
            x.sort_unstable();
            y.sort_unstable();
            if self.out.len() == before && x == y {
                self.push(
                    &at,
                    ChangeClass::Compatible,
                    ChangeKind::Rewritten,
                    "order of the required names changed".to_owned(),
                );
            } else if self.out.len() == before {
                x.dedup();
                y.dedup();
                if x == y {
                    self.rewritten(&at, "`required`");
                }
            }
        }

        if o.get("additionalProperties") != n.get("additionalProperties") {
            let at = child_pointer(pointer, "additionalProperties");
            let new_extra = Extra::of(n.get("additionalProperties"));
            let (direction, message) = match (old_extra, new_extra) {
                (Extra::Schema(x), Extra::Schema(y)) => {
                    return self.schema(side, &at, x, y, depth + 1);
                }
                (Extra::Open, Extra::Open) => (Direction::Same, ""),
                (Extra::Open, Extra::Closed) => (
                    Direction::Narrower,
                    "additionalProperties closed: properties not listed are now refused",
                ),
                (Extra::Open, Extra::Schema(_)) => (
                    Direction::Narrower,
                    "additionalProperties now constrained by a schema",
                ),
                (Extra::Schema(_), Extra::Closed) => (
                    Direction::Narrower,
                    "additionalProperties closed: properties not listed are now refused",
                ),
                (Extra::Closed, Extra::Open) | (Extra::Schema(_), Extra::Open) => (
                    Direction::Wider,
                    "additionalProperties opened: properties not listed are now allowed",
                ),
                (Extra::Closed, Extra::Schema(_)) => (
                    Direction::Wider,
                    "additionalProperties opened to properties matching a schema",
                ),
                (Extra::Closed, Extra::Closed) => (Direction::Same, ""),
            };
            match direction {
                Direction::Same => self.rewritten(&at, "`additionalProperties`"),
                Direction::Narrower => {
                    self.push(
                        &at,
                        class_of(side, direction),
                        ChangeKind::AdditionalPropertiesClosed,
                        message.to_owned(),
                    );
                }
                _ => {
                    self.push(
                        &at,
                        class_of(side, direction),
                        ChangeKind::AdditionalPropertiesOpened,
                        message.to_owned(),
                    );
                }
            }
        }
    }

    fn type_keyword(&mut self, side: Side, pointer: &str, a: Option<&Value>, b: Option<&Value>) {
        let (Some(x), Some(y)) = (types(a), types(b)) else {
            return self.opaque(side, pointer, "type", a, b);
        };
        let (narrower, wider) = (y.within(&x), x.within(&y));
        let (direction, kind, verb) = match (narrower, wider) {
            (true, true) => (
                Direction::Same,
                ChangeKind::Rewritten,
                "written differently",
            ),
            (true, false) => (Direction::Narrower, ChangeKind::TypeNarrowed, "narrowed"),
            (false, true) => (Direction::Wider, ChangeKind::TypeWidened, "widened"),
            (false, false) => (Direction::Changed, ChangeKind::TypeChanged, "changed"),
        };
        let show_types = |v: Option<&Value>| v.map_or_else(|| "any".to_owned(), show);
        self.push(
            pointer,
            class_of(side, direction),
            kind,
            format!("type {verb} from {} to {}", show_types(a), show_types(b)),
        );
    }

    fn enum_keyword(&mut self, side: Side, pointer: &str, a: Option<&Value>, b: Option<&Value>) {
        match (a, b) {
            (None, Some(Value::Array(values))) => self.constraint(
                side,
                pointer,
                Direction::Narrower,
                format!("enum added: only {} allowed", show_list(values)),
            ),
            (Some(Value::Array(_)), None) => self.constraint(
                side,
                pointer,
                Direction::Wider,
                "enum removed: any value of the type is allowed".to_owned(),
            ),
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                let xs: Vec<String> = x.iter().map(to_canonical_string).collect();
                let ys: Vec<String> = y.iter().map(to_canonical_string).collect();
                let before = self.out.len();
                for (value, key) in x.iter().zip(&xs) {
                    if !ys.contains(key) {
                        self.push(
                            pointer,
                            class_of(side, Direction::Narrower),
                            ChangeKind::EnumValueRemoved,
                            format!("enum value {} removed", show(value)),
                        );
                    }
                }
                for (value, key) in y.iter().zip(&ys) {
                    if !xs.contains(key) {
                        let why = match side {
                            Side::Input => "",
                            Side::Output => ": clients may not handle it",
                        };
                        self.push(
                            pointer,
                            class_of(side, Direction::Wider),
                            ChangeKind::EnumValueAdded,
                            format!("enum value {} added{why}", show(value)),
                        );
                    }
                }
                if self.out.len() == before {
                    self.push(
                        pointer,
                        ChangeClass::Compatible,
                        ChangeKind::Rewritten,
                        "order of the enum values changed".to_owned(),
                    );
                }
            }
            _ => self.opaque(side, pointer, "enum", a, b),
        }
    }

    fn bound(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        lower: bool,
    ) {
        // Draft 4 writes exclusive bounds as booleans beside `minimum`/`maximum`.
        if a.is_none_or(Value::is_boolean) && b.is_none_or(Value::is_boolean) {
            let (x, y) = (a == Some(&Value::Bool(true)), b == Some(&Value::Bool(true)));
            if x != y {
                let direction = if y {
                    Direction::Narrower
                } else {
                    Direction::Wider
                };
                self.constraint(side, pointer, direction, format!("{key} {}", from_to(a, b)));
            }
            return;
        }
        let (direction, message) = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(y)) if a.is_none() => {
                (Direction::Narrower, format!("{key} {} added", number(y)))
            }
            (Some(x), None) if b.is_none() => {
                (Direction::Wider, format!("{key} {} removed", number(x)))
            }
            (Some(x), Some(y)) => {
                let raised = y > x;
                let verb = if raised { "raised" } else { "lowered" };
                let direction = if raised == lower {
                    Direction::Narrower
                } else {
                    Direction::Wider
                };
                (
                    direction,
                    format!("{key} {verb} from {} to {}", number(x), number(y)),
                )
            }
            _ => return self.opaque(side, pointer, key, a, b),
        };
        self.constraint(side, pointer, direction, message);
    }

    fn multiple_of(&mut self, side: Side, pointer: &str, a: Option<&Value>, b: Option<&Value>) {
        let is_multiple = |big: f64, small: f64| {
            let r = big / small;
            r.is_finite() && (r - r.round()).abs() < 1e-9
        };
        let direction = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(_)) if a.is_none() => Direction::Narrower,
            (Some(_), None) if b.is_none() => Direction::Wider,
            (Some(x), Some(y)) if is_multiple(y, x) => Direction::Narrower,
            (Some(x), Some(y)) if is_multiple(x, y) => Direction::Wider,
            _ => Direction::Changed,
        };
        self.constraint(
            side,
            pointer,
            direction,
            format!("multipleOf {}", from_to(a, b)),
        );
    }

    /// `prefixItems`, or `items` as an array (drafts before 2020-12): one schema per position.
    fn positional(&mut self, side: Side, pointer: &str, x: &[Value], y: &[Value], depth: usize) {
        for i in 0..x.len().max(y.len()) {
            let at = child_pointer(pointer, &i.to_string());
            match (x.get(i), y.get(i)) {
                (Some(a), Some(b)) => self.schema(side, &at, a, b, depth + 1),
                (Some(_), None) => self.constraint(
                    side,
                    &at,
                    Direction::Wider,
                    format!("the schema for position {i} removed"),
                ),
                (None, Some(_)) => self.constraint(
                    side,
                    &at,
                    Direction::Narrower,
                    format!("a schema for position {i} added"),
                ),
                (None, None) => {}
            }
        }
    }

    fn definitions(
        &mut self,
        side: Side,
        pointer: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        depth: usize,
    ) {
        let empty = Map::new();
        let (Some(x), Some(y)) = (
            a.map_or(Some(&empty), Value::as_object),
            b.map_or(Some(&empty), Value::as_object),
        ) else {
            return self.opaque(side, pointer, "$defs", a, b);
        };
        for name in union_keys(x, y) {
            let at = child_pointer(pointer, name);
            match (x.get(name), y.get(name)) {
                (Some(p), Some(q)) => self.schema(side, &at, p, q, depth + 1),
                (Some(_), None) => {
                    self.push(
                        &at,
                        class_of(side, Direction::Changed),
                        ChangeKind::SchemaChanged,
                        format!("definition {name:?} removed"),
                    );
                }
                (None, Some(_)) => {
                    self.push(
                        &at,
                        ChangeClass::Compatible,
                        ChangeKind::SchemaChanged,
                        format!("definition {name:?} added"),
                    );
                }
                (None, None) => {}
            }
        }
    }

    /// `patternProperties` and `dependentSchemas`: each entry adds a constraint.
    fn schema_map(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        depth: usize,
    ) {
        let empty = Map::new();
        let (Some(x), Some(y)) = (
            a.map_or(Some(&empty), Value::as_object),
            b.map_or(Some(&empty), Value::as_object),
        ) else {
            return self.opaque(side, pointer, key, a, b);
        };
        for name in union_keys(x, y) {
            let at = child_pointer(pointer, name);
            match (x.get(name), y.get(name)) {
                (Some(p), Some(q)) => self.schema(side, &at, p, q, depth + 1),
                (Some(_), None) => self.constraint(
                    side,
                    &at,
                    Direction::Wider,
                    format!("{key} entry {name:?} removed"),
                ),
                (None, Some(_)) => self.constraint(
                    side,
                    &at,
                    Direction::Narrower,
                    format!("{key} entry {name:?} added"),
                ),
                (None, None) => {}
            }
        }
    }

    /// `anyOf`, `oneOf` and `allOf`. Lists of the same length are compared branch by branch;
    /// otherwise the branches only one side has are listed.
    fn branches(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        depth: usize,
    ) {
        // One more alternative accepts more; one more `allOf` part accepts fewer.
        let (on_add, on_remove) = if key == "allOf" {
            (Direction::Narrower, Direction::Wider)
        } else {
            (Direction::Wider, Direction::Narrower)
        };
        match (a, b) {
            (None, Some(_)) => {
                self.constraint(side, pointer, Direction::Narrower, format!("{key} added"))
            }
            (Some(_), None) => {
                self.constraint(side, pointer, Direction::Wider, format!("{key} removed"))
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    self.schema(
                        side,
                        &child_pointer(pointer, &i.to_string()),
                        p,
                        q,
                        depth + 1,
                    );
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                let xs: Vec<String> = x.iter().map(to_canonical_string).collect();
                let ys: Vec<String> = y.iter().map(to_canonical_string).collect();
                for (i, s) in xs.iter().enumerate() {
                    if !ys.contains(s) {
                        self.constraint(
                            side,
                            &child_pointer(pointer, &i.to_string()),
                            on_remove,
                            format!("{key} branch {i} removed"),
                        );
                    }
                }
                for (j, s) in ys.iter().enumerate() {
                    if !xs.contains(s) {
                        self.constraint(
                            side,
                            &child_pointer(pointer, &j.to_string()),
                            on_add,
                            format!("{key} branch {j} added"),
                        );
                    }
                }
            }
            _ => self.opaque(side, pointer, key, a, b),
        }
    }

    fn annotations(&mut self, a: Option<&Value>, b: Option<&Value>) {
        let empty = Map::new();
        let (Some(o), Some(n)) = (
            a.map_or(Some(&empty), Value::as_object),
            b.map_or(Some(&empty), Value::as_object),
        ) else {
            self.push(
                "/annotations",
                ChangeClass::Behaviour,
                ChangeKind::AnnotationChanged,
                format!("annotations {}", from_to(a, b)),
            );
            return;
        };
        let flag = |m: &Map<String, Value>, key: &str| m.get(key).and_then(Value::as_bool);
        let read_only = |m: &Map<String, Value>| flag(m, "readOnlyHint").unwrap_or(false);
        let destructive =
            |m: &Map<String, Value>| !read_only(m) && flag(m, "destructiveHint").unwrap_or(true);
        let idempotent =
            |m: &Map<String, Value>| read_only(m) || flag(m, "idempotentHint").unwrap_or(false);
        let open_world = |m: &Map<String, Value>| flag(m, "openWorldHint").unwrap_or(true);
        let declared = |m: &Map<String, Value>, key: &str| {
            m.get(key).map_or_else(|| "not set".to_owned(), show)
        };
        let hints: [(&str, bool, bool); 4] = [
            ("readOnlyHint", read_only(o), read_only(n)),
            ("destructiveHint", destructive(o), destructive(n)),
            ("idempotentHint", idempotent(o), idempotent(n)),
            ("openWorldHint", open_world(o), open_world(n)),
        ];
        let now_read_only = read_only(n);
        for (key, was, is) in hints {
            let at = child_pointer("/annotations", key);
            let how = if o.get(key) != n.get(key) {
                format!("{key} was {}, now {}", declared(o, key), declared(n, key))
            } else if n.get(key).is_none() {
                // The hint is the same; readOnlyHint changed what it means.
                let not = if now_read_only { "" } else { " not" };
                format!("{key} is not set, which means {is} for a tool that is{not} read-only")
            } else if now_read_only {
                format!(
                    "{key} is {}, which a read-only tool ignores",
                    declared(n, key)
                )
            } else {
                format!(
                    "{key} is {}, which applies now that the tool is not read-only",
                    declared(n, key)
                )
            };
            if was == is {
                if o.get(key) != n.get(key) {
                    self.rewritten(&at, &format!("{key} ({how}; in effect still {is})"));
                }
                continue;
            }
            let (security, meaning) = match (key, is) {
                ("readOnlyHint", false) => (true, "the tool is no longer read-only"),
                ("readOnlyHint", true) => (false, "the tool now says it is read-only"),
                ("destructiveHint", true) => (true, "the tool may now destroy or overwrite data"),
                ("destructiveHint", false) => {
                    (false, "the tool no longer says it may destroy data")
                }
                ("idempotentHint", true) => (false, "repeated calls now have no further effect"),
                ("idempotentHint", false) => (false, "repeated calls may now have further effects"),
                ("openWorldHint", true) => (
                    false,
                    "the tool now reaches an open world of external entities",
                ),
                _ => (false, "the tool now stays within a closed world"),
            };
            let change = self.push(
                &at,
                ChangeClass::Behaviour,
                ChangeKind::AnnotationChanged,
                format!("{meaning} ({how})"),
            );
            change.security = security;
        }
        for key in union_keys(o, n) {
            let (x, y) = (o.get(key), n.get(key));
            if x == y {
                continue;
            }
            let at = child_pointer("/annotations", key);
            match key {
                "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint"
                    if x.is_none_or(Value::is_boolean) && y.is_none_or(Value::is_boolean) => {}
                "title" => self.text(&at, "annotations title", x, y, ChangeClass::Description),
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::AnnotationChanged,
                        format!("annotation {key:?} {}", from_to(x, y)),
                    );
                }
            }
        }
    }

    fn meta(&mut self, a: Option<&Value>, b: Option<&Value>) {
        let empty = Map::new();
        let (Some(o), Some(n)) = (
            a.map_or(Some(&empty), Value::as_object),
            b.map_or(Some(&empty), Value::as_object),
        ) else {
            self.push(
                "/_meta",
                ChangeClass::Behaviour,
                ChangeKind::MetaChanged,
                format!("_meta {}", from_to(a, b)),
            );
            return;
        };
        for key in union_keys(o, n) {
            let (x, y) = (o.get(key), n.get(key));
            if x != y {
                self.push(
                    &child_pointer("/_meta", key),
                    ChangeClass::Behaviour,
                    ChangeKind::MetaChanged,
                    format!("_meta {key:?} {}", from_to(x, y)),
                );
            }
        }
    }
}

/// What `additionalProperties` allows.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Extra<'v> {
    Open,
    Closed,
    Schema(&'v Value),
}

impl<'v> Extra<'v> {
    fn of(value: Option<&'v Value>) -> Extra<'v> {
        match value {
            None | Some(Value::Bool(true)) => Extra::Open,
            Some(Value::Object(m)) if m.is_empty() => Extra::Open,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(schema) => Extra::Schema(schema),
        }
    }
}

/// A schema as an object, `true` as the empty object that means the same.
fn as_schema_object<'v>(
    schema: &'v Value,
    empty: &'v Map<String, Value>,
) -> Option<&'v Map<String, Value>> {
    match schema {
        Value::Object(m) => Some(m),
        Value::Bool(true) => Some(empty),
        _ => None,
    }
}

/// The names of a `required` array (strings only).
fn names(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The types a `type` keyword allows.
enum Types<'v> {
    /// No `type`: every type.
    Any,
    /// These types.
    Only(Vec<&'v str>),
}

impl Types<'_> {
    /// Whether every value of these types is of the `outer` types (`integer` is a `number`).
    fn within(&self, outer: &Types<'_>) -> bool {
        match (self, outer) {
            (_, Types::Any) => true,
            (Types::Any, Types::Only(_)) => false,
            (Types::Only(inner), Types::Only(outer)) => inner
                .iter()
                .all(|t| outer.contains(t) || (*t == "integer" && outer.contains(&"number"))),
        }
    }
}

/// The types of a `type` keyword, or `None` when it is not a string or an array of strings.
fn types(value: Option<&Value>) -> Option<Types<'_>> {
    match value {
        None => Some(Types::Any),
        Some(Value::String(t)) => Some(Types::Only(vec![t.as_str()])),
        Some(Value::Array(items)) => items
            .iter()
            .map(Value::as_str)
            .collect::<Option<Vec<&str>>>()
            .map(Types::Only),
        Some(_) => None,
    }
}

/// The keys of two objects, each once, in canonical (UTF-16) order.
fn union_keys<'m>(a: &'m Map<String, Value>, b: &'m Map<String, Value>) -> Vec<&'m str> {
    let mut keys: Vec<&str> = a.keys().chain(b.keys()).map(String::as_str).collect();
    keys.sort_by(|x, y| utf16_cmp(x, y));
    keys.dedup();
    keys
}

/// What a schema pointer is about, for messages: `property "city"`, `the input schema`.
fn subject(pointer: &str) -> String {
    match pointer {
        "/inputSchema" => return "the input schema".to_owned(),
        "/outputSchema" => return "the output schema".to_owned(),
        _ => {}
    }
    let tokens: Vec<&str> = pointer.split('/').collect();
    if let [.., parent, name] = tokens.as_slice()
        && *parent == "properties"
    {
        let name = name.replace("~1", "/").replace("~0", "~");
        return format!("property {name:?}");
    }
    pointer.to_owned()
}

/// `added`, `removed` or `changed`.
fn verb(a: Option<&Value>, b: Option<&Value>) -> &'static str {
    match (a, b) {
        (None, Some(_)) => "added",
        (Some(_), None) => "removed",
        _ => "changed",
    }
}

/// `added: X`, `removed (was X)` or `changed from X to Y`.
fn from_to(a: Option<&Value>, b: Option<&Value>) -> String {
    match (a, b) {
        (None, Some(y)) => format!("added: {}", show(y)),
        (Some(x), None) => format!("removed (was {})", show(x)),
        (Some(x), Some(y)) => format!("changed from {} to {}", show(x), show(y)),
        (None, None) => "unchanged".to_owned(),
    }
}

/// Values longer than this are cut in messages.
const MAX_SHOWN_CHARS: usize = 80;

/// A value in a message: canonical JSON, cut to [`MAX_SHOWN_CHARS`] characters.
fn show(value: &Value) -> String {
    let text = to_canonical_string(value);
    if text.chars().count() <= MAX_SHOWN_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_SHOWN_CHARS).collect();
    format!("{cut}…")
}

fn show_list(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().map(show).collect();
    shorten_list(&shown)
}

fn shorten_list(items: &[String]) -> String {
    const MAX_ITEMS: usize = 8;
    if items.len() <= MAX_ITEMS {
        items.join(", ")
    } else {
        format!(
            "{}, … ({} values)",
            items[..MAX_ITEMS].join(", "),
            items.len()
        )
    }
}

fn number(x: f64) -> String {
    crate::canonical::ecmascript_number(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(value: Value) -> Tool {
        serde_json::from_value(value).unwrap()
    }

    fn base() -> Value {
        json!({
            "name": "t",
            "description": "Does things.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "enum": ["x", "y"]},
                    "n": {"type": "integer", "minimum": 1, "maximum": 10}
                },
                "required": ["a"]
            }
        })
    }

    fn classes(old: Value, new: Value) -> Vec<(String, ChangeClass, ChangeKind)> {
        diff(&[tool(old)], &[tool(new)])
            .changes
            .into_iter()
            .map(|c| (c.pointer, c.class, c.kind))
            .collect()
    }

    #[test]
    fn the_same_contract_written_differently_has_no_changes() {
        let a = base();
        let mut b = base();
        b["inputSchema"]["properties"]["n"]["maximum"] = json!(10.0);
        b["description"] = json!("Does things.");
        assert!(diff(&[tool(a)], &[tool(b)]).is_empty());
    }

    #[test]
    fn output_changes_turn_the_direction_around() {
        let mut a = base();
        a["outputSchema"] = json!({"type": "object", "properties": {"r": {"type": "string", "enum": ["ok"]}}, "required": ["r"]});
        let mut b = a.clone();
        b["outputSchema"]["properties"]["r"]["enum"] = json!(["ok", "maybe"]);
        b["outputSchema"]["required"] = json!([]);
        assert_eq!(
            classes(a, b),
            vec![
                (
                    "/outputSchema/properties/r/enum".to_owned(),
                    ChangeClass::Breaking,
                    ChangeKind::EnumValueAdded
                ),
                (
                    "/outputSchema/required".to_owned(),
                    ChangeClass::Breaking,
                    ChangeKind::RequiredRemoved
                ),
            ]
        );
    }

    #[test]
    fn reordering_is_compatible_and_reported() {
        let a = base();
        let mut b = base();
        b["inputSchema"]["properties"]["a"]["enum"] = json!(["y", "x"]);
        assert_eq!(
            classes(a, b),
            vec![(
                "/inputSchema/properties/a/enum".to_owned(),
                ChangeClass::Compatible,
                ChangeKind::Rewritten
            )]
        );
    }

    #[test]
    fn read_only_to_writing_is_security_relevant() {
        let mut a = base();
        a["annotations"] = json!({"readOnlyHint": true});
        let mut b = base();
        b["annotations"] = json!({"readOnlyHint": false});
        let d = diff(&[tool(a)], &[tool(b)]);
        let flagged: Vec<(&str, bool)> = d
            .changes
            .iter()
            .map(|c| (c.pointer.as_str(), c.security))
            .collect();
        assert_eq!(
            flagged,
            [
                ("/annotations/destructiveHint", true),
                ("/annotations/idempotentHint", false),
                ("/annotations/readOnlyHint", true)
            ]
        );
        assert!(d.changes.iter().all(|c| c.class == ChangeClass::Behaviour));
    }

    #[test]
    fn a_rename_is_hinted() {
        let a = base();
        let mut b = base();
        b["name"] = json!("t2");
        let d = diff(&[tool(a)], &[tool(b)]);
        assert_eq!(d.changes.len(), 2);
        assert_eq!(d.changes[0].renamed_to.as_deref(), Some("t2"));
        assert_eq!(d.changes[1].renamed_from.as_deref(), Some("t"));
        assert_eq!(
            d.changes[1].message,
            "new tool; probably renamed from \"t\" (the same input schema)"
        );
    }

    #[test]
    fn unrelated_tools_are_not_called_renames() {
        let a = base();
        let b = json!({"name": "other", "description": "Something else entirely.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "boolean"}}}});
        let d = diff(&[tool(a)], &[tool(b)]);
        assert!(
            d.changes
                .iter()
                .all(|c| c.renamed_from.is_none() && c.renamed_to.is_none())
        );
    }

    #[test]
    fn the_depth_bound_stops_the_walk() {
        let mut deep_a = json!({"type": "string"});
        let mut deep_b = json!({"type": "integer"});
        for _ in 0..(MAX_DEPTH + 20) {
            deep_a = json!({"type": "array", "items": deep_a});
            deep_b = json!({"type": "array", "items": deep_b});
        }
        let d = diff(
            &[Tool::new("t", "d", deep_a)],
            &[Tool::new("t", "d", deep_b)],
        );
        assert_eq!(d.changes.len(), 1);
        assert!(
            d.changes[0].message.contains("levels deep"),
            "{:?}",
            d.changes[0]
        );
        assert_eq!(d.changes[0].class, ChangeClass::Breaking);
    }

    #[test]
    fn boolean_schemas_are_understood() {
        let with_items = |items: Value| {
            Tool::new(
                "t",
                "d",
                json!({"type": "object", "properties": {"a": {"type": "array", "items": items}}}),
            )
        };
        let kinds = |a: Value, b: Value| -> Vec<(String, ChangeClass, ChangeKind)> {
            diff(&[with_items(a)], &[with_items(b)])
                .changes
                .into_iter()
                .map(|c| (c.pointer, c.class, c.kind))
                .collect()
        };
        let at = |p: &str| format!("/inputSchema/properties/a/items{p}");
        assert_eq!(
            kinds(json!(true), json!({})),
            [(at(""), ChangeClass::Compatible, ChangeKind::Rewritten)]
        );
        assert_eq!(
            kinds(json!(true), json!({"type": "string"})),
            [(at("/type"), ChangeClass::Breaking, ChangeKind::TypeNarrowed)]
        );
        assert_eq!(
            kinds(json!({"type": "string"}), json!(false)),
            [(
                at(""),
                ChangeClass::Breaking,
                ChangeKind::ConstraintNarrowed
            )]
        );
        assert_eq!(
            kinds(json!(false), json!({"type": "string"})),
            [(
                at(""),
                ChangeClass::Compatible,
                ChangeKind::ConstraintWidened
            )]
        );
    }

    #[test]
    fn word_diffs_keep_context_short() {
        let text = TextChange::new(
            Some("one two three four five six seven eight nine ten eleven twelve"),
            Some("one two three four five six seven EIGHT nine ten eleven twelve"),
        );
        assert_eq!(
            text.render(),
            "… three four five six seven [-eight-]{+EIGHT+} nine ten eleven twelve"
        );
        let added = TextChange::new(None, Some("New text"));
        assert_eq!(added.render(), "{+New text+}");
    }

    #[test]
    fn huge_texts_are_replaced_whole() {
        let old = "word ".repeat(MAX_DIFF_WORDS + 1);
        let new = format!("{old}more");
        let text = TextChange::new(Some(&old), Some(&new));
        assert_eq!(text.words.len(), 2);
    }
}
