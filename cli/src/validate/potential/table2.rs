//! Table 2 of Boon, Houlsby & Utili (2013) rebuilt on this machine: the time per contact of the
//! sphere pair, of our solver cold and warm, and of clarabel, on Figure 9's rounded tetrahedra
//! (and Test A's cubes), beside the paper's figures (Intel Core 2 Duo, one core).

use super::super::Outcome;
use crate::bench::potential::{time, Workload};
use crate::table::Table;

/// The table, timed with `samples` passes per figure; it has no pass/fail check (timings).
pub fn validate(samples: usize) -> Outcome {
    let mut t = Table::new(
        format!(
            "Potential particles (d): Table 2 rebuilt (us per contact, medians of {samples} passes; \
             paper: Core 2 Duo, one core; here: this machine, one thread)"
        ),
        &[
            "",
            "spheres",
            "primal barrier, tuned, warm (paper)",
            "primal barrier, untuned, warm (paper)",
            "MOSEK (paper) / clarabel 0.11 (here)",
            "ours cold (here)",
            "ours warm (here)",
        ],
    );
    t.row(vec![
        "paper, Figure 9 tetrahedra".into(),
        "0.1".into(),
        "48".into(),
        "366".into(),
        "428".into(),
        String::new(),
        String::new(),
    ]);
    for w in [
        Workload::tetrahedra(64, 8, 100),
        Workload::cubes(64, 8, 100),
    ] {
        let m = time(&w, samples, 100, 32);
        let us = |ns: f64| format!("{:.3}", ns / 1000.0);
        t.row(vec![
            format!("here, {}", w.name),
            us(m.sphere),
            String::new(),
            String::new(),
            us(m.clarabel),
            us(m.cold),
            us(m.warm),
        ]);
    }
    Outcome {
        report: t.render(),
        passed: true,
    }
}
