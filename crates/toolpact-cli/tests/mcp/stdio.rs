//! `toolpact serve CATALOG` over stdio, driven by toolpact's own MCP client.

use crate::common::mcp::tools_of;
use crate::common::{absolute, bin};
use serde_json::json;
use toolpact_mcp::{ClientOptions, Connection, Source};

#[test]
fn the_gift_shop_contract_is_served_over_stdio() {
    let source = Source::command(
        bin(),
        ["serve", &absolute("examples/catalogs/gift-shop.json")],
    );
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let info = connection.server_info().unwrap();
        assert_eq!(info.name.as_deref(), Some("toolpact"));
        assert_eq!(
            connection.list_tools().await.unwrap(),
            tools_of("examples/catalogs/gift-shop.json")
        );

        // Valid arguments reach the (missing) implementation, which says so.
        let valid = connection
            .call_tool("create_order", json!({"giftId": "g-1", "quantity": 1}))
            .await
            .unwrap();
        assert!(valid.is_error);
        assert!(
            valid
                .text_content()
                .starts_with("create_order has no handler: this server (`toolpact serve`)"),
            "{}",
            valid.text_content()
        );

        // Invalid arguments never get that far: the model reads what to fix.
        let invalid = connection
            .call_tool(
                "create_order",
                json!({"giftId": "g-1", "quantity": 0, "giftMessage": "x".repeat(300)}),
            )
            .await
            .unwrap();
        assert!(invalid.is_error);
        let message = invalid.text_content();
        assert!(
            message.starts_with(
                "Invalid arguments for create_order: 2 problems. Fix them and call create_order again.\n\
                 - `quantity` must be at least 1; got the integer 0.\n\
                 - `giftMessage` must be at most 200 characters;"
            ),
            "{message}"
        );

        let unknown = connection
            .call_tool("cancel_order", json!({}))
            .await
            .unwrap_err();
        assert_eq!(unknown.code(), Some(-32602));
        assert!(unknown.to_string().contains("Unknown tool: cancel_order"));
        connection.close().await;
    })
    .unwrap();
}

/// `--target openai-chat --strict` (or `anthropic --strict`): the client gives the tools to a
/// strict-mode model, which leaves an optional property out with null; the server reads the call back through that
/// export, and the arguments pass.
#[test]
fn a_strict_null_is_read_back_when_serve_knows_the_export() {
    let catalog = absolute("examples/catalogs/gift-shop.json");
    let arguments = json!({"giftId": "g-1", "quantity": 1, "giftMessage": null});
    for (args, valid) in [
        (vec!["serve", catalog.as_str()], false),
        (
            vec![
                "serve",
                catalog.as_str(),
                "--target",
                "openai-chat",
                "--strict",
            ],
            true,
        ),
        // Anthropic's strict mode keeps the property optional; its model may send null all
        // the same.
        (
            vec![
                "serve",
                catalog.as_str(),
                "--target",
                "anthropic",
                "--strict",
            ],
            true,
        ),
    ] {
        assert_reaches_the_handler(&args, "create_order", &arguments, valid);
    }
}

/// `--target gemini`: the client gives the tools to Gemini, which writes an integer enum as
/// strings and sends `"2"` for `2`; the server reads the call back through that export, and
/// the arguments pass.
#[test]
fn a_gemini_enum_string_is_read_back_when_serve_knows_the_export() {
    let catalog = absolute("crates/toolpact-cli/tests/validate/fixtures/integer-enum.json");
    let arguments = json!({"room": "office", "speed": "2"});
    for (args, valid) in [
        (vec!["serve", catalog.as_str()], false),
        (vec!["serve", catalog.as_str(), "--target", "gemini"], true),
    ] {
        assert_reaches_the_handler(&args, "set_fan", &arguments, valid);
    }
}

/// Serves with `args`, calls `tool` with `arguments`, and asserts whether the arguments
/// passed validation: valid arguments reach the (missing) implementation, invalid ones do
/// not.
fn assert_reaches_the_handler(
    args: &[&str],
    tool: &str,
    arguments: &serde_json::Value,
    valid: bool,
) {
    let source = Source::command(bin(), args.to_vec());
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let result = connection.call_tool(tool, arguments.clone()).await.unwrap();
        let text = result.text_content();
        assert_eq!(
            text.starts_with(&format!("{tool} has no handler")),
            valid,
            "{args:?}: {text}"
        );
        connection.close().await;
    })
    .unwrap();
}
