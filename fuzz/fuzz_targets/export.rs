//! Import, then export to every target with and without strict mode: the payload and every
//! item are valid JSON, every keyword a target does not receive is in the loss report, every
//! tool is either sent or left out with a reason, and the names sent meet the target's rule
//! and are unique.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use toolpact::{Catalog, ExportOptions, Exporter, LossReport, Target, Tool};
use toolpact_fuzz::{assert_json_round_trip, assert_losses_cover_keywords};

fuzz_target!(|data: &[u8]| {
    let Ok(catalog) = Catalog::from_slice(data, "fuzz.json", None) else {
        return;
    };
    let tools: Vec<&Tool> = catalog.tools().collect();
    for target in Target::ALL {
        for strict in [false, true] {
            if strict && !target.has_strict_mode() {
                continue;
            }
            let Ok(exporter) = Exporter::new(target, ExportOptions { strict }) else {
                panic!("{target} refuses options it has");
            };
            let named = exporter.name_all(tools.iter().copied());
            assert_eq!(named.len(), tools.len(), "name_all names every tool once");
            let mut report = LossReport::default();
            let mut items = Vec::new();
            let mut names = HashSet::new();
            for (tool, named) in tools.iter().copied().zip(named) {
                match named.and_then(|named| exporter.lower(tool, &named)) {
                    Ok(mut lowered) => {
                        assert!(
                            target.name_rule().accepts(&lowered.name),
                            "{target}: name {:?} breaks the target's naming rule",
                            lowered.name
                        );
                        assert!(
                            names.insert(lowered.name.clone()),
                            "{target}: name {:?} sent twice",
                            lowered.name
                        );
                        assert_losses_cover_keywords(&lowered);
                        assert_json_round_trip(&lowered.item(), "an exported item");
                        report.losses.append(&mut lowered.losses);
                        items.push(lowered);
                    }
                    Err(left_out) => {
                        assert!(
                            !left_out.reason.is_empty(),
                            "{target}: a tool left out without a reason"
                        );
                        report.left_out.push(left_out);
                    }
                }
            }
            let sent = items.len();
            let export = exporter.finish(items, report);
            assert_eq!(sent + export.report.left_out.len(), tools.len());
            assert_eq!(
                export.names.len(),
                sent,
                "{target}: the name map holds every tool sent"
            );
            assert_json_round_trip(&export.payload, "an export payload");
        }
    }
});
