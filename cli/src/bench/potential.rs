//! Potential particle benchmarks (Boon, Houlsby & Utili 2013): our SOCP solver cold and warm,
//! clarabel on the very same eq. (6) programs, and the sphere pair as the baseline, on two
//! workloads: Test A's rounded cubes (6 planes each) and Figure 9's rounded tetrahedra (4 planes
//! each), all measured in one run.
//!
//! * cold: touching pairs in random poses, each query from a cold warm state;
//! * warm: DEM-like sequences, B drifting and turning by small steps (2e-4 of the edge and 1e-3 rad
//!   per step) against A, the pair's warm state kept from step to step;
//! * clarabel: setup and solve of eq. (6) at its default settings (what a user of a general conic
//!   solver runs) on the cold pairs;
//! * sphere: two unit spheres at the cold pairs' poses (the paper's 0.1 us of Table 2).

use super::{median_ns, ns, Options};
use crate::potential_pairs::{self, place};
use crate::potential_reference::{clarabel_solver, default_settings, solve_reference};
use crate::sampling;
use crate::table::Table;
use demcontact::narrow::collide;
use demcontact::shapes::{PotentialParticle, Shape, Sphere};
use demcontact::{Pose, WarmState};
use nalgebra::UnitQuaternion;
use std::hint::black_box;

/// Cold pairs per workload.
pub const PAIRS: usize = 256;
/// Sequences per warm workload.
pub const SEQUENCES: usize = 16;
/// Steps per sequence.
pub const STEPS: usize = 100;
/// Cold pairs clarabel is timed on.
pub const CLARABEL_TIMED: usize = 64;

/// One workload: a particle, touching cold pairs and warm sequences of it.
pub struct Workload {
    /// What the workload is.
    pub name: &'static str,
    shape: Shape,
    particle: PotentialParticle,
    cold: Vec<(Pose, Pose)>,
    warm: Vec<(Pose, Pose)>,
}

impl Workload {
    /// `pairs` touching cold pairs and `sequences` sequences of `steps` steps of `particle`.
    pub fn new(
        name: &'static str,
        particle: PotentialParticle,
        pairs: usize,
        sequences: usize,
        steps: usize,
        seed: u64,
    ) -> Self {
        let shape = Shape::PotentialParticle(particle.clone());
        let mut rng = sampling::rng(seed);
        let mut cold = Vec::with_capacity(pairs);
        while cold.len() < pairs {
            let (pa, pb) = place(&mut rng, &particle, &particle, 0.85..1.0);
            let touching = collide(&shape, &pa, &shape, &pb, None).is_ok_and(|c| c.touching);
            if touching {
                cold.push((pa, pb));
            }
        }
        let mut warm = Vec::with_capacity(sequences * steps);
        for (pa, pb) in cold.iter().take(sequences) {
            let drift = sampling::unit_vector(&mut rng) * 2e-4;
            let spin = sampling::unit_vector(&mut rng) * 1e-3;
            for step in 0..steps {
                let t = step as f64;
                let turn = UnitQuaternion::from_scaled_axis(spin * t);
                warm.push((*pa, Pose::new(pb.position + drift * t, turn * pb.rotation)));
            }
        }
        Workload {
            name,
            shape,
            particle,
            cold,
            warm,
        }
    }

    /// Two rounded cubes of Test A.
    pub fn cubes(pairs: usize, sequences: usize, steps: usize) -> Self {
        Self::new(
            "2 rounded cubes (6 planes)",
            potential_pairs::cube(),
            pairs,
            sequences,
            steps,
            71,
        )
    }

    /// Two rounded tetrahedra of Figure 9.
    pub fn tetrahedra(pairs: usize, sequences: usize, steps: usize) -> Self {
        Self::new(
            "2 rounded tetrahedra (4 planes)",
            potential_pairs::figure9_tetrahedron(),
            pairs,
            sequences,
            steps,
            72,
        )
    }

    /// Ours, cold: every query from a cold state; returns the iterations summed.
    pub fn ours_cold(&self) -> u64 {
        let mut iterations = 0;
        for (pa, pb) in &self.cold {
            let c = collide(&self.shape, pa, &self.shape, pb, None).expect("a contact");
            iterations += u64::from(black_box(c).iterations);
        }
        iterations
    }

    /// Ours, warm: each sequence keeps its warm state; returns the iterations summed.
    pub fn ours_warm(&self, steps: usize) -> u64 {
        let mut iterations = 0;
        for sequence in self.warm.chunks(steps) {
            let mut state = WarmState::cold();
            for (pa, pb) in sequence {
                let c =
                    collide(&self.shape, pa, &self.shape, pb, Some(&mut state)).expect("a contact");
                iterations += u64::from(black_box(c).iterations);
            }
        }
        iterations
    }

    /// Clarabel (default settings, setup and solve) on the first `n` cold pairs; returns its
    /// interior-point iterations summed.
    pub fn clarabel(&self, n: usize) -> u64 {
        let p = &self.particle;
        let mut iterations = 0;
        for (pa, pb) in self.cold.iter().take(n) {
            let mut solver = clarabel_solver(p, pa, p, pb, default_settings());
            let r = solve_reference(&mut solver, p, pa, p, pb).expect("clarabel solves it");
            iterations += u64::from(black_box(r).iterations);
        }
        iterations
    }

