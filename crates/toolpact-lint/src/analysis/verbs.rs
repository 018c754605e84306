//! The verbs that say what a tool does to the world, and what a tool's name says it does,
//! for the design rules that hold a name against the tool's hints and arguments.

use crate::analysis::words::identifier_words;

/// Verbs that change the world: a tool named with one creates, changes, sends, pays or
/// deletes something.
const CHANGING_VERBS: &[&str] = &[
    "accept",
    "add",
    "apply",
    "approve",
    "archive",
    "assign",
    "ban",
    "block",
    "book",
    "buy",
    "cancel",
    "change",
    "charge",
    "clear",
    "close",
    "comment",
    "commit",
    "confirm",
    "create",
    "decline",
    "delete",
    "deploy",
    "destroy",
    "disable",
    "drop",
    "edit",
    "email",
    "enable",
    "enroll",
    "erase",
    "follow",
    "forward",
    "grant",
    "insert",
    "install",
    "invite",
    "kill",
    "launch",
    "like",
    "lock",
    "log",
    "mark",
    "merge",
    "message",
    "modify",
    "move",
    "mute",
    "notify",
    "order",
    "patch",
    "pay",
    "pin",
    "post",
    "publish",
    "purchase",
    "purge",
    "push",
    "put",
    "record",
    "refund",
    "register",
    "reject",
    "remove",
    "rename",
    "reopen",
    "reply",
    "reschedule",
    "reset",
    "restart",
    "restore",
    "revoke",
    "save",
    "schedule",
    "sell",
    "send",
    "set",
    "share",
    "sign",
    "star",
    "store",
    "submit",
    "subscribe",
    "sync",
    "tag",
    "terminate",
    "transfer",
    "trigger",
    "truncate",
    "tweet",
    "unarchive",
    "unassign",
    "unblock",
    "unfollow",
    "uninstall",
    "unlock",
    "unmute",
    "unpin",
    "unregister",
    "unsubscribe",
    "update",
    "upload",
    "upsert",
    "wipe",
    "write",
];

/// Changing verbs that are also common nouns (`order_status`, `blog_post_list`): they count as
/// verbs only near the start of the name and when no read word follows them.
const NOUN_LIKE_VERBS: &[&str] = &[
    "apply", "archive", "block", "book", "change", "charge", "clear", "comment", "commit", "drop",
    "email", "forward", "install", "launch", "like", "lock", "log", "mark", "merge", "message",
    "move", "order", "patch", "pin", "post", "push", "put", "record", "reply", "schedule", "share",
    "sign", "star", "store", "tag", "transfer", "trigger",
];

/// Verbs that only read: a tool named with one looks something up and changes nothing.
const READING_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "browse",
    "calculate",
    "check",
    "compare",
    "compute",
    "convert",
    "count",
    "describe",
    "discover",
    "estimate",
    "explore",
    "fetch",
    "find",
    "get",
    "inspect",
    "list",
    "locate",
    "look",
    "lookup",
    "preview",
    "query",
    "read",
    "retrieve",
    "search",
    "show",
    "summarise",
    "summarize",
    "validate",
    "view",
];

/// Reading verbs that search an open or large set rather than fetch one known thing.
const SEARCHING_VERBS: &[&str] = &[
    "browse", "discover", "explore", "find", "locate", "look", "lookup", "query", "search",
];

/// Words that, right after a noun-like verb, show it was a noun (`order_status`, `log_entries`).
const READ_NOUNS: &[&str] = &[
    "count",
    "data",
    "detail",
    "details",
    "entries",
    "entry",
    "histories",
    "history",
    "id",
    "ids",
    "info",
    "items",
    "lines",
    "number",
    "report",
    "status",
    "statuses",
    "summary",
];

/// Whether a sorted word list holds `word`.
fn listed(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

/// What a tool's name says it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// It creates, changes, sends or deletes something.
    Changes,
    /// It only reads; `searches` when it searches rather than fetches.
    Reads {
        /// Whether the verb is a search (`search`, `find`, `lookup`, `query`, …).
        searches: bool,
    },
}

/// The verb of a tool name and what it says the tool does, or `None` when the name has no
/// verb we know in its first three words (`weather`, `slack_channels`).
///
/// A namespace may come first (`github_create_issue`). A changing verb anywhere wins over a
/// reading one (`get_or_create_user` changes the world).
pub(crate) fn effect_of_name(name: &str) -> Option<(String, Effect)> {
    let words = identifier_words(name);
    let mut found: Option<(String, Effect)> = None;
    for (pos, word) in words.iter().enumerate().take(3) {
        let next = words.get(pos + 1).map(String::as_str);
        if listed(CHANGING_VERBS, word) {
            let noun_like = listed(NOUN_LIKE_VERBS, word);
            let read_follows = next
                .is_some_and(|n| listed(READ_NOUNS, n) || listed(READING_VERBS, n) || n == "by");
            if !noun_like || (pos <= 1 && !read_follows) {
                found = Some((word.clone(), Effect::Changes));
                break;
            }
            continue;
        }
        if listed(READING_VERBS, word) {
            let searches = listed(SEARCHING_VERBS, word);
            let verb = if word == "look" && next == Some("up") {
                "look up".to_owned()
            } else {
                word.clone()
            };
            found = Some((verb, Effect::Reads { searches }));
            break;
        }
    }
    if let Some((_, Effect::Reads { .. })) = found {
        // `get_or_create_user`, `find_and_delete`: the changing verb decides.
        if let Some(verb) = words
            .iter()
            .find(|w| listed(CHANGING_VERBS, w) && !listed(NOUN_LIKE_VERBS, w))
        {
            return Some((verb.clone(), Effect::Changes));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted_for_binary_search() {
        for list in [
            CHANGING_VERBS,
            NOUN_LIKE_VERBS,
            READING_VERBS,
            SEARCHING_VERBS,
            READ_NOUNS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn reads_effects_from_names() {
        let effect = |n: &str| effect_of_name(n).map(|(_, e)| e);
        assert_eq!(effect("create_order"), Some(Effect::Changes));
        assert_eq!(effect("github_create_issue"), Some(Effect::Changes));
        assert_eq!(effect("slack_post_message"), Some(Effect::Changes));
        assert_eq!(effect("get_or_create_user"), Some(Effect::Changes));
        assert_eq!(effect("order_gift"), Some(Effect::Changes));
        assert_eq!(
            effect("order_status"),
            None,
            "a noun followed by a read noun is not a verb"
        );
        assert_eq!(
            effect("blog_post_list"),
            Some(Effect::Reads { searches: false })
        );
        assert_eq!(effect("getUser"), Some(Effect::Reads { searches: false }));
        assert_eq!(effect("web_search"), Some(Effect::Reads { searches: true }));
        assert_eq!(
            effect("look_up_order"),
            Some(Effect::Reads { searches: true })
        );
        assert_eq!(effect("weather"), None);
        assert_eq!(effect("settings"), None);
        assert_eq!(
            effect("address_lookup"),
            Some(Effect::Reads { searches: true })
        );
    }
}
