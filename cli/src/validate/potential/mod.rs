//! Potential particles: issue 7's protocol for our solver of the second-order cone program of Boon,
//! Houlsby & Utili (2013), eq. (6), against closed forms and against clarabel solving the very same
//! program ([`crate::potential_reference`]):
//!
//! * [`exact`]: the sphere limit (planes far outside the shadow sphere: spheres of radius
//!   `R / sqrt(k)`, closed-form optimum, `s`, overlap and normal) and two aligned rounded cubes
//!   face to face (the overlap solves a quadratic);
//! * [`random`]: pairs of Test A's cubes and tetrahedra, Test B's 1:3 and 1:8 prisms and Figure 9's
//!   rounded tetrahedra in random poses near contact: our optimum against clarabel's (s, objective,
//!   classification against clarabel in f64; the contact point against clarabel in double-double
//!   arithmetic, [`crate::double_double`]), the overlap distance against brute-force bisection, and
//!   warm-started DEM-like sequences against cold queries;
//! * [`table2`]: Table 2 of the paper rebuilt on this machine (sphere, ours cold and warm, clarabel).
//!
//! The queries go through the public entry point [`demcontact::narrow::collide`] (world frame),
//! and through [`demcontact::narrow::potential_socp::potential_socp`] for the `s` values.

mod exact;
mod random;
mod table2;

use super::{Options, Outcome};

/// Random pairs per `--pairs` (the default 10^6 gives 10^5 pairs).
pub const PAIRS_PER_OPTION: usize = 10;

/// The whole protocol at the size `options.pairs` sets.
pub fn validate(options: &Options) -> Outcome {
    validate_sized(options, (options.pairs / PAIRS_PER_OPTION).max(1), 7)
}

/// The whole protocol with `pairs` random pairs, Table 2 timed with `samples` passes per figure.
pub fn validate_sized(options: &Options, pairs: usize, samples: usize) -> Outcome {
    let started = std::time::Instant::now();
    let sections = [
        exact::validate(),
        random::validate(options, pairs),
        table2::validate(samples),
    ];
    super::joined(
        "\n## Potential particles: our SOCP solver (Boon, Houlsby & Utili 2013, eq. \
                      (6)) against closed forms and clarabel 0.11 (issue 7), f64\n",
        "potential",
        started,
        &sections,
    )
}
