//! Where a check spends its time, when asked ([`check_timed`](crate::check_timed)): each
//! rule's own time, and apart from it the analyses the rules share (the texts of a tool,
//! the poisoning scan, the description facts, the catalog's names), which the first rule to
//! ask would otherwise be charged with, and the lowering of each block for the targets.
//!
//! A time is the clock's time from the start to the end of a piece of work on the thread
//! that did it, not CPU time:
//! - on several cores the times add up to more than the check's wall time;
//! - on a machine busy with other work they include the time a thread waited for a core;
//! - a rule that splits its work over threads of its own (TP208) is charged the time its
//!   task waited for them, not theirs added up;
//! - the first use of a rule's patterns compiles them and is charged to the rule: on small
//!   catalogs that can be most of its time.
//!
//! Not measured: naming the tools for the targets before the blocks, grading each finding,
//! the quality scores and the summary, all small.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// An analysis several rules read, worked out once per tool by the first that asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shared {
    /// The texts of a tool the model reads, and their words.
    Texts,
    /// The named properties of a tool's input schema.
    Properties,
    /// The tool-poisoning scan of every string of a tool.
    Poison,
    /// What a tool's description says of the quality components.
    Quality,
    /// A block of tools lowered for every configured target.
    Lowering,
    /// The findings of every rule gathered, graded and sorted.
    Ordering,
    /// The catalog's tool names, as written, lowercased and as single words, for the rules
    /// that look for tools named in a text.
    Names,
}

impl Shared {
    const ALL: [Shared; KINDS] = [
        Shared::Texts,
        Shared::Properties,
        Shared::Poison,
        Shared::Quality,
        Shared::Lowering,
        Shared::Ordering,
        Shared::Names,
    ];

    /// What the analysis is, for the timings table.
    fn label(self) -> &'static str {
        match self {
            Shared::Texts => "reading each tool's texts and words",
            Shared::Properties => "listing each tool's properties",
            Shared::Poison => "the poisoning scan (the security rules' techniques)",
            Shared::Quality => "the description facts (the quality score, the description rules)",
            Shared::Lowering => "lowering each block for the targets",
            Shared::Ordering => "gathering and sorting the findings",
            Shared::Names => "the catalog's tool names",
        }
    }
}

/// How many kinds of [`Shared`] work there are.
const KINDS: usize = 7;

thread_local! {
    /// Whether this thread is timing a check.
    static ON: Cell<bool> = const { Cell::new(false) };
    /// The nanoseconds this thread spent in each shared analysis.
    static SPENT: Cell<[u64; KINDS]> = const { Cell::new([0; KINDS]) };
}

/// Runs `f`, adding its time to `what` when this thread is timing a check. Costs one
/// thread-local read otherwise.
pub(crate) fn shared<T>(what: Shared, f: impl FnOnce() -> T) -> T {
    if !ON.with(Cell::get) {
        return f();
    }
    let start = Instant::now();
    let value = f();
    let nanos = nanos(start.elapsed());
    SPENT.with(|spent| {
        let mut all = spent.get();
        if let Some(slot) = all.get_mut(what as usize) {
            *slot += nanos;
        }
        spent.set(all);
    });
    value
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The nanoseconds this thread has spent in shared analyses, all together.
fn shared_total() -> u64 {
    SPENT.with(|spent| spent.get().iter().sum())
}

/// Turns this thread's timing off when dropped.
pub(crate) struct TaskGuard;

impl Drop for TaskGuard {
    fn drop(&mut self) {
        ON.with(|on| on.set(false));
    }
}

/// The clock of one check: what each worker measured, gathered when it ends.
#[derive(Debug, Default)]
pub(crate) struct Clock {
    /// Each enabled rule's own nanoseconds, by its position among the enabled rules.
    rules: Vec<u64>,
    /// The nanoseconds of each shared analysis.
    shared: [u64; KINDS],
}

impl Clock {
    /// A clock for `rules` enabled rules.
    pub(crate) fn new(rules: usize) -> Clock {
        Clock {
            rules: vec![0; rules],
            shared: [0; KINDS],
        }
    }

    /// Starts timing this thread's shared analyses, from zero, for one task of the check.
    /// Timing stops at [`Clock::end_task`], or when the guard is dropped (a task that
    /// panicked leaves no timing on behind it).
    #[must_use]
    pub(crate) fn start_task() -> TaskGuard {
        ON.with(|on| on.set(true));
        SPENT.with(|spent| spent.set([0; KINDS]));
        TaskGuard
    }

    /// Stops timing this thread and adds what the task spent in shared analyses.
    pub(crate) fn end_task(&mut self) {
        ON.with(|on| on.set(false));
        let spent = SPENT.with(|spent| spent.replace([0; KINDS]));
        for (all, some) in self.shared.iter_mut().zip(spent) {
            *all += some;
        }
    }

    /// Runs rule `rule`'s `f`, charging it with its time less what it spent in shared
    /// analyses on the way.
    pub(crate) fn rule<T>(&mut self, rule: usize, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let before = shared_total();
        let value = f();
        let own = nanos(start.elapsed()).saturating_sub(shared_total() - before);
        if let Some(slot) = self.rules.get_mut(rule) {
            *slot += own;
        }
        value
    }

    /// Runs rule `rule`'s `f`, timed as [`Clock::rule`] does when there is a clock.
    pub(crate) fn charge<T>(clock: &mut Option<Clock>, rule: usize, f: impl FnOnce() -> T) -> T {
        match clock {
            Some(clock) => clock.rule(rule, f),
            None => f(),
        }
    }

    /// Adds what another worker measured.
    pub(crate) fn merge(&mut self, other: Clock) {
        for (all, some) in self.rules.iter_mut().zip(other.rules) {
            *all += some;
        }
        for (all, some) in self.shared.iter_mut().zip(other.shared) {
            *all += some;
        }
    }

    /// The measured times, with the rules' codes and names (`codes`, in the order of the
    /// enabled rules), the longest first.
    pub(crate) fn timings(&self, codes: &[(&'static str, &'static str)]) -> Timings {
        let mut parts: Vec<Timing> = codes
            .iter()
            .zip(&self.rules)
            .map(|(&(code, name), &n)| Timing {
                what: format!("{code} {name}"),
                code: Some(code),
                time: Duration::from_nanos(n),
            })
            .collect();
        parts.extend(
            Shared::ALL
                .iter()
                .zip(self.shared)
                .filter(|(_, n)| *n > 0)
                .map(|(what, n)| Timing {
                    what: what.label().to_owned(),
                    code: None,
                    time: Duration::from_nanos(n),
                }),
        );
        parts.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.what.cmp(&b.what)));
        Timings { parts }
    }
}

