//! Tools that do the same thing in other words: the action a tool's name (or its description's
//! first verb) names, the things it acts on, and its parameters, each reduced to a form that
//! paraphrases share, so that "looks up open tickets by keyword" (`lookup_tickets`, `keyword`)
//! meets "finds tickets that match a query" (`find_tickets`, `query`).

use crate::analysis::words::{for_each_identifier_word, is_comparison_stop_word, normal_word};
use toolpact::Tool;

/// What a tool does, in a form that paraphrases share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Meaning<'t> {
    /// The action, one word per family of synonyms (`lookup`, `find`, `query` → `search`).
    pub action: &'static str,
    /// The things the name says the tool acts on, normalized, sorted, without repeats.
    pub objects: Vec<String>,
    /// The main one of those: the last before a preposition (`comment` in
    /// `add_comment_to_issue`, `event` in `create_calendar_event`).
    pub head: String,
    /// Whether the main thing is named in the plural (`upload_attachments`).
    pub plural: bool,
    /// The objects after a preposition (`issue` in `add_comment_to_issue`), sorted: they
    /// narrow the tool, so another tool must name them too.
    pub bound: Vec<String>,
    /// The words of the name that say little on their own (`text` in `read_text_file`, `info`
    /// in `get_document_info`), sorted.
    pub fillers: Vec<String>,
    /// The words of the name before a verb in its middle (`jira` in `jira_get_issue`), sorted.
    pub prefix: Vec<String>,
    /// The parameters, normalized (`q`, `keyword`, `search_term` → `query`) and followed by
    /// their type (`query:string`), sorted, without repeats.
    pub parameters: Vec<String>,
    /// The entries of `parameters` that are not required, sorted.
    pub optional: Vec<String>,
    /// The description; its normalized words ([`description_words`]) are read only when a
    /// comparison comes to them, which few do.
    pub description: &'t str,
}

/// The actions a tool name starts with, after [`normal_word`], and the family each belongs to.
/// Words that are not here are not actions: a name without one takes its action from the
/// first word of its description.
fn action_family(word: &str) -> Option<&'static str> {
    Some(match word {
        // `normal_word` cuts a final `y`: "query" is "quer".
        "search" | "match" | "quer" => "search",
        "get" | "show" | "inspect" => "get",
        "list" | "browse" => "list",
        "create" | "add" | "insert" | "new" | "register" | "generate" => "create",
        "update" | "set" | "patch" | "edit" => "update",
        "delete" | "drop" | "unregister" | "trash" => "delete",
        "send" | "post" | "publish" | "notify" => "send",
        "run" | "execute" | "exec" | "invoke" | "trigger" | "start" | "launch" => "run",
        "download" | "export" | "save" => "download",
        "upload" | "import" => "upload",
        "count" | "tally" => "count",
        "check" | "validate" | "verify" | "test" => "check",
        "convert" | "transform" | "translate" => "convert",
        "summarize" | "summarise" | "digest" => "summarize",
        "analyze" | "analyse" | "evaluate" | "assess" => "analyze",
        "cancel" | "abort" | "stop" | "halt" => "cancel",
        "close" | "resolve" => "close",
        "assign" | "allocate" => "assign",
        "move" | "transfer" => "move",
        "copy" | "clone" | "duplicate" => "copy",
        _ => return None,
    })
}

/// One name for things that several words name, after [`normal_word`] (which cuts plurals and
/// a final `y`: "repositories" and "repository" are both "repositor").
fn noun(word: &str) -> &str {
    match word {
        "client" => "customer",
        "todo" => "task",
        "repo" => "repositor",
        "dir" | "folder" => "director",
        "db" => "database",
        "doc" => "document",
        "msg" => "message",
        "mail" => "email",
        "org" | "organization" | "organisation" => "owner",
        "lang" => "language",
        "img" | "picture" | "photo" => "image",
        "state" => "status",
        "guest" | "participant" | "invitee" => "attendee",
        other => other,
    }
}

