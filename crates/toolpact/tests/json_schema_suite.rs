//! The official JSON-Schema-Test-Suite (draft 2020-12, the required tests, not `optional/`)
//! run through the path every tool call takes: [`toolpact::CompiledSchema::new`],
//! then [`CompiledSchema::check`](toolpact::CompiledSchema::check). A test passes when `check` accepts exactly the instances
//! the suite calls valid, and explains every rejection with at least one error whose pointer
//! leads to the value it blames.
//!
//! The suite is not vendored: `scripts/fetch-json-schema-test-suite.sh` fetches a pinned copy
//! into `target/` and prints its `tests` directory, and `TOOLPACT_JSON_SCHEMA_TEST_SUITE` may
//! name another one. A missing suite fails the test, because a skipped conformance test reads
//! as a passing one.
//!
//! Every case toolpact does not run as the suite says is listed below with its reason, and the
//! test checks that the reason still holds, so a list cannot go stale silently.

// Tests fail loudly on purpose.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jsonschema::Draft;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use toolpact::CompiledSchema;
use toolpact::SchemaProblem;
use toolpact::{ArgumentError, ArgumentErrorKind};

/// Names the suite's `tests` directory (the one holding `draft2020-12/`).
const SUITE_ENV: &str = "TOOLPACT_JSON_SCHEMA_TEST_SUITE";

/// Where `scripts/fetch-json-schema-test-suite.sh` puts it, from the workspace root.
const DEFAULT_SUITE: &str = "target/json-schema-test-suite/suite/tests";

const DRAFT: &str = "draft2020-12";

/// The suite's remote documents are served from this base (README: "remotes").
const REMOTES_BASE: &str = "http://localhost:1234/";

/// Cases that need a document from the suite's `remotes/` directory. toolpact never fetches a
/// schema (CompiledSchema::new: "no remote refs"; a tool definition must be self-contained), so
/// compile must refuse each with the problem given, and a schema this refuses must indeed need
/// a remote document: the test checks that the validator, offline, cannot build it either (or,
/// for a `$schema`, that it names one of the suite's remote meta-schemas).
const NEEDS_REMOTES: &[(&str, &str, Refusal)] = &[
    // `$ref` to http://localhost:1234/draft2020-12/*.json and relative refs resolved against
    // a localhost `$id`: the whole file is about remote references.
    ("refRemote.json", "remote ref", Refusal::RemoteRef),
    (
        "refRemote.json",
        "fragment within remote ref",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "anchor within remote ref",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "ref within remote ref",
        Refusal::RemoteRef,
    ),
    ("refRemote.json", "base URI change", Refusal::RemoteRef),
    (
        "refRemote.json",
        "base URI change - change folder",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "base URI change - change folder in subschema",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "root ref in remote ref",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "remote ref with ref to defs",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "Location-independent identifier in remote ref",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "retrieved nested refs resolve relative to their URI not $id",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "remote HTTP ref with different $id",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "remote HTTP ref with different URN $id",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "remote HTTP ref with nested absolute ref",
        Refusal::RemoteRef,
    ),
    (
        "refRemote.json",
        "$ref to $ref finds detached $anchor",
        Refusal::RemoteRef,
    ),
    // Dynamic references whose `$dynamicAnchor` lives in remotes/tree.json,
    // extendible-dynamic-ref.json or detached-dynamicref.json.
    (
        "dynamicRef.json",
        "strict-tree schema, guards against misspelled properties",
        Refusal::RemoteRef,
    ),
    (
        "dynamicRef.json",
        "tests for implementation dynamic anchor and reference link",
        Refusal::RemoteRef,
    ),
    (
        "dynamicRef.json",
        "$ref and $dynamicAnchor are independent of order - $defs first",
        Refusal::RemoteRef,
    ),
    (
        "dynamicRef.json",
        "$ref and $dynamicAnchor are independent of order - $ref first",
        Refusal::RemoteRef,
    ),
    (
        "dynamicRef.json",
        "$ref to $dynamicRef finds detached $dynamicAnchor",
        Refusal::RemoteRef,
    ),
    // `$schema` names a custom meta-schema in remotes/draft2020-12/; toolpact validates only
    // the published drafts.
    (
        "vocabulary.json",
        "schema that uses custom metaschema with with no validation vocabulary",
        Refusal::UnsupportedDialect,
    ),
    (
        "vocabulary.json",
        "ignore unrecognized optional vocabulary",
        Refusal::UnsupportedDialect,
    ),
];

/// Formats toolpact asserts where draft 2020-12 only annotates by default. A tool's `format`
/// is a promise to the handler (CompiledSchema::new: "formats asserted"), so format.json's
/// "invalid X string is only an annotation by default" must be rejected with a `format`
/// error instead. `idn-email` and `idn-hostname` are not here: without the jsonschema crate's
/// `idna` feature they are unknown formats, which are annotations as the suite expects.
const FORMATS_ASSERTED: &[&str] = &[
    "email",
    "regex",
    "ipv4",
    "ipv6",
    "hostname",
    "date",
    "date-time",
    "time",
    "json-pointer",
    "relative-json-pointer",
    "iri",
    "iri-reference",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
    "duration",
];

