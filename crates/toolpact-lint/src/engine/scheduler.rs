//! Running a check's tasks on the machine's cores: as many workers as cores (one for a
//! small catalog), each taking the next task when it finishes one, each with its own
//! [`Scratch`] for the rules, made when the worker starts and freed when it ends.

use crate::engine::scratch::Scratch;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Catalogs smaller than this are checked on the calling thread: starting threads would cost
/// more than it saves.
const PARALLEL_FROM: usize = 256;

/// How many workers check a catalog of `tools` tools in `tasks` tasks.
pub(crate) fn threads(tools: usize, tasks: usize) -> usize {
    if tools < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(tasks)
            .max(1)
    }
}

/// Runs `run` on every task, on `threads` workers (the calling thread alone when `threads`
/// is 1), and returns what each made, in no particular order. Each worker hands `run` its
/// own scratch, freed when the tasks run out.
pub(crate) fn run_all<T: Sync, D: Send>(
    tasks: &[T],
    threads: usize,
    run: impl Fn(&T, &Scratch) -> D + Sync,
) -> Vec<D> {
    let next = AtomicUsize::new(0);
    let work = || {
        let scratch = Scratch::default();
        let mut done = Vec::new();
        while let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
            done.push(run(task, &scratch));
        }
        done
    };
    if threads == 1 {
        return work();
    }
    toolpact::parallel::on_threads(0..threads, &|_| work())
        .into_iter()
        .flatten()
        .collect()
}

/// Runs `f` while another thread drops `garbage`, when the check has more than one worker:
/// what a large catalog leaves behind takes a while to free.
pub(crate) fn drop_beside<G: Send, R>(garbage: G, threads: usize, f: impl FnOnce() -> R) -> R {
    if threads == 1 {
        drop(garbage);
        f()
    } else {
        std::thread::scope(|scope| {
            scope.spawn(move || drop(garbage));
            f()
        })
    }
}
