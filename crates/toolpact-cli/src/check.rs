//! `toolpact check`, `toolpact rules` and `toolpact rule`: the linter on the command line.

use crate::Outcome;
use crate::input::read_bytes;
use crate::live::{LiveArgs, fetch_live};
use crate::lock::lock_text;
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Write};
use toolpact::{Catalog, LockFile};
use toolpact_lint::{OutputFormat, Settings, Severity, Sources, check_locked, write_report};

/// Arguments of `toolpact check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Configuration: toolpact.toml in the current directory, or --config FILE; \
flags override it. The text report says on standard error which file it used.\n\nExit \
status: 0 no finding reaches --fail-on and the description quality reaches --fail-under, \
1 otherwise, 2 the check could not run."
)]
pub struct Args {
    /// Files with tool definitions (any format `convert` reads); `-` reads standard input.
    #[arg(required_unless_present_any = ["url", "command"], value_name = "FILE")]
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
    /// Also exit with status 1 when the catalog's description quality (0 to 5, the mean of
    /// purpose, usage, limitations, parameters, length and examples) is below this score.
    #[arg(long, value_name = "SCORE", value_parser = quality_score)]
    fail_under: Option<f64>,
    /// Only these rules: codes, code prefixes (TP1), names or categories; comma-separated.
    /// Replaces the file's `select`; a rule named here by code or name runs even if the file
    /// ignores it.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Option<Vec<String>>,
    /// Leave out these rules (same forms as --select), besides those the file ignores.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Check against these targets only (comma-separated; default all).
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    targets: Option<Vec<String>>,
    /// Also check the strict variants of OpenAI and Anthropic.
    #[arg(long)]
    strict: bool,
    /// Do not check the strict variants, even if the configuration file asks for them.
    #[arg(long, conflicts_with = "strict")]
    no_strict: bool,
    /// Also compare every tool with the contract pinned in this lock file (`toolpact lock`);
    /// each change is an error (TP590 contract-changed). Without `=LOCK`, reads toolpact.lock;
    /// `--locked=-` reads it from standard input.
    #[arg(
        long,
        value_name = "LOCK",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "toolpact.lock"
    )]
    locked: Option<String>,
    /// After the report, print on standard error where the time went: reading, checking
    /// and writing (wall time), then each rule's own time and the analyses rules share.
    #[arg(long)]
    timings: bool,
    /// A live MCP server to check, instead of or besides files.
    #[command(flatten)]
    live: LiveArgs,
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

/// A score for `--fail-under`: a number from 0 to 5.
fn quality_score(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(score) if (0.0..=5.0).contains(&score) => Ok(score),
        _ => Err(format!("{text:?} is not a score from 0 to 5")),
    }
}

/// The settings of a check, and the configuration file they were read from, if any.
fn settings(args: &Args) -> Result<(Settings, Option<String>)> {
    let (mut settings, file) = match &args.config {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            (Settings::from_toml(&text, path)?, Some(path.clone()))
        }
        None => match std::fs::read_to_string("toolpact.toml") {
            Ok(text) => (
                Settings::from_toml(&text, "toolpact.toml")?,
                Some("toolpact.toml".to_owned()),
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
            Err(e) => return Err(e).context("cannot read toolpact.toml"),
        },
    };
    if let Some(select) = &args.select {
        settings.select_overriding(select.clone())?;
    }
    settings.ignore(args.ignore.clone())?;
    if let Some(targets) = &args.targets {
        settings.set_targets(targets)?;
    }
    settings.strict = (settings.strict || args.strict) && !args.no_strict;
    Ok((settings, file))
}

