//! Reading catalogs from files and standard input.

use anyhow::{Context, Result, bail};
use std::io::Read;
use std::sync::Arc;
use toolpact::MAX_INPUT_BYTES;
use toolpact::{Catalog, ExportOptions, ReadBack, Registry, Target, export};

/// Reads every file (`-` is standard input) into one catalog, in order.
pub fn read_catalog(files: &[String], format: Option<Target>) -> Result<Catalog> {
    let mut catalog = Catalog::new();
    for file in files {
        let bytes = read_bytes(file)?;
        catalog.extend(Catalog::from_slice(&bytes, file, format)?);
    }
    Ok(catalog)
}

/// Reads a file (`-` is standard input), refusing inputs larger than toolpact reads.
pub fn read_bytes(file: &str) -> Result<Vec<u8>> {
    let limit = MAX_INPUT_BYTES as u64;
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        if bytes.len() as u64 > limit {
            bail!("-: standard input is larger than the {MAX_INPUT_BYTES} bytes toolpact reads");
        }
        return Ok(bytes);
    }
    let meta = std::fs::metadata(file).with_context(|| format!("cannot read {file}"))?;
    if meta.is_dir() {
        bail!("{file} is a directory; give the JSON files inside it");
    }
    if meta.len() > limit {
        bail!(
            "{file}: the file has {} bytes, more than the {MAX_INPUT_BYTES} toolpact reads",
            meta.len()
        );
    }
    std::fs::read(file).with_context(|| format!("cannot read {file}"))
}

/// Which export the calls answer: the calls a model makes to tools it saw through an export
/// follow the export's rewrites, and are read back through them before validation.
#[derive(Debug, Clone, clap::Args)]
pub struct Answering {
    /// The target the model saw the tools through (as `convert --to` writes them): calls
    /// are read back through that export before they are validated (a null for an optional
    /// property in strict mode leaves it out; an enum value Gemini sends as a string becomes
    /// the value), and each change is reported.
    #[arg(long, value_name = "TARGET")]
    pub target: Option<Target>,
    /// With --target: the export was the target's strict variant.
    #[arg(long, requires = "target")]
    pub strict: bool,
}

impl Answering {
    /// How to read calls back, when --target names the export; `None` otherwise.
    pub fn read_back(&self, registry: &Registry) -> Result<Option<Arc<ReadBack>>> {
        let Some(target) = self.target else {
            return Ok(None);
        };
        let export = export(
            registry.tools(),
            target,
            ExportOptions {
                strict: self.strict,
            },
        )
        .map_err(|e| anyhow::anyhow!("--strict: {e}"))?;
        Ok(Some(export.read_back))
    }

    /// `openai-responses --strict`, for messages.
    pub fn label(&self) -> String {
        match self.target {
            Some(target) if self.strict => format!("{target} --strict"),
            Some(target) => target.to_string(),
            None => "none".to_owned(),
        }
    }
}
