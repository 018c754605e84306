//! Work on large catalogs split over the machine's cores: a slice cut into one contiguous
//! piece per core, each piece handled on its own thread, the results kept in the order of
//! the pieces. Small slices are handled on the calling thread.

/// How many pieces `len` items make with at least `least` items a piece: one per core, fewer
/// when there are not enough items.
fn pieces(len: usize, least: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    cores.min(len / least.max(1)).max(1)
}

/// Runs `f` on contiguous pieces of `items`, one piece per core, and returns what each made
/// in the order of the pieces. Fewer than `least` items per core are not worth a thread: then
/// `f` runs once, on all of them, on the calling thread. A panic in `f` is resumed on the
/// calling thread.
pub fn map_pieces<T: Sync, R: Send>(
    items: &[T],
    least: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let pieces = pieces(items.len(), least);
    if pieces == 1 {
        return vec![f(items)];
    }
    on_threads(items.chunks(items.len().div_ceil(pieces)), &f)
}

/// [`map_pieces`] for work that takes the items (moves them out, changes them).
pub fn map_pieces_mut<T: Send, R: Send>(
    items: &mut [T],
    least: usize,
    f: impl Fn(&mut [T]) -> R + Sync,
) -> Vec<R> {
    let pieces = pieces(items.len(), least);
    if pieces == 1 {
        return vec![f(items)];
    }
    let size = items.len().div_ceil(pieces);
    on_threads(items.chunks_mut(size), &f)
}

/// Runs `f` on each piece, each on its own thread, and returns what each made in order; a
/// panic in `f` is resumed on the calling thread, so that a bug fails the call as it would on
/// one thread rather than give a partial result.
pub fn on_threads<P: Send, R: Send>(
    pieces: impl Iterator<Item = P>,
    f: &(impl Fn(P) -> R + Sync),
) -> Vec<R> {
    std::thread::scope(|scope| {
        let workers: Vec<_> = pieces.map(|piece| scope.spawn(move || f(piece))).collect();
        workers
            .into_iter()
            .map(|worker| match worker.join() {
                Ok(made) => made,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::{map_pieces, map_pieces_mut};

    #[test]
    fn pieces_cover_every_item_once_and_in_order() {
        for len in [0, 1, 5, 99, 100, 1001] {
            let items: Vec<usize> = (0..len).collect();
            let pieces = map_pieces(&items, 10, <[usize]>::to_vec);
            assert_eq!(pieces.concat(), items, "{len} items");
            assert!(pieces.iter().all(|p| p.len() >= 10 || pieces.len() == 1));
            let mut owned: Vec<Option<String>> = (0..len).map(|i| Some(i.to_string())).collect();
            let taken = map_pieces_mut(&mut owned, 10, |piece| {
                piece
                    .iter_mut()
                    .filter_map(Option::take)
                    .collect::<Vec<_>>()
            });
            let expected: Vec<String> = (0..len).map(|i| i.to_string()).collect();
            assert_eq!(taken.concat(), expected);
            assert!(owned.iter().all(Option::is_none));
        }
    }

    #[test]
    #[should_panic(expected = "piece failed")]
    fn a_panic_in_a_piece_reaches_the_caller() {
        let items: Vec<u32> = (0..10_000).collect();
        map_pieces(&items, 1, |piece| {
            assert!(!piece.contains(&9_999), "piece failed");
        });
    }
}
