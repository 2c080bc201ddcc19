//! `jieqi bench`: a fixed search over positions of all three variants (`search::bench`). The
//! node count is the build's signature: identical on every run of the same build (one thread,
//! fixed depth, a fresh table per position).

/// Runs the bench (each position at its own depth, or at `depth` for all) and prints one line
/// per position, then `Nodes searched: <N>` and `Nodes/second: <N>` as the last two lines.
pub fn run(depth: Option<u32>, threads: usize) {
    jieqi::search::bench::run(depth, threads, |line| outln!("{line}"));
}
