//! What the proxy lets through: the options of the tool list gate, the call gate and the
//! result gate, as one value the command line or a program fills in.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use toolpact_lint::Settings;

/// The largest message the proxy reads from either side unless
/// [`ProxyOptions::max_message_bytes`] says otherwise: 16 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// The largest tool result passed to the client unless [`ProxyOptions::max_result_bytes`]
/// says otherwise: 1 MiB.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 1024 * 1024;

/// How long a tool call may take unless [`ProxyOptions::call_timeout`] or a per-tool limit
/// says otherwise: 2 minutes.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// How many requests may wait for an answer at once unless [`ProxyOptions::max_in_flight`]
/// says otherwise.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 10_000;

/// What happens to a tool whose contract differs from the lock, or that the lock does not have.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnChange {
    /// The tool is withheld from the client.
    #[default]
    Withhold,
    /// The tool is passed, and the change logged.
    Warn,
}

/// What happens to a tool the linter reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnFinding {
    /// The tool is withheld from the client.
    #[default]
    Withhold,
    /// The tool is passed, and the finding logged.
    Warn,
    /// The finding is ignored.
    Off,
}

/// What happens to a tool result that carries instructions to the model, hidden characters or
/// an encoded payload.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnInjection {
    /// The result is passed as it is, and the finding logged.
    Warn,
    /// Each string that carries it is replaced with a note naming what was removed (by rule
    /// code and label, words a second scan does not report); a passage in an object's key,
    /// which no note can replace, blocks the whole result.
    #[default]
    Redact,
    /// The whole result is replaced with an error result saying why.
    Block,
}

/// What happens to a result whose `structuredContent` breaks the tool's output schema.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnInvalidOutput {
    /// The result is passed, and the problem logged.
    #[default]
    Warn,
    /// The result is replaced with an error result listing the problems.
    Block,
}

/// Where the audit log goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditTarget {
    /// No audit log.
    #[default]
    Off,
    /// Standard error (never standard output, which carries the protocol on stdio).
    Stderr,
    /// A file, appended to.
    File(PathBuf),
}

/// Everything the proxy checks, and what it does with what it finds.
#[derive(Debug, Clone)]
pub struct ProxyOptions {
    /// A lock file (`toolpact lock`) the upstream's tools are compared with.
    pub lock: Option<PathBuf>,
    /// With [`ProxyOptions::lock`]: write the lock from the first tool list when the file does
    /// not exist (pin on first use), and enforce it afterwards.
    pub pin: bool,
    /// What happens to a tool that differs from the lock, or that the lock does not have.
    pub on_change: OnChange,
    /// The linter's settings (`toolpact.toml`); the linter runs on every tool list, with the
    /// rules among these whose findings can act: the security rules (none when
    /// `on_finding` is off) and the rules `on_finding_rules` names.
    pub lint: Settings,
    /// What happens to a tool with an error-level security finding.
    pub on_finding: OnFinding,
    /// Per rule (code or name), what happens to a tool it reports, at any severity.
    pub on_finding_rules: BTreeMap<String, OnFinding>,
    /// Only these tools are passed (upstream names); every tool when empty.
    pub allow: Vec<String>,
    /// These tools are never passed (upstream names).
    pub deny: Vec<String>,
    /// Upstream name → the name the client sees.
    pub renames: BTreeMap<String, String>,
    /// Upstream name → the description the client sees instead of the server's.
    pub descriptions: BTreeMap<String, String>,
    /// Withhold the tools that may destroy data (`destructiveHint`, which defaults to true for
    /// a tool that is not read-only) unless [`ProxyOptions::allow_destructive`] names them.
    pub withhold_destructive: bool,
    /// Destructive tools passed even with [`ProxyOptions::withhold_destructive`].
    pub allow_destructive: Vec<String>,
    /// Apply toolpact's lenient repairs to a call's arguments before validating them.
    pub lenient: bool,
    /// How long a tool call may take before the client gets an error and the call is cancelled
    /// upstream.
    pub call_timeout: Duration,
    /// Per tool (upstream name), its own time limit.
    pub tool_timeouts: BTreeMap<String, Duration>,
    /// What happens to a result with instructions to the model in it.
    pub on_injection: OnInjection,
    /// What happens to a result that breaks the tool's output schema.
    pub on_invalid_output: OnInvalidOutput,
    /// The largest result passed to the client, in bytes of JSON; a larger one is cut, with a
    /// note saying so.
    pub max_result_bytes: usize,
    /// The largest message read from either side, in bytes; a larger one is dropped and the
    /// request it answers gets an error saying so.
    pub max_message_bytes: usize,
    /// How many requests may wait for an answer at once; beyond, a request gets an error.
    pub max_in_flight: usize,
    /// Where the audit log goes.
    pub audit: AuditTarget,
    /// Write the arguments of each call into the audit log, not only their hash.
    pub log_arguments: bool,
}

impl Default for ProxyOptions {
    fn default() -> Self {
        ProxyOptions {
            lock: None,
            pin: false,
            on_change: OnChange::default(),
            lint: Settings::default(),
            on_finding: OnFinding::default(),
            on_finding_rules: BTreeMap::new(),
            allow: Vec::new(),
            deny: Vec::new(),
            renames: BTreeMap::new(),
            descriptions: BTreeMap::new(),
            withhold_destructive: false,
            allow_destructive: Vec::new(),
            lenient: false,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            tool_timeouts: BTreeMap::new(),
            on_injection: OnInjection::default(),
            on_invalid_output: OnInvalidOutput::default(),
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            audit: AuditTarget::default(),
            log_arguments: false,
        }
    }
}

impl ProxyOptions {
    /// The time limit of a call to `tool` (upstream name).
    pub fn timeout_of(&self, tool: &str) -> Duration {
        self.tool_timeouts
            .get(tool)
            .copied()
            .unwrap_or(self.call_timeout)
    }
}
