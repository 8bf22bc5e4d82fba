//! Spreading many independent pair queries over threads.
//!
//! Work is cut into contiguous chunks of the output; each chunk is processed by one thread, so every
//! result depends only on its own inputs and the output is identical whatever the thread count.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Fewer items than this per thread are not worth a hand-off to the pool.
const MIN_ITEMS_PER_CHUNK: usize = 64;

/// The most threads a request is served with: a larger count (a corrupted argument, or far more
/// than any machine's cores) is taken as this many, so that no request spawns threads without
/// bound.
pub const MAX_THREADS: usize = 1024;

/// The number of threads a request for `threads` means: 0 is every core the machine has; at
/// most [`MAX_THREADS`].
fn resolve_threads(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
    .min(MAX_THREADS)
}

/// The pools built so far: the id of the process that built each, and its thread count.
type Pools = Mutex<Vec<(u32, usize, Arc<ThreadPool>)>>;

/// Every pool built so far.
static POOLS: OnceLock<Pools> = OnceLock::new();

/// The list of pools, locked (a panic while it was held leaves it as it was: still usable).
fn lock_pools() -> MutexGuard<'static, Vec<(u32, usize, Arc<ThreadPool>)>> {
    POOLS
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A pool of `threads` workers, built once per distinct count and process and kept for the
/// process's life.
///
/// A process forked from one that had built a pool (a Python host's `multiprocessing`, say)
/// inherits the pool's record but none of its threads: work handed to it would wait forever. So a
/// pool serves only the process that built it, and a forked child builds its own (the parent's
/// records stay unused in the child: nothing there to stop).
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    let process = std::process::id();
    let mut pools = lock_pools();
    if let Some((_, _, p)) = pools
        .iter()
        .find(|(id, n, _)| *id == process && *n == threads)
    {
        return Some(p.clone());
    }
    let p = Arc::new(
        ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("demcontact-{i}"))
            .build()
            .ok()?,
    );
    pools.push((process, threads, p.clone()));
    Some(p)
}

/// Calls `work(start, out_chunk, state_chunk)` over contiguous chunks that together cover `out` (and
/// `state`, which has the same length when given), on `threads` threads (0: all cores, 1: only the
/// calling thread; at most [`MAX_THREADS`]). `start` is the index of the chunk's first item.
///
/// The work runs on the pool of the requested count whatever `out`'s length: a short `out` is cut
/// into fewer chunks (of at least 64 items), not handed to a smaller pool, since each pool is kept
/// for the process's life and lengths that vary from call to call would each build their own.
pub fn for_each_chunk<O, S, F>(threads: usize, out: &mut [O], state: Option<&mut [S]>, work: F)
where
    O: Send,
    S: Send,
    F: Fn(usize, &mut [O], Option<&mut [S]>) + Sync,
{
    use rayon::prelude::*;
    let n = out.len();
    let threads = resolve_threads(threads);
    let workers = threads.min(n.div_ceil(MIN_ITEMS_PER_CHUNK)).max(1);
    let pool = if workers > 1 { pool(threads) } else { None };
    let Some(pool) = pool else {
        work(0, out, state);
        return;
    };
    // A few chunks per worker lets work stealing even out pairs of unequal cost.
    let chunk = n.div_ceil(workers * 4).max(MIN_ITEMS_PER_CHUNK);
    pool.install(|| match state {
        Some(state) => out
            .par_chunks_mut(chunk)
            .zip(state.par_chunks_mut(chunk))
            .enumerate()
            .for_each(|(k, (o, s))| work(k * chunk, o, Some(s))),
        None => out
            .par_chunks_mut(chunk)
            .enumerate()
            .for_each(|(k, o)| work(k * chunk, o, None)),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_visited_once_whatever_the_thread_count() {
        for threads in [0, 1, 2, 3] {
            for n in [0, 1, 63, 64, 1000] {
                let mut out = vec![0usize; n];
                let mut state = vec![0u32; n];
                for_each_chunk(threads, &mut out, Some(&mut state), |start, o, s| {
                    let s = s.unwrap();
                    for (i, (o, s)) in o.iter_mut().zip(s.iter_mut()).enumerate() {
                        *o += start + i + 1;
                        *s += 1;
                    }
                });
                assert!(out.iter().enumerate().all(|(i, &v)| v == i + 1));
                assert!(state.iter().all(|&s| s == 1));
            }
        }
        assert!(resolve_threads(0) >= 1);
        assert_eq!(resolve_threads(3), 3);
        assert_eq!(resolve_threads(usize::MAX), MAX_THREADS);
    }

    /// A child forked after the pool of a count was built (a Python host's `multiprocessing`, say)
    /// has none of the pool's threads: its batches must still run, not wait for them forever.
    #[cfg(unix)]
    #[test]
    #[allow(unsafe_code)] // fork, waitpid and kill: test code only, the library needs none.
    fn a_forked_child_runs_its_batches_on_a_pool_of_its_own() {
        let work = || {
            let mut out = vec![0u8; 64 * 8];
            for_each_chunk(11, &mut out, None::<&mut [()]>, |_, o, _| o.fill(1));
            out.iter().all(|&v| v == 1)
        };
        assert!(work(), "the parent's batch");
        // The pools' lock is held across the fork, so that no other test's thread holds it then
        // (the child would wait for it forever); each side releases its own copy.
        let held = lock_pools();
        // SAFETY: the child only runs the batch and leaves by `_exit`, never returning into the
        // test harness; the parent waits for it (or kills it).
        let child = unsafe { libc::fork() };
        drop(held);
        assert!(child >= 0, "fork failed");
        if child == 0 {
            let code = if work() { 0 } else { 1 };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        let mut finished = false;
        for _ in 0..200 {
            // SAFETY: waits for our own child, without blocking.
            if unsafe { libc::waitpid(child, &mut status, libc::WNOHANG) } == child {
                finished = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        if !finished {
            // SAFETY: our own child, still running: stopped and reaped.
            unsafe {
                libc::kill(child, libc::SIGKILL);
                libc::waitpid(child, &mut status, 0);
            }
        }
        assert!(
            finished,
            "the forked child's batch did not finish within 10 s"
        );
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }

    /// The thread counts of the pools built so far.
    fn pool_sizes() -> Vec<usize> {
        lock_pools().iter().map(|(_, n, _)| *n).collect()
    }

    #[test]
    fn calls_of_every_length_share_the_pool_of_their_thread_count() {
        // Seven threads asked for, over lengths that fill 2 to 7 chunks of 64 (as a world's
        // candidate pairs vary from step to step): one pool of 7, not one per length (each kept
        // for the process's life). No other test asks for 5 or 6 threads.
        for n in (2..=7).map(|chunks| 64 * chunks) {
            let mut out = vec![0u8; n];
            for_each_chunk(7, &mut out, None::<&mut [()]>, |_, o, _| o.fill(1));
            assert!(out.iter().all(|&v| v == 1));
        }
        let sizes = pool_sizes();
        assert!(sizes.contains(&7), "{sizes:?}");
        assert!(!sizes.contains(&5) && !sizes.contains(&6), "{sizes:?}");
    }
}
