//! The separating-axis theorem over every candidate axis: the exact minimum translation distance.
//!
//! For a unit direction `d` let `h(d) = max_A d.x - min_B d.x`, the support function of the
//! Minkowski difference `A - B` at `d`: B must move by `h(d)` along `d` to clear A (negative: B is
//! already `-h(d)` beyond A along `d`). Every `h(d)` bounds the answer: if any `h(d) < 0` the pair
//! is separated (by at least `-h(d)`); otherwise the minimum translation distance is
//! `min_d h(d) <= h(d)`. The minimum over all directions is attained at a face normal of the
//! Minkowski difference, and those normals are among the face normals of A, the negated face
//! normals of B and the cross products of an edge of A with an edge of B, taken in both
//! orientations. The minimum over these candidates is therefore exact.

use super::RefPolyhedron;
use demcontact::Pose;
use nalgebra::Vector3;

/// Edge pairs whose directions' cross product is shorter than this fraction of the product of
/// their lengths (the sine of their angle) give no candidate axis.
///
/// Exactly parallel edges span no face of the Minkowski difference, so skipping them is exact;
/// for nearly parallel ones the cross product's direction is round-off dominated. Skipping an edge
/// pair at angle `t` can miss at most a sliver face of width of order `size * t`, so the MTD is
/// overestimated by at most of order `1e-9 * size`, inside the band of
/// [`super::BAND_RELATIVE`]. Any axis that is evaluated, however inaccurate its direction, gives a
/// true value of `h` and so never makes the answer wrong in the other direction.
pub const EDGE_PARALLEL_SIN: f64 = 1e-9;

/// Which feature pair a candidate axis comes from (indices into the solids' lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisKind {
    /// The normal of face `i` of A.
    FaceA(usize),
    /// The normal of face `j` of B.
    FaceB(usize),
    /// The cross product of edge `i` of A and edge `j` of B.
    EdgeEdge(usize, usize),
}

/// One candidate axis, oriented from A to B (the orientation with the smaller overlap).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CandidateAxis {
    /// Unit axis, world frame.
    pub axis: Vector3<f64>,
    /// Where it comes from.
    pub kind: AxisKind,
    /// `h(axis) = max_A axis.x - min_B axis.x`: the overlap of the projections (caller's length
    /// unit); negative: the gap along the axis.
    pub overlap: f64,
}

/// The separating-axis verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SatResult {
    /// Some candidate axis separates: the one with the largest gap.
    Separated {
        /// The gap along `axis` (> 0, caller's length unit): a lower bound of the distance, equal
        /// to it when the closest features are a face and anything.
        gap: f64,
        /// Unit axis from A to B, world frame.
        axis: Vector3<f64>,
        /// Where the axis comes from.
        kind: AxisKind,
    },
    /// No candidate axis separates: the bodies touch or overlap.
    Penetrating {
        /// The minimum translation distance (>= 0, caller's length unit).
        depth: f64,
        /// The unit MTD direction from A to B (moving B by `depth * normal` separates), world
        /// frame.
        normal: Vector3<f64>,
        /// Where the axis comes from.
        kind: AxisKind,
    },
}

impl SatResult {
    /// The gap (> 0) or minus the depth (<= 0).
    pub fn signed_gap(&self) -> f64 {
        match *self {
            SatResult::Separated { gap, .. } => gap,
            SatResult::Penetrating { depth, .. } => -depth,
        }
    }

    /// The chosen unit axis, from A to B, world frame.
    pub fn axis(&self) -> Vector3<f64> {
        match *self {
            SatResult::Separated { axis, .. } => axis,
            SatResult::Penetrating { normal, .. } => normal,
        }
    }

    /// Where the chosen axis comes from.
    pub fn kind(&self) -> AxisKind {
        match *self {
            SatResult::Separated { kind, .. } | SatResult::Penetrating { kind, .. } => kind,
        }
    }

    /// Whether some axis separates.
    pub fn is_separated(&self) -> bool {
        matches!(self, SatResult::Separated { .. })
    }
}

/// The smallest and largest projection of `vertices` on `d`.
///
/// Four independent running extrema, merged at the end: the extrema of a set do not depend on the
/// order they are taken in, and independent chains keep the loop from waiting on the latency of a
/// single chain of comparisons (the reference spends its time here).
fn extent(vertices: &[[f64; 3]], d: &[f64; 3]) -> (f64, f64) {
    let mut lo = [f64::INFINITY; 4];
    let mut hi = [f64::NEG_INFINITY; 4];
    let mut chunks = vertices.chunks_exact(4);
    for c in &mut chunks {
        for k in 0..4 {
            let s = c[k][0] * d[0] + c[k][1] * d[1] + c[k][2] * d[2];
            lo[k] = lo[k].min(s);
            hi[k] = hi[k].max(s);
        }
    }
    for v in chunks.remainder() {
        let s = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
        lo[0] = lo[0].min(s);
        hi[0] = hi[0].max(s);
    }
    (
        lo[0].min(lo[1]).min(lo[2].min(lo[3])),
        hi[0].max(hi[1]).max(hi[2].max(hi[3])),
    )
}

