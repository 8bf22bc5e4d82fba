//! `demcontact validate`: every shape family's validation protocol, printed as tables beside the
//! paper's figures where a paper has them. A family's run fails when any of its checks fails.

mod broad;
mod polyhedra;
mod potential;
mod spheres;
mod superellipsoid_deep;
mod superellipsoid_elongated;
mod superellipsoid_sequences;
mod superellipsoids;

use indicatif::{ProgressBar, ProgressStyle};

/// What a validation run covers.
#[derive(Debug, Clone)]
pub struct Options {
    /// Pairs per series of each protocol.
    pub pairs: usize,
    /// Seed of the random scenes.
    pub seed: u64,
    /// Whether to draw progress bars (on a terminal).
    pub progress: bool,
    /// Where to write figures (SVG); `None`: no figures.
    pub figures: Option<std::path::PathBuf>,
}

/// One family's outcome: its report text and whether every check passed.
pub struct Outcome {
    /// The tables, ready to print.
    pub report: String,
    /// Whether every check passed.
    pub passed: bool,
}

/// A family's protocol.
type Protocol = fn(&Options) -> Outcome;

/// Every family's protocol, by name, in the order they run.
const FAMILIES: [(&str, Protocol); 5] = [
    ("spheres", spheres::validate),
    ("superellipsoids", superellipsoids::validate),
    ("polyhedra", polyhedra::validate),
    ("potential", potential::validate),
    ("broad", broad::validate),
];

/// The families' names, in the order they run.
pub fn families() -> Vec<&'static str> {
    FAMILIES.iter().map(|(name, _)| *name).collect()
}

/// Runs every family's protocol, printing each report as it completes; true when all passed.
pub fn run(options: &Options) -> bool {
    run_selected(options, None)
}

/// Runs the protocol of the family named `only` (every family's when `None`), printing each
/// report as it completes; true when all passed.
///
/// Panics if `only` names no family (see [`families`]).
pub fn run_selected(options: &Options, only: Option<&str>) -> bool {
    if let Some(name) = only {
        assert!(
            families().contains(&name),
            "no family {name:?}; the families are {:?}",
            families()
        );
    }
    let mut passed = true;
    for (name, validate) in FAMILIES
        .into_iter()
        .filter(|(n, _)| only.is_none() || only == Some(*n))
    {
        let outcome = validate(options);
        print!("{}", outcome.report);
        println!("\n{name}: {}", if outcome.passed { "PASS" } else { "FAIL" });
        passed &= outcome.passed;
    }
    passed
}

/// A progress bar of `len` steps labelled `message` (hidden unless `options.progress`).
pub fn progress(options: &Options, len: u64, message: &str) -> ProgressBar {
    if !options.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len).with_message(message.to_string());
    if let Ok(style) = ProgressStyle::with_template("{msg:32} [{bar:40}] {pos}/{len} ({eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// One family's outcome from its sections: `heading`, then every section's report, then the wall
/// time since `started` labelled `family`; passed when every section passed.
pub fn joined(
    heading: &str,
    family: &str,
    started: std::time::Instant,
    sections: &[Outcome],
) -> Outcome {
    let mut report = heading.to_string();
    let mut passed = true;
    for s in sections {
        report += &s.report;
        passed &= s.passed;
    }
    report += &format!(
        "\n{family} section: {:.1} s wall\n",
        started.elapsed().as_secs_f64()
    );
    Outcome { report, passed }
}

/// Runs chunks `0..chunks` of a protocol over all cores, each thread taking the next chunk `k`
/// and calling `work(&mut tally, k)` on its own tally (made by `new`); a progress bar labelled
/// `message` counts the chunks. Returns the threads' tallies, for the caller to merge.
pub fn over_threads<S: Send>(
    options: &Options,
    chunks: usize,
    message: &str,
    new: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) + Sync,
) -> Vec<S> {
    let bar = progress(options, chunks as u64, message);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parts = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut tally = new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= chunks {
                            return tally;
                        }
                        work(&mut tally, k);
                        bar.inc(1);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    bar.finish_and_clear();
    parts
}

/// A protocol's counts that the threads of [`tallied`] keep apart and then add up.
pub trait Tally {
    /// Adds `other`'s counts to these.
    fn merge(&mut self, other: &Self);
}

