//! Calendar days and timestamps in UTC, just enough for delivery dates and order times.
//!
//! The shop needs three things: today's date, adding days to a date, and reading and writing
//! ISO 8601 `YYYY-MM-DD`. The conversions between a day count and a civil date are Howard
//! Hinnant's algorithms (<https://howardhinnant.github.io/date_algorithms.html>), exact over
//! the whole proleptic Gregorian calendar.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A calendar day, stored as the number of days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Date {
    days: i64,
}

impl Date {
    /// Today in UTC. A clock set before 1970 reads as 1970-01-01.
    pub(crate) fn today() -> Date {
        Date {
            days: seconds_since_epoch().div_euclid(SECONDS_PER_DAY),
        }
    }

    /// Reads a date written exactly as `YYYY-MM-DD`; `None` for anything else, including
    /// days that do not exist (`2026-02-30`).
    pub(crate) fn parse(text: &str) -> Option<Date> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            let part = text.get(range)?;
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year.into(), month) {
            return None;
        }
        Some(Date {
            days: days_from_civil(year.into(), month, day),
        })
    }

    /// The date `days` days later (earlier when negative).
    pub(crate) fn plus_days(self, days: i64) -> Date {
        Date {
            days: self.days.saturating_add(days),
        }
    }

    /// How many days from `self` to `other` (negative when `other` is earlier).
    pub(crate) fn days_until(self, other: Date) -> i64 {
        other.days - self.days
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = civil_from_days(self.days);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

const SECONDS_PER_DAY: i64 = 86_400;

fn seconds_since_epoch() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The current time as an RFC 3339 UTC timestamp, such as `2026-05-01T09:30:00Z`.
pub(crate) fn timestamp_now() -> String {
    let seconds = seconds_since_epoch();
    let (days, rest) = (
        seconds.div_euclid(SECONDS_PER_DAY),
        seconds.rem_euclid(SECONDS_PER_DAY),
    );
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date { days },
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a civil date (Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The civil date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction (month 1..=12, day 1..=31), so the casts are exact.
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn round_trips_every_day_of_four_centuries() {
        let start = days_from_civil(1900, 1, 1);
        let end = days_from_civil(2300, 1, 1);
        for days in start..end {
            let date = Date { days };
            assert_eq!(Date::parse(&date.to_string()), Some(date), "{date}");
        }
    }

    #[test]
    fn known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(Date::parse("2000-03-01").unwrap().to_string(), "2000-03-01");
        assert_eq!(
            Date::parse("2024-02-28").unwrap().plus_days(1).to_string(),
            "2024-02-29"
        );
        assert_eq!(
            Date::parse("2025-12-31").unwrap().plus_days(1).to_string(),
            "2026-01-01"
        );
        assert_eq!(
            Date::parse("2026-01-01")
                .unwrap()
                .days_until(Date::parse("2026-03-01").unwrap()),
            59
        );
    }

    #[test]
    fn rejects_what_is_not_a_day() {
        for text in [
            "2026-02-29",
            "2100-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "2026-4-01",
            "26-04-01",
            "2026/04/01",
            "2026-04-01T00:00:00Z",
            "+026-04-01",
            "",
        ] {
            assert_eq!(Date::parse(text), None, "{text}");
        }
        assert!(Date::parse("2000-02-29").is_some());
    }

    #[test]
    fn timestamps_are_rfc_3339_utc() {
        let stamp = timestamp_now();
        assert_eq!(stamp.len(), 20, "{stamp}");
        assert!(stamp.ends_with('Z'));
        assert!(Date::parse(&stamp[..10]).is_some(), "{stamp}");
    }
}