/// Words a tool name carries that say nothing of what it acts on, after [`normal_word`]
/// ("details" is "detail").
const NAME_FILLERS: &[&str] = &[
    "all", "content", "current", "data", "detail", "full", "mcp", "raw", "text", "the", "tool",
];

/// Words that narrow what a name acts on to some of it (`list_open_tickets`,
/// `mobile_list_remote_devices`): another tool's description that mentions them does not make
/// the two the same.
const QUALIFIERS: &[&str] = &[
    "active",
    "allowed",
    "archived",
    "available",
    "closed",
    "deleted",
    "draft",
    "latest",
    "local",
    "my",
    "old",
    "open",
    "own",
    "pending",
    "private",
    "public",
    "recent",
    "remote",
];

/// Words that end the part of a name that says what it acts on: `get_events_in_range` acts on
/// events; `add_comment_to_issue` on comments.
const PREPOSITIONS: &[&str] = &[
    "at", "by", "for", "from", "in", "into", "of", "on", "to", "with",
];

/// Words of a parameter's name that do not change what it holds: `new_price` is a price,
/// `num_days` days.
const PARAMETER_FILLERS: &[&str] = &["current", "full", "given", "new", "num", "number", "the"];

/// A parameter's name in normal form, given the things its tool acts on (`objects`, the main
/// one `head`): a name that identifies the main one (`ticket_id`, `issue_key`, `id`, `key`,
/// `sha`, `sku`, or a file tool's `path`) is `id`; `q`, `keyword`, `search_term` and `sql` are `query`; `limit`,
/// `max_results` and `top_k` are `limit`; `page` and `cursor` are `page`; `body`, `text` and
/// `message` are `body`; `title`, `subject` and `summary` are `title`; `city` and `place` are
/// `location`; `from`, `since` and `start_time` are `start`, and `until`, `end_date` and, when
/// the tool takes a start (`ranged`), `to` are `end`; another `X_id` or `X_name` is `X`.
fn parameter(name: &str, objects: &[String], head: &str, action: &str, ranged: bool) -> String {
    // A tool that reads or changes one thing takes what identifies it; one that makes, sends
    // or searches takes its content (`send_message`'s `message`).
    let acts_on_one = matches!(
        action,
        "get"
            | "update"
            | "delete"
            | "cancel"
            | "close"
            | "assign"
            | "move"
            | "copy"
            | "download"
            | "check"
    );
    let mut words: Vec<String> = Vec::new();
    for_each_identifier_word(name, |w| {
        // "heading" would be "head", the first lines of a file.
        let w = if w == "heading" {
            "title"
        } else {
            noun(normal_word(w))
        };
        if !PARAMETER_FILLERS.contains(&w) {
            words.push(w.to_owned());
        }
    });
    if words.is_empty() {
        for_each_identifier_word(name, |w| words.push(noun(normal_word(w)).to_owned()));
    }
    let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
    let last = words.last().map_or("", String::as_str);
    if has(&["language"]) {
        return if has(&["to", "target", "destination"]) {
            "target_language"
        } else if has(&["from", "source"]) {
            "source_language"
        } else {
            "language"
        }
        .to_owned();
    }
    if matches!(
        last,
        "id" | "key" | "identifier" | "uuid" | "sha" | "hash" | "sku"
    ) {
        let qualifier = &words[..words.len() - 1];
        if qualifier.is_empty()
            || qualifier.iter().all(|w| w == head)
            || (acts_on_one && qualifier.iter().all(|w| objects.contains(w)))
        {
            return "id".to_owned();
        }
        return qualifier.join("_");
    }
    // `table_name` is the table, `due_date` the due, `line_items` the items.
    if words.len() > 1 && matches!(last, "name" | "date" | "time" | "item") {
        if last == "item" {
            words.drain(..words.len() - 1);
        } else {
            words.pop();
        }
    }
    if acts_on_one && words.len() == 1 && words[0] == head {
        return "id".to_owned();
    }
    let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
    let last = words.last().map_or("", String::as_str);
    let family = if words.len() <= 2
        && has(&[
            "q", "quer", "search", "keyword", "sql", "filter", "term", "phrase",
        ]) {
        "query"
    } else if (has(&["limit", "max", "top", "k", "n", "per", "result"]) || words == ["line"])
        && !has(&["page"])
    {
        "limit"
    } else if has(&["cursor", "offset", "page"]) {
        "page"
    } else if words.len() <= 2 && has(&["body", "content", "text", "message", "input"]) {
        "body"
    } else if has(&["title", "subject", "summar", "headline"]) {
        "title"
    } else if has(&["email"]) {
        "email"
    } else if has(&["location", "city", "place", "address"]) {
        "location"
    } else if has(&["start", "since", "begin", "after"]) || last == "from" {
        "start"
    } else if has(&["end", "until", "before"]) || (last == "to" && ranged) {
        "end"
    } else if matches!(last, "to" | "recipient") {
        "recipient"
    } else if last == "path"
        && objects
            .iter()
            .any(|o| matches!(o.as_str(), "file" | "director"))
    {
        "id"
    } else if has(&["repositor"]) {
        "repositor"
    } else if has(&["owner"]) {
        "owner"
    } else {
        return words.join("_");
    };
    family.to_owned()
}

