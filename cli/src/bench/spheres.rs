//! Sphere-pair benchmarks: the C ABI single query (cold and warm), the batch call on 1 and 2 threads,
//! and the Rust core, beside parry3d-f64's ball-ball `query::contact` on the same pairs.

use super::{median_ns, ns, Options};
use crate::peers::parry_pose;
use crate::sampling;
use crate::table::Table;
use demcontact::ffi::{
    demcontact_collide, demcontact_collide_batch, demcontact_contact, demcontact_pair,
    demcontact_pose, demcontact_shape, demcontact_shape_release, demcontact_sphere_create,
    demcontact_warm_state, DEMCONTACT_STATUS_OK,
};
use demcontact::{narrow::collide, Pose, Shape, Sphere};
use parry3d_f64::math::Pose as ParryPose;
use parry3d_f64::query;
use parry3d_f64::shape::Ball;
use rand::Rng;
use std::hint::black_box;

/// A set of near sphere pairs: half separated by up to 0.25, half overlapping by up to 1.75e-3,
/// radii in (0.5, 3.0) (the validation protocol's distribution).
pub struct Pairs {
    /// Radii of A and B.
    pub radii: Vec<(f64, f64)>,
    /// Poses of A and B.
    pub poses: Vec<(Pose, Pose)>,
}

impl Pairs {
    /// `n` pairs from `seed`, every body with a radius of its own.
    pub fn new(n: usize, seed: u64) -> Self {
        Self::with_palette(n, seed, None)
    }

    /// `n` pairs from `seed` whose radii are drawn from `palette` distinct values (a polydisperse DEM
    /// sample discretised into size classes, each class one shared shape), or all distinct (`None`).
    pub fn with_palette(n: usize, seed: u64, palette: Option<usize>) -> Self {
        let mut rng = sampling::rng(seed);
        let mut radii = Vec::with_capacity(n);
        let mut poses = Vec::with_capacity(n);
        let radius = |rng: &mut sampling::SceneRng| match palette {
            Some(k) => 0.5 + 2.5 * (rng.random_range(0..k) as f64 + 0.5) / k as f64,
            None => rng.random_range(0.5..3.0),
        };
        for i in 0..n {
            let (ra, rb) = (radius(&mut rng), radius(&mut rng));
            let depth = if i % 2 == 0 {
                rng.random_range(0.0..1.75e-3)
            } else {
                -rng.random_range(0.0..0.25)
            };
            let pa = sampling::pose(&mut rng, 10.0);
            let mut pb = sampling::pose(&mut rng, 10.0);
            pb.position = pa.position + sampling::unit_vector(&mut rng) * (ra + rb - depth);
            radii.push((ra, rb));
            poses.push((pa, pb));
        }
        Pairs { radii, poses }
    }
}

/// C ABI handles for a set of pairs, released on drop.
pub struct AbiPairs {
    /// The pairs as the batch call takes them.
    pub pairs: Vec<demcontact_pair>,
    handles: Vec<*mut demcontact_shape>,
}

impl AbiPairs {
    /// Creates the shapes of `p` through the C ABI: one handle per distinct radius, shared by every
    /// body of that radius (as a host shares one shape per particle type).
    pub fn new(p: &Pairs) -> Self {
        let mut handles = Vec::new();
        let mut by_radius = std::collections::HashMap::new();
        let mut pairs = Vec::new();
        let pose = |q: &Pose| demcontact_pose {
            position: q.position.into(),
            orientation: q.wxyz(),
        };
        let mut shape = |r: f64| {
            *by_radius.entry(r.to_bits()).or_insert_with(|| {
                let mut h = std::ptr::null_mut();
                // SAFETY: a valid out-pointer; released in `drop`.
                assert_eq!(
                    unsafe { demcontact_sphere_create(r, &mut h) },
                    DEMCONTACT_STATUS_OK
                );
                handles.push(h);
                h
            })
        };
        for ((ra, rb), (pa, pb)) in p.radii.iter().zip(&p.poses) {
            let (a, b) = (shape(*ra), shape(*rb));
            pairs.push(demcontact_pair {
                a,
                pose_a: pose(pa),
                b,
                pose_b: pose(pb),
            });
        }
        AbiPairs { pairs, handles }
    }
}

impl AbiPairs {
    /// The cold contact of pair `i` through `demcontact_collide`, and the status.
    pub fn collide_cold(&self, i: usize, out: &mut demcontact_contact) -> i32 {
        let p = &self.pairs[i];
        // SAFETY: the handles are live (owned by `self`); the poses and `out` are valid.
        unsafe { demcontact_collide(p.a, &p.pose_a, p.b, &p.pose_b, std::ptr::null_mut(), out) }
    }

