//! Hand-made configurations with answers derived by hand (in the comments), not by the reference.
//!
//! Each configuration comes separated by a small gap [`ANALYTIC_GAP`] and penetrating by a small
//! depth [`ANALYTIC_DEPTH`]: B is placed at its touching position shifted by the signed value `s`
//! (`ANALYTIC_GAP` or `-ANALYTIC_DEPTH`) along the contact normal. For the penetrating variants the
//! depth along the contact normal is `ANALYTIC_DEPTH`, and it is the minimum translation distance
//! because every other candidate axis has an overlap of order 0.1 or more (the contact point lies
//! at least ~0.1 from the rim of the features involved), as noted per case. Every case also appears
//! moved rigidly as a whole by a known rotation and translation, which rotates the normal and keeps
//! the distance.

use super::RefPolyhedron;
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, FRAC_PI_6};

/// The gap of the separated variants (caller's length unit; the solids are of size ~1).
pub const ANALYTIC_GAP: f64 = 2e-3;
/// The depth of the penetrating variants.
pub const ANALYTIC_DEPTH: f64 = 1.5e-3;

/// A configuration with its exact answer.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyticCase {
    /// What it is, e.g. `"cube e-e crossing, penetrating"`.
    pub name: String,
    /// Body A (body frame).
    pub a: RefPolyhedron,
    /// A's pose (world frame).
    pub pose_a: Pose,
    /// Body B (body frame).
    pub b: RefPolyhedron,
    /// B's pose (world frame).
    pub pose_b: Pose,
    /// The exact distance (> 0) or minus the exact MTD (< 0), unit of the solids.
    pub signed_distance: f64,
    /// The exact unit normal from A to B, world frame: the closest-point direction when separated,
    /// the MTD direction when penetrating.
    pub normal: Vector3<f64>,
    /// The contact's feature pair, A's feature first: `"f-f"`, `"e-e crossing"`, `"v-f"` (a vertex
    /// of B on a face of A) or `"e-f"` (an edge of B on a face of A).
    pub contact_type: &'static str,
}

impl AnalyticCase {
    /// The same case with the whole scene moved rigidly, `x -> translation + rotation x`: the
    /// signed distance is unchanged and the normal turns with the scene.
    pub fn moved(&self, rotation: UnitQuaternion<f64>, translation: Vector3<f64>) -> AnalyticCase {
        let mv = |p: &Pose| Pose::new(translation + rotation * p.position, rotation * p.rotation);
        AnalyticCase {
            name: format!("{}, moved", self.name),
            a: self.a.clone(),
            pose_a: mv(&self.pose_a),
            b: self.b.clone(),
            pose_b: mv(&self.pose_b),
            signed_distance: self.signed_distance,
            normal: rotation * self.normal,
            contact_type: self.contact_type,
        }
    }
}

fn rot(axis: Vector3<f64>, angle: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle)
}

fn at(x: f64, y: f64, z: f64, rotation: UnitQuaternion<f64>) -> Pose {
    Pose::new(Vector3::new(x, y, z), rotation)
}

/// The hexagonal rod's pose rotation: body z (its axis) -> world x, body y -> world -z, body x ->
/// world -y. Its side face with body normal +y (at distance `0.5 cos 30 = sqrt3/4` from the axis)
/// then faces world -z, and its two vertices at body angle 0 (body x = 0.5) form the long edge
/// lowest in world y, at -0.5 from the axis.
fn rod_rotation() -> UnitQuaternion<f64> {
    rot(Vector3::x(), -FRAC_PI_2) * rot(Vector3::y(), FRAC_PI_2)
}

/// One configuration at signed offset `s` (gap > 0, -depth < 0) from touching.
fn case(
    name: &str,
    s: f64,
    parts: (RefPolyhedron, Pose, RefPolyhedron, Pose),
    normal: Vector3<f64>,
    contact_type: &'static str,
) -> AnalyticCase {
    let (a, pose_a, b, pose_b) = parts;
    let variant = if s > 0.0 { "separated" } else { "penetrating" };
    AnalyticCase {
        name: format!("{name}, {variant}"),
        a,
        pose_a,
        b,
        pose_b,
        signed_distance: s,
        normal,
        contact_type,
    }
}

