use super::verbs::{Effect, effect_of_name};
use crate::context::{Context, ToolView};
use crate::rule::{ChecksTools, Rule, RuleMeta, Violation, declare_rule};
use crate::rules::names::Set;
use crate::rules::schema::{Facts, properties, resolved, walk};
use crate::rules::words::{identifier_words, mentions_any, normal_word};
use serde_json::Value;
use toolpact::Tool;
use toolpact::schema::child_pointer;

declare_rule! {
    /// ## What it does
    /// Finds input properties that ask the model for an identifier it cannot know.
    ///
    /// Three kinds of identifier are reported:
    ///
    /// - the **caller's own id** (`userId`, `customer_id`, `accountId`, `sessionId`,
    ///   `tenantId`, or any id described as the current or signed-in user's), which only the
    ///   server knows, from the authenticated session;
    /// - the **id of the thing the tool creates** (`orderId` on `create_order`, or an id "for
    ///   the new order"), which only the server can assign;
    /// - an **internal id under another name** (`warehouse`, `gift`) that `format: "uuid"`, a
    ///   UUID `pattern`, or a description such as "UUID in our database", "internal id" or
    ///   "primary key" gives away, and whose description does not say where it comes from.
    ///
    /// A source is stated when the property's description names another tool of the catalog,
    /// or says "returned by", "from a previous … result", "copied from", "from the user", ….
    /// Properties named as ids (`giftId`, `order_ids`) that are neither the caller's nor the
    /// created thing's are left to `id-without-source`, which asks every id for its source:
    /// this rule reports what no source can fix.
    ///
    /// ## Why is this bad?
    /// The model sees only the definitions and the conversation. Asked for `userId` as a
    /// "UUID in our database", it writes a well-formed UUID that belongs to nobody — or, worse,
    /// to someone else: an id of the caller taken from arguments lets one user act as another.
    /// A pattern does not help; it only makes the invented value look right.
    ///
    /// ## Example
    /// ```json
    /// {"name": "create_order", "inputSchema": {"type": "object", "properties": {
    ///   "userId": {"type": "string", "format": "uuid", "description": "UUID of the current user in our database."},
    ///   "orderId": {"type": "string", "format": "uuid", "description": "UUID for the new order."},
    ///   "warehouse": {"type": "string", "format": "uuid", "description": "Warehouse to ship from."}
    /// }}}
    /// ```
    ///
    /// ## Use instead
    /// Take the user from the session, let the server assign the order id and pick the
    /// warehouse, and get the gift id from an earlier tool's result:
    /// ```json
    /// {"name": "create_order", "inputSchema": {"type": "object", "properties": {
    ///   "giftId": {"type": "string", "description": "Id of the gift the user chose, copied exactly from a previous suggest_gifts result, e.g. \"gift-1\"."}
    /// }}}
    /// ```
    ///
    /// ## References
    /// - Requirement R12: never ask the model for internal identifiers; ids come from context
    ///   (auth) or from an earlier tool's result
    /// - MCP 2025-11-25, basic/authorization: the server learns who the user is from the token
    pub struct InternalIdFromModel {
        code: "TP202",
        name: "internal-id-from-model",
        category: Design,
        severity: Warning,
        options: [],
    }
}

/// Words that end an identifier property's name.
const ID_WORDS: &[&str] = &["id", "ids", "uuid", "uuids", "guid", "guids"];

/// Whose id the caller is: one of these, alone or with [`SELF_WORDS`], before `id`.
const IDENTITY_WORDS: &[&str] = &[
    "user",
    "customer",
    "account",
    "member",
    "buyer",
    "shopper",
    "caller",
    "requester",
    "requestor",
    "session",
    "tenant",
    "viewer",
    "principal",
    "profile",
];

/// Words that make an identity id the caller's own (`currentUserId`, `my_account_id`).
const SELF_WORDS: &[&str] = &[
    "current", "my", "me", "self", "own", "auth", "logged", "signed",
];

/// Identities that are always the caller's: there is no other session or tenant to pick.
const ALWAYS_CONTEXT: &[&str] = &["session", "tenant", "caller", "requester", "requestor"];

