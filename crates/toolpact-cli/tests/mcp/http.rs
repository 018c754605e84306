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

#[test]
fn an_address_in_use_is_reported_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let refused = run(
        &["serve", "examples/catalogs/gift-shop.json", "--http", &addr],
        &[],
    );
    assert_eq!(refused.code, 2);
    let os_error = std::io::Error::from(std::io::ErrorKind::AddrInUse);
    assert!(
        refused
            .stderr
            .starts_with(&format!("error: cannot listen on {addr}: ")),
        "{}",
        refused.stderr
    );
    // The operating system's message appears once, not once more as a cause.
    let reason = refused.stderr.rsplit_once(": ").unwrap().1.trim_end();
    assert_eq!(
        refused.stderr.matches(reason).count(),
        1,
        "{} ({os_error})",
        refused.stderr
    );
}

#[test]
fn options_are_checked_before_the_demo_creates_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("orders.sqlite");
    let refused = run(
        &[
            "serve",
            "--demo",
            "--db",
            db.to_str().unwrap(),
            "--http",
            "0",
            "--allow-origin",
            "example.com",
        ],
        &[],
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("allowed origin \"example.com\" is not an origin"),
        "{}",
        refused.stderr
    );
    assert!(
        !db.exists(),
        "the database was created before the options were checked"
    );
    let zero = run(
        &[
            "serve",
            "--demo",
            "--db",
            db.to_str().unwrap(),
            "--http",
            "0",
            "--session-idle-timeout",
            "0",
        ],
        &[],
    );
    assert_eq!(zero.code, 2);
    assert_eq!(
        zero.stderr,
        "error: the session idle timeout must be longer than 0\n"
    );
    assert!(!db.exists());
}

#[test]
fn a_token_with_surrounding_whitespace_is_refused_at_start() {
    let refused = run(
        &[
            "serve",
            "examples/catalogs/gift-shop.json",
            "--http",
            "0",
            "--bearer-env",
            TOKEN.0,
        ],
        &[(TOKEN.0, "s3cret\n")],
    );
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        format!(
            "error: --bearer-env {}: the bearer token has whitespace at its start or end (7 characters in all); HTTP drops it from the header, so no request could ever match: remove it\n",
            TOKEN.0
        )
    );
}

#[test]
#[cfg(unix)]
fn a_wildcard_bind_says_which_hosts_it_answers() {
    let server = Process::start(
        &[
            "serve",
            "examples/catalogs/gift-shop.json",
            "--http",
            "0.0.0.0:0",
        ],
        &[],
    );
    let lines = server.stderr_until("listens on every interface");
    // The URL printed is one the server answers to.
    let url = lines[lines.len() - 2]
        .rsplit(' ')
        .next()
        .unwrap()
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{lines:?}");
    let fetched = run(&["fetch", "--url", &url], &[]);
    assert_eq!(fetched.code, 0, "{}", fetched.stderr);
    assert!(
        lines.last().unwrap().ends_with(
            "but answers only requests for the Host localhost, 127.0.0.1 or ::1 (DNS-rebinding protection); to reach it under the machine's name or address, allow that name with --allow-host NAME"
        ),
        "{lines:?}"
    );
    assert_eq!(server.interrupt(), 0);
}

#[test]
#[cfg(unix)]
fn a_stateless_server_is_read_like_any_other() {
    let server = Process::start(
        &[
            "serve",
            "examples/catalogs/gift-shop.json",
            "--http",
            "127.0.0.1:0",
            "--stateless",
            "--json-response",
        ],
        &[],
    );
    let banner = server
        .stderr_until("toolpact: serving 2 tools at ")
        .pop()
        .unwrap();
    let url = banner.rsplit(' ').next().unwrap().to_owned();
    let fetched = run(&["fetch", "--url", &url], &[]);
    assert_eq!(fetched.code, 0, "{}", fetched.stderr);
    let doc: Value = serde_json::from_str(&fetched.stdout).unwrap();
    assert_eq!(
        doc,
        json!({"tools": tools_of("examples/catalogs/gift-shop.json")})
    );
    assert_eq!(server.interrupt(), 0);
}
