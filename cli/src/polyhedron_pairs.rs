//! Polyhedron pairs for the validation and the benchmarks: the reference's solids turned into the
//! kernel's [`Polyhedron`], and B placed against A by the gap between their support planes.
//!
//! The kernel builds its own hull ([`Polyhedron::new`]) from the reference's vertex list, so the
//! two share the points and nothing else; [`KernelBody::same_vertices`] says whether both hulls
//! kept the same corners (the kernel merges points within its construction tolerance, 1e-8 of the
//! diagonal, the brute-force reference only within 1e-9).

use crate::polyhedron_reference::{closest_point_on_polygon, random_body, RefPolyhedron};
use crate::sampling::{self, SceneRng};
use demcontact::shapes::{Polyhedron, Shape};
use demcontact::Pose;
use nalgebra::Vector3;
use rand::Rng;

/// A reference solid with the kernel's shape of the same points.
#[derive(Debug, Clone)]
pub struct KernelBody {
    /// The reference solid (body frame).
    pub reference: RefPolyhedron,
    /// The kernel's polyhedron of the reference's vertices, as a [`Shape`].
    pub shape: Shape,
    /// Whether the kernel's hull kept exactly the reference's vertices (in order).
    pub same_vertices: bool,
    /// The largest distance of a reference vertex from the kernel's hull (the convex hull of
    /// the kernel's vertices, a subset of the reference's), in the solids' length unit: the
    /// Hausdorff distance of the two solids, `0` where the kernel kept every vertex. Both
    /// bodies' support functions, and so a pair's depth or distance, differ by at most this.
    /// Measured to the kernel's face polygons ([`outside_distance`]), so within the faces'
    /// flatness (two construction tolerances) of the distance to the vertices' hull.
    pub hull_excess: f64,
}

impl KernelBody {
    /// The kernel's polyhedron of `reference`'s vertices.
    ///
    /// Panics if the kernel rejects a solid the reference accepted (a finding to report, not to
    /// hide).
    pub fn new(reference: RefPolyhedron) -> Self {
        Self::try_new(reference).unwrap_or_else(|(e, reference)| {
            panic!(
                "the kernel rejects a reference solid ({e}): {:?}",
                reference.vertices
            )
        })
    }

    /// [`Self::new`], or the kernel's error with `reference` given back where the kernel
    /// rejects the solid (for protocols whose draws may be refused, such as near-degenerate
    /// point clouds).
    pub fn try_new(reference: RefPolyhedron) -> Result<Self, (demcontact::Error, RefPolyhedron)> {
        let polyhedron = match Polyhedron::new(&reference.vertices) {
            Ok(p) => p,
            Err(e) => return Err((e, reference)),
        };
        let same_vertices = polyhedron.num_vertices() == reference.vertices.len()
            && (0..polyhedron.num_vertices()).all(|v| {
                polyhedron.vertex(v) == reference.vertices[polyhedron.vertex_source_index(v)]
            });
        let hull_excess = if same_vertices {
            0.0
        } else {
            reference
                .vertices
                .iter()
                .map(|x| outside_distance(&polyhedron, x))
                .fold(0.0, f64::max)
        };
        Ok(KernelBody {
            reference,
            shape: Shape::Polyhedron(polyhedron),
            same_vertices,
            hull_excess,
        })
    }

    /// The kernel's polyhedron.
    pub fn polyhedron(&self) -> &Polyhedron {
        match &self.shape {
            Shape::Polyhedron(p) => p,
            _ => unreachable!("a KernelBody holds a polyhedron"),
        }
    }

    /// The diameter of the reference solid (its [`RefPolyhedron::size`]).
    pub fn size(&self) -> f64 {
        self.reference.size()
    }
}

pub use crate::polyhedron_reference::place;

/// A pair placed near contact, with the bodies' indices in the pool it was drawn from.
#[derive(Debug, Clone)]
pub struct PlacedPair {
    /// Body A's index in the pool.
    pub a: usize,
    /// A's pose (world frame).
    pub pose_a: Pose,
    /// Body B's index in the pool.
    pub b: usize,
    /// B's pose (world frame).
    pub pose_b: Pose,
    /// The mean of the two diameters.
    pub size: f64,
}

/// A random pair of bodies of `pool`, placed as [`crate::polyhedron_reference::random_pair`]
/// places its fresh bodies: A at a random pose in `[-2, 2]^3`, B turned randomly, the gap between
/// the support planes along a random direction uniform in `gap * size` (`size` the mean diameter),
/// B's extreme vertex facing A's, shifted across by up to `0.05 size`.
///
/// Drawing the bodies from a pool (the hulls are the slow part) keeps a run of 10^5 pairs within
/// its time budget; the poses, directions and offsets are fresh for every pair.
pub fn pool_pair(rng: &mut SceneRng, pool: &[KernelBody], gap: std::ops::Range<f64>) -> PlacedPair {
    let (i, j) = (
        rng.random_range(0..pool.len()),
        rng.random_range(0..pool.len()),
    );
    let (a, b) = (&pool[i].reference, &pool[j].reference);
    let pose_a = sampling::pose(rng, 2.0);
    let rotation_b = sampling::rotation(rng);
    let u = sampling::unit_vector(rng);
    let size = 0.5 * (pool[i].size() + pool[j].size());
    let placed_gap = rng.random_range(gap) * size;
    let w = sampling::unit_vector(rng);
    let lateral = (w - u * u.dot(&w)) * (rng.random_range(0.0..0.05) * size);
    let position = place(a, &pose_a, b, &rotation_b, &u, placed_gap, &lateral);
    PlacedPair {
        a: i,
        pose_a,
        b: j,
        pose_b: Pose::new(position, rotation_b),
        size,
    }
}

