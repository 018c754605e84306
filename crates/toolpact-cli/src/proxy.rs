//! `toolpact proxy`: any MCP server behind toolpact's gates. The options come from the
//! `[proxy]` section of `toolpact.toml` (or `--config FILE`), then from the command line; the
//! linter's settings are the file's own, as `toolpact check` reads them.

use crate::Outcome;
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use toolpact_lint::Settings;
use toolpact_mcp::{
    AuditTarget, DEFAULT_MAX_RESULT_BYTES, OnChange, OnFinding, OnInjection, OnInvalidOutput,
    Proxy, ProxyOptions, ServerStderr, Source,
};

/// Arguments of `toolpact proxy`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  toolpact proxy --pin toolpact.lock -- npx -y @modelcontextprotocol/server-everything\n  \
toolpact proxy --lock toolpact.lock --on-injection block --audit-log proxy.jsonl -- uvx mcp-server-fetch\n  \
toolpact proxy --url https://mcp.example.com/mcp --bearer-env MCP_TOKEN --deny delete_everything\n\n\
Everything the client and the server say passes through unchanged, except: the tool list \
(tools that differ from the lock, have error-level security findings, or that the policy \
withholds are left out), each tools/call (validated against the tool's input schema before \
it is forwarded; invalid arguments get an isError result, unknown or withheld tools error \
-32602), each result (output schema, instructions to the model, size budget), and \
notifications/tools/list_changed (the list is checked again before the client hears of it).\n\n\
Configuration: the [proxy] section of toolpact.toml in the current directory, or --config \
FILE; flags override it. See docs/proxy.md.\n\n\
Exit status: 0 the client left or Ctrl-C, 2 the proxy could not start."
)]
pub struct Args {
    /// A Streamable HTTP MCP server to put behind the proxy, such as
    /// http://127.0.0.1:8000/mcp.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    url: Option<String>,
    /// An HTTP header sent to --url with every request, as 'Name: value' (repeatable).
    #[arg(long = "header", value_name = "'NAME: VALUE'", requires = "url")]
    headers: Vec<String>,
    /// The environment variable holding a bearer token for --url.
    #[arg(long, value_name = "VAR", requires = "url")]
    bearer_env: Option<String>,
    /// The configuration file (default: toolpact.toml in the current directory, if any).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// Compare the server's tools with this lock file (`toolpact lock`).
    #[arg(long, value_name = "FILE", conflicts_with = "pin")]
    lock: Option<PathBuf>,
    /// Pin on first use: write this lock file from the first tool list when it does not
    /// exist, and compare with it afterwards.
    #[arg(long, value_name = "FILE")]
    pin: Option<PathBuf>,
    /// What happens to a tool that differs from the lock or is not in it.
    #[arg(long, value_enum, value_name = "ACTION")]
    on_change: Option<ChangeArg>,
    /// What happens to a tool with an error-level security finding.
    #[arg(long, value_enum, value_name = "ACTION")]
    on_finding: Option<FindingArg>,
    /// Only these tools are passed (the server's names; comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "TOOLS")]
    allow: Vec<String>,
    /// These tools are never passed (the server's names; comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "TOOLS")]
    deny: Vec<String>,
    /// Show a tool to the client under another name, as SERVER_NAME=CLIENT_NAME (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    rename: Vec<String>,
    /// Withhold every tool that may destroy data (destructiveHint true, or left out on a tool
    /// that is not read-only) unless --allow-destructive names it.
    #[arg(long)]
    withhold_destructive: bool,
    /// Destructive tools passed even with --withhold-destructive (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "TOOLS")]
    allow_destructive: Vec<String>,
    /// Repair the usual model slips in arguments (a JSON-encoded string for an object, "10"
    /// for an integer) before validating them.
    #[arg(long)]
    lenient: bool,
    /// The time limit of a tool call, in seconds; past it the client gets an error result and
    /// the call is cancelled upstream.
    #[arg(long, value_name = "SECS")]
    call_timeout: Option<u64>,
    /// One tool's own time limit, as TOOL=SECS (repeatable).
    #[arg(long, value_name = "TOOL=SECS")]
    tool_timeout: Vec<String>,
    /// What happens to a result that carries instructions to the model, hidden characters or
    /// an encoded payload.
    #[arg(long, value_enum, value_name = "ACTION")]
    on_injection: Option<InjectionArg>,
    /// What happens to a result whose structuredContent breaks the tool's output schema.
    #[arg(long, value_enum, value_name = "ACTION")]
    on_invalid_output: Option<OutputArg>,
    /// The largest result passed to the client, in bytes of JSON; a larger one is cut, with a
    /// note saying so.
    #[arg(long, value_name = "BYTES")]
    max_result_bytes: Option<usize>,
    /// Write the audit log (one JSON object a line) to FILE; `-` writes it to standard error.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<String>,
    /// Write each call's arguments into the audit log, not only their hash.
    #[arg(long)]
    log_arguments: bool,
    /// Pass the server's standard error through instead of keeping its last lines for error
    /// messages.
    #[arg(long)]
    server_stderr: bool,
    /// Serve Streamable HTTP on ADDR (such as 127.0.0.1:8000, or a port alone) instead of
    /// stdio; each client session starts its own connection to the server.
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    http: Option<SocketAddr>,
    /// The environment variable holding the bearer token HTTP clients must send (--http).
    #[arg(long, value_name = "VAR", requires = "http")]
    http_bearer_env: Option<String>,
    /// A browser origin allowed to call the HTTP front (repeatable).
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    allow_origins: Vec<String>,
    /// A Host name the HTTP front answers to besides localhost and its address (repeatable).
    #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
    allow_hosts: Vec<String>,
    /// The stdio MCP server to put behind the proxy, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ChangeArg {
    Withhold,
    Warn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
enum FindingArg {
    Withhold,
    Warn,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
enum InjectionArg {
    Warn,
    Redact,
    Block,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
enum OutputArg {
    Warn,
    Block,
}

/// The `[proxy]` section of `toolpact.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ProxyFile {
    lock: Option<PathBuf>,
    pin: Option<PathBuf>,
    on_change: Option<ChangeArg>,
    on_finding: Option<FindingArg>,
    #[serde(default)]
    findings: BTreeMap<String, FindingArg>,
    #[serde(default)]
    allow: Vec<String>,
    #[serde(default)]
    deny: Vec<String>,
    #[serde(default)]
    rename: BTreeMap<String, String>,
    #[serde(default)]
    descriptions: BTreeMap<String, String>,
    #[serde(default)]
    withhold_destructive: bool,
    #[serde(default)]
    allow_destructive: Vec<String>,
    #[serde(default)]
    lenient: bool,
    call_timeout: Option<u64>,
    #[serde(default)]
    tool_timeouts: BTreeMap<String, u64>,
    on_injection: Option<InjectionArg>,
    on_invalid_output: Option<OutputArg>,
    max_result_bytes: Option<usize>,
    audit_log: Option<String>,
    #[serde(default)]
    log_arguments: bool,
}

#[derive(Debug, Default, Deserialize)]
struct FileRoot {
    #[serde(default)]
    proxy: ProxyFile,
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

/// The linter's settings and the `[proxy]` section, from `--config` or `toolpact.toml`.
fn read_config(config: Option<&str>) -> Result<(Settings, ProxyFile)> {
    let (text, file) = match config {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?,
            path.to_owned(),
        ),
        None => match std::fs::read_to_string("toolpact.toml") {
            Ok(text) => (text, "toolpact.toml".to_owned()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Settings::default(), ProxyFile::default()));
            }
            Err(e) => return Err(e).context("cannot read toolpact.toml"),
        },
    };
    let settings = Settings::from_toml(&text, &file)?;
    let root: FileRoot = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{file}: [proxy]: {}", e.to_string().trim_end()))?;
    Ok((settings, root.proxy))
}