/// One line of the timings: a rule's own time, or a shared analysis's (clock time on the
/// threads that did it, see [`Timings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timing {
    /// The rule (`TP506 forced-invocation`) or the analysis.
    pub what: String,
    /// The rule's code; `None` for a shared analysis.
    pub code: Option<&'static str>,
    /// Clock time, summed over the threads that did the work.
    pub time: Duration,
}

/// Where a check spent its time, the longest first: every enabled rule's own time, and each
/// analysis that several rules share. Each is the clock's time of its work summed over the
/// threads that did it (not CPU time): on several cores they add up to more than the check's
/// wall time, and on a busy machine they include time spent waiting for a core.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timings {
    /// Every rule and shared analysis, the longest first.
    pub parts: Vec<Timing>,
}

impl Timings {
    /// All the time measured.
    pub fn total(&self) -> Duration {
        self.parts.iter().map(|p| p.time).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{Clock, ON, SPENT, Shared, shared};
    use std::cell::Cell;
    use std::time::Duration;

    #[test]
    fn a_rule_is_not_charged_with_the_shared_work_it_asks_for() {
        let timing = Clock::start_task();
        let mut clock = Clock::new(2);
        clock.rule(1, || {
            shared(Shared::Poison, || {
                std::thread::sleep(Duration::from_millis(200))
            });
        });
        clock.end_task();
        drop(timing);
        let timings = clock.timings(&[("TP000", "idle"), ("TP001", "asks")]);
        let time_of = |what: &str| {
            timings
                .parts
                .iter()
                .find(|p| p.what.starts_with(what))
                .map(|p| p.time)
        };
        assert!(time_of("the poisoning scan") >= Some(Duration::from_millis(200)));
        assert!(
            time_of("TP001 asks") < Some(Duration::from_millis(100)),
            "{timings:?}"
        );
        assert_eq!(time_of("TP000 idle"), Some(Duration::ZERO));
        assert_eq!(
            time_of("the description facts"),
            None,
            "nothing spent, no line"
        );
    }

    #[test]
    fn timing_stops_with_the_task_and_when_a_task_panics() {
        let mut clock = Clock::new(0);
        let timing = Clock::start_task();
        clock.end_task();
        drop(timing);
        shared(Shared::Texts, || ());
        assert!(!ON.with(Cell::get));
        assert_eq!(SPENT.with(Cell::get), [0; super::KINDS]);
        let panicked = std::panic::catch_unwind(|| {
            let _timing = Clock::start_task();
            panic!("a rule failed");
        });
        assert!(panicked.is_err());
        assert!(!ON.with(Cell::get), "the guard turned timing off");
    }
}
