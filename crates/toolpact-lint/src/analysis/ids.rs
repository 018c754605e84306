//! What kind of identifier an input property is, as far as its name, schema and description
//! tell: the caller's own, the id of what the tool creates, or an id internal to the service.
//! `internal-id-from-model` reports all three; `id-without-source` leaves the first two to it,
//! so that one mistake is one finding.

use crate::analysis::schema::{Facts, resolved};
use crate::analysis::verbs::{Effect, effect_of_name};
use crate::analysis::words::{identifier_words, mentions_any, normal_word};
use serde_json::Value;
use toolpact::Tool;

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
pub(crate) enum IdKind {
    /// The caller's own id; the identity word (`user`, `session`, …).
    Caller(String),
    /// The id of what the tool creates, which the server assigns.
    Created,
    /// An internal id; what shows it is internal.
    Internal(String),
}

/// Whether a schema (or its items) looks like a UUID: `format: "uuid"` or a UUID pattern.
fn uuid_shaped(facts: &Facts<'_>) -> Option<&'static str> {
    if facts.format == Some("uuid") {
        return Some("`format: \"uuid\"`");
    }
    let pattern = facts.pattern?;
    (pattern.contains("{8}") && pattern.contains("{12}")).then_some("a UUID `pattern`")
}

/// What kind of identifier the property `name` is (with `facts` read through `$ref`s, and
/// those of its items for an array), on `tool`, or `None` when the model can supply it or
/// when only its source is in question.
pub(crate) fn classify_id(
    name: &str,
    facts: &Facts<'_>,
    items: Option<&Facts<'_>>,
    tool: &Tool,
) -> Option<IdKind> {
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
            return Some(IdKind::Caller(who.to_owned()));
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
            return Some(IdKind::Created);
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
        (Some(shape), _) => Some(IdKind::Internal(shape.to_owned())),
        (None, Some(phrase)) => Some(IdKind::Internal(format!(
            "its description says \"{phrase}\""
        ))),
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
        classify_id(name, &facts, items.as_ref(), tool),
        Some(IdKind::Caller(_) | IdKind::Created)
    )
}

#[cfg(test)]
mod tests {
    use super::{IdKind, classify_id};
    use serde_json::{Value, json};
    use toolpact::Tool;

    fn kind(name: &str, schema: Value, tool: &str, about: &str) -> &'static str {
        let tool = Tool::new(tool, about, json!({"type": "object"}));
        match classify_id(name, &super::Facts::of(&schema), None, &tool) {
            Some(IdKind::Caller(_)) => "caller",
            Some(IdKind::Created) => "created",
            Some(IdKind::Internal(_)) => "internal",
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
