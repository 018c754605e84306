//! `toolpact serve --http`: Streamable HTTP on 127.0.0.1, read by `toolpact fetch --url`.

use crate::common::mcp::{Process, run, tools_of};
use serde_json::{Value, json};

const TOKEN: (&str, &str) = ("TOOLPACT_TEST_TOKEN", "correct horse battery staple");

fn start() -> (Process, String) {
    let server = Process::start(
        &[
            "serve",
            "examples/catalogs/gift-shop.json",
            "--http",
            "127.0.0.1:0",
            "--bearer-env",
            TOKEN.0,
        ],
        &[TOKEN],
    );
    let banner = server
        .stderr_until("toolpact: serving 2 tools at ")
        .pop()
        .unwrap();
    let url = banner.rsplit(' ').next().unwrap().to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );
    (server, url)
}

#[test]
#[cfg(unix)]
fn serve_over_http_with_a_token_then_stop_on_ctrl_c() {
    let (server, url) = start();
    let fetched = run(&["fetch", "--url", &url, "--bearer-env", TOKEN.0], &[TOKEN]);
    assert_eq!(fetched.code, 0, "{}", fetched.stderr);
    let doc: Value = serde_json::from_str(&fetched.stdout).unwrap();
    assert_eq!(
        doc,
        json!({"tools": tools_of("examples/catalogs/gift-shop.json")})
    );

    let refused = run(&["fetch", "--url", &url], &[]);
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        format!(
            "error: {url}: initialize failed: the server requires authorization (WWW-Authenticate: Bearer); give it a bearer token or the header it expects\n"
        )
    );

    let wrong = run(
        &[
            "fetch",
            "--url",
            &url,
            "--header",
            "Authorization: Bearer guess",
        ],
        &[],
    );
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);

    assert_eq!(server.interrupt(), 0);
}

#[test]
fn serve_refuses_what_it_cannot_do() {
    let stdin_catalog = run(&["serve", "-"], &[]);
    assert_eq!(stdin_catalog.code, 2);
    assert_eq!(
        stdin_catalog.stderr,
        "error: over stdio, standard input carries the MCP session: give the catalog as a file\n"
    );
    let bad_origin = run(
        &[
            "serve",
            "examples/catalogs/gift-shop.json",
            "--http",
            "0",
            "--allow-origin",
            "example.com",
        ],
        &[],
    );
    assert_eq!(bad_origin.code, 2);
    assert!(
        bad_origin
            .stderr
            .contains("allowed origin \"example.com\" is not an origin"),
        "{}",
        bad_origin.stderr
    );
    let no_catalog = run(&["serve"], &[]);
    assert_eq!(no_catalog.code, 2);
}
