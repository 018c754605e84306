//! `toolpact check`, `toolpact rules` and `toolpact rule`: the linter on the command line.

use crate::Outcome;
use crate::input::read_bytes;
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Write};
use toolpact::Catalog;
use toolpact_lint::report::{OutputFormat, Sources, render};
use toolpact_lint::{Settings, Severity};

/// Arguments of `toolpact check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Configuration: toolpact.toml in the current directory, or --config FILE; \
flags override it.\n\nExit status: 0 no finding reaches --fail-on, 1 some finding does, \
2 the check could not run."
)]
pub struct Args {
    /// Files with tool definitions (any format `convert` reads); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// The configuration file (default: toolpact.toml in the current directory, if any).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// The least severity that makes the exit status 1.
    #[arg(long, value_enum, default_value = "error")]
    fail_on: FailOn,
    /// Only these rules: codes, code prefixes (TP1), names or categories; comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Option<Vec<String>>,
    /// Leave out these rules (same forms as --select).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Check against these targets only (comma-separated; default all).
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    targets: Option<Vec<String>>,
    /// Also check the strict variants of OpenAI and Anthropic.
    #[arg(long)]
    strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

fn settings(args: &Args) -> Result<Settings> {
    let mut settings = match &args.config {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            Settings::from_toml(&text, path)?
        }
        None => match std::fs::read_to_string("toolpact.toml") {
            Ok(text) => Settings::from_toml(&text, "toolpact.toml")?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Settings::default(),
            Err(e) => return Err(e).context("cannot read toolpact.toml"),
        },
    };
    if let Some(select) = &args.select {
        settings.select(select.clone())?;
    }
    settings.ignore(args.ignore.clone())?;
    if let Some(targets) = &args.targets {
        settings.set_targets(targets)?;
    }
    settings.strict |= args.strict;
    Ok(settings)
}

pub fn run(args: Args) -> Result<Outcome> {
    let settings = settings(&args)?;
    let mut catalog = Catalog::new();
    let mut sources = Sources::new();
    for file in &args.files {
        let bytes = read_bytes(file)?;
        catalog.extend(Catalog::from_slice(&bytes, file, None)?);
        if let Ok(text) = String::from_utf8(bytes) {
            sources.insert(file.clone(), text);
        }
    }
    let report = toolpact_lint::check(&catalog, &settings);
    let format = match args.format {
        FormatArg::Text => OutputFormat::Text,
        FormatArg::Json => OutputFormat::Json,
        FormatArg::Sarif => OutputFormat::Sarif,
        FormatArg::Github => OutputFormat::Github,
    };
    let color = format == OutputFormat::Text
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(render(&report, format, &sources, color).as_bytes())?;
    stdout.flush()?;
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let failed = match (threshold, report.max_severity()) {
        (Some(threshold), Some(max)) => max >= threshold,
        _ => false,
    };
    Ok(if failed {
        Outcome::Findings
    } else {
        Outcome::Clean
    })
}

/// `toolpact rules`: every rule, one line each.
pub fn list() -> Result<Outcome> {
    let mut out = std::io::stdout().lock();
    for rule in toolpact_lint::rules::all() {
        let m = rule.meta();
        writeln!(
            out,
            "{:<6} {:<28} {:<12} {:<8} {}",
            m.code,
            m.name,
            m.category.as_str(),
            m.severity.as_str(),
            m.summary()
        )?;
    }
    Ok(Outcome::Clean)
}

/// `toolpact rule CODE|NAME`: one rule's documentation.
pub fn show(selector: &str) -> Result<Outcome> {
    let Some(rule) = toolpact_lint::rules::find(selector) else {
        bail!("no rule is named {selector:?}; `toolpact rules` lists them");
    };
    let m = rule.meta();
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {} {}\n", m.code, m.name)?;
    writeln!(
        out,
        "Category: {}. Default severity: {}.\n",
        m.category.as_str(),
        m.severity.as_str()
    )?;
    writeln!(out, "{}", m.documentation())?;
    if !m.options.is_empty() {
        writeln!(out, "\n## Options")?;
        for option in m.options {
            writeln!(
                out,
                "- `{}` (default {}): {}",
                option.name, option.default, option.doc
            )?;
        }
    }
    Ok(Outcome::Clean)
}
