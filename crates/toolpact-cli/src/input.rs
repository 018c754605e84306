//! Reading catalogs from files and standard input.

use anyhow::{Context, Result, bail};
use std::io::Read;
use toolpact::MAX_INPUT_BYTES;
use toolpact::{Catalog, Target};

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
