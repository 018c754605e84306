use crate::context::Context;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{Rule, declare_rule};
use std::collections::HashMap;

declare_rule! {
    /// ## What it does
    /// Finds two tools with the same name.
    ///
    /// ## Why is this bad?
    /// Names are how the model picks a tool and how the server finds its handler. With two
    /// tools under one name, one of them is unreachable, and which one depends on the client.
    ///
    /// ## Example
    /// Two tools named `search`, one for products and one for orders.
    ///
    /// ## Use instead
    /// `search_products` and `search_orders`.
    ///
    /// ## References
    /// - MCP 2025-11-25, server/tools: names are unique within a server
    pub struct DuplicateName {
        code: "TP002",
        name: "duplicate-name",
        category: Structure,
        severity: Error,
        options: [],
    }
}

impl Rule for DuplicateName {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (i, tool) in cx.tools() {
            match first.get(tool.name.as_str()) {
                Some(&j) => {
                    let origin = &cx.catalog.entries[j].origin;
                    out.push(Violation {
                        tool: Some(i),
                        pointer: "/name".to_owned(),
                        message: format!(
                            "another tool is already named {:?} ({origin})",
                            tool.name
                        ),
                        help: "give each tool a distinct name that says what it does".into(),
                    });
                }
                None => {
                    first.insert(&tool.name, i);
                }
            }
        }
    }
}
