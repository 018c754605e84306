//! `toolpact serve`: an MCP server for the tools of catalog files, over stdio or Streamable
//! HTTP. There are no implementations: every call is validated against the tool's full schema,
//! then answered with an error result saying the tool has no handler. That is a contract
//! server, for testing clients and agents against the tools before the real server exists.

use crate::Outcome;
use crate::input::{Answering, read_catalog};
use anyhow::{Context, Result, bail};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;
use toolpact::{CallContext, DispatchOptions, Registry, ToolError, ToolResult};
use toolpact_mcp::{
    DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_PAGE_SIZE, DEFAULT_SESSION_IDLE_TIMEOUT,
    HttpOptions, Server,
};

/// Arguments of `toolpact serve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  toolpact serve examples/catalogs/gift-shop.json\n  \
toolpact serve tools.json --http 127.0.0.1:8000 --bearer-env MCP_TOKEN\n  \
toolpact serve tools.json --http 0.0.0.0:8000 --allow-host mcp.internal --stateless\n\n\
Over HTTP the endpoint is http://ADDR/mcp; requests from a browser origin other than the \
server's own are refused (403) unless --allow-origin allows them, and requests for a Host \
other than localhost and the bound address unless --allow-host allows it.\n\n\
Exit status: 0 the server stopped (client gone, Ctrl-C), 2 it could not start or failed."
)]
pub struct Args {
    /// Catalog files whose tools to serve (any format `convert` reads).
    #[arg(value_name = "CATALOG", required_unless_present = "demo")]
    catalogs: Vec<String>,
    /// Serve Streamable HTTP on ADDR (such as 127.0.0.1:8000, or a port alone for 127.0.0.1)
    /// instead of stdio.
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    http: Option<SocketAddr>,
    /// A browser origin allowed to call the HTTP server, as scheme://host[:port] (repeatable).
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    allow_origins: Vec<String>,
    /// A Host name the HTTP server answers to besides localhost and its address (repeatable).
    #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
    allow_hosts: Vec<String>,
    /// The environment variable holding the bearer token HTTP requests must carry.
    #[arg(long, value_name = "VAR", requires = "http")]
    bearer_env: Option<String>,
    /// The largest HTTP request body accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES, requires = "http")]
    max_body: usize,
    /// Close an HTTP session after this many seconds without a request and without an open
    /// stream (a client that keeps its stream open keeps its session).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_SESSION_IDLE_TIMEOUT.as_secs(), requires = "http")]
    session_idle_timeout: u64,
    /// How many HTTP sessions may be open at once; beyond, a new session gets 503 with
    /// Retry-After.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SESSIONS, requires = "http")]
    max_sessions: usize,
    /// Serve HTTP without sessions, so that any instance behind a load balancer can answer any
    /// request.
    #[arg(long, requires = "http")]
    stateless: bool,
    /// Answer HTTP requests served without a session with a JSON body instead of an SSE stream
    /// when the reply is a single message.
    #[arg(long, requires = "http")]
    json_response: bool,
    /// How many tools one tools/list page holds.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PAGE_SIZE)]
    page_size: usize,
    #[command(flatten)]
    answering: Answering,
    /// Serve the gift-shop example server (with its handlers, orders in SQLite and widget)
    /// instead of catalog files; every call is made for the customer "demo-customer".
    #[arg(long, conflicts_with = "catalogs")]
    demo: bool,
    /// The gift shop's order database (SQLite), for --demo; default $TOOLPACT_GIFT_SHOP_DB,
    /// else gift-shop.sqlite in the platform's data directory, else in the current directory.
    #[arg(long, value_name = "PATH", requires = "demo")]
    db: Option<std::path::PathBuf>,
}

/// `8000` → 127.0.0.1:8000; otherwise a socket address.
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    text.parse().map_err(|_| {
        format!(
            "{text:?} is not an address; write HOST:PORT with an IP address, such as 127.0.0.1:8000"
        )
    })
}

/// Serves until the client leaves (stdio) or Ctrl-C arrives.
pub fn run(args: Args) -> Result<Outcome> {
    init_logging();
    // Every option is checked before anything is created (the demo's database, say).
    let http = http_options(&args)?;
    let server = if args.demo {
        demo::server(args.db.as_deref())?
    } else {
        catalog_server(&args)?
    };
    // What the server cannot serve as declared is logged when it starts.
    let mut server = server.with_page_size(args.page_size);
    if let Some(read_back) = args.answering.read_back(server.registry())? {
        eprintln!(
            "toolpact: calls are read back through the {} export ({} of the tools need it)",
            args.answering.label(),
            read_back.len()
        );
        let options = DispatchOptions {
            read_back: Some(read_back),
            ..server.dispatch_options().clone()
        };
        server = server.with_dispatch_options(options);
    }
    let tools = server.registry().len();
    match http {
        None => {
            eprintln!("toolpact: serving {tools} tools over stdio");
            toolpact_mcp::block_on(server.serve_stdio(toolpact_mcp::shutdown_signal()))
                .context("cannot start the async runtime")??;
        }
        Some(options) => {
            let wildcard = options.addr.ip().is_unspecified() && options.allowed_hosts.is_empty();
            toolpact_mcp::block_on(async move {
                let http = server.bind_http(options).await?;
                eprintln!("toolpact: serving {tools} tools at {}", http.url());
                if wildcard {
                    eprintln!(
                        "toolpact: note: {} listens on every interface, but answers only requests for the Host localhost, 127.0.0.1 or ::1 (DNS-rebinding protection); to reach it under the machine's name or address, allow that name with --allow-host NAME",
                        http.local_addr()
                    );
                }
                http.serve_until(toolpact_mcp::shutdown_signal()).await
            })
            .context("cannot start the async runtime")??;
        }
    }
    Ok(Outcome::Clean)
}

