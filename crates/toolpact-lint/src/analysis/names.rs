//! The names of the catalog's tools, as the rules that look for them in texts read them:
//! worked out once per check, when a rule first asks, and shared by every rule and thread.

use crate::analysis::phrases::words;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use toolpact::Catalog;

/// A set keyed by short strings, with a hash much cheaper than SipHash.
pub(crate) type Set<T> = HashSet<T, foldhash::fast::RandomState>;

/// The catalog's tool names, in the forms the rules look them up in.
#[derive(Debug, Default)]
pub(crate) struct ToolNames<'c> {
    exact: OnceLock<Set<&'c str>>,
    lowercase: OnceLock<HashMap<String, usize, foldhash::fast::RandomState>>,
    single_words: OnceLock<Set<String>>,
}

impl<'c> ToolNames<'c> {
    /// The names as written.
    pub(crate) fn exact(&self, catalog: &'c Catalog) -> &Set<&'c str> {
        self.exact
            .get_or_init(|| catalog.tools().map(|t| t.name.as_str()).collect())
    }

    /// The names lowercased, with how many tools have each.
    pub(crate) fn lowercase(
        &self,
        catalog: &Catalog,
    ) -> &HashMap<String, usize, foldhash::fast::RandomState> {
        self.lowercase.get_or_init(|| {
            let mut names = HashMap::default();
            for tool in catalog.tools() {
                *names.entry(tool.name.to_lowercase()).or_insert(0) += 1;
            }
            names
        })
    }

    /// The lowercased names that are one word as [`words`] splits a text (`send_email`, not
    /// `admin.tools-list` nor `search files`): those a text can name as one word.
    pub(crate) fn single_words(&self, catalog: &Catalog) -> &Set<String> {
        self.single_words.get_or_init(|| {
            self.lowercase(catalog)
                .keys()
                .filter(|n| {
                    let w = words(n);
                    w.len() == 1 && w[0].text == **n
                })
                .cloned()
                .collect()
        })
    }
}
