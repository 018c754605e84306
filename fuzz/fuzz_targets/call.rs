//! Calls in every provider's shape, read and checked against a registry: `parse_calls` never
//! panics; a call checked valid passes the compiled validator and one checked invalid fails
//! it, with errors whose pointers are JSON pointers; the result sent back is valid JSON.
//!
//! The input is calls, checked against the tools of `fixtures/seeds/`, or a catalog, a NUL
//! byte and calls, checked against the catalog's tools (so that the schemas are fuzzed too).

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolpact::{
    Catalog, DispatchOptions, Outcome, Registry, RenderOptions, ToolResult, check_call,
    parse_calls, render,
};
use toolpact_fuzz::{assert_json_round_trip, pick_format, seed_registry, split_at_nul};

fuzz_target!(|data: &[u8]| {
    let Some((first, data)) = data.split_first() else {
        return;
    };
    let (head, tail) = split_at_nul(data);
    let (registry, calls) = match tail {
        Some(calls) => {
            let Ok(catalog) = Catalog::from_slice(head, "tools.json", None) else {
                return;
            };
            let Ok(registry) = Registry::from_catalog(&catalog) else {
                return;
            };
            (registry, calls)
        }
        None => (seed_registry(), head),
    };
    let Ok(text) = std::str::from_utf8(calls) else {
        return;
    };
    let Ok(calls) = parse_calls(text, pick_format(*first)) else {
        return;
    };
    for lenient in [false, true] {
        let options = DispatchOptions {
            lenient,
            ..DispatchOptions::default()
        };
        for call in &calls {
            let checked = check_call(&registry, call, &options);
            if let (Some(name), Ok(arguments)) = (checked.tool, &call.arguments) {
                let Some(registered) = registry.get(name) else {
                    panic!("check_call named tool {name:?} the registry does not hold");
                };
                let arguments = checked.arguments.as_ref().unwrap_or(arguments);
                let verdict = registered.validate(arguments);
                match (&checked.outcome, &verdict) {
                    (Outcome::Ok, Ok(())) => {}
                    (Outcome::Ok, Err(e)) => panic!("{name}: checked valid, validate says {e:?}"),
                    (Outcome::InvalidArguments { .. }, Err(errors)) => {
                        assert!(
                            !errors.errors.is_empty(),
                            "{name}: invalid without an error"
                        );
                        for error in &errors.errors {
                            assert!(
                                error.pointer.is_empty() || error.pointer.starts_with('/'),
                                "{name}: error pointer {:?} is not a JSON pointer",
                                error.pointer
                            );
                            assert!(
                                !error.message.is_empty(),
                                "{name}: an error without a message"
                            );
                        }
                    }
                    (Outcome::InvalidArguments { .. }, Ok(())) => {
                        panic!("{name}: checked invalid, validate says valid: {arguments}")
                    }
                    _ => {}
                }
                assert!(
                    matches!(checked.outcome, Outcome::Ok) || checked.message.is_some(),
                    "{name}: a call that is not valid without a message"
                );
            }
            let result = ToolResult::error(checked.message.clone().unwrap_or_default());
            assert_json_round_trip(
                &render(call, &result, RenderOptions::default()),
                "a rendered result",
            );
        }
    }
});
