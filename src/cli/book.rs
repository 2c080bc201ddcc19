//! `jieqi book`: writes an opening book (the format `jieqi::search::book` reads) by searching
//! the first positions of a game to a fixed depth.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use clap::Args;
use jieqi::core::{Move, Position, Variant};
use jieqi::search::book::{self, Book, BookEntry};
use jieqi::search::{Engine, Limits, Options, Report, Root, Score, MATE_BOUND};

#[derive(Args, Debug)]
pub struct BookArgs {
    /// jieqi (default), maniac or xiangqi.
    #[arg(long, default_value = "jieqi")]
    variant: Variant,
    /// Positions up to this many plies from the start: 1 the start alone, 2 also every position
    /// after the first move (each identity a flip can reveal; moves that capture a face-down
    /// piece are left out, since only the capturer learns what it took).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=3))]
    plies: u32,
    /// Depth of each search.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Searches run side by side (one thread each).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// Searches `pos` to `depth`: the best move with its score and depth.
fn search(pos: Position, depth: u32, hash_mb: usize) -> Option<BookEntry> {
    let options = Options {
        threads: 1,
        hash_mb,
        own_book: false,
        ..Options::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut engine = Engine::new(options);
    let mut cp = 0;
    let mut reached = 0;
    let mut best: Option<Move> = None;
    for r in engine.search_with(Root::new(pos), limits, |_| {}) {
        match r {
            Report::Info(i) if i.multipv == 1 => {
                reached = i.depth;
                cp = match i.score {
                    Score::Cp(c) => c,
                    Score::Mate(m) if m > 0 => MATE_BOUND,
                    Score::Mate(_) => -MATE_BOUND,
                };
            }
            Report::Done { best: b, .. } => best = b,
            _ => {}
        }
    }
    best.map(|mv| BookEntry {
        mv,
        cp,
        depth: reached,
    })
}

pub fn run(args: BookArgs) -> ExitCode {
    let list = book::positions(args.variant, args.plies);
    let results: Vec<Mutex<Option<BookEntry>>> = list.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let workers = args.concurrency.clamp(1, 256).min(list.len());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&pos) = list.get(i) else { break };
                let entry = search(pos, args.depth, args.hash.clamp(1, 65536));
                if let Ok(mut slot) = results[i].lock() {
                    *slot = entry;
                }
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                let text = entry.map_or("no move".to_string(), |e| e.mv.to_string());
                eprintln!("book: {n}/{} {} {text}", list.len(), pos.fen6());
            });
        }
    });
    outln!(
        "# opening book: variant {}, positions up to {} plies from the start, depth {}",
        args.variant.name(),
        args.plies,
        args.depth
    );
    outln!("# move score depth FEN");
    for (pos, slot) in list.iter().zip(&results) {
        let entry = slot.lock().ok().and_then(|s| *s);
        if let Some(e) = entry {
            outln!("{}", Book::line(pos, e));
        }
    }
    ExitCode::SUCCESS
}