/// The HTTP options, checked (`None` over stdio).
fn http_options(args: &Args) -> Result<Option<HttpOptions>> {
    let Some(addr) = args.http else {
        return Ok(None);
    };
    let bearer_token = match &args.bearer_env {
        Some(var) => Some(std::env::var(var).with_context(|| {
            format!("--bearer-env {var}: the environment variable {var} is not set (or not UTF-8)")
        })?),
        None => None,
    };
    if bearer_token.as_deref().is_some_and(str::is_empty) {
        bail!("--bearer-env: the token is empty");
    }
    let options = HttpOptions {
        addr,
        allowed_origins: args.allow_origins.clone(),
        allowed_hosts: args.allow_hosts.clone(),
        bearer_token,
        max_body_bytes: args.max_body,
        session_idle_timeout: Duration::from_secs(args.session_idle_timeout),
        max_sessions: args.max_sessions,
        stateless: args.stateless,
        json_response: args.json_response,
        ..HttpOptions::default()
    };
    if let Err(e) = options.validate() {
        match &args.bearer_env {
            Some(var) if e.to_string().starts_with("the bearer token") => {
                bail!("--bearer-env {var}: {e}")
            }
            _ => bail!("{e}"),
        }
    }
    Ok(Some(options))
}

/// The tools of the catalog files, each answering with a "no handler" error once its arguments
/// pass validation.
fn catalog_server(args: &Args) -> Result<Server> {
    if args.http.is_none() && args.catalogs.iter().any(|c| c == "-") {
        bail!("over stdio, standard input carries the MCP session: give the catalog as a file");
    }
    let catalog = read_catalog(&args.catalogs, None)?;
    for note in &catalog.notes {
        eprintln!("note: {}: {}", note.origin, note.message);
    }
    let mut registry = Registry::from_catalog(&catalog)?;
    let names: Vec<String> = registry.tools().map(|t| t.name.clone()).collect();
    for name in names {
        let message = format!(
            "{name} has no handler: this server (`toolpact serve`) serves the tool's contract from a catalog file, without an implementation. The arguments were valid."
        );
        registry.set_handler(&name, move |_arguments, _ctx: CallContext| {
            let message = message.clone();
            async move { Err::<ToolResult, _>(ToolError::for_model(message)) }
        })?;
    }
    Ok(Server::new(registry)?)
}

/// Logs go to standard error (standard output is the MCP channel on stdio). `RUST_LOG`
/// overrides the default level.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// `toolpact serve --demo`: the gift-shop example server (examples/gift-shop), with its
/// handlers, its order database and its widget.
mod demo {
    use anyhow::{Context, Result};
    use gift_shop::{GiftShop, User};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use toolpact::DispatchOptions;
    use toolpact_mcp::{Resource, Server};

    /// The customer every demo call is made for: the demo has no sign-in, and the customer
    /// always comes from the server, never from the model.
    const DEMO_CUSTOMER: &str = "demo-customer";

    /// The shop with its orders at `db` (or the default place), serving its widget.
    pub fn server(db: Option<&Path>) -> Result<Server> {
        let path = match db {
            Some(path) => path.to_owned(),
            None => default_db(),
        };
        let shop = GiftShop::open(&path)
            .with_context(|| format!("cannot open the gift shop at {}", path.display()))?;
        eprintln!(
            "toolpact: the gift shop ({} gifts) keeps its orders in {}",
            shop.gift_count(),
            path.display()
        );
        let options = DispatchOptions {
            data: Some(Arc::new(User::new(DEMO_CUSTOMER))),
            ..DispatchOptions::default()
        };
        Ok(Server::new(shop.registry())?
            .with_name("toolpact-gift-shop", env!("CARGO_PKG_VERSION"))
            .with_dispatch_options(options)
            .with_resource(Resource {
                title: Some("Gift ideas".to_owned()),
                description: Some("Renders the gift cards suggest_gifts returns.".to_owned()),
                ..Resource::text(
                    gift_shop::WIDGET_URI,
                    "gifts-widget",
                    gift_shop::WIDGET_MIME,
                    gift_shop::widget_html(),
                )
            }))
    }

    /// `$TOOLPACT_GIFT_SHOP_DB`, else `toolpact/gift-shop.sqlite` in the platform's data
    /// directory, else `gift-shop.sqlite` in the current directory.
    fn default_db() -> PathBuf {
        if let Some(path) = std::env::var_os("TOOLPACT_GIFT_SHOP_DB").filter(|p| !p.is_empty()) {
            return PathBuf::from(path);
        }
        if let Some(dir) = data_dir().map(|d| d.join("toolpact"))
            && std::fs::create_dir_all(&dir).is_ok()
        {
            return dir.join("gift-shop.sqlite");
        }
        PathBuf::from("gift-shop.sqlite")
    }

    /// Where the platform keeps per-user application data.
    fn data_dir() -> Option<PathBuf> {
        let env = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        if cfg!(windows) {
            env("APPDATA")
        } else if cfg!(target_os = "macos") {
            env("HOME").map(|home| home.join("Library/Application Support"))
        } else {
            env("XDG_DATA_HOME").or_else(|| env("HOME").map(|home| home.join(".local/share")))
        }
    }
}
