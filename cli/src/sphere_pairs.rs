//! Sphere pairs for validation and benchmarks: seeded near pairs, their C ABI handles, and the same
//! pairs as core shapes and as parry3d-f64 balls, so that every consumer measures the same pairs.

use crate::peers::parry_pose;
use crate::sampling;
use demcontact::ffi::{
    demcontact_collide, demcontact_collide_batch, demcontact_contact, demcontact_pair,
    demcontact_pose, demcontact_shape, demcontact_shape_release, demcontact_sphere_create,
    demcontact_warm_state, DEMCONTACT_STATUS_OK,
};
use demcontact::{Pose, Shape, Sphere};
use parry3d_f64::math::Pose as ParryPose;
use parry3d_f64::shape::Ball;
use rand::Rng;

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