/// A word of a tool name: as written (lowercase), and in normal form.
type NameWord = (String, String);

/// The action, objects, parameters and description words of `tool`, or `None` when neither its
/// name nor the first word of its description names an action.
pub(crate) fn meaning(tool: &Tool) -> Option<Meaning<'_>> {
    // Each word of the name: as written (lowercase), and in normal form.
    let mut name_words: Vec<NameWord> = Vec::new();
    for_each_identifier_word(&tool.name, |w| {
        name_words.push((w.to_owned(), noun(normal_word(w)).to_owned()));
    });

    // The action is the name's first verb (`search_tickets`, `tickets_search`,
    // `jira_get_issue`, `confluence_get_page_views`); a word in the plural is a noun
    // (`views`), and so is a verb after the first (`get_task_list`).
    let is_action =
        |w: &NameWord| action_family(&w.1).is_some() && !(w.0 != w.1 && w.0.ends_with('s'));
    let position = name_words.iter().position(is_action);
    let mut action = match position {
        Some(position) => action_family(&name_words[position].1)?,
        None => {
            let first = tool.description.as_deref().and_then(first_word)?;
            action_family(normal_word(&first))?
        }
    };
    // Before a verb in the middle of a name comes a prefix (`jira_get_issue`, `slack_send_…`);
    // before a verb at its end, what it acts on (`tickets_search`).
    let (prefix, rest): (&[NameWord], &[NameWord]) = match position {
        Some(p) if p + 1 < name_words.len() => (&name_words[..p], &name_words[p + 1..]),
        Some(p) => (&[], &name_words[..p]),
        None => (&[], &name_words[..]),
    };
    let mut objects = Vec::new();
    let mut bound = Vec::new();
    let mut fillers = Vec::new();
    let mut head: Option<(String, bool)> = None;
    let mut after_preposition = false;
    for (raw, word) in rest {
        if PREPOSITIONS.contains(&word.as_str()) {
            after_preposition = true;
            continue;
        }
        if word.chars().nth(1).is_none() {
            continue;
        }
        if NAME_FILLERS.contains(&word.as_str()) {
            fillers.push(word.clone());
            continue;
        }
        if after_preposition {
            bound.push(word.clone());
        } else {
            // Only after a verb does the plural say "many": `orders_cancel` cancels one.
            let plural = position == Some(0) && raw != word && raw.ends_with('s');
            head = Some((word.clone(), plural));
        }
        objects.push(word.clone());
    }
    let (head, plural) = head.unwrap_or_default();
    // "Get events" lists them; `events_get` may get one.
    if action == "get" && plural && position == Some(0) {
        action = "list";
    }
    bound.sort_unstable();
    bound.dedup();
    fillers.sort_unstable();
    fillers.dedup();
    objects.sort_unstable();
    objects.dedup();
    let mut prefix: Vec<String> = prefix.iter().map(|(_, w)| w.clone()).collect();
    prefix.sort_unstable();

    let required: Vec<&str> = tool
        .input_schema
        .get("required")
        .and_then(serde_json::Value::as_array)
        .map(|names| names.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    let properties = tool
        .input_schema
        .get("properties")
        .and_then(serde_json::Value::as_object);
    // `to` is the end of a range when another parameter starts it, else a recipient. The
    // names are read as if none did, and read again only when one does.
    let normal_names = |ranged: bool| -> Vec<String> {
        properties
            .into_iter()
            .flat_map(|properties| properties.keys())
            .map(|name| parameter(name, &objects, &head, action, ranged))
            .collect()
    };
    let mut names = normal_names(false);
    if names.iter().any(|name| name == "start") {
        names = normal_names(true);
    }
    let mut parameters = Vec::new();
    let mut optional = Vec::new();
    for ((name, schema), normal) in properties.into_iter().flatten().zip(names) {
        let normal = format!("{normal}:{}", type_of(schema));
        if !required.contains(&name.as_str()) {
            optional.push(normal.clone());
        }
        parameters.push(normal);
    }
    parameters.sort_unstable();
    parameters.dedup();
    optional.sort_unstable();
    optional.dedup();
    Some(Meaning {
        action,
        objects,
        head,
        plural,
        bound,
        fillers,
        prefix,
        parameters,
        optional,
        description: tool.description.as_deref().unwrap_or_default(),
    })
}

