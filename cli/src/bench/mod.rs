//! `demcontact bench`: ns/query medians per family, each beside its peer measured in the same run.
//!
//! Every figure is the median over `samples` timed passes of the per-query time of one pass over a
//! fixed set of pairs (so a noisy neighbour on a shared machine moves a few samples, not the median).

pub mod broad;
pub mod polyhedra;
pub mod potential;
pub mod spheres;
pub mod superellipsoids;

use std::time::Instant;

/// How long a run takes.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Fewer samples: a quick, noisier look.
    pub quick: bool,
}

impl Options {
    /// Timed passes per figure.
    pub fn samples(&self) -> usize {
        if self.quick {
            7
        } else {
            41
        }
    }
}

/// The families with benchmarks, in the order they run.
pub const FAMILIES: [&str; 5] = [
    "spheres",
    "superellipsoids",
    "polyhedra",
    "potential",
    "broad",
];

/// Runs every family's benchmarks and prints the tables.
pub fn run(options: &Options) {
    run_selected(options, None);
}

/// Runs the benchmarks of the family named `only` (of [`FAMILIES`]; every family's when `None`)
/// and prints the tables.
///
/// Panics if `only` names no family.
pub fn run_selected(options: &Options, only: Option<&str>) {
    if let Some(name) = only {
        assert!(
            FAMILIES.contains(&name),
            "no family {name:?}; the families are {FAMILIES:?}"
        );
    }
    let selected = |name: &str| only.is_none() || only == Some(name);
    let mut first = true;
    let mut separate = || {
        if !std::mem::take(&mut first) {
            println!();
        }
    };
    if selected("spheres") {
        separate();
        print!("{}", spheres::bench(options).render());
    }
    if selected("superellipsoids") {
        separate();
        print!("{}", superellipsoids::bench(options).render());
    }
    if selected("polyhedra") {
        separate();
        let (timing, accuracy) = polyhedra::bench(options);
        print!("{}", timing.render());
        print!("{}", accuracy.render());
    }
    if selected("potential") {
        separate();
        print!("{}", potential::bench(options).render());
    }
    if selected("broad") {
        separate();
        for table in broad::bench(options) {
            print!("{}", table.render());
        }
    }
}

/// The median of `samples` passes of `pass`, in nanoseconds per query, where one pass makes `queries`
/// queries. One untimed pass warms caches first.
pub fn median_ns(samples: usize, queries: usize, mut pass: impl FnMut()) -> f64 {
    pass();
    let mut t: Vec<f64> = (0..samples.max(1))
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_nanos() as f64 / queries.max(1) as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// A time in ns with a sensible number of digits.
pub fn ns(x: f64) -> String {
    if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_is_per_query_and_positive() {
        let mut calls = 0;
        let m = median_ns(5, 10, || {
            calls += 1;
            std::thread::sleep(std::time::Duration::from_micros(100));
        });
        assert_eq!(calls, 6);
        assert!(m >= 10_000.0, "{m}");
        assert_eq!(ns(12.345), "12.3");
        assert_eq!(ns(1234.5), "1234");
    }
}
