//! A fuzzing driver that runs on stable Rust: it replays a target's committed corpus, then mutates
//! corpus inputs (bit flips, byte edits, range deletes and copies, splices of two inputs, tokens
//! that break JSON, CSV and numbers) for a bounded time and count, and reports the inputs on which
//! the target panicked. It has no coverage feedback: the coverage-guided runs are libFuzzer's, through
//! the cargo-fuzz targets in `fuzz/` (nightly), which share these targets and this corpus.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::targets::Target;

/// How long and how much to run one target.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Wall-clock time for the mutations, after the corpus replay.
    pub time: Duration,
    /// Most executions of mutated inputs.
    pub max_runs: u64,
    /// The random generator's seed: the same seed gives the same inputs.
    pub seed: u64,
    /// Longest input tried, bytes.
    pub max_len: usize,
}

/// An input on which a target broke an invariant.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The input.
    pub input: Vec<u8>,
    /// The panic's message.
    pub message: String,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Corpus inputs replayed.
    pub corpus: usize,
    /// Inputs run in all (corpus and mutations).
    pub executions: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The first input that broke an invariant, if any (the run stops there).
    pub finding: Option<Finding>,
}

/// The corpus of a target: every file in `dir` (none if it does not exist), in name order.
pub fn load_corpus(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths.iter().map(std::fs::read).collect()
}

/// Runs `input` through `target`; the panic message if it panicked.
pub fn execute(target: &Target, input: &[u8]) -> Result<(), String> {
    panic::catch_unwind(AssertUnwindSafe(|| (target.run)(input))).map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| String::from("a panic without a message"))
    })
}

/// Replays `corpus` through `target`, then mutates it within `budget`. Panic messages are not
/// printed while it runs (the hook is restored after); the first finding ends the run.
#[must_use]
pub fn run(target: &Target, corpus: &[Vec<u8>], budget: &Budget) -> Report {
    let started = Instant::now();
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut report = Report {
        corpus: corpus.len(),
        ..Report::default()
    };
    let found = |input: &[u8], report: &mut Report| {
        report.executions += 1;
        match execute(target, input) {
            Ok(()) => false,
            Err(message) => {
                report.finding = Some(Finding {
                    input: input.to_vec(),
                    message,
                });
                true
            }
        }
    };
    let mut stopped = corpus.iter().any(|input| found(input, &mut report));
    let seeds: Vec<Vec<u8>> = if corpus.is_empty() {
        vec![Vec::new()]
    } else {
        corpus.to_vec()
    };
    let mut rng = Rng::new(budget.seed);
    let deadline = Instant::now() + budget.time;
    let mut runs = 0;
    while !stopped && runs < budget.max_runs && Instant::now() < deadline {
        let input = mutate(&seeds, &mut rng, budget.max_len);
        runs += 1;
        stopped = found(&input, &mut report);
    }
    panic::set_hook(hook);
    report.elapsed = started.elapsed();
    report
}

/// Tokens that break parsers: JSON structure, numbers at and past every limit, NUL and control
/// characters, CSV quoting and line ends, long strings.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"null",
    b"true",
    b"-1",
    b"0",
    b"1e400",
    b"-1e400",
    b"NaN",
    b"Infinity",
    b"4294967296",
    b"18446744073709551616",
    b"0.000000000000000000001",
    b"\\u0000",
    b"\x00",
    b"\r\n",
    b"\n",
    b"\"\"",
    b"%",
    b"_",
    b"&",
    b"=",
    b"\xff",
    b"\xe2\x80\xae",
    b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

/// One to four mutations of a corpus input.
fn mutate(seeds: &[Vec<u8>], rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let mut data = seeds[rng.below(seeds.len())].clone();
    for _ in 0..=rng.below(4) {
        let len = data.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = rng.byte();
            }
            2 => {
                let i = rng.below(len + 1);
                data.insert(i, rng.byte());
            }
            3 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(16)).min(len);
                data.drain(start..end);
            }
            4 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                let copy = data[start..end].to_vec();
                let at = rng.below(len + 1);
                data.splice(at..at, copy);
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                let cut = rng.below(data.len() + 1);
                let from = rng.below(other.len() + 1);
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(len + 1);
                if rng.below(2) == 0 || len == 0 {
                    data.splice(at..at, token.iter().copied());
                } else {
                    // Replace a run of bytes (a number, a string, a delimiter) with the token.
                    let end = (at + 1 + rng.below(8)).min(len);
                    data.splice(at..end, token.iter().copied());
                }
            }
        }
    }
    data.truncate(max_len);
    data
}

/// xorshift64*: small, fast, seeded — the mutations need no cryptographic quality.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn byte(&mut self) -> u8 {
        self.next().to_le_bytes()[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panics_on_x(data: &[u8]) {
        assert!(!data.contains(&b'X'), "found an X");
    }

    #[test]
    fn mutations_are_deterministic_per_seed_and_bounded() {
        let seeds = vec![b"{\"model_name\": \"gpt2\"}".to_vec()];
        let a: Vec<Vec<u8>> = {
            let mut rng = Rng::new(7);
            (0..100).map(|_| mutate(&seeds, &mut rng, 32)).collect()
        };
        let b: Vec<Vec<u8>> = {
            let mut rng = Rng::new(7);
            (0..100).map(|_| mutate(&seeds, &mut rng, 32)).collect()
        };
        assert_eq!(a, b);
        assert!(a.iter().all(|m| m.len() <= 32));
        assert!(a.iter().any(|m| m != &seeds[0]), "inputs change");
    }

    #[test]
    fn a_panicking_input_is_reported_and_ends_the_run() {
        let target = Target {
            name: "x",
            about: "panics on X",
            run: panics_on_x,
        };
        let budget = Budget {
            time: Duration::from_secs(5),
            max_runs: 100_000,
            seed: 1,
            max_len: 64,
        };
        let report = run(&target, &[b"abc".to_vec()], &budget);
        let finding = report.finding.expect("an X is found by byte edits");
        assert!(finding.input.contains(&b'X'));
        assert!(finding.message.contains("found an X"));
        let clean = run(&target, &[b"abc".to_vec()], &Budget { max_runs: 0, ..budget });
        assert!(clean.finding.is_none());
        assert_eq!(clean.executions, 1, "the corpus is replayed");
    }
}