/// `NAME=VALUE` split at the first `=`.
fn pair<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str)> {
    match text.split_once('=') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => Ok((a, b)),
        _ => bail!("{flag} {text:?} is not NAME=VALUE"),
    }
}

/// The proxy's options: the file's, then the flags'.
fn options(args: &Args) -> Result<ProxyOptions> {
    let (lint, file) = read_config(args.config.as_deref())?;
    let mut options = ProxyOptions {
        lint,
        ..ProxyOptions::default()
    };
    let (lock, pin) = match (&args.lock, &args.pin, &file.lock, &file.pin) {
        (Some(lock), _, _, _) => (Some(lock.clone()), false),
        (_, Some(pin), _, _) => (Some(pin.clone()), true),
        (_, _, Some(lock), None) => (Some(lock.clone()), false),
        (_, _, None, Some(pin)) => (Some(pin.clone()), true),
        (_, _, Some(_), Some(_)) => bail!("[proxy]: give either lock or pin, not both"),
        _ => (None, false),
    };
    options.lock = lock;
    options.pin = pin;
    options.on_change = match args.on_change.or(file.on_change) {
        Some(ChangeArg::Warn) => OnChange::Warn,
        _ => OnChange::Withhold,
    };
    let finding = |arg: FindingArg| match arg {
        FindingArg::Withhold => OnFinding::Withhold,
        FindingArg::Warn => OnFinding::Warn,
        FindingArg::Off => OnFinding::Off,
    };
    options.on_finding = finding(
        args.on_finding
            .or(file.on_finding)
            .unwrap_or(FindingArg::Withhold),
    );
    for (rule, action) in &file.findings {
        if toolpact_lint::find_meta(rule).is_none() {
            bail!("[proxy.findings]: no rule is named {rule:?}; `toolpact rules` lists them");
        }
        options
            .on_finding_rules
            .insert(rule.clone(), finding(*action));
    }
    options.allow = if args.allow.is_empty() {
        file.allow
    } else {
        args.allow.clone()
    };
    options.deny = file.deny;
    options.deny.extend(args.deny.iter().cloned());
    options.renames = file.rename;
    for rename in &args.rename {
        let (old, new) = pair("--rename", rename)?;
        options.renames.insert(old.to_owned(), new.to_owned());
    }
    options.descriptions = file.descriptions;
    options.withhold_destructive = args.withhold_destructive || file.withhold_destructive;
    options.allow_destructive = file.allow_destructive;
    options
        .allow_destructive
        .extend(args.allow_destructive.iter().cloned());
    options.lenient = args.lenient || file.lenient;
    if let Some(secs) = args.call_timeout.or(file.call_timeout) {
        if secs == 0 {
            bail!("--call-timeout must be at least 1 second");
        }
        options.call_timeout = Duration::from_secs(secs);
    }
    for (tool, secs) in file.tool_timeouts {
        options
            .tool_timeouts
            .insert(tool, Duration::from_secs(secs.max(1)));
    }
    for entry in &args.tool_timeout {
        let (tool, secs) = pair("--tool-timeout", entry)?;
        let secs: u64 = secs.parse().ok().filter(|s| *s > 0).with_context(|| {
            format!("--tool-timeout {entry:?}: {secs:?} is not a number of seconds")
        })?;
        options
            .tool_timeouts
            .insert(tool.to_owned(), Duration::from_secs(secs));
    }
    options.on_injection = match args.on_injection.or(file.on_injection) {
        Some(InjectionArg::Warn) => OnInjection::Warn,
        Some(InjectionArg::Block) => OnInjection::Block,
        _ => OnInjection::Redact,
    };
    options.on_invalid_output = match args.on_invalid_output.or(file.on_invalid_output) {
        Some(OutputArg::Block) => OnInvalidOutput::Block,
        _ => OnInvalidOutput::Warn,
    };
    options.max_result_bytes = args
        .max_result_bytes
        .or(file.max_result_bytes)
        .unwrap_or(DEFAULT_MAX_RESULT_BYTES);
    options.audit = match args.audit_log.as_deref().or(file.audit_log.as_deref()) {
        None => AuditTarget::Off,
        Some("-") => AuditTarget::Stderr,
        Some(path) => AuditTarget::File(PathBuf::from(path)),
    };
    options.log_arguments = args.log_arguments || file.log_arguments;
    Ok(options)
}

