//! The order findings are reported in, made in time linear in their number: placed tool by
//! tool first, then only each tool's few compared.

use std::cmp::Ordering;

/// Sorts `items` by tool (`tool` of each; items about no tool last), then by `within` among
/// one tool's items, keeping equal ones in the order given: the order of one stable sort by
/// those keys, but placed tool by tool first (linear in the number of items) so that only
/// each tool's few items are compared.
pub(crate) fn sort_by_tool<T>(
    items: &mut [T],
    tool: impl Fn(&T) -> Option<usize>,
    within: impl Fn(&T, &T) -> Ordering,
) {
    let tools = items
        .iter()
        .filter_map(&tool)
        .max()
        .map_or(Some(0), |last| last.checked_add(1));
    // Items made elsewhere may name any position: placing them by tool is worth it only when
    // the positions are about as many as the items.
    let Some(tools) = tools.filter(|&tools| tools <= 4 * items.len() + 1024) else {
        let key = |item: &T| tool(item).unwrap_or(usize::MAX);
        items.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| within(a, b)));
        return;
    };
    let slot = |item: &T| tool(item).unwrap_or(tools);
    // Where each tool's items start, then where the next one goes.
    let mut next = vec![0usize; tools + 2];
    for item in items.iter() {
        next[slot(item) + 1] += 1;
    }
    for i in 1..next.len() {
        next[i] += next[i - 1];
    }
    let starts = next.clone();
    // Where each item goes; the items are then moved there in place, cycle by cycle, so that
    // a large report is never held twice.
    let mut to: Vec<usize> = items
        .iter()
        .map(|item| {
            let at = &mut next[slot(item)];
            *at += 1;
            *at - 1
        })
        .collect();
    for i in 0..to.len() {
        while to[i] != i {
            let j = to[i];
            items.swap(i, j);
            to.swap(i, j);
        }
    }
    for range in starts.windows(2) {
        if let Some(of_tool) = items.get_mut(range[0]..range[1])
            && of_tool.len() > 1
        {
            of_tool.sort_by(&within);
        }
    }
}
