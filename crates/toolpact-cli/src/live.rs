//! Reading tools from a live MCP server instead of a file: `-- COMMAND ARGS…` starts a stdio
//! server, `--url URL` reaches a Streamable HTTP one. Any command can flatten [`LiveArgs`] into
//! its arguments and call [`fetch_live`].

use anyhow::{Context, Result, bail};
use std::time::Duration;
use toolpact_mcp::{ClientOptions, Fetched, Source};

/// Where a live server is, and how long each step may take.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LiveArgs {
    /// A Streamable HTTP MCP endpoint, such as http://127.0.0.1:8000/mcp.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// An HTTP header sent to --url with every request, as 'Name: value' (repeatable).
    #[arg(long = "header", value_name = "'NAME: VALUE'", requires = "url")]
    pub headers: Vec<String>,
    /// The environment variable holding a bearer token for --url.
    #[arg(long, value_name = "VAR", requires = "url")]
    pub bearer_env: Option<String>,
    /// The time limit of each step with the server (initialize, each tools/list page), in
    /// seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub timeout: u64,
    /// A stdio MCP server to start, after `--`, such as
    /// `-- npx -y @modelcontextprotocol/server-everything`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl LiveArgs {
    /// Whether a live source was given.
    pub fn is_given(&self) -> bool {
        self.url.is_some() || !self.command.is_empty()
    }

    /// The source described by the arguments; `None` when neither a URL nor a command is given.
    pub fn source(&self) -> Result<Option<Source>> {
        if let Some(url) = &self.url {
            let mut headers = Vec::with_capacity(self.headers.len());
            for header in &self.headers {
                let Some((name, value)) = header.split_once(':') else {
                    bail!("--header {header:?} is not 'Name: value'");
                };
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
            let bearer_token = match &self.bearer_env {
                Some(var) => Some(std::env::var(var).with_context(|| {
                    format!("--bearer-env {var}: the environment variable {var} is not set (or not UTF-8)")
                })?),
                None => None,
            };
            return Ok(Some(Source::Url {
                url: url.clone(),
                headers,
                bearer_token,
            }));
        }
        match self.command.split_first() {
            Some((program, args)) => Ok(Some(Source::command(program.clone(), args.to_vec()))),
            None => Ok(None),
        }
    }

    /// Client options from the arguments.
    pub fn options(&self) -> ClientOptions {
        ClientOptions {
            timeout: Duration::from_secs(self.timeout.max(1)),
            ..ClientOptions::default()
        }
    }
}

/// The tools of the live server the arguments name, as the server listed them; `None` when no
/// live source is given. Ctrl-C stops the server and ends the wait.
pub fn fetch_live(args: &LiveArgs) -> Result<Option<Fetched>> {
    let Some(source) = args.source()? else {
        return Ok(None);
    };
    let options = args.options();
    let fetched = toolpact_mcp::block_on(async {
        until_interrupted(toolpact_mcp::fetch_tools(&source, &options)).await
    })
    .context("cannot start the async runtime")?;
    match fetched {
        Some(result) => Ok(Some(result?)),
        None => bail!("interrupted while reading {}", source.origin()),
    }
}

/// Runs `work` until it finishes or Ctrl-C arrives (then `None`; dropping the work stops a
/// child server).
async fn until_interrupted<T>(work: impl Future<Output = T>) -> Option<T> {
    use futures::future::{Either, select};
    let work = std::pin::pin!(work);
    let interrupted = std::pin::pin!(toolpact_mcp::shutdown_signal());
    match select(work, interrupted).await {
        Either::Left((done, _)) => Some(done),
        Either::Right(((), _)) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A command shaped like `check`: files, then a live source.
    #[derive(Debug, Parser)]
    struct Check {
        files: Vec<String>,
        #[command(flatten)]
        live: LiveArgs,
    }

    fn parse(args: &[&str]) -> Result<Check, clap::Error> {
        Check::try_parse_from(std::iter::once("check").chain(args.iter().copied()))
    }

    #[test]
    fn a_command_after_double_dash_keeps_its_own_flags() {
        let parsed = parse(&[
            "--timeout",
            "5",
            "--",
            "uv",
            "run",
            "server.py",
            "--url",
            "x",
        ])
        .unwrap();
        assert!(parsed.files.is_empty());
        assert_eq!(
            parsed.live.command,
            ["uv", "run", "server.py", "--url", "x"]
        );
        assert_eq!(parsed.live.options().timeout, Duration::from_secs(5));
        assert_eq!(
            parsed.live.source().unwrap(),
            Some(Source::command("uv", ["run", "server.py", "--url", "x"]))
        );
    }

    #[test]
    fn a_url_takes_headers_and_files_stay_files() {
        let parsed = parse(&[
            "a.json",
            "--url",
            "http://127.0.0.1:8000/mcp",
            "--header",
            "X-Tenant: acme ",
        ])
        .unwrap();
        assert_eq!(parsed.files, ["a.json"]);
        assert_eq!(
            parsed.live.source().unwrap(),
            Some(Source::Url {
                url: "http://127.0.0.1:8000/mcp".to_owned(),
                headers: vec![("X-Tenant".to_owned(), "acme".to_owned())],
                bearer_token: None,
            })
        );
        let no_colon = parse(&["--url", "http://h/mcp", "--header", "X-Tenant acme"]).unwrap();
        assert_eq!(
            no_colon.live.source().unwrap_err().to_string(),
            "--header \"X-Tenant acme\" is not 'Name: value'"
        );
        assert!(
            parse(&["--header", "A: b"]).is_err(),
            "--header needs --url"
        );
        assert!(parse(&["--url", "http://h/mcp", "--", "srv"]).is_err());
        assert_eq!(parse(&["a.json"]).unwrap().live.source().unwrap(), None);
    }
}