/// Phrases that say the id is the caller's own.
const SELF_PHRASES: &[&str] = &[
    "current user",
    "current customer",
    "current account",
    "signed-in",
    "signed in",
    "logged-in",
    "logged in",
    "authenticated",
    "the caller",
    "calling user",
    "requesting user",
    "acting user",
    "your own",
    "your user",
    "your account",
    "the user's own",
];

/// Phrases in a tool's description that say it acts for the caller, whose plain `userId` is
/// then the caller's own.
const ACTS_FOR_CALLER: &[&str] = &[
    "on behalf of",
    "current user",
    "signed-in",
    "signed in",
    "logged-in",
    "logged in",
    "authenticated user",
];

/// Phrases that mark an id as internal to the service.
const INTERNAL_PHRASES: &[&str] = &[
    "uuid",
    "guid",
    "database id",
    "db id",
    "internal id",
    "internal identifier",
    "primary key",
    "object id",
    "record id",
];

/// Words one of [`INTERNAL_PHRASES`] holds.
const INTERNAL_CUES: &[&str] = &[
    "uuid", "uuids", "guid", "guids", "database", "db", "internal", "primary", "object", "record",
];

/// Phrases that mark an id-named property as internal to the service.
const INTERNAL_PLACES: &[&str] = &[
    "in our database",
    "in the database",
    "in our db",
    "in our system",
    "in the system",
];

/// Phrases that say where the model gets the id from.
const SOURCE_PHRASES: &[&str] = &[
    "returned by",
    "returned from",
    "as returned",
    "from a previous",
    "from the previous",
    "from an earlier",
    "from a prior",
    "from the result",
    "from a result",
    "from the search result",
    "from the output",
    "from the response",
    "result of",
    "copied from",
    "copy it from",
    "obtained from",
    "from a call to",
    "generated by",
    "provided by",
    "supplied by",
    "issued by",
    "from the user",
    "by the user",
    "the user provides",
    "the user gives",
    "the user gave",
    "the user enters",
    "the user typed",
    "the user pastes",
    "the user mentions",
    "user-provided",
    "as shown to the user",
];

/// Phrases that say the id is of something not yet made.
const NEW_PHRASES: &[&str] = &[
    "for the new",
    "of the new",
    "for a new",
    "new id",
    "to create",
    "to be created",
    "will be created",
];

/// Verbs whose tools bring a new thing into being, whose id the server assigns.
const CREATING_VERBS: &[&str] = &["create", "insert", "register"];

/// Why the model cannot supply an id.
enum Kind {
    /// The caller's own id; the identity word (`user`, `session`, …).
    Caller(String),
    Created,
    /// An internal id; what shows it is internal.
    Internal(String),
}

/// Whether a description says where the id comes from: a phrase such as "returned by", or
/// the name of a tool in the catalog.
fn states_source(text: &str, tools: &Set<&str>) -> bool {
    let lower = text.to_lowercase();
    SOURCE_PHRASES.iter().any(|p| lower.contains(p))
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|w| w.trim_end_matches('.'))
            .any(|w| !w.is_empty() && tools.contains(w))
}

