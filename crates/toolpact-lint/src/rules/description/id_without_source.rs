use crate::analysis::ids::is_server_owned_id;
use crate::analysis::words::for_each_identifier_word;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::hash::BuildHasher;

declare_rule! {
    /// ## What it does
    /// Finds identifier properties whose description does not say where the value comes from.
    ///
    /// Identifiers are named like `giftId`, `order_id`, `userID`, `giftIds`, `id` or
    /// `account_uuid`. A description says where the value comes from when it names another
    /// tool of the catalog (`search_foods`) or a tool-like name (`list_orders`), or uses a
    /// phrase such as "returned by", "from a … result", "from an earlier call", "copied
    /// from", "the user picked", or "any label you choose" (for labels the model makes up).
    /// "From our database" is not a source. Closed sets are left alone.
    ///
    /// ## Why is this bad?
    /// The model never sees the handler or the database. Asked for a `giftId` that is "the
    /// UUID of the gift in our database", it invents a well-formed UUID — the pattern passes,
    /// the lookup fails, or worse, hits another record. When the id comes from an earlier
    /// tool, the description must say which tool, so the model calls that one first. When no
    /// tool returns it (the current user's id), it should not be an argument at all: the
    /// server takes it from the session.
    ///
    /// ## Example
    /// ```json
    /// {"name": "create_order", "inputSchema": {"type": "object", "properties": {
    ///   "giftId": {"type": "string", "format": "uuid", "description": "UUID of the gift in our database."}
    /// }}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "create_order", "inputSchema": {"type": "object", "properties": {
    ///   "giftId": {"type": "string", "description": "Id of the gift the user chose, copied exactly from a suggest_gifts result, e.g. \"gift-1\""}
    /// }}}
    /// ```
    ///
    /// ## References
    /// - Never ask the model for internal identifiers, and state the order in which tools are
    ///   called
    pub struct IdWithoutSource {
        code: "TP111",
        name: "id-without-source",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Last words of a name that make it an identifier.
const ID_WORDS: &[&str] = &["id", "ids", "uuid", "uuids", "guid", "guids"];

/// Phrases that say where a value comes from.
const SOURCE_PHRASES: &[&str] = &[
    "returned by",
    "returned from",
    "returned in",
    "as returned",
    "result",
    "response",
    "output of",
    "earlier",
    "previous",
    "prior call",
    "comes from",
    "come from",
    "taken from",
    "copied from",
    "copy it from",
    "obtained from",
    "received from",
    "listed by",
    "given by",
    "system prompt",
    "conversation",
    "user picked",
    "user chose",
    "user selected",
    "picked by the user",
    "chosen by the user",
    "selected by the user",
    "shown to the user",
    // Labels the model makes up itself are not looked up anywhere; saying so is a source.
    "any label",
    "any name",
    "any string",
    "any unique",
    "you choose",
    "you pick",
    "of your choice",
    "choose any",
    "pick any",
    "your own",
    "make up",
];

/// Words after "from a/the" that name where ids live, not where the model finds them.
const INTERNAL_STORES: &[&str] = &[
    "database", "db", "system", "backend", "server", "table", "storage", "records", "store",
];

/// Verbs that start tool names, so that `list_orders` reads as a tool even from another server.
const TOOL_VERBS: &[&str] = &[
    "get", "list", "search", "find", "fetch", "lookup", "query", "read", "suggest", "create",
    "add", "browse", "resolve", "select",
];

/// The catalog's tool names, lowercased, with how many tools bear each, so that a
/// description can be checked for "another tool's name" without a pass over the catalog.
struct ToolNames<'n, S>(&'n HashMap<String, usize, S>);

impl<S: BuildHasher> ToolNames<'_, S> {
    /// Whether `token` names a tool other than `own` (lowercased).
    fn names_other(&self, token: &str, own: &str) -> bool {
        self.0
            .get(token)
            .is_some_and(|&n| n > usize::from(token == own))
    }
}

/// Whether `description` says where the value comes from; `own` is the tool's lowercased
/// name, which does not count as a source.
fn names_source<S: BuildHasher>(description: &str, tools: &ToolNames<'_, S>, own: &str) -> bool {
    let lower = description.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
        .map(|t| t.trim_matches('.'))
        .filter(|t| !t.is_empty())
        .collect();
    let names_tool = tokens.iter().any(|t| {
        tools.names_other(t, own)
            || t.split_once('_')
                .is_some_and(|(verb, rest)| !rest.is_empty() && TOOL_VERBS.contains(&verb))
    });
    let from_somewhere = tokens.windows(3).any(|w| {
        w[0] == "from"
            && ["a", "an", "the", "their", "your", "any", "one"].contains(&w[1])
            && !INTERNAL_STORES.contains(&w[2])
    });
    names_tool || from_somewhere || SOURCE_PHRASES.iter().any(|p| lower.contains(p))
}

impl Rule for IdWithoutSource {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for IdWithoutSource {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let names = ToolNames(cx.lowercase_names());
        // Lowercased only for a tool with an id property to check.
        let own = OnceCell::new();
        view.for_each_property(&mut |property| {
            let mut ends_in_id = false;
            for_each_identifier_word(property.name, |w| ends_in_id = ID_WORDS.contains(&w));
            if !ends_in_id
                || property.is_closed()
                || is_server_owned_id(&tool.input_schema, property.name, property.schema, tool)
            {
                return;
            }
            let items_description = property
                .keyword("items")
                .and_then(|i| i.get("description"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let description = property.description().unwrap_or_default();
            let text = format!("{description} {items_description}");
            if names_source(&text, &names, own.get_or_init(|| tool.name.to_lowercase())) {
                return;
            }
            out.push(Violation {
                tool: Some(i),
                message: format!(
                    "the id property {:?} does not say which tool's result it comes from",
                    property.name
                ),
                help: "name the tool whose result holds it (\"Id of the gift, from a suggest_gifts result\"), or say that the model makes up the label; if neither, take it from the session instead of asking the model".into(),
                pointer: property.pointer.to_owned(),
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{ToolNames, names_source};
    use std::collections::HashMap;

    #[test]
    fn sources() {
        let counts: HashMap<String, usize> =
            [("search_foods", 1), ("lookup", 1), ("create_order", 1)]
                .into_iter()
                .map(|(n, c)| (n.to_owned(), c))
                .collect();
        let names = ToolNames(&counts);
        let others = (&names, "create_order");
        for text in [
            "foodId from a search_foods result, e.g. \"food_18342\"",
            "Id of the gift, copied exactly from a previous suggest_gifts or list_gifts result.",
            "As returned by lookup.",
            "The order id, from the confirmation the user received",
            "Any label you choose for the branch, e.g. \"alt-1\"",
        ] {
            assert!(names_source(text, others.0, others.1), "{text}");
        }
        for text in [
            "UUID of the user in our system.",
            "UUID of the gift in our database.",
            "Id of the user from the database.",
            "UUID for the new order.",
            "",
        ] {
            assert!(!names_source(text, others.0, others.1), "{text}");
        }
    }
}