/// The hand-made cases: cubes face-face (aligned and twisted), edge-edge crossing, vertex-face and
/// edge-face; regular tetrahedra face-face, vertex-face and edge-edge crossing; a 1:8 hexagonal rod
/// on a cube face, its end cap against a cube face, and its long edge crossing a cube edge. Each
/// separated by [`ANALYTIC_GAP`] and penetrating by [`ANALYTIC_DEPTH`], and each of those also
/// moved rigidly as a whole by 0.7 rad about (1, 2, 3) and the translation (0.25, -1.5, 3).
pub fn analytic_cases() -> Vec<AnalyticCase> {
    let cube = RefPolyhedron::cuboid(0.5, 0.5, 0.5);
    let tet = RefPolyhedron::regular_tetrahedron(1.0);
    let rod = RefPolyhedron::prism(6, 0.5, 4.0);
    let id = UnitQuaternion::identity();
    let (sqrt2, sqrt3) = (2f64.sqrt(), 3f64.sqrt());
    // Regular tetrahedron of edge 1: vertex scale s_t = 1/(2 sqrt2), inradius r = 1/(2 sqrt6),
    // circumradius 3 r; n0 = -(1,1,1)/sqrt3 is the normal of face 0 (opposite vertex 0).
    let s_t = 1.0 / (2.0 * sqrt2);
    let r = 1.0 / (2.0 * 6f64.sqrt());
    let n0 = -Vector3::new(1.0, 1.0, 1.0) / sqrt3;
    let mut out = Vec::new();
    for s in [ANALYTIC_GAP, -ANALYTIC_DEPTH] {
        // Two unit cubes, B above A shifted laterally by (0.3, -0.2): A's top face z = 0.5, B's
        // bottom face z = 0.5 + s; the squares overlap in [-0.2, 0.5] x [-0.5, 0.3], so the
        // distance is s along z. Penetrating: the other face axes overlap by 1 - 0.3 = 0.7 and
        // 1 - 0.2 = 0.8; all edge pairs are axis-aligned, giving the same three axes.
        out.push(case(
            "cube f-f",
            s,
            (
                cube.clone(),
                Pose::identity(),
                cube.clone(),
                at(0.3, -0.2, 1.0 + s, id),
            ),
            Vector3::z(),
            "f-f",
        ));
        // As above with B turned 30 deg about z: its bottom face is still z = 0.5 + s and still
        // overlaps A's top face (B's centre (0.3, -0.2) is inside it). Penetrating: horizontal
        // axes overlap by at least 0.5 + 0.5 - |(0.3, -0.2)| = 0.64.
        out.push(case(
            "cube f-f twisted 30 deg",
            s,
            (
                cube.clone(),
                Pose::identity(),
                cube.clone(),
                at(0.3, -0.2, 1.0 + s, rot(Vector3::z(), FRAC_PI_6)),
            ),
            Vector3::z(),
            "f-f",
        ));
        // A turned 45 deg about x: its top is the edge along x at y = 0, z = sqrt2/2. B turned
        // 45 deg about y and centred at z = sqrt2 + s: its bottom is the edge along y at x = 0,
        // z = sqrt2/2 + s. They cross at right angles above (0, 0), distance s along x X y = z.
        // Penetrating: e.g. A's face normal (0,1,1)/sqrt2 overlaps by 0.354 - s/sqrt2; the others
        // are alike or larger.
        out.push(case(
            "cube e-e crossing",
            s,
            (
                cube.clone(),
                at(0.0, 0.0, 0.0, rot(Vector3::x(), FRAC_PI_4)),
                cube.clone(),
                at(0.0, 0.0, sqrt2 + s, rot(Vector3::y(), FRAC_PI_4)),
            ),
            Vector3::z(),
            "e-e crossing",
        ));
        // B stands on its vertex (1,1,1)/2: the rotation taking (1,1,1)/sqrt3 to -z puts that
        // vertex sqrt3/2 straight below B's centre and every other vertex at least 1/sqrt3 higher
        // (its projection on (1,1,1)/sqrt3 is at most 1/(2 sqrt3)); a further turn about z keeps it
        // there. B's centre at (0.1, -0.15, 0.5 + sqrt3/2 + s): the vertex is s above A's top face,
        // 0.35 inside its rim. Distance s along z.
        let on_vertex = rot(Vector3::z(), 0.7)
            * UnitQuaternion::rotation_between(&Vector3::new(1.0, 1.0, 1.0), &-Vector3::z())
                .expect("not antiparallel");
        out.push(case(
            "cube v-f",
            s,
            (
                cube.clone(),
                Pose::identity(),
                cube.clone(),
                at(0.1, -0.15, 0.5 + sqrt3 / 2.0 + s, on_vertex),
            ),
            Vector3::z(),
            "v-f",
        ));
        // A is a 2 x 2 x 1 slab (top face z = 0.5). B, a unit cube turned 45 deg about x, has its
        // bottom edge along x, sqrt2/2 below its centre; the further turn of 20 deg about z keeps
        // it lowest. Centre (0.2, -0.1, 0.5 + sqrt2/2 + s): the edge, of half-length 0.5, is s
        // above the slab and at least 0.3 inside its rim. Distance s along z.
        out.push(case(
            "slab-cube e-f",
            s,
            (
                RefPolyhedron::cuboid(1.0, 1.0, 0.5),
                Pose::identity(),
                cube.clone(),
                at(
                    0.2,
                    -0.1,
                    0.5 + sqrt2 / 2.0 + s,
                    rot(Vector3::z(), 20f64.to_radians()) * rot(Vector3::x(), FRAC_PI_4),
                ),
            ),
            Vector3::z(),
            "e-f",
        ));
        // Tetrahedra, edge 1. B turned 90 deg about z is A point-reflected (it maps the even cube
        // corners to the odd ones), so its face opposite its vertex -v0 has outward normal -n0.
        // With B's centre at (2 r + s) n0, A's face 0 (plane n0.x = r) and that face (plane
        // n0.x = r + s) are parallel, s apart, and overlap in a hexagon about the common axis.
        // Penetrating: A's other face axes overlap by 2r + (2r + s)/3, the edge-pair axes x, y, z
        // by 2 s_t - (2r + s)/sqrt3 = 0.47, other edge pairs give face axes.
        out.push(case(
            "tetrahedra f-f",
            s,
            (
                tet.clone(),
                Pose::identity(),
                tet.clone(),
                Pose::new(n0 * (2.0 * r + s), rot(Vector3::z(), FRAC_PI_2)),
            ),
            n0,
            "f-f",
        ));
        // Unturned B centred at (r + 3r + s) n0: its vertex v0 = -3r n0 is at (r + s) n0, s in
        // front of A's face 0, right above that face's centroid (0.29 from its rim). Distance s
        // along n0. Penetrating: B's face axes at v0 overlap by 3r - (r + s)/3.
        out.push(case(
            "tetrahedra v-f",
            s,
            (
                tet.clone(),
                Pose::identity(),
                tet.clone(),
                Pose::new(n0 * (4.0 * r + s), id),
            ),
            n0,
            "v-f",
        ));
        // A's edge v0 v1 = s_t (1, +-1, +-1) lies in the plane x = s_t along (0,1,1); unturned B's
        // edge v2 v3 lies in x = -s_t along (0,1,-1). With B at (2 s_t + s, 0, 0) they cross at
        // right angles over (y, z) = (0, 0), s apart along (0,1,1) X (0,1,-1) ~ x. Penetrating:
        // the face axes overlap by (2 s_t + s)/sqrt3, the y and z axes by 2 s_t.
        out.push(case(
            "tetrahedra e-e crossing",
            s,
            (
                tet.clone(),
                Pose::identity(),
                tet.clone(),
                at(2.0 * s_t + s, 0.0, 0.0, id),
            ),
            Vector3::x(),
            "e-e crossing",
        ));
        // The 1:8 hexagonal rod (across corners 1, length 8) along world x, lying on one side face
        // (sqrt3/4 below its axis) on the unit cube's top face: axis at z = 0.5 + sqrt3/4 + s,
        // y = 0.1. The face strip |y - 0.1| <= 0.25 overlaps the cube's top face. Distance s
        // along z. Penetrating: the rod's slanted faces overlap the cube by ~1.7, the y axis by
        // 0.9.
        out.push(case(
            "rod 1:8 on cube f-f",
            s,
            (
                cube.clone(),
                Pose::identity(),
                rod.clone(),
                at(0.0, 0.1, 0.5 + sqrt3 / 4.0 + s, rod_rotation()),
            ),
            Vector3::z(),
            "f-f",
        ));
        // The rod along x centred at the origin: its end cap is the plane x = 4, the hexagon
        // |y| <= 0.5, |z| <= sqrt3/4. A unit cube at (4.5 + s, 0.05, -0.1): its face x = 4 + s
        // overlaps the cap. Distance s along x. Penetrating: every other axis lies in the yz plane
        // and overlaps by more than 0.8.
        out.push(case(
            "rod 1:8 cap on cube f-f",
            s,
            (
                rod.clone(),
                at(0.0, 0.0, 0.0, rod_rotation()),
                cube.clone(),
                at(4.5 + s, 0.05, -0.1, id),
            ),
            Vector3::x(),
            "f-f",
        ));
        // A unit cube turned 45 deg about z at (0.3, 0, 0): its edge highest in y runs along z at
        // (0.3, sqrt2/2). The rod along x at (0, sqrt2/2 + 0.5 + s, 0): its edge lowest in y runs
        // along x at y = sqrt2/2 + s, z = 0. They cross at right angles over (0.3, 0), inside both
        // edges, s apart along z X x = y. Penetrating: the rod's faces at the edge overlap the
        // cube by ~0.25, the cube's faces at its edge overlap the long rod by more than 2.
        out.push(case(
            "cube-rod 1:8 e-e crossing",
            s,
            (
                cube.clone(),
                at(0.3, 0.0, 0.0, rot(Vector3::z(), FRAC_PI_4)),
                rod.clone(),
                at(0.0, sqrt2 / 2.0 + 0.5 + s, 0.0, rod_rotation()),
            ),
            Vector3::y(),
            "e-e crossing",
        ));
    }
    let (rotation, translation) = (
        rot(Vector3::new(1.0, 2.0, 3.0), 0.7),
        Vector3::new(0.25, -1.5, 3.0),
    );
    let moved: Vec<AnalyticCase> = out.iter().map(|c| c.moved(rotation, translation)).collect();
    out.extend(moved);
    out
}
