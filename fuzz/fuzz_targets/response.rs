//! A response body of each model API read back (`read_response`): never a panic; the calls
//! of the reply are the calls of its message, with the same ids; the reply writes as JSON;
//! pushed into a conversation, the next request built from it is valid JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolpact::name::NameMap;
use toolpact::{Conversation, RequestOptions, Target, build_request, push_response, read_response};
use toolpact_fuzz::{assert_json_round_trip, seed_tools};

fuzz_target!(|data: &[u8]| {
    let Ok(body) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let names = NameMap::default();
    for target in Target::ALL.into_iter().filter(|t| t.is_model_api()) {
        let Ok(reply) = read_response(target, &body, &names, 1) else {
            continue;
        };
        let Ok(value) = serde_json::to_value(&reply) else {
            panic!("{target}: a reply does not serialize");
        };
        assert_json_round_trip(&value, "a reply");
        let message_ids: Vec<&str> = reply
            .message
            .tool_calls
            .iter()
            .map(|c| c.id.as_str())
            .collect();
        let reply_ids: Vec<&str> = reply.calls.iter().filter_map(|c| c.id.as_deref()).collect();
        assert_eq!(
            message_ids, reply_ids,
            "{target}: the reply's calls and its message's calls differ"
        );
        let mut conversation = Conversation::new();
        conversation.push_user("hello");
        if push_response(&mut conversation, target, &body, &names).is_err() {
            panic!("{target}: push_response refuses a body read_response reads");
        }
        let options = RequestOptions {
            model: Some("model".to_owned()),
            max_tokens: Some(64),
            ..RequestOptions::default()
        };
        if let Ok(request) = build_request(seed_tools(), target, &conversation, &options) {
            assert_json_round_trip(&request.body, "a request body");
        }
    }
});