/// Tests the jsonschema crate is known to get wrong, as `(file, case, test, reason)`. Each
/// entry must still disagree, so a fixed limitation shows up as a failure to remove it.
/// None is known for the pinned suite and jsonschema 0.61.
const VALIDATOR_LIMITATIONS: &[(&str, &str, &str, &str)] = &[];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    RemoteRef,
    UnsupportedDialect,
}

/// One test of the suite: which file, which case (schema), which test (instance).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Id {
    file: String,
    case: String,
    test: String,
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{DRAFT}/{} | {} | {}", self.file, self.case, self.test)
    }
}

/// What the run found.
#[derive(Debug, Default)]
struct Tally {
    ran: usize,
    passed: usize,
    remote: usize,
    formats: usize,
    limitations: usize,
    disagreements: Vec<String>,
    /// The exclusion entries that matched a case, to catch stale ones.
    used: BTreeSet<String>,
}

impl Tally {
    fn disagree(&mut self, id: &Id, what: impl fmt::Display) {
        self.disagreements.push(format!("{id}\n    {what}"));
    }
}

fn suite_dir() -> PathBuf {
    let dir = match std::env::var_os(SUITE_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(DEFAULT_SUITE),
    };
    assert!(
        dir.join(DRAFT).is_dir(),
        "the JSON-Schema-Test-Suite is not at {} (no {DRAFT}/ inside).\n\
         Run `scripts/fetch-json-schema-test-suite.sh` from the workspace root (it fetches a \
         pinned copy and prints its tests directory), or set {SUITE_ENV} to the `tests` \
         directory of a checkout.",
        dir.display()
    );
    dir
}

#[test]
fn draft_2020_12_required_tests() {
    let tests = suite_dir();
    let remotes = tests.join("../remotes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(tests.join(DRAFT))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() > 40,
        "too few test files in {}",
        tests.display()
    );

    let mut tally = Tally::default();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let cases: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for case in cases.as_array().unwrap() {
            run_case(&file, case, &remotes, &mut tally);
        }
    }

    let mut stale: Vec<String> = Vec::new();
    for (file, case, _) in NEEDS_REMOTES {
        if !tally.used.contains(&format!("remote {file} | {case}")) {
            stale.push(format!("NEEDS_REMOTES: {file} | {case}"));
        }
    }
    for format in FORMATS_ASSERTED {
        if !tally.used.contains(&format!("format {format}")) {
            stale.push(format!("FORMATS_ASSERTED: {format}"));
        }
    }
    for (file, case, test, _) in VALIDATOR_LIMITATIONS {
        if !tally
            .used
            .contains(&format!("limitation {file} | {case} | {test}"))
        {
            stale.push(format!("VALIDATOR_LIMITATIONS: {file} | {case} | {test}"));
        }
    }

    let excluded = tally.remote + tally.formats + tally.limitations;
    eprintln!(
        "JSON-Schema-Test-Suite {DRAFT}: {} tests in {} files; {} ran, {} passed; {excluded} \
         excluded ({} need remotes/, {} formats asserted, {} validator limitations)",
        tally.ran + excluded,
        files.len(),
        tally.ran,
        tally.passed,
        tally.remote,
        tally.formats,
        tally.limitations,
    );
    assert!(
        stale.is_empty(),
        "exclusions that match no case in the suite (renamed upstream? remove or fix them):\n{}",
        stale.join("\n")
    );
    assert!(
        tally.disagreements.is_empty(),
        "{} of {} tests disagree with the JSON-Schema-Test-Suite:\n{}",
        tally.disagreements.len(),
        tally.ran,
        tally.disagreements.join("\n")
    );
    assert_eq!(tally.passed, tally.ran);
}