/// [`over_threads`] with the threads' tallies added up into one (starting from `new()`).
pub fn tallied<S: Tally + Send>(
    options: &Options,
    chunks: usize,
    message: &str,
    new: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) + Sync,
) -> S {
    let parts = over_threads(options, chunks, message, &new, work);
    let mut total = new();
    for p in &parts {
        total.merge(p);
    }
    total
}

/// The largest value seen of one error measure, against the bound it must stay within.
#[derive(Debug, Clone, Copy)]
pub struct MaxError {
    /// Largest value seen.
    pub max: f64,
    /// The bound.
    pub bound: f64,
    /// How many samples exceeded the bound.
    pub over: u64,
}

impl MaxError {
    /// Takes in `other`'s samples (a chunk's, measured against the same bound): the larger
    /// maximum (NaN wins) and the sum of the counts over the bound.
    pub fn absorb(&mut self, other: &MaxError) {
        self.over += other.over;
        if other.max > self.max || other.max.is_nan() {
            self.max = other.max;
        }
    }

    /// A measure that must stay within `bound`.
    pub fn within(bound: f64) -> Self {
        MaxError {
            max: 0.0,
            bound,
            over: 0,
        }
    }

    /// Records one sample (NaN counts as over the bound).
    pub fn add(&mut self, value: f64) {
        if value.is_nan() || value > self.bound {
            self.over += 1;
        }
        if value > self.max || value.is_nan() {
            self.max = value;
        }
    }

    /// Whether every sample was within the bound.
    pub fn ok(&self) -> bool {
        self.over == 0
    }
}

/// A count of events that must not happen (wrong answers).
#[derive(Debug, Clone, Copy, Default)]
pub struct MustBeZero(pub u64);

impl MustBeZero {
    /// Counts one event when `happened`.
    pub fn count(&mut self, happened: bool) {
        self.0 += happened as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_error_counts_samples_over_the_bound() {
        let mut e = MaxError::within(1.0);
        e.add(0.5);
        assert!(e.ok());
        e.add(2.0);
        e.add(f64::NAN);
        assert_eq!(e.over, 2);
        assert!(!e.ok());
    }

    #[test]
    fn superellipsoid_protocol_passes_on_a_small_run() {
        let o = Options {
            pairs: 3000,
            seed: 11,
            progress: false,
            figures: None,
        };
        let outcome = superellipsoids::validate(&o);
        assert!(outcome.passed, "{}", outcome.report);
        assert!(outcome.report.contains("Table 1"));
        assert!(outcome.report.contains("Deep overlaps"));
    }

    #[test]
    fn polyhedron_protocol_passes_on_a_small_run() {
        // A debug build runs the reference slowly: 400 random pairs, 6 motion sequences of 200
        // steps (each in and out of contact once).
        let o = Options {
            pairs: 50_000,
            seed: 5,
            progress: false,
            figures: None,
        };
        let outcome = polyhedra::validate_sized(&o, 400, 200);
        assert!(outcome.passed, "{}", outcome.report);
        for section in [
            "Polyhedra (a)",
            "Polyhedra (b): 400 random pairs",
            "200 steps per sequence",
        ] {
            assert!(outcome.report.contains(section), "{}", outcome.report);
        }
        assert!(!outcome.report.contains("FAIL"), "{}", outcome.report);
    }

    #[test]
    fn potential_particle_protocol_passes_on_a_small_run() {
        // A debug build runs clarabel slowly: 150 random pairs, Table 2 timed once.
        let o = Options {
            pairs: 1500,
            seed: 9,
            progress: false,
            figures: None,
        };
        let outcome = potential::validate_sized(&o, 150, 1);
        assert!(outcome.passed, "{}", outcome.report);
        for section in [
            "Potential particles (a)",
            "(b): 150 random pairs",
            "(c)",
            "Table 2",
        ] {
            assert!(outcome.report.contains(section), "{}", outcome.report);
        }
        assert!(!outcome.report.contains("FAIL"), "{}", outcome.report);
    }

    #[test]
    fn sphere_protocol_passes_on_a_small_run() {
        let o = Options {
            pairs: 2000,
            seed: 3,
            progress: false,
            figures: None,
        };
        let outcome = spheres::validate(&o);
        assert!(outcome.passed, "{}", outcome.report);
        assert!(outcome.report.contains("wrong classification"));
    }
}