pub fn run(args: Args) -> Result<Outcome> {
    let (settings, config) = settings(&args)?;
    if args.locked.as_deref() == Some("-") && args.files.iter().any(|f| f == "-") {
        bail!("the lock file and the tool definitions cannot both come from standard input (`-`)");
    }
    let lock = args.locked.as_deref().map(read_lock).transpose()?;
    let reading = std::time::Instant::now();
    let mut catalog = Catalog::new();
    let mut sources = Sources::new();
    for file in &args.files {
        let bytes = read_bytes(file)?;
        if lock_text(&bytes).is_some() {
            bail!(
                "{file} is a lock file, not tool definitions; compare the tools with it using --locked={file}"
            );
        }
        catalog.extend(Catalog::from_slice(&bytes, file, None)?);
        if let Ok(text) = String::from_utf8(bytes) {
            sources.insert(file.clone(), text);
        }
    }
    if let Some(fetched) = fetch_live(&args.live)? {
        catalog.extend(fetched.catalog()?);
        sources.insert(fetched.origin.clone(), fetched.to_text());
    }
    // A large catalog takes seconds: say so on a terminal, never in a pipe or a CI log.
    let progress = catalog.len() >= PROGRESS_FROM && std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    if progress {
        eprintln!(
            "checking {} tools against {} target{}…",
            catalog.len(),
            settings.targets.len(),
            if settings.targets.len() == 1 { "" } else { "s" }
        );
    }
    let read_time = reading.elapsed();
    let (mut report, timings) = if args.timings {
        let (report, timings) = toolpact_lint::check_timed(&catalog, &settings);
        (report, Some(timings))
    } else {
        (toolpact_lint::check(&catalog, &settings), None)
    };
    let check_time = started.elapsed();
    if progress {
        eprintln!("checked in {:.1} s", started.elapsed().as_secs_f64());
    }
    if let (Some(lock), Some(path)) = (&lock, &args.locked) {
        report.extend(check_locked(&catalog, lock, path));
    }
    let format = match args.format {
        FormatArg::Text => OutputFormat::Text,
        FormatArg::Json => OutputFormat::Json,
        FormatArg::Sarif => OutputFormat::Sarif,
        FormatArg::Github => OutputFormat::Github,
    };
    // A configuration file changes what is reported: the text report says which one, on
    // standard error so that the report itself stays the same; machine formats say nothing.
    if let (Some(file), OutputFormat::Text) = (&config, format) {
        eprintln!("using the configuration in {file}");
    }
    let color = format == OutputFormat::Text
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let writing = std::time::Instant::now();
    // The report needs the findings and the files' text, not the tools: a large catalog is
    // freed beside the writing, so that the two are not held at once.
    let written = std::thread::scope(|scope| {
        // Without a thread to spare, the catalog is freed here, as the closure is dropped.
        let _ = std::thread::Builder::new().spawn_scoped(scope, move || drop(catalog));
        let mut stdout = std::io::stdout().lock();
        write_report(&mut stdout, &report, format, &sources, color)?;
        stdout.flush()
    });
    written?;
    if let Some(timings) = timings {
        let phases = [
            ("reading", read_time),
            ("checking", check_time),
            ("writing", writing.elapsed()),
        ];
        eprint!("{}", timings_table(&phases, &timings));
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let outcome = Outcome::failing_at(threshold, report.max_severity());
    let below = args
        .fail_under
        .is_some_and(|least| report.quality.overall() < least);
    Ok(if below { Outcome::Findings } else { outcome })
}

/// From this many tools on, `check` says on a terminal that it is working and how long it took.
const PROGRESS_FROM: usize = 5_000;

/// Reads the lock file `--locked` names.
fn read_lock(path: &str) -> Result<LockFile> {
    if path != "-"
        && std::fs::metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        bail!("{path}: no such lock file; make one with `toolpact lock FILE... -o {path}`");
    }
    let bytes = read_bytes(path)?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{path}: the lock file is not valid UTF-8 text"))?;
    Ok(LockFile::from_str_named(&text, path)?)
}

/// `toolpact rules`: every rule, one line each, then the findings no rule reports (such as
/// TP590 from `check --locked`), so that every code a report can show is listed.
pub fn list() -> Result<Outcome> {
    let mut out = std::io::stdout().lock();
    let rules = toolpact_lint::all_rules().iter().map(|rule| rule.meta());
    for m in rules.chain(toolpact_lint::OTHER_FINDINGS.iter().copied()) {
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
    let Some(m) = toolpact_lint::find_meta(selector) else {
        bail!("no rule is named {selector:?}; `toolpact rules` lists them");
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {} {}\n", m.code, m.name)?;
    writeln!(
        out,
        "Category: {}. Default severity: {}.\n",
        m.category.as_str(),
        m.severity.as_str()
    )?;
    if !m.enabled_by_default {
        writeln!(
            out,
            "Off by default: it runs when a selection names it (`--select {}`).\n",
            m.name
        )?;
    }
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

/// The `--timings` table: the phases' wall time, then every rule and shared analysis that
/// took a measurable time, the longest first.
fn timings_table(
    phases: &[(&str, std::time::Duration)],
    timings: &toolpact_lint::Timings,
) -> String {
    use std::fmt::Write;
    let seconds = |d: std::time::Duration| d.as_secs_f64();
    let mut out = String::from("timings (wall):");
    for (i, (phase, time)) in phases.iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        let _ = write!(out, "{sep}{phase} {:.2} s", seconds(*time));
    }
    let total = timings.total();
    let _ = writeln!(
        out,
        "\ntimings (time in each part of the check, summed over threads; {:.2} s measured):",
        seconds(total)
    );
    let mut rest = std::time::Duration::ZERO;
    let mut hidden = 0;
    for part in &timings.parts {
        // Below a thousandth of the whole, a line says nothing: the rest is summed up.
        if part.time * 1000 < total || part.time.is_zero() {
            rest += part.time;
            hidden += 1;
            continue;
        }
        let share = 100.0 * seconds(part.time) / seconds(total).max(f64::MIN_POSITIVE);
        let _ = writeln!(
            out,
            "  {:>8.3} s {share:>5.1} %  {}",
            seconds(part.time),
            part.what
        );
    }
    if hidden > 0 {
        let _ = writeln!(
            out,
            "  {:>8.3} s          {hidden} more, each under 0.1 %",
            seconds(rest)
        );
    }
    out
}
