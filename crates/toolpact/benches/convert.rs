//! Benchmarks of `convert` on a realistic catalog of 250 tools: the raw JSON parse every
//! converter pays (the baseline), the import into a [`Catalog`], the export to each target,
//! and the whole pipeline as `toolpact convert --to gemini` runs it.
//!
//! The catalog is generated in memory from a fixed seed (`toolpact_bench_data::rich_catalog`),
//! so every run measures the same bytes.
//! Set `TOOLPACT_BENCH_CATALOG=/tmp/catalog-250.json` to also write it to a file, for timing
//! the release binary end to end (see `docs/benchmarks.md`).

// A benchmark is not library code: a setup that cannot build its input should stop the run.
#![allow(clippy::unwrap_used)]

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;
use toolpact::{Catalog, ExportOptions, Target, export};
use toolpact_bench_data::rich_catalog::{TOOLS, catalog_bytes};

/// Every export measured: each target, and the strict variants.
const EXPORTS: &[(&str, Target, bool)] = &[
    ("mcp", Target::Mcp, false),
    ("openai-responses", Target::OpenAiResponses, false),
    ("openai-chat", Target::OpenAiChat, false),
    ("anthropic", Target::Anthropic, false),
    ("gemini", Target::Gemini, false),
    ("gemini-json", Target::GeminiJson, false),
    ("openai-chat-strict", Target::OpenAiChat, true),
    ("anthropic-strict", Target::Anthropic, true),
];

fn convert(c: &mut Criterion) {
    let bytes = catalog_bytes();
    if let Some(path) = std::env::var_os("TOOLPACT_BENCH_CATALOG") {
        std::fs::write(&path, &bytes).unwrap();
    }
    let catalog = Catalog::from_slice(&bytes, "catalog-250.json", None).unwrap();
    assert_eq!(catalog.len(), TOOLS);
    eprintln!("catalog: {TOOLS} tools, {} bytes", bytes.len());
    for &(label, target, strict) in EXPORTS {
        let out = export(catalog.tools(), target, ExportOptions { strict }).unwrap();
        eprintln!(
            "  {label}: {} losses, {} left out, payload {} bytes",
            out.report.losses.len(),
            out.report.left_out.len(),
            serde_json::to_vec(&out.payload).unwrap().len()
        );
    }

    let mut group = c.benchmark_group("convert_250_tools");
    // Every iteration takes 10 ms or more: equal-sized samples keep the run short.
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(bytes.len() as u64));

    group.bench_function("parse_value_baseline", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).unwrap())
    });
    group.bench_function("import", |b| {
        b.iter(|| Catalog::from_slice(black_box(&bytes), "catalog-250.json", None).unwrap())
    });
    group.bench_function("pipeline_gemini", |b| {
        b.iter(|| {
            let catalog = Catalog::from_slice(black_box(&bytes), "catalog-250.json", None).unwrap();
            let out = export(catalog.tools(), Target::Gemini, ExportOptions::default()).unwrap();
            serde_json::to_vec_pretty(&out.payload).unwrap()
        })
    });

    // Exports start from the imported catalog; tools per second reads better than bytes.
    group.throughput(Throughput::Elements(TOOLS as u64));
    for &(label, target, strict) in EXPORTS {
        group.bench_with_input(BenchmarkId::new("export", label), &catalog, |b, catalog| {
            b.iter(|| export(black_box(catalog).tools(), target, ExportOptions { strict }).unwrap())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Eleven benchmarks of 10 to 150 ms per iteration: about a minute in all on two cores.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = convert
}
criterion_main!(benches);