/// `count` random bodies ([`random_body`] of up to `max_vertices` vertices) with their kernel
/// shapes.
pub fn body_pool(rng: &mut SceneRng, count: usize, max_vertices: usize) -> Vec<KernelBody> {
    (0..count)
        .map(|_| KernelBody::new(random_body(rng, max_vertices)))
        .collect()
}

/// The distance from the body-frame point `x` to the kernel's polyhedron `p` (its length unit,
/// `0` for a point inside or on it): for a point outside, the nearest point of a convex solid
/// lies on a face whose plane has the point above it, so the distance is the smallest over those
/// faces of the distance to the face polygon ([`closest_point_on_polygon`]; the kernel's faces are
/// flat to two of its tolerances, which bounds the error).
pub fn outside_distance(p: &Polyhedron, x: &Vector3<f64>) -> f64 {
    (0..p.num_faces())
        .filter(|&f| p.face_normal(f).dot(x) > p.face_offset(f))
        .map(|f| {
            let polygon: Vec<Vector3<f64>> =
                p.face_vertices(f).iter().map(|&v| p.vertex(v)).collect();
            (x - closest_point_on_polygon(x, &p.face_normal(f), &polygon)).norm()
        })
        .reduce(f64::min)
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron_reference::sat_penetration;

    #[test]
    fn adapter_keeps_the_reference_vertices() {
        let cube = KernelBody::new(RefPolyhedron::cuboid(0.5, 1.0, 2.0));
        assert!(cube.same_vertices);
        assert_eq!(cube.polyhedron().num_faces(), 6);
        let mut rng = sampling::rng(5);
        let body = KernelBody::new(random_body(&mut rng, 30));
        assert_eq!(
            body.polyhedron().num_vertices(),
            body.reference.vertices.len()
        );
        assert_eq!(body.hull_excess, 0.0);
    }

    /// A wedge whose rim's faces meet at 2e-3 rad, with a point half a tolerance above both of
    /// them, beyond the rim's middle: the kernel's hull leaves it out (it lies within the
    /// tolerance of both face planes) though it is a thousand times farther from the rim, and
    /// the excess is that distance.
    #[test]
    fn the_excess_is_how_far_a_point_left_out_lies_from_the_hull() {
        let h = 1e-3;
        let rim = |y: f64| Vector3::new(1.0, y, 0.0);
        let mut points = vec![
            Vector3::new(0.0, -1.0, -h),
            Vector3::new(0.0, 1.0, -h),
            Vector3::new(0.0, -1.0, h),
            Vector3::new(0.0, 1.0, h),
            rim(-1.0),
            rim(1.0),
        ];
        let tolerance = Polyhedron::new(&points).unwrap().tolerance();
        let beyond = 0.5 * tolerance / h;
        points.push(Vector3::new(1.0 + beyond, 0.0, 0.0));
        let body = KernelBody::new(RefPolyhedron::from_points_bruteforce(&points).unwrap());
        assert_eq!(body.reference.vertices.len(), 7);
        assert_eq!(body.polyhedron().num_vertices(), 6);
        assert!(!body.same_vertices);
        let excess = body.hull_excess;
        assert!(
            (excess - beyond).abs() < 1e-9 * beyond,
            "{excess:e} {beyond:e}"
        );
        assert!(excess > 100.0 * body.polyhedron().tolerance());
        let inside = Vector3::new(0.5, 0.0, 0.0);
        assert_eq!(outside_distance(body.polyhedron(), &inside), 0.0);
    }

    #[test]
    fn placement_gives_the_support_plane_gap() {
        let mut rng = sampling::rng(9);
        let a = RefPolyhedron::cuboid(0.5, 0.5, 0.5);
        let b = random_body(&mut rng, 20);
        let pose_a = sampling::pose(&mut rng, 1.0);
        let rotation_b = sampling::rotation(&mut rng);
        let u = sampling::unit_vector(&mut rng);
        for gap in [0.01, -0.01] {
            let p = place(&a, &pose_a, &b, &rotation_b, &u, gap, &Vector3::zeros());
            let pose_b = Pose::new(p, rotation_b);
            let max_a = a
                .world_vertices(&pose_a)
                .iter()
                .map(|x| u.dot(x))
                .fold(f64::MIN, f64::max);
            let min_b = b
                .world_vertices(&pose_b)
                .iter()
                .map(|x| u.dot(x))
                .fold(f64::MAX, f64::min);
            assert!((min_b - max_a - gap).abs() < 1e-12);
            // A positive gap along u proves the pair apart.
            if gap > 0.0 {
                assert!(sat_penetration(&a, &pose_a, &b, &pose_b).is_separated());
            }
        }
    }
}
