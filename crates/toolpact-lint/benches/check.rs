//! `toolpact check` on large catalogs: 10,000 and 100,000 tools generated from varied,
//! real-looking tools, with near-duplicates (small edits) so that the overlap rule has work.
//!
//! Targets: 100,000 tools in under 10 s on 2 cores, and time(100k) / time(10k) ≤ 12.
//! Command and figures: docs/benchmarks.md.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // A benchmark fails loudly.

use criterion::{Criterion, criterion_group, criterion_main};

/// The allocator the `toolpact` binary uses, so that the figures are those of `toolpact check`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Duration;
use toolpact_bench_data::near_duplicates::catalog;
use toolpact_lint::{Settings, check};

fn bench(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = c.benchmark_group("check");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(20));
    for n in [10_000, 100_000] {
        let catalog = catalog(n);
        let findings = check(&catalog, &settings).findings.len();
        eprintln!("check/{n}: {findings} findings");
        group.bench_function(format!("{n}_tools"), |b| {
            b.iter(|| check(&catalog, &settings))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