/// The first word of a description, lowercased ("Looks up …" → "looks").
fn first_word(description: &str) -> Option<String> {
    let word = description
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())?;
    Some(word.to_lowercase())
}

/// The normalized words of a description, without the words most descriptions share, sorted,
/// without repeats.
fn description_words(description: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut lower = String::new();
    for raw in description.split(|c: char| !c.is_alphanumeric()) {
        if raw.is_empty() {
            continue;
        }
        lower.clear();
        lower.extend(raw.chars().flat_map(char::to_lowercase));
        if lower.chars().nth(1).is_none() || is_comparison_stop_word(&lower) {
            continue;
        }
        words.push(normal_word(&lower).to_owned());
    }
    words.sort_unstable();
    words.dedup();
    words
}

/// The kind of value a property schema declares: `array`, `object`, or `value` for the
/// others (an id may be a string on one server and an integer on another).
fn type_of(schema: &serde_json::Value) -> &'static str {
    let declared = match schema.get("type") {
        Some(serde_json::Value::String(t)) => t.as_str(),
        Some(serde_json::Value::Array(types)) => types
            .iter()
            .find_map(serde_json::Value::as_str)
            .unwrap_or(""),
        _ => "",
    };
    match declared {
        "array" => "array",
        "object" => "object",
        _ => "value",
    }
}

/// Whether two tools act on the same things: the same objects, or the same main one with each
/// other word of one name in the other tool's description or name prefix (`create_event`
/// "on the user's calendar" and `add_calendar_event`; `get_issue` and `jira_get_issue`). Only
/// one of the two may have words of its own, and none may narrow it: a qualifier
/// (`list_open_tickets`) or a word after a preposition (`get_metrics_by_service`). Words that
/// say little (`text`, `info`) may be on one side only (`read_text_file`, `read_file`). One
/// thing and many (`upload_attachment`, `upload_attachments`) are different tools, except to
/// search and list.
fn same_things(a: &Meaning<'_>, b: &Meaning<'_>) -> bool {
    if a.head.is_empty() != b.head.is_empty() || a.head != b.head {
        return false;
    }
    if !a.fillers.is_empty() && !b.fillers.is_empty() && a.fillers != b.fillers {
        return false;
    }
    if a.plural != b.plural && !matches!(a.action, "search" | "list") {
        return false;
    }
    if a.objects == b.objects {
        return true;
    }
    let own = |x: &Meaning<'_>, y: &Meaning<'_>| -> Vec<String> {
        x.objects
            .iter()
            .filter(|w| y.objects.binary_search(w).is_err())
            .cloned()
            .collect()
    };
    let (a_own, b_own) = (own(a, b), own(b, a));
    let (extra, of, other) = match (a_own.is_empty(), b_own.is_empty()) {
        (false, true) => (a_own, a, b),
        (true, false) => (b_own, b, a),
        _ => return false,
    };
    let described = std::cell::OnceCell::new();
    extra.iter().all(|w| {
        of.bound.binary_search(w).is_err()
            && !QUALIFIERS.contains(&w.as_str())
            && (other.prefix.binary_search(w).is_ok()
                || described
                    .get_or_init(|| description_words(other.description))
                    .binary_search(w)
                    .is_ok())
    })
}