    /// Every warm sequence of `steps` steps queried warm and cold: the largest difference of the
    /// contact point and overlap relative to the size, and the mean iterations cold and warm.
    pub fn warm_against_cold(&self, steps: usize) -> (f64, f64, f64) {
        let size = self.particle.bounding_radius();
        let (mut worst, mut cold_iterations, mut warm_iterations) = (0.0f64, 0u64, 0u64);
        for sequence in self.warm.chunks(steps) {
            let mut state = WarmState::cold();
            for (pa, pb) in sequence {
                let warm =
                    collide(&self.shape, pa, &self.shape, pb, Some(&mut state)).expect("a contact");
                let cold = collide(&self.shape, pa, &self.shape, pb, None).expect("a contact");
                worst = worst
                    .max((warm.point - cold.point).norm() / size)
                    .max((warm.penetration - cold.penetration).abs() / size);
                warm_iterations += u64::from(warm.iterations);
                cold_iterations += u64::from(cold.iterations);
            }
        }
        let n = self.warm.len().max(1) as f64;
        (
            worst,
            cold_iterations as f64 / n,
            warm_iterations as f64 / n,
        )
    }

    /// The cold pairs.
    pub fn cold_pairs(&self) -> usize {
        self.cold.len()
    }

    /// The warm queries.
    pub fn warm_queries(&self) -> usize {
        self.warm.len()
    }

    /// Two unit spheres at the cold pairs' poses.
    pub fn spheres(&self, ball: &Shape) {
        for (pa, pb) in &self.cold {
            black_box(collide(ball, pa, ball, pb, None).expect("a contact"));
        }
    }
}

/// One workload's medians (ns per query) and mean iterations per query.
pub struct Timing {
    /// Ours, cold.
    pub cold: f64,
    /// Ours, warm.
    pub warm: f64,
    /// Clarabel.
    pub clarabel: f64,
    /// The sphere pair.
    pub sphere: f64,
    /// Our mean iterations per cold query.
    pub cold_iterations: f64,
    /// Our mean iterations per warm query.
    pub warm_iterations: f64,
    /// Clarabel's mean interior-point iterations.
    pub clarabel_iterations: f64,
}

/// Times `w` with `samples` passes per figure (clarabel on `clarabel_pairs` pairs).
pub fn time(w: &Workload, samples: usize, steps: usize, clarabel_pairs: usize) -> Timing {
    let ball = Shape::Sphere(Sphere::new(0.5).expect("a sphere"));
    let clarabel_pairs = clarabel_pairs.min(w.cold_pairs());
    Timing {
        cold: median_ns(samples, w.cold_pairs(), || {
            w.ours_cold();
        }),
        warm: median_ns(samples, w.warm_queries(), || {
            w.ours_warm(steps);
        }),
        clarabel: median_ns(samples.min(9), clarabel_pairs, || {
            w.clarabel(clarabel_pairs);
        }),
        sphere: median_ns(samples, w.cold_pairs(), || w.spheres(&ball)),
        cold_iterations: w.ours_cold() as f64 / w.cold_pairs() as f64,
        warm_iterations: w.ours_warm(steps) as f64 / w.warm_queries() as f64,
        clarabel_iterations: w.clarabel(clarabel_pairs) as f64 / clarabel_pairs.max(1) as f64,
    }
}

/// The benchmark table: both workloads, medians in ns per query and ratios to clarabel.
pub fn bench(options: &Options) -> Table {
    let mut t = Table::new(
        format!(
            "Potential particles (Boon et al. 2013, eq. (6)): ns/query medians of {} passes; cold: \
             {PAIRS} touching pairs in random poses; warm: {SEQUENCES} DEM-like sequences of \
             {STEPS} steps (2e-4 edge and 1e-3 rad per step), warm state kept; clarabel 0.11 \
             (default settings, setup + solve) on {CLARABEL_TIMED} of the cold pairs; sphere pair \
             at the same poses. Targets: warm <= 2000 ns, cold <= 10000 ns, >= 50x faster than \
             clarabel",
            options.samples()
        ),
        &[
            "workload",
            "ours cold",
            "ours warm",
            "clarabel",
            "sphere pair",
            "clarabel / ours cold",
            "clarabel / ours warm",
            "iterations (cold / warm / clarabel)",
        ],
    );
    for w in [
        Workload::cubes(PAIRS, SEQUENCES, STEPS),
        Workload::tetrahedra(PAIRS, SEQUENCES, STEPS),
    ] {
        let m = time(&w, options.samples(), STEPS, CLARABEL_TIMED);
        t.row(vec![
            w.name.into(),
            ns(m.cold),
            ns(m.warm),
            ns(m.clarabel),
            ns(m.sphere),
            format!("{:.0}x", m.clarabel / m.cold),
            format!("{:.0}x", m.clarabel / m.warm),
            format!(
                "{:.1} / {:.1} / {:.1}",
                m.cold_iterations, m.warm_iterations, m.clarabel_iterations
            ),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_workloads_run_and_warm_takes_fewer_iterations() {
        let w = Workload::cubes(8, 2, 10);
        assert_eq!(w.cold_pairs(), 8);
        assert_eq!(w.warm_queries(), 20);
        let m = time(&w, 1, 10, 2);
        assert!(m.cold > 0.0 && m.warm > 0.0 && m.clarabel > 0.0 && m.sphere > 0.0);
        assert!(m.warm_iterations < m.cold_iterations);
    }
}