    /// Every pair through `demcontact_collide_batch` on `threads` threads, with `warm` states (one per
    /// pair) or cold; returns the contacts, after asserting the call succeeded.
    pub fn batch(
        &self,
        threads: u32,
        warm: Option<&mut [demcontact_warm_state]>,
    ) -> Vec<demcontact_contact> {
        let n = self.pairs.len();
        let mut out = vec![demcontact_contact::default(); n];
        let warm = match warm {
            Some(w) => {
                assert_eq!(w.len(), n);
                w.as_mut_ptr()
            }
            None => std::ptr::null_mut(),
        };
        // SAFETY: `pairs` and `out` (and `warm` when given) hold `n` elements; handles are live.
        let status = unsafe {
            demcontact_collide_batch(
                self.pairs.as_ptr(),
                n,
                warm,
                threads,
                out.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(status, DEMCONTACT_STATUS_OK);
        out
    }
}

impl Pairs {
    /// The pairs' shapes as core values, inline (no handles).
    pub fn core_shapes(&self) -> Vec<(Shape, Shape)> {
        let sphere = |r: f64| Shape::Sphere(Sphere::new(r).expect("valid radius"));
        self.radii
            .iter()
            .map(|(a, b)| (sphere(*a), sphere(*b)))
            .collect()
    }

    /// The pairs as parry balls and poses.
    pub fn parry(&self) -> Vec<((Ball, Ball), (ParryPose, ParryPose))> {
        let balls = self
            .radii
            .iter()
            .map(|(a, b)| (Ball::new(*a), Ball::new(*b)));
        let poses = self
            .poses
            .iter()
            .map(|(a, b)| (parry_pose(a), parry_pose(b)));
        balls.zip(poses).collect()
    }
}

impl Drop for AbiPairs {
    fn drop(&mut self) {
        for &h in &self.handles {
            // SAFETY: created in `new`, released once.
            unsafe { demcontact_shape_release(h) };
        }
    }
}

/// Runs the sphere benchmarks; returns the table.
pub fn bench(options: &Options) -> Table {
    let samples = options.samples();
    let single = Pairs::new(4096, 11);
    let abi = AbiPairs::new(&single);
    let n = abi.pairs.len();
    let mut out = demcontact_contact::default();

    let mut cold = |pairs: &AbiPairs| {
        median_ns(samples, pairs.pairs.len(), || {
            for i in 0..pairs.pairs.len() {
                black_box((pairs.collide_cold(i, &mut out), &out));
            }
        })
    };
    let abi_cold = cold(&abi);
    let classes = AbiPairs::new(&Pairs::with_palette(4096, 11, Some(16)));
    let abi_cold_shared = cold(&classes);
    let mut warm = vec![demcontact_warm_state::default(); n];
    let abi_warm = median_ns(samples, n, || {
        for (p, w) in abi.pairs.iter().zip(warm.iter_mut()) {
            // SAFETY: as above.
            let s = unsafe { demcontact_collide(p.a, &p.pose_a, p.b, &p.pose_b, w, &mut out) };
            black_box((s, &out));
        }
    });
    let shapes = single.core_shapes();
    let core = median_ns(samples, n, || {
        for ((a, b), (pa, pb)) in shapes.iter().zip(&single.poses) {
            black_box(collide(a, pa, b, pb, None).ok());
        }
    });
    let parry_pairs = single.parry();
    let parry = median_ns(samples, n, || {
        for ((a, b), (pa, pb)) in &parry_pairs {
            // A prediction distance covering the separated pairs, so parry reports them too.
            black_box(query::contact(pa, a, pb, b, 0.3).ok());
        }
    });

    let batch_pairs = AbiPairs::new(&Pairs::new(100_000, 12));
    let m = batch_pairs.pairs.len();
    let mut batch_out = vec![demcontact_contact::default(); m];
    let mut batch_warm = vec![demcontact_warm_state::default(); m];
    let mut batch = |threads: u32| {
        median_ns(samples.min(21), m, || {
            // SAFETY: every array holds `m` elements; handles are live.
            let s = unsafe {
                demcontact_collide_batch(
                    batch_pairs.pairs.as_ptr(),
                    m,
                    batch_warm.as_mut_ptr(),
                    threads,
                    batch_out.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            };
            assert_eq!(s, DEMCONTACT_STATUS_OK);
        })
    };
    let batch1 = batch(1);
    let batch2 = batch(2);

    let mut t = Table::new(
        format!(
            "Sphere pairs (f64; 4096 pairs, half separated, half overlapping; medians of {samples} passes, ns/query)"
        ),
        &["query", "demcontact", "parry3d-f64 0.31 query::contact", "parry / demcontact"],
    );
    let ratio = |x: f64| format!("{:.1}x", parry / x);
    t.row(vec![
        "C ABI demcontact_collide, cold, 16 shared shapes".into(),
        ns(abi_cold_shared),
        ns(parry),
        ratio(abi_cold_shared),
    ]);
    t.row(vec![
        "C ABI demcontact_collide, cold, a shape per body".into(),
        ns(abi_cold),
        ns(parry),
        ratio(abi_cold),
    ]);
    t.row(vec![
        "C ABI demcontact_collide, warm, a shape per body".into(),
        ns(abi_warm),
        ns(parry),
        ratio(abi_warm),
    ]);
    t.row(vec![
        "Rust core narrow::collide, shapes inline".into(),
        ns(core),
        ns(parry),
        ratio(core),
    ]);
    t.row(vec![
        "C ABI batch, warm, threads = 1 (100000 pairs)".into(),
        ns(batch1),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "C ABI batch, warm, threads = 2 (100000 pairs)".into(),
        ns(batch2),
        String::new(),
        format!("speed-up over 1 thread: {:.2}x", batch1 / batch2),
    ]);
    t
}