fn world_array(p: &RefPolyhedron, pose: &Pose) -> Vec<[f64; 3]> {
    p.world_vertices(pose)
        .iter()
        .map(|v| [v.x, v.y, v.z])
        .collect()
}

/// `h(d) = max_A d.x - min_B d.x` for the unit world direction `d` (caller's length unit): how far
/// B must move along `d` to clear A; negative: the gap between their projections on `d`.
pub fn support_overlap(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
    d: &Vector3<f64>,
) -> f64 {
    let d = [d.x, d.y, d.z];
    let (_, max_a) = extent(&world_array(a, pose_a), &d);
    let (min_b, _) = extent(&world_array(b, pose_b), &d);
    max_a - min_b
}

/// Every candidate axis, in this order: faces of A, faces of B, then edge pairs (A's edge index
/// outer). Edge pairs closer to parallel than [`EDGE_PARALLEL_SIN`] are left out. Each axis is
/// oriented from A to B, i.e. of `c` and `-c` the one with the smaller [`CandidateAxis::overlap`].
pub fn candidate_axes(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
) -> Vec<CandidateAxis> {
    let va = world_array(a, pose_a);
    let vb = world_array(b, pose_b);
    let mut out = Vec::with_capacity(a.faces.len() + b.faces.len() + a.edges.len() * b.edges.len());
    let mut push = |c: Vector3<f64>, kind: AxisKind| {
        let d = [c.x, c.y, c.z];
        let (min_a, max_a) = extent(&va, &d);
        let (min_b, max_b) = extent(&vb, &d);
        let (plus, minus) = (max_a - min_b, max_b - min_a);
        out.push(if plus <= minus {
            CandidateAxis {
                axis: c,
                kind,
                overlap: plus,
            }
        } else {
            CandidateAxis {
                axis: -c,
                kind,
                overlap: minus,
            }
        });
    };
    for (i, (n, _)) in a.faces.iter().enumerate() {
        push(pose_a.rotation * n, AxisKind::FaceA(i));
    }
    for (j, (n, _)) in b.faces.iter().enumerate() {
        push(pose_b.rotation * n, AxisKind::FaceB(j));
    }
    let edges = |p: &RefPolyhedron, pose: &Pose| -> Vec<Vector3<f64>> {
        p.edges
            .iter()
            .map(|&(t, h)| pose.rotation * (p.vertices[h] - p.vertices[t]))
            .collect()
    };
    let (ea, eb) = (edges(a, pose_a), edges(b, pose_b));
    for (i, e) in ea.iter().enumerate() {
        for (j, f) in eb.iter().enumerate() {
            let c = e.cross(f);
            let len = c.norm();
            if len > EDGE_PARALLEL_SIN * e.norm() * f.norm() {
                push(c / len, AxisKind::EdgeEdge(i, j));
            }
        }
    }
    out
}

/// The separating-axis test of A and B over all candidate axes ([`candidate_axes`]).
///
/// Separated when some axis has a positive gap; the axis reported is the one with the largest gap.
/// Otherwise the minimum overlap is the exact minimum translation distance and its axis, oriented
/// A -> B, the MTD normal. Ties within `64 eps * size` (round-off) go to the earlier candidate:
/// faces of A before faces of B before edge pairs, so a face contact is reported as a face.
pub fn sat_penetration(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
) -> SatResult {
    select_axis(
        &candidate_axes(a, pose_a, b, pose_b),
        a.size().max(b.size()),
    )
}

/// The verdict of [`sat_penetration`] from the pair's [`candidate_axes`] (in their order), `size`
/// the larger of the two [`RefPolyhedron::size`]s: for a caller that also needs the axes
/// themselves (e.g. to tell whether the minimum is unique) without listing them twice.
///
/// Panics if `axes` is empty.
pub fn select_axis(axes: &[CandidateAxis], size: f64) -> SatResult {
    let tie = 64.0 * f64::EPSILON * size;
    let mut best = axes[0];
    for c in &axes[1..] {
        let crosses_zero = c.overlap < 0.0 && best.overlap >= 0.0;
        if crosses_zero || c.overlap < best.overlap - tie {
            best = *c;
        }
    }
    if best.overlap < 0.0 {
        SatResult::Separated {
            gap: -best.overlap,
            axis: best.axis,
            kind: best.kind,
        }
    } else {
        SatResult::Penetrating {
            depth: best.overlap,
            normal: best.axis,
            kind: best.kind,
        }
    }
}
