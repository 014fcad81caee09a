//! Independent fits (the folds of a cross-validation) on every core where the platform has threads.

use alloc::vec::Vec;

/// `f` applied to each item, the results in the items' order. With `std` on a platform with
/// threads, one thread per available core takes the next item not yet taken until none is left
/// (fits differ in size, so fixed shares would leave cores idle); elsewhere (no_std, WebAssembly)
/// the items are mapped one after the other. Either way the answer is the same: each call sees
/// only its own item.
pub(crate) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    #[cfg(all(feature = "std", not(target_family = "wasm")))]
    {
        use core::sync::atomic::{AtomicUsize, Ordering};
        let threads = std::thread::available_parallelism()
            .map_or(1, core::num::NonZeroUsize::get)
            .min(items.len());
        if threads > 1 {
            let next = AtomicUsize::new(0);
            let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut mine = Vec::new();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                let Some(item) = items.get(i) else { break mine };
                                mine.push((i, f(item)));
                            }
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                    .collect()
            });
            done.sort_unstable_by_key(|d| d.0);
            return done.into_iter().map(|d| d.1).collect();
        }
    }
    items.iter().map(f).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_items_order() {
        let items: alloc::vec::Vec<u64> = (0..37).collect();
        assert_eq!(
            super::map(&items, |x| x * x),
            items.iter().map(|x| x * x).collect::<alloc::vec::Vec<_>>()
        );
        assert!(super::map(&[] as &[u64], |x| *x).is_empty());
    }
}
