//! `toolpact proxy --http ADDR --url URL`: Streamable HTTP on both sides, each with its own
//! bearer token (`--http-bearer-env` for the proxy's clients, `--bearer-env` for the upstream),
//! and the proxy's front holding requests to the checks of `toolpact serve --http`: a foreign
//! `Origin` or `Host` gets 403, a body over the limit 413.

use crate::common::mcp::{Process, tools_of};
use serde_json::json;
use std::io::{Read, Write};
use toolpact_mcp::{ClientOptions, Connection, Source};

const UPSTREAM_TOKEN: (&str, &str) = ("TOOLPACT_UPSTREAM_TOKEN", "upstream horse staple");
const FRONT_TOKEN: (&str, &str) = ("TOOLPACT_FRONT_TOKEN", "front battery staple");
const GIFT_SHOP: &str = "examples/catalogs/gift-shop.json";

/// The URL a process printed at the end of the first standard error line that starts with
/// `banner`.
fn url_after(process: &Process, banner: &str) -> String {
    let line = process.stderr_until(banner).pop().unwrap();
    let url = line.rsplit(' ').next().unwrap().to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );
    url
}

/// The status code of a raw HTTP/1.1 POST of `body` to `url` with `headers`.
fn post_status(url: &str, headers: &[(&str, &str)], body: &[u8]) -> u16 {
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap();
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer before it has read the whole body, and close.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"))
}

#[test]
fn a_proxy_on_http_reaches_an_upstream_on_http_each_side_with_its_token() {
    let upstream = Process::start(
        &[
            "serve",
            GIFT_SHOP,
            "--http",
            "127.0.0.1:0",
            "--bearer-env",
            UPSTREAM_TOKEN.0,
        ],
        &[UPSTREAM_TOKEN],
    );
    let upstream_url = url_after(&upstream, "toolpact: serving 2 tools at ");
    let proxy = Process::start(
        &[
            "proxy",
            "--http",
            "127.0.0.1:0",
            "--http-bearer-env",
            FRONT_TOKEN.0,
            "--url",
            &upstream_url,
            "--bearer-env",
            UPSTREAM_TOKEN.0,
        ],
        &[UPSTREAM_TOKEN, FRONT_TOKEN],
    );
    let url = url_after(&proxy, "toolpact: proxy serving at ");

    let source = Source::Url {
        url: url.clone(),
        headers: Vec::new(),
        bearer_token: Some(FRONT_TOKEN.1.to_owned()),
    };
    let tools = toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let tools = connection.list_tools().await.unwrap();
        connection.close().await;
        tools
    })
    .unwrap();
    assert_eq!(json!(tools), json!(tools_of(GIFT_SHOP)));

    let bearer = format!("Bearer {}", FRONT_TOKEN.1);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}
    }})
    .to_string();
    let host = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap()
        .to_owned();
    let local = [("Host", host.as_str()), ("Authorization", bearer.as_str())];
    // What the front takes, then what it refuses.
    assert_eq!(post_status(&url, &local, initialize.as_bytes()), 200);
    assert_eq!(
        post_status(&url, &[("Host", host.as_str())], initialize.as_bytes()),
        401,
        "no token"
    );
    let foreign_origin = [local[0], local[1], ("Origin", "https://evil.example")];
    assert_eq!(
        post_status(&url, &foreign_origin, initialize.as_bytes()),
        403
    );
    let foreign_host = [("Host", "evil.example"), local[1]];
    assert_eq!(post_status(&url, &foreign_host, initialize.as_bytes()), 403);
    let huge = vec![b' '; 5 * 1024 * 1024];
    assert_eq!(post_status(&url, &local, &huge), 413);

    assert_eq!(proxy.interrupt(), 0);
    assert_eq!(upstream.interrupt(), 0);
}