/// The upstream the arguments name.
fn source(args: &Args) -> Result<Source> {
    if let Some(url) = &args.url {
        let mut headers = Vec::with_capacity(args.headers.len());
        for header in &args.headers {
            let Some((name, value)) = header.split_once(':') else {
                bail!("--header {header:?} is not 'Name: value'");
            };
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
        let bearer_token = match &args.bearer_env {
            Some(var) => Some(std::env::var(var).with_context(|| {
                format!(
                    "--bearer-env {var}: the environment variable {var} is not set (or not UTF-8)"
                )
            })?),
            None => None,
        };
        return Ok(Source::Url {
            url: url.clone(),
            headers,
            bearer_token,
        });
    }
    match args.command.split_first() {
        Some((program, rest)) => Ok(Source::command(program.clone(), rest.to_vec())),
        None => bail!(
            "give the server to put behind the proxy: -- COMMAND ARGS… (a stdio server) or --url URL"
        ),
    }
}

/// Relays until the client leaves or Ctrl-C arrives.
pub fn run(args: Args) -> Result<Outcome> {
    init_logging();
    let upstream = source(&args)?;
    let options = options(&args)?;
    let mut proxy = Proxy::new(options)?;
    if args.server_stderr {
        proxy = proxy.with_server_stderr(ServerStderr::Inherit);
    }
    match args.http {
        None => {
            if args.http_bearer_env.is_some() {
                bail!("--http-bearer-env needs --http");
            }
            proxy.run_stdio(&upstream)?;
        }
        Some(addr) => serve_http(&args, addr, proxy, upstream)?,
    }
    Ok(Outcome::Clean)
}

/// Serves the HTTP front until Ctrl-C.
fn serve_http(args: &Args, addr: SocketAddr, proxy: Proxy, upstream: Source) -> Result<()> {
    let bearer_token = match &args.http_bearer_env {
        Some(var) => Some(std::env::var(var).with_context(|| {
            format!(
                "--http-bearer-env {var}: the environment variable {var} is not set (or not UTF-8)"
            )
        })?),
        None => None,
    };
    let options = toolpact_mcp::HttpOptions {
        addr,
        allowed_origins: args.allow_origins.clone(),
        allowed_hosts: args.allow_hosts.clone(),
        bearer_token,
        ..toolpact_mcp::HttpOptions::default()
    };
    options.validate()?;
    toolpact_mcp::block_on(async move {
        let http = proxy.bind_http(upstream, options).await?;
        eprintln!("toolpact: proxy serving at {}", http.url());
        http.serve_until(toolpact_mcp::shutdown_signal())
            .await
            .map_err(toolpact_mcp::ProxyError::from)
    })
    .context("cannot start the async runtime")??;
    Ok(())
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
