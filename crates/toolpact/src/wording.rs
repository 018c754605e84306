//! Wording that several messages share, so that a model or a person reads the same thing
//! wherever it comes from: the names to suggest for a name that matches none ("did you
//! mean"), and a duration.
//!
//! [`closest_names`] is the one measure of "close" for every suggestion, so that argument
//! validation, dispatch and the linter offer a model the same name for the same typo.

use std::time::Duration;

/// Names longer than this many characters are neither suggested nor matched: comparing two
/// names costs the product of their lengths, and a name this long is not a typo of a name
/// someone wrote by hand.
const MAX_COMPARED_CHARS: usize = 64;

/// The candidates close enough to `name` to be a typo or another spelling of it, closest
/// first, at most `at_most` of them.
///
/// - Names are compared without case, `_` or `-`, so `cityName`, `city_name` and `City-Name`
///   are one name.
/// - The distance is the number of edits from one to the other (a character inserted,
///   deleted or replaced, or two neighbours swapped: the optimal string alignment distance),
///   so `ciyt` is one edit from `city`.
/// - A candidate is close when at most a third of the characters of the longer of the two
///   (compared forms) differ, and always when one edit makes them the same.
/// - Candidates as close as each other keep the order they came in; a candidate written
///   exactly as `name`, and every name longer than 64 characters, is left out.
pub fn closest_names<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    at_most: usize,
) -> Vec<&'c str> {
    if at_most == 0 || name.chars().count() > MAX_COMPARED_CHARS {
        return Vec::new();
    }
    let wanted = compared_form(name);
    let mut close: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != name && c.chars().count() <= MAX_COMPARED_CHARS)
        .filter_map(|candidate| {
            let form = compared_form(candidate);
            let longer = wanted.chars().count().max(form.chars().count());
            let distance = strsim::osa_distance(&wanted, &form);
            (distance <= (longer / 3).max(1)).then_some((distance, candidate))
        })
        .collect();
    // A stable sort: candidates as close as each other stay in the order given.
    close.sort_by_key(|(distance, _)| *distance);
    close
        .into_iter()
        .take(at_most)
        .map(|(_, candidate)| candidate)
        .collect()
}

/// The candidate closest to `name`, when one is close enough to be a typo or another
/// spelling of it: the first of [`closest_names`].
pub fn closest_name<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    closest_names(name, candidates, 1).pop()
}

/// A name as names are compared: lowercase, without `_` and `-`.
fn compared_form(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A duration as people read it in a message: whole seconds as `10 s`, anything else in
/// milliseconds (`1500 ms`, `250 ms`), so that a limit someone set is shown as set, never
/// rounded.
pub fn human_duration(duration: Duration) -> String {
    if duration.as_secs() >= 1 && duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{} ms", duration.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_and_other_spellings_are_close() {
        let names = ["city", "days", "units", "city_name"];
        assert_eq!(closest_name("ciyt", names), Some("city"));
        assert_eq!(closest_name("Days", names), Some("days"));
        assert_eq!(closest_name("cityName", names), Some("city_name"));
        assert_eq!(closest_name("unit", names), Some("units"));
    }

    #[test]
    fn names_that_differ_by_more_than_a_third_are_not() {
        let names = ["city", "days", "units"];
        assert_eq!(closest_name("country", names), None);
        assert_eq!(
            closest_name("book_flight", ["search_foods", "add_meal"]),
            None
        );
    }

    #[test]
    fn the_closest_come_first_and_ties_keep_their_order() {
        let names = ["search_food_log", "search_foods", "add_food"];
        assert_eq!(
            closest_names("search_food", names, 3),
            ["search_foods", "search_food_log"]
        );
        assert_eq!(closest_names("search_food", names, 1), ["search_foods"]);
        assert_eq!(closest_names("search_food", names, 0), Vec::<&str>::new());
        assert_eq!(closest_names("ab", ["ax", "ay"], 2), ["ax", "ay"]);
    }

    #[test]
    fn the_name_itself_and_very_long_names_are_left_out() {
        assert_eq!(closest_name("city", ["city"]), None);
        let long = "a".repeat(MAX_COMPARED_CHARS + 1);
        assert_eq!(closest_name(&long, [&long[1..]]), None);
        assert_eq!(closest_name(&long[1..], [long.as_str()]), None);
    }

    #[test]
    fn durations_are_whole_seconds_or_milliseconds() {
        assert_eq!(human_duration(Duration::from_secs(10)), "10 s");
        assert_eq!(human_duration(Duration::from_millis(1500)), "1500 ms");
        assert_eq!(human_duration(Duration::from_millis(250)), "250 ms");
        assert_eq!(human_duration(Duration::ZERO), "0 ms");
    }
}
