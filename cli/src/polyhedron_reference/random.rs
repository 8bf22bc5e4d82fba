//! Seeded random pairs of convex polyhedra near contact.
//!
//! A body is the hull ([`RefPolyhedron::from_points_bruteforce`]) of points on a randomly stretched
//! ellipsoid. B is placed so that the gap between the two support planes along a random direction
//! `u` is a chosen small signed value. That value only steers the pair towards contact; the true
//! answer is the reference's. It does bound it: a positive gap along `u` means separated by at
//! least that much, a negative one means a depth of at most its magnitude (if penetrating).

use super::RefPolyhedron;
use crate::sampling::{self, SceneRng};
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};
use rand::Rng;

/// A random pair with its placement.
#[derive(Debug, Clone, PartialEq)]
pub struct RandomPair {
    /// Body A (body frame).
    pub a: RefPolyhedron,
    /// A's pose (world frame).
    pub pose_a: Pose,
    /// Body B (body frame).
    pub b: RefPolyhedron,
    /// B's pose (world frame).
    pub pose_b: Pose,
    /// The unit placement direction `u`, world frame.
    pub direction: Vector3<f64>,
    /// `min_B u.x - max_A u.x`: the signed gap between the support planes along `u` (unit of
    /// the solids); not the answer.
    pub placed_gap: f64,
    /// The scale of the placement: the mean of the two bodies' sizes.
    pub size: f64,
}

/// A random convex body in its body frame: the hull of 4 to `max_vertices` (at most
/// [`super::BRUTEFORCE_MAX_POINTS`]) points uniform in direction on an ellipsoid with semi-axes
/// `r (c1, c2, c3) / max c`, `r` in (0.5, 2), each `c` in (1, 8) log-uniform (so aspect ratios
/// up to 8), turned by a random rotation. Degenerate draws are redrawn.
///
/// Panics if `max_vertices` is below 4 or above the brute-force limit.
pub fn random_body(rng: &mut SceneRng, max_vertices: usize) -> RefPolyhedron {
    assert!(
        (4..=super::BRUTEFORCE_MAX_POINTS).contains(&max_vertices),
        "max_vertices = {max_vertices} is outside 4..={}",
        super::BRUTEFORCE_MAX_POINTS
    );
    loop {
        let n = rng.random_range(4..=max_vertices);
        let radius = rng.random_range(0.5..2.0);
        let c: Vec<f64> = (0..3)
            .map(|_| rng.random_range(0.0..8f64.ln()).exp())
            .collect();
        let cmax = c.iter().copied().fold(0.0, f64::max);
        let axes = Vector3::new(c[0], c[1], c[2]) * (radius / cmax);
        let turn = sampling::rotation(rng);
        let points: Vec<Vector3<f64>> = (0..n)
            .map(|_| turn * sampling::unit_vector(rng).component_mul(&axes))
            .collect();
        if let Ok(body) = RefPolyhedron::from_points_bruteforce(&points) {
            return body;
        }
    }
}

/// The position of B (turned by `rotation_b`) such that the gap between A's support plane along
/// the unit world direction `u` and B's support plane against it is `gap` (negative: the support
/// planes overlap by `-gap`), B's extreme vertex along `-u` facing A's extreme vertex along `u`,
/// shifted by `lateral` (which must be perpendicular to `u` to keep the gap).
pub fn place(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    rotation_b: &UnitQuaternion<f64>,
    u: &Vector3<f64>,
    gap: f64,
    lateral: &Vector3<f64>,
) -> Vector3<f64> {
    let tip_a = a
        .world_vertices(pose_a)
        .into_iter()
        .max_by(|x, y| u.dot(x).total_cmp(&u.dot(y)))
        .expect("a solid has vertices");
    let tip_b = b
        .vertices
        .iter()
        .map(|v| rotation_b * v)
        .min_by(|x, y| u.dot(x).total_cmp(&u.dot(y)))
        .expect("a solid has vertices");
    tip_a + u * gap - tip_b + lateral
}

/// A random pair near contact, deterministic given the generator's state: two [`random_body`]s, A
/// at a random pose in `[-2, 2]^3`, B turned randomly and placed along a random direction `u` with
/// the support-plane gap `placed_gap` uniform in `(-0.02, 0.02) * size` (`size` the mean of the two
/// diameters), B's extreme vertex along `-u` facing A's extreme vertex along `u`, then shifted
/// perpendicular to `u` by up to `0.05 * size` (which leaves the gap along `u` unchanged) so that
/// the closest features are not always two vertices.
pub fn random_pair(rng: &mut SceneRng, max_vertices: usize) -> RandomPair {
    let a = random_body(rng, max_vertices);
    let b = random_body(rng, max_vertices);
    let pose_a = sampling::pose(rng, 2.0);
    let rotation_b = sampling::rotation(rng);
    let u = sampling::unit_vector(rng);
    let size = 0.5 * (a.size() + b.size());
    let placed_gap = rng.random_range(-0.02..0.02) * size;
    let w = sampling::unit_vector(rng);
    let lateral = (w - u * u.dot(&w)) * (rng.random_range(0.0..0.05) * size);
    let position = place(&a, &pose_a, &b, &rotation_b, &u, placed_gap, &lateral);
    RandomPair {
        a,
        pose_a,
        b,
        pose_b: Pose::new(position, rotation_b),
        direction: u,
        placed_gap,
        size,
    }
}
