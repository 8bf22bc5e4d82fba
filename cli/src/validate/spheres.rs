//! Spheres: the closed-form contact against exact answers built from a chosen normal and depth.
//!
//! The protocol mirrors Wellmann et al.'s construction (used for superellipsoids): radii uniform in
//! (0.5, 3.0), a random contact direction n, random poses, and B's centre placed at distance
//! `r_a + r_b - d` along n, so the exact answer is known: normal n, signed depth d, points
//! `c_a + r_a n` and `c_b - r_b n`. Series 1: separated, gap uniform in (0, 0.25); series 2:
//! penetrating, depth uniform in (0, 1.75e-3). Each pair is also queried swapped (the normal must flip)
//! and through the C ABI's batch call on 2 threads (identical, bit for bit, to single calls).

use super::{progress, MaxError, MustBeZero, Options, Outcome};
use crate::sampling::{self, SceneRng};
use crate::sphere_pairs::{AbiPairs, Pairs};
use crate::table::{sci, Table};
use demcontact::ffi::{demcontact_contact, DEMCONTACT_STATUS_OK};
use demcontact::{narrow::collide, Pose};
use nalgebra::Vector3;
use rand::Rng;

/// One constructed pair and its exact answer.
struct Case {
    radius_a: f64,
    radius_b: f64,
    pose_a: Pose,
    pose_b: Pose,
    normal: Vector3<f64>,
    depth: f64,
}

fn case(rng: &mut SceneRng, penetrating: bool) -> Case {
    let radius_a = rng.random_range(0.5..3.0);
    let radius_b = rng.random_range(0.5..3.0);
    let depth = if penetrating {
        rng.random_range(0.0..1.75e-3)
    } else {
        -rng.random_range(0.0..0.25)
    };
    let normal = sampling::unit_vector(rng);
    let pose_a = sampling::pose(rng, 10.0);
    let mut pose_b = sampling::pose(rng, 10.0);
    pose_b.position = pose_a.position + normal * (radius_a + radius_b - depth);
    Case {
        radius_a,
        radius_b,
        pose_a,
        pose_b,
        normal,
        depth,
    }
}

/// The checks of one series.
struct Series {
    name: &'static str,
    pairs: usize,
    wrong_classification: MustBeZero,
    depth_error: MaxError,
    normal_error: MaxError,
    point_error: MaxError,
    swap_error: MaxError,
    batch_mismatch: MustBeZero,
}

fn run_series(options: &Options, name: &'static str, penetrating: bool, seed: u64) -> Series {
    let mut s = Series {
        name,
        pairs: options.pairs,
        wrong_classification: MustBeZero::default(),
        // Positions reach 10 and radii 3: the closed form's round-off is a few ulps of 20.
        depth_error: MaxError::within(1e-12),
        normal_error: MaxError::within(1e-12),
        point_error: MaxError::within(1e-12),
        swap_error: MaxError::within(1e-12),
        batch_mismatch: MustBeZero::default(),
    };
    let mut rng = sampling::rng(seed);
    let bar = progress(options, options.pairs as u64, name);
    const CHUNK: usize = 4096;
    let mut done = 0;
    while done < options.pairs {
        let n = CHUNK.min(options.pairs - done);
        let cases: Vec<Case> = (0..n).map(|_| case(&mut rng, penetrating)).collect();
        let pairs = Pairs {
            radii: cases.iter().map(|c| (c.radius_a, c.radius_b)).collect(),
            poses: cases.iter().map(|c| (c.pose_a, c.pose_b)).collect(),
        };
        for (c, (a, b)) in cases.iter().zip(pairs.core_shapes()) {
            let got = collide(&a, &c.pose_a, &b, &c.pose_b, None).expect("valid pair");
            let swapped = collide(&b, &c.pose_b, &a, &c.pose_a, None).expect("valid pair");
            s.wrong_classification
                .count(got.touching != (c.depth > 0.0));
            let signed = got.penetration - got.separation;
            s.depth_error.add((signed - c.depth).abs());
            s.normal_error.add((got.normal - c.normal).norm());
            let exact_a = c.pose_a.position + c.normal * c.radius_a;
            let exact_b = c.pose_b.position - c.normal * c.radius_b;
            s.point_error.add(
                (got.point_a - exact_a)
                    .norm()
                    .max((got.point_b - exact_b).norm()),
            );
            s.swap_error.add(
                (got.normal + swapped.normal)
                    .norm()
                    .max((got.point_a - swapped.point_b).norm()),
            );
        }
        // The same pairs through the C ABI: the batch on 2 threads equals single calls, bit for bit.
        let abi = AbiPairs::new(&pairs);
        for (i, from_batch) in abi.batch(2, None).iter().enumerate() {
            let mut single = demcontact_contact::default();
            let status = abi.collide_cold(i, &mut single);
            s.batch_mismatch
                .count(status != DEMCONTACT_STATUS_OK || single != *from_batch);
        }
        done += n;
        bar.inc(n as u64);
    }
    bar.finish_and_clear();
    s
}

/// Runs the sphere protocol.
pub fn validate(options: &Options) -> Outcome {
    let series = [
        run_series(options, "series 1 (separated)", false, options.seed),
        run_series(options, "series 2 (penetrating)", true, options.seed + 1),
    ];
    let mut header = vec!["check (spheres, exact closed form)"];
    header.extend(series.iter().map(|s| s.name));
    header.push("required");
    let mut t = Table::new(
        format!(
            "Spheres: {} pairs per series, seed {} (no paper figures: the reference is the exact construction)",
            options.pairs, options.seed
        ),
        &header,
    );
    let mut passed = true;
    let mut count_row = |label: &str, get: &dyn Fn(&Series) -> MustBeZero| {
        let mut row = vec![label.to_string()];
        for s in &series {
            row.push(get(s).0.to_string());
            passed &= get(s).0 == 0;
        }
        row.push("0".into());
        t.row(row);
    };
    count_row("wrong classification (touching vs apart)", &|s| {
        s.wrong_classification
    });
    count_row("batch on 2 threads != single query (bitwise)", &|s| {
        s.batch_mismatch
    });
    let mut error_row = |label: &str, get: &dyn Fn(&Series) -> MaxError| {
        let mut row = vec![label.to_string()];
        for s in &series {
            row.push(sci(get(s).max));
            passed &= get(s).ok();
        }
        row.push(format!("<= {}", sci(get(&series[0]).bound)));
        t.row(row);
    };
    error_row("max abs signed depth error", &|s| s.depth_error);
    error_row("max normal vector error (norm)", &|s| s.normal_error);
    error_row("max contact point error", &|s| s.point_error);
    error_row("max A/B swap asymmetry", &|s| s.swap_error);
    let pairs: usize = series.iter().map(|s| s.pairs).sum();
    Outcome {
        report: t.render() + &format!("\n{pairs} sphere pairs checked.\n"),
        passed,
    }
}
