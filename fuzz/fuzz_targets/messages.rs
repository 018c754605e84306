//! A conversation read from JSON (`parse_messages`): never a panic; what is read writes back
//! as JSON, and the request every model API is built from it is valid JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolpact::{Conversation, RequestOptions, Target, build_request, parse_messages};
use toolpact_fuzz::{assert_json_round_trip, seed_tools};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((system, messages)) = parse_messages(text) else {
        return;
    };
    let mut conversation = match system {
        Some(system) => Conversation::with_system(system),
        None => Conversation::new(),
    };
    conversation.messages = messages;
    let Ok(value) = serde_json::to_value(&conversation) else {
        panic!("a conversation read does not serialize");
    };
    assert_json_round_trip(&value, "a conversation");
    let options = RequestOptions {
        model: Some("model".to_owned()),
        max_tokens: Some(64),
        ..RequestOptions::default()
    };
    for target in Target::ALL.into_iter().filter(|t| t.is_model_api()) {
        if let Ok(request) = build_request(seed_tools(), target, &conversation, &options) {
            assert_json_round_trip(&request.body, "a request body");
        }
    }
});