fn run_case(file: &str, case: &Value, remotes: &Path, tally: &mut Tally) {
    let description = case["description"].as_str().unwrap();
    let schema = &case["schema"];
    let compiled = CompiledSchema::new(schema);
    let id = |test: &Value| Id {
        file: file.to_owned(),
        case: description.to_owned(),
        test: test["description"].as_str().unwrap().to_owned(),
    };
    let tests = case["tests"].as_array().unwrap();

    if let Some((_, _, refusal)) = NEEDS_REMOTES
        .iter()
        .find(|(f, c, _)| *f == file && *c == description)
    {
        tally.used.insert(format!("remote {file} | {description}"));
        tally.remote += tests.len();
        let first = id(&tests[0]);
        match (&compiled, refusal) {
            (Err((_, SchemaProblem::RemoteRef(_))), Refusal::RemoteRef) => {
                // Offline, with no registry, the validator cannot build it either: the schema
                // really needs a document it does not hold.
                let offline = jsonschema::options()
                    .with_draft(Draft::Draft202012)
                    .offline()
                    .build(schema);
                match offline {
                    Err(e) if e.to_string().contains(REMOTES_BASE) => {}
                    Err(e) => tally.disagree(
                        &first,
                        format_args!(
                            "listed as needing remotes/, but the offline build fails otherwise: {e}"
                        ),
                    ),
                    Ok(_) => tally.disagree(
                        &first,
                        "listed as needing remotes/, but the schema is self-contained",
                    ),
                }
            }
            (Err((_, SchemaProblem::UnsupportedDialect(uri))), Refusal::UnsupportedDialect) => {
                let in_remotes = uri
                    .strip_prefix(REMOTES_BASE)
                    .is_some_and(|rest| remotes.join(rest).is_file());
                if !in_remotes {
                    tally.disagree(
                        &first,
                        format_args!(
                            "listed as a remote meta-schema, but {uri:?} is not in remotes/"
                        ),
                    );
                }
            }
            (Err((pointer, problem)), expected) => tally.disagree(
                &first,
                format_args!(
                    "compile should refuse with {expected:?}, refused at {pointer:?}: {problem}"
                ),
            ),
            (Ok(_), expected) => tally.disagree(
                &first,
                format_args!("compile should refuse with {expected:?}, but it compiled"),
            ),
        }
        return;
    }

    let validator = match compiled {
        Ok(validator) => validator,
        Err((pointer, problem)) => {
            for test in tests {
                tally.ran += 1;
                tally.disagree(
                    &id(test),
                    format_args!("compile refused the schema at {pointer:?}: {problem}"),
                );
            }
            return;
        }
    };

    for test in tests {
        let id = id(test);
        let instance = &test["data"];
        let valid = test["valid"].as_bool().unwrap();
        let outcome = catch_unwind(AssertUnwindSafe(|| validator.check(schema, instance)));
        let Ok(outcome) = outcome else {
            tally.ran += 1;
            tally.disagree(&id, "check panicked");
            continue;
        };

        if let Some(format) = asserted_format(file, &id) {
            tally.used.insert(format!("format {format}"));
            tally.formats += 1;
            match &outcome {
                Err(e)
                    if e.errors
                        .first()
                        .is_some_and(|e| e.kind == ArgumentErrorKind::Format) => {}
                other => tally.disagree(
                    &id,
                    format_args!(
                        "format {format} is asserted: expected a format error, got {other:?}"
                    ),
                ),
            }
            continue;
        }
        if let Some((.., reason)) = VALIDATOR_LIMITATIONS
            .iter()
            .find(|(f, c, t, _)| *f == file && *c == id.case && *t == id.test)
        {
            tally
                .used
                .insert(format!("limitation {file} | {} | {}", id.case, id.test));
            tally.limitations += 1;
            if outcome.is_ok() == valid {
                tally.disagree(
                    &id,
                    format_args!("listed as a validator limitation ({reason}), but it now passes"),
                );
            }
            continue;
        }

        tally.ran += 1;
        match (outcome, valid) {
            (Ok(()), true) => tally.passed += 1,
            (Ok(()), false) => tally.disagree(&id, "accepted; the suite says invalid"),
            (Err(e), true) => tally.disagree(
                &id,
                format_args!("rejected; the suite says valid: {}", summary(&e.errors)),
            ),
            (Err(e), false) => match explanation_problem(&e.errors, instance) {
                None => tally.passed += 1,
                Some(problem) => tally.disagree(&id, problem),
            },
        }
    }
}

/// The format a format.json test is about, when it is one of the "only an annotation by
/// default" tests toolpact answers the other way.
fn asserted_format(file: &str, id: &Id) -> Option<&'static str> {
    if file != "format.json" {
        return None;
    }
    FORMATS_ASSERTED.iter().copied().find(|format| {
        id.case == format!("{format} format")
            && id.test == format!("invalid {format} string is only an annotation by default")
    })
}

/// Why the errors do not explain a rejection: none at all, or a pointer that does not lead
/// to what the error says it is about.
fn explanation_problem(errors: &[ArgumentError], instance: &Value) -> Option<String> {
    if errors.is_empty() {
        return Some("rejected with an empty list of errors".to_owned());
    }
    for e in errors {
        let at = instance.pointer(&e.pointer);
        let fits = match e.kind {
            // A missing property is absent, and its parent is an object.
            ArgumentErrorKind::Missing => {
                let parent = e.pointer.rsplit_once('/').map_or("", |(p, _)| p);
                at.is_none() && instance.pointer(parent).is_some_and(Value::is_object)
            }
            _ => at.is_some() && at == e.got.as_ref(),
        };
        if !fits || e.message.is_empty() {
            return Some(format!(
                "error does not point at what it blames (value at pointer: {at:?}): {e:?}"
            ));
        }
    }
    None
}

fn summary(errors: &[ArgumentError]) -> String {
    errors
        .iter()
        .map(|e| format!("{} {:?}: {}", e.kind.as_str(), e.pointer, e.message))
        .collect::<Vec<_>>()
        .join("; ")
}