/// Whether a schema (or its items) looks like a UUID: `format: "uuid"` or a UUID pattern.
fn uuid_shaped(facts: &Facts<'_>) -> Option<&'static str> {
    if facts.format == Some("uuid") {
        return Some("`format: \"uuid\"`");
    }
    let pattern = facts.pattern?;
    (pattern.contains("{8}") && pattern.contains("{12}")).then_some("a UUID `pattern`")
}

fn classify(name: &str, facts: &Facts<'_>, items: Option<&Facts<'_>>, tool: &Tool) -> Option<Kind> {
    let words = identifier_words(name);
    let last = words.last().map(String::as_str).unwrap_or_default();
    let is_id = ID_WORDS.contains(&last);
    let uuid = uuid_shaped(facts).or_else(|| items.and_then(uuid_shaped));
    let description = facts.description.unwrap_or_default();
    if !is_id && uuid.is_none() && !mentions_any(description, INTERNAL_CUES) {
        return None;
    }
    let text = description.to_lowercase();
    let internal = INTERNAL_PHRASES
        .iter()
        .chain(INTERNAL_PLACES.iter().filter(|_| is_id))
        .find(|p| text.contains(*p));
    if !is_id && uuid.is_none() && internal.is_none() {
        return None;
    }
    let entity: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .take(words.len().saturating_sub(usize::from(is_id)))
        .collect();
    // Only ids get this far without an internal cue; the tool's words are needed for them.
    let tool_words: Vec<String> = if is_id {
        identifier_words(&tool.name)
            .iter()
            .map(|w| normal_word(w).to_owned())
            .collect()
    } else {
        Vec::new()
    };

    // The caller's own id: `sessionId`, `currentUserId`, an id "of the signed-in user", or a
    // plain `userId` on a tool that acts "on behalf of the user" and is not about users.
    if is_id
        && let Some(who) = entity
            .iter()
            .rev()
            .find(|w| IDENTITY_WORDS.contains(w))
            .copied()
        && entity
            .iter()
            .all(|w| IDENTITY_WORDS.contains(w) || SELF_WORDS.contains(w))
    {
        let tool_text = tool
            .description
            .as_deref()
            .unwrap_or_default()
            .to_lowercase();
        let about_others = tool_words.iter().any(|w| w == normal_word(who));
        if ALWAYS_CONTEXT.contains(&who)
            || entity.iter().any(|w| SELF_WORDS.contains(w))
            || SELF_PHRASES.iter().any(|p| text.contains(p))
            || (!about_others && ACTS_FOR_CALLER.iter().any(|p| tool_text.contains(p)))
        {
            return Some(Kind::Caller(who.to_owned()));
        }
    }

    // The id of what this tool creates: `orderId` on `create_order`, or "for the new order".
    if is_id && let Some((verb, Effect::Changes)) = effect_of_name(&tool.name) {
        let object = tool_words.last().map(String::as_str);
        let same_thing = CREATING_VERBS.contains(&verb.as_str())
            && entity
                .last()
                .is_some_and(|e| Some(normal_word(e)) == object);
        if same_thing || NEW_PHRASES.iter().any(|p| text.contains(p)) {
            return Some(Kind::Created);
        }
    }

    // An external id (a partner's reference) or an idempotency key is not the service's own.
    if entity
        .iter()
        .any(|w| matches!(*w, "external" | "idempotency" | "client"))
        || text.contains("idempotency")
    {
        return None;
    }
    if is_id {
        // Named as an id: whether it says where it comes from is `id-without-source`'s call.
        return None;
    }
    match (uuid, internal) {
        (Some(shape), _) => Some(Kind::Internal(shape.to_owned())),
        (None, Some(phrase)) => Some(Kind::Internal(format!("its description says \"{phrase}\""))),
        (None, None) => None,
    }
}

/// Whether the property `name` (its schema `raw`, in the input schema `root` of `tool`) is an
/// id only the server has — the caller's own, or the one this tool creates — which this rule
/// reports; `id-without-source` leaves those to it, so one mistake is one finding.
pub(crate) fn is_server_owned_id(root: &Value, name: &str, raw: &Value, tool: &Tool) -> bool {
    let (_, facts) = resolved(root, raw);
    let items = facts
        .items
        .filter(|_| facts.has_type("array"))
        .map(|items| resolved(root, items).1);
    matches!(
        classify(name, &facts, items.as_ref(), tool),
        Some(Kind::Caller(_) | Kind::Created)
    )
}

impl Rule for InternalIdFromModel {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for InternalIdFromModel {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let tools = cx.exact_names();
        let root = &tool.input_schema;
        walk(root, "/inputSchema", &mut |node| {
            let Some(props) = properties(node.schema) else {
                return;
            };
            for (name, raw) in props {
                let (_, facts) = resolved(root, raw);
                if !(facts.has_type("string")
                    || facts.has_type("integer")
                    || facts.has_type("array"))
                {
                    continue;
                }
                let items = facts
                    .items
                    .filter(|_| facts.has_type("array"))
                    .map(|items| resolved(root, items).1);
                if items.is_some_and(|items| items.has_type("object")) {
                    continue;
                }
                let Some(kind) = classify(name, &facts, items.as_ref(), tool) else {
                    continue;
                };
                let text = facts.description.unwrap_or_default();
                let (message, help) = match kind {
                    Kind::Caller(who) => {
                        if states_source(text, tools) {
                            continue;
                        }
                        let (whose, from) = match who.as_str() {
                            "session" => (
                                "the current session's id".to_owned(),
                                "the session comes from the connection and the auth context",
                            ),
                            "tenant" => (
                                "the current tenant's id".to_owned(),
                                "the tenant comes from the auth context",
                            ),
                            other => (
                                format!("the calling {other}'s own id"),
                                "who is calling comes from the auth context",
                            ),
                        };
                        (
                            format!(
                                "`{name}` asks the model for {whose}, which it cannot know: {from}, not from arguments"
                            ),
                            format!(
                                "remove `{name}` and take it on the server from the authenticated session (OAuth token, API key, MCP auth context); an id from arguments is invented, or lets one user act as another"
                            ),
                        )
                    }
                    Kind::Created => (
                        format!(
                            "`{name}` asks the model for the id of what `{}` creates, which only the server can assign",
                            tool.name
                        ),
                        format!(
                            "remove `{name}`; let the server generate the id and return it in the result, so later calls can use it"
                        ),
                    ),
                    Kind::Internal(cue) => {
                        if states_source(text, tools) {
                            continue;
                        }
                        (
                            format!(
                                "`{name}` is an internal id ({cue}) and nothing says where the model gets it, so it will invent one"
                            ),
                            format!(
                                "say which tool returns it (\"{name} from a previous search result\") and call that tool first, or let the model pass what it does know (a name, a query) and resolve the id on the server"
                            ),
                        )
                    }
                };
                out.push(Violation {
                    tool: Some(i),
                    pointer: child_pointer(&child_pointer(node.pointer, "properties"), name),
                    message,
                    help,
                });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, classify};
    use serde_json::{Value, json};
    use toolpact::Tool;

    fn kind(name: &str, schema: Value, tool: &str, about: &str) -> &'static str {
        let tool = Tool::new(tool, about, json!({"type": "object"}));
        match classify(name, &super::Facts::of(&schema), None, &tool) {
            Some(Kind::Caller(_)) => "caller",
            Some(Kind::Created) => "created",
            Some(Kind::Internal(_)) => "internal",
            None => "none",
        }
    }

    #[test]
    fn classifies_ids() {
        let s = json!({"type": "string"});
        let behalf = "Orders a gift on behalf of the user.";
        assert_eq!(kind("userId", s.clone(), "create_order", behalf), "caller");
        assert_eq!(
            kind("userId", s.clone(), "assign_ticket", "Assigns a ticket."),
            "none"
        );
        assert_eq!(kind("user_id", s.clone(), "get_user", behalf), "none");
        assert_eq!(
            kind(
                "user_id",
                json!({"description": "The signed-in user"}),
                "get_user",
                ""
            ),
            "caller"
        );
        assert_eq!(kind("sessionId", s.clone(), "get_session", ""), "caller");
        assert_eq!(kind("currentUserId", s.clone(), "get_user", ""), "caller");
        assert_eq!(kind("customer_id", s.clone(), "create_invoice", ""), "none");
        assert_eq!(
            kind("recipient_user_id", s.clone(), "send_gift", behalf),
            "none"
        );
        assert_eq!(kind("orderId", s.clone(), "create_order", ""), "created");
        assert_eq!(kind("orderId", s.clone(), "add_order_note", ""), "none");
        assert_eq!(kind("orderId", s.clone(), "cancel_order", ""), "none");
        assert_eq!(kind("foodId", s.clone(), "add_meal_food", ""), "none");
        assert_eq!(
            kind("giftId", json!({"format": "uuid"}), "create_order", ""),
            "none"
        );
        assert_eq!(
            kind("gift", json!({"format": "uuid"}), "create_order", ""),
            "internal"
        );
        assert_eq!(
            kind(
                "gift",
                json!({"description": "Database id of the gift"}),
                "create_order",
                ""
            ),
            "internal"
        );
        assert_eq!(
            kind(
                "query",
                json!({"description": "Text matched in our database"}),
                "search",
                ""
            ),
            "none"
        );
        assert_eq!(kind("uuid", s, "get_record", ""), "none");
        assert_eq!(
            kind("external_id", json!({"format": "uuid"}), "create_event", ""),
            "none"
        );
    }
}
