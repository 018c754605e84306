//! The audit log: one JSON object per line for every event of the gates (list checked, tool
//! withheld, call forwarded or refused, result flagged), to a file or standard error, never
//! to standard output.

use crate::proxy::policy::AuditTarget;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where events are written; writes nothing when the log is off.
pub(crate) struct AuditLog {
    out: Option<Mutex<Box<dyn Write + Send>>>,
    log_arguments: bool,
}

impl AuditLog {
    /// Opens the log: a file is created or appended to.
    pub(crate) fn open(target: &AuditTarget, log_arguments: bool) -> std::io::Result<AuditLog> {
        let out: Option<Box<dyn Write + Send>> = match target {
            AuditTarget::Off => None,
            AuditTarget::Stderr => Some(Box::new(std::io::stderr())),
            AuditTarget::File(path) => Some(Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?,
            )),
        };
        Ok(AuditLog {
            out: out.map(Mutex::new),
            log_arguments,
        })
    }

    /// Whether events are written at all (so that callers skip building them).
    pub(crate) fn is_on(&self) -> bool {
        self.out.is_some()
    }

    /// Whether the arguments themselves go into the log.
    pub(crate) fn logs_arguments(&self) -> bool {
        self.log_arguments
    }

    /// Writes one event: `time` and `event` first, then `fields`.
    pub(crate) fn write(&self, event: &str, fields: Map<String, Value>) {
        let Some(out) = &self.out else {
            return;
        };
        let mut line = Map::with_capacity(fields.len() + 2);
        line.insert("time".to_owned(), Value::String(now_rfc3339()));
        line.insert("event".to_owned(), Value::String(event.to_owned()));
        line.extend(fields);
        let mut text = Value::Object(line).to_string();
        text.push('\n');
        if let Ok(mut out) = out.lock() {
            // A full disk must not stop the relay; the failure is logged instead.
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                tracing::warn!("cannot write the audit log: {e}");
            }
        }
    }
}

/// The SHA-256 of the arguments' JSON, as `sha256:HEX`: equal arguments give equal hashes
/// (object members in the order they were sent).
pub(crate) fn arguments_hash(arguments: &Value) -> String {
    let digest = Sha256::digest(arguments.to_string().as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// The current time as RFC 3339 in UTC, to the millisecond.
fn now_rfc3339() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        now.subsec_millis()
    )
}

/// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn equal_arguments_hash_equal() {
        let a = serde_json::json!({"a": 1});
        assert_eq!(arguments_hash(&a), arguments_hash(&a.clone()));
        assert_ne!(
            arguments_hash(&a),
            arguments_hash(&serde_json::json!({"a": 2}))
        );
        assert!(arguments_hash(&a).starts_with("sha256:"));
    }
}