/// Leaves out of every meaning the parameters that more than half of the tools of a catalog
/// of ten or more take (`tenant`, `auth_method`, `retry_delay` on every tool of a cloud
/// server): shared by nearly every pair, they would make unrelated tools look alike.
pub(crate) fn drop_common_parameters(meanings: &mut [Option<Meaning<'_>>]) {
    let tools = meanings.len();
    if tools < 10 {
        return;
    }
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for m in meanings.iter().flatten() {
        for p in &m.parameters {
            *counts.entry(p.as_str()).or_default() += 1;
        }
    }
    let common: Vec<String> = counts
        .into_iter()
        .filter(|&(_, n)| n * 2 > tools)
        .map(|(p, _)| p.to_owned())
        .collect();
    if common.is_empty() {
        return;
    }
    for m in meanings.iter_mut().flatten() {
        m.parameters.retain(|p| !common.contains(p));
        m.optional.retain(|p| !common.contains(p));
    }
}

/// Whether every parameter of `smaller` is one of `larger`'s, and `larger` has one more, an
/// optional one: a tool with one more filter is the same tool.
fn extras_optional(smaller: &Meaning<'_>, larger: &Meaning<'_>) -> bool {
    larger.parameters.len() == smaller.parameters.len() + 1
        && smaller
            .parameters
            .iter()
            .all(|p| larger.parameters.binary_search(p).is_ok())
        && larger
            .parameters
            .iter()
            .filter(|p| smaller.parameters.binary_search(p).is_err())
            .all(|p| larger.optional.binary_search(p).is_ok())
}

/// Shared items of two sorted sets, and all items of the two.
fn shared_and_all(a: &[String], b: &[String]) -> (usize, usize) {
    let shared = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    (shared, a.len() + b.len() - shared)
}

/// Whether two tools do the same thing in other words: the same action, on the same things
/// (the objects of their names, plurals folded, are the same), and at least
/// `parameter-overlap` percent of their parameters the same after synonyms, with the same
/// type, or the parameters of one all among those of the other and the other's extra ones
/// optional (two tools without parameters count as the same). Returns the shared parameters,
/// by name, when they do.
///
/// A name that only one of the two has (`search_open_tickets` against `find_tickets`) makes
/// them different tools: on real catalogs, such pairs are nearly always a narrower tool
/// beside a broader one (`storage_blob_get`, `storage_blob_container_get`).
pub(crate) fn same_meaning(
    a: &Meaning<'_>,
    b: &Meaning<'_>,
    parameter_overlap: u64,
) -> Option<Vec<String>> {
    if a.action != b.action || a.objects.is_empty() != b.objects.is_empty() {
        return None;
    }
    if !same_things(a, b) {
        return None;
    }
    let (shared, all) = shared_and_all(&a.parameters, &b.parameters);
    let enough = all == 0 || (shared as u64) * 100 >= parameter_overlap * all as u64;
    if !enough && !(shared > 0 && (extras_optional(a, b) || extras_optional(b, a))) {
        return None;
    }
    // Two tools named by a bare verb (`translate`, `run`) are the same only when they share
    // what they take.
    if a.objects.is_empty() && shared == 0 {
        return None;
    }
    Some(
        a.parameters
            .iter()
            .filter(|p| b.parameters.binary_search(p).is_ok())
            .map(|p| {
                p.split_once(':')
                    .map_or(p.as_str(), |(name, _)| name)
                    .to_owned()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::{meaning, same_meaning};
    use serde_json::json;
    use toolpact::Tool;

    /// A tool that lives as long as the test, for meanings that borrow its description.
    fn tool(name: &str, description: &str, properties: &[&str]) -> &'static Tool {
        let properties: serde_json::Map<String, serde_json::Value> = properties
            .iter()
            .map(|p| ((*p).to_owned(), json!({"type": "string"})))
            .collect();
        Box::leak(Box::new(Tool::new(
            name,
            description,
            json!({"type": "object", "properties": properties}),
        )))
    }

    #[test]
    fn paraphrases_share_action_objects_and_parameters() {
        let a = meaning(tool(
            "lookup_tickets",
            "Looks up open support tickets by keyword.",
            &["keyword", "status"],
        ))
        .unwrap();
        let b = meaning(tool(
            "find_tickets",
            "Finds tickets that match a query.",
            &["query", "status"],
        ))
        .unwrap();
        assert_eq!(a.action, "search");
        assert_eq!(a.objects, ["ticket"]);
        assert_eq!(a.parameters, ["query:value", "status:value"]);
        assert_eq!(
            same_meaning(&a, &b, 75),
            Some(vec!["query".to_owned(), "status".to_owned()])
        );
    }

    #[test]
    fn another_object_or_other_parameters_are_another_tool() {
        let issue = meaning(tool(
            "get_issue",
            "Get details of a specific issue in a GitHub repository.",
            &["owner", "repo", "issue_number"],
        ))
        .unwrap();
        let comments = meaning(tool(
            "get_issue_comments",
            "Get comments for a specific issue in a GitHub repository.",
            &["owner", "repo", "issue_number"],
        ))
        .unwrap();
        assert_eq!(same_meaning(&issue, &comments, 75), None);
        let search = meaning(tool("search_tickets", "Search tickets.", &["query"])).unwrap();
        let list = meaning(tool("list_tickets", "List tickets.", &["status"])).unwrap();
        assert_eq!(same_meaning(&search, &list, 75), None);
        let by_id = meaning(tool(
            "search_tickets",
            "Search tickets.",
            &["id", "owner", "since", "until"],
        ))
        .unwrap();
        let by_text = meaning(tool("find_tickets", "Find tickets.", &["query", "owner"])).unwrap();
        assert_eq!(same_meaning(&by_id, &by_text, 75), None);
        // One more required parameter is another tool; one more optional one is not.
        let mut narrower = tool("find_tickets", "Find tickets.", &["query", "owner"]).clone();
        narrower.input_schema["required"] = json!(["query", "owner"]);
        let broader = meaning(tool("search_tickets", "Search tickets.", &["q"])).unwrap();
        assert!(same_meaning(&broader, &by_text, 75).is_some());
        assert_eq!(
            same_meaning(&broader, &meaning(&narrower).unwrap(), 75),
            None
        );
        let narrower = meaning(tool(
            "search_open_tickets",
            "Search open tickets.",
            &["query"],
        ))
        .unwrap();
        let broader = meaning(tool(
            "find_tickets",
            "Find open or closed tickets.",
            &["query"],
        ))
        .unwrap();
        assert_eq!(same_meaning(&narrower, &broader, 75), None);
        // One issue by its key, and many by their keys: another type.
        let one = meaning(tool("get_issue_info", "Get an issue.", &["issue_key"])).unwrap();
        let mut many = tool("get_issues_info", "Get issues.", &[]).clone();
        many.input_schema =
            json!({"type": "object", "properties": {"issue_keys": {"type": "array"}}});
        assert_eq!(same_meaning(&one, &meaning(&many).unwrap(), 75), None);
    }

    #[test]
    fn a_name_without_a_verb_takes_the_description_s_first_word() {
        let m = meaning(tool("ticket_lookup_v2", "Finds tickets.", &[])).unwrap();
        assert_eq!(m.action, "search");
        let m = meaning(tool("tickets", "Retrieves tickets by id.", &["id"])).unwrap();
        assert_eq!(m.action, "get");
        assert!(meaning(tool("tickets", "Tickets of the desk.", &[])).is_none());
    }
}
