//! Convex polyhedra: the Fast Direct Search of Zheng, Jiao, Gardner & Sitar (2017), "Fast direct
//! search for contact detection of convex polyhedra" (contact covers, valid entrance), with
//! initial and updated detection.
//!
//! The contact covers of a pair (v-f both ways, crossing e-e; `pair`) are the facets of Shi's
//! entrance polyhedron `E = A + (-B)`; v-v and v-e contacts are met through them, as in the
//! paper. The bodies overlap exactly when the reference point (B's placement) lies inside `E`, and
//! then the smallest overlap over the covers is the minimum translation distance: the
//! `penetration` this kernel reports, along the cover's normal. A cover with a negative overlap
//! is a separating plane: the pair is excluded there and then.
//!
//! * **Initial detection** ([`search`], no seed): the covers are evaluated with an exact bound that
//!   skips those that cannot be the deepest (see [`search`]), after a face of each body whose
//!   plane comes near to passing below the other body's inner ball (the nearest, or on a body of
//!   more than 40 faces where a climb over the faces ends).
//! * **Updated detection**: the previous step's cover, kept in the pair's warm state (body-frame
//!   feature indices), is evaluated first. For a pair that was apart it is the cached separating
//!   plane: while the cover's own vertex (or B's edge), evaluated where it now is, stays on its
//!   side and the body's other vertices have moved, relative to the plane, less than their
//!   recorded distance, it (or, for two edges, the plane it was then) still separates them and
//!   the query ends without any search (`motion_certificate`);
//!   otherwise it is re-checked with one support search, and if it still separates, the query ends
//!   there (the exclusion of near pairs). For a touching pair its overlap bounds the depth at once, so the
//!   bound leaves only the covers near the contact normal to evaluate. The answer is the same as
//!   a fresh initial detection's at every step (the bound is exact), not a re-projection of an old
//!   contact.
//!
//! * **Certified covers** (beyond the paper's text): a touching cover whose contact point lies well
//!   inside its own features (B's vertex inside A's face, A's vertex inside B's face, or two edges
//!   crossing away from their ends) is proved the smallest by those features and the bodies' inner
//!   balls alone (`flat_certificate`). The search ends there: on the seed of an updated
//!   detection, on the first face covers of an initial one, or after the face covers.
//!
//! * **Creased faces** (beyond the paper's text): where a body's face was merged from triangles
//!   coplanar only within the hull's tolerance, a touching answer is also checked along the exact
//!   hull's facets and hidden edges there (`crease`), so that the depth is the exact hull's.
//!
//! The composite contact type (v-v, v-e, v-f, e-e, e-f, f-f) and the list of basic contacts come
//! from the features of each body within the overlap along the normal (`patch`).

mod ball_certificate;
mod crease;
mod flat_certificate;
mod motion_certificate;
mod pair;
mod patch;
mod search;

#[cfg(test)]
mod rough_cases;
#[cfg(test)]
mod tests;

pub use crease::{shallower_at_creases, CreaseAnswer};
pub use pair::{
    arcs_cross, arcs_cross_planes, Cover, EdgeLines, EdgeOfA, Evaluated, PolyhedronPair,
};
pub use patch::{
    basic_contacts, composite_kind, contact_kind, BasicContact, BasicKind, Patch, VertexSet,
};
pub use search::{search, Hints, Outcome};

use crate::contact::{Contact, ContactKind};
use crate::pose::Pose;
use crate::shapes::Polyhedron;
use crate::warm::WarmState;
use nalgebra::Vector3;
use pair::PARALLEL_SINE;

/// Warm-state tag of this kernel.
pub const KERNEL: u32 = 3;

/// Vertices per body the patch walk collects for the contact list.
const LIST_VERTICES: usize = patch::PATCH_CAPACITY;

/// What one detection found, in A's frame.
#[derive(Debug, Clone, Copy)]
pub struct Detection {
    /// The contact (A's frame): the normal of the deepest cover, the minimum translation distance
    /// as `penetration`; for a pair apart, the separating cover's normal and gap (a certified
    /// lower bound of the distance, `separation_exact` false). `iterations`: covers evaluated.
    pub contact: Contact,
    /// The cover the answer comes from, with the answer's axis and overlap: those of a direction
    /// at a creased face ([`shallower_at_creases`]) where one overlaps less than the cover.
    pub cover: Evaluated,
    /// The support vertices of A along the normal and of B against it.
    pub support: (usize, usize),
}

/// The cover code of the warm state.
fn cover_code(cover: &Cover) -> [f64; 3] {
    match *cover {
        Cover::FaceVertex { face_a, vertex_b } => [1.0, face_a as f64, vertex_b as f64],
        Cover::VertexFace { vertex_a, face_b } => [2.0, vertex_a as f64, face_b as f64],
        Cover::EdgeEdge { edge_a, edge_b } => [3.0, edge_a as f64, edge_b as f64],
    }
}

/// An index read back from the warm state, if it is one below `limit`.
#[inline]
fn index(x: f64, limit: usize) -> Option<usize> {
    // Through i64: one saturating conversion instruction (NaN gives 0, and fails `i as f64 == x`);
    // a negative `i` is above any `limit` as an unsigned number.
    let i = x as i64;
    ((i as u64) < limit as u64 && i as f64 == x).then_some(i as usize)
}

/// The cover stored in the warm data, if it names features the two bodies have.
#[inline]
fn stored_cover(data: &[f64], a: &Polyhedron, b: &Polyhedron) -> Option<Cover> {
    match data[0] as i64 {
        1 => Some(Cover::FaceVertex {
            face_a: index(data[1], a.num_faces())?,
            vertex_b: index(data[2], b.num_vertices())?,
        }),
        2 => Some(Cover::VertexFace {
            vertex_a: index(data[1], a.num_vertices())?,
            face_b: index(data[2], b.num_faces())?,
        }),
        3 => Some(Cover::EdgeEdge {
            edge_a: index(data[1], a.num_edges())?,
            edge_b: index(data[2], b.num_edges())?,
        }),
        _ => None,
    }
}

/// The two points of a cover whose difference is `overlap` along its axis: on A's face plane
/// above B's vertex, on B's face plane below A's vertex, or the closest points of the two edges'
/// lines (A's frame).
fn witness_points(pair: &PolyhedronPair, cover: &Evaluated) -> (Vector3<f64>, Vector3<f64>) {
    let n = cover.axis;
    match cover.cover {
        Cover::FaceVertex { vertex_b, .. } => {
            let pb = pair.b_vertex(vertex_b);
            (pb + n * cover.overlap, pb)
        }
        Cover::VertexFace { vertex_a, .. } => {
            let pa = pair.a.vertex(vertex_a);
            (pa, pa - n * cover.overlap)
        }
        Cover::EdgeEdge { edge_a, edge_b } => {
            let EdgeLines { p, u, q, v, s, t } = pair.edge_lines(edge_a, edge_b);
            let pa = p + u * s;
            // B's point from A's, along the axis: exact in the axis, to rounding across it.
            let pb = q + v * t;
            let across = (pa - pb) - n * n.dot(&(pa - pb));
            (pa, pb + across)
        }
    }
}

/// The contact of polyhedra `a` and `b`, B's pose given relative to A ([`Pose::relative`]), with
/// the pair's warm state (see the module documentation); the result is in A's frame.
///
/// Warm data: `data[0]` the cover's type (1: A's face and B's vertex, 2: A's vertex and B's face,
/// 3: two edges; 0: none), `data[1..3]` its two feature indices (the support vertices of the next
/// search start from the cover's own, [`PolyhedronPair::support_of`]); `data[3..14]` the reference
/// of the motion certificate of a pair apart (`motion_certificate`: the projection of the placement
/// on the plane's normal, the relative rotation, the distance of the untracked vertices, 0 when
/// there is no reference, as for a touching pair, the shapes' fingerprint and, for two edges, the
/// plane's normal and A's support along it).
pub fn fast_direct_search(
    a: &Polyhedron,
    b: &Polyhedron,
    relative: &Pose,
    warm: &mut WarmState,
) -> Detection {
    let warm_started = warm.claim(KERNEL);
    if warm_started {
        // A pair apart whose motion since its separating plane was found cannot have closed the
        // gap: excluded without a support search (the reference is kept). A's frame is the world.
        let identity = Pose::identity();
        let certified = motion_certificate::certified_apart(a, &identity, b, relative, &warm.data);
        if let (Some(contact), Some(cover)) = (certified, stored_cover(&warm.data, a, b)) {
            return Detection {
                contact,
                cover: Evaluated {
                    cover,
                    axis: contact.normal,
                    overlap: -contact.separation,
                },
                support: cover_support(a, b, &cover),
            };
        }
    }
    evaluate_in_full(a, b, relative, warm, warm_started, true)
}

/// The contact of polyhedra `a` at `pose_a` and `b` at `pose_b` in the world frame: that of
/// [`fast_direct_search`] on B's pose relative to A, mapped back, except that the motion
/// certificate of a pair apart is checked on the two world poses first, with no relative
/// placement formed and the contact built in the world frame at once.
#[inline]
pub fn world_contact(
    a: &Polyhedron,
    pose_a: &Pose,
    b: &Polyhedron,
    pose_b: &Pose,
    warm: &mut WarmState,
) -> Contact {
    world_contact_kept(a, pose_a, b, pose_b, warm, true)
}

/// [`world_contact`], told whether `warm` is `kept` for the pair's next query: when it is not (a
/// scratch state for a host that keeps none), the motion certificate of a pair apart is not
/// recorded, which only a next query would read.
#[inline]
pub fn world_contact_kept(
    a: &Polyhedron,
    pose_a: &Pose,
    b: &Polyhedron,
    pose_b: &Pose,
    warm: &mut WarmState,
    kept: bool,
) -> Contact {
    let warm_started = warm.claim(KERNEL);
    if warm_started {
        if let Some(contact) = motion_certificate::certified_apart(a, pose_a, b, pose_b, &warm.data)
        {
            return contact;
        }
    }
    let (relative, rotation_a) = pose_a.relative_and_matrix(pose_b);
    evaluate_in_full(a, b, &relative, warm, warm_started, kept)
        .contact
        .transformed_by(&rotation_a, &pose_a.position)
}

/// The world-frame contact of polyhedra `a` at `pose_a` and `b` at `pose_b` when the motion
/// certificate of the pair's warm state (written by this kernel) still proves them apart, as
/// [`world_contact`] would return it; `None` otherwise. `warm` is not changed.
#[inline]
pub fn certified_world(
    a: &Polyhedron,
    pose_a: &Pose,
    b: &Polyhedron,
    pose_b: &Pose,
    warm: &WarmState,
) -> Option<Contact> {
    if warm.kernel != KERNEL {
        return None;
    }
    motion_certificate::certified_apart(a, pose_a, b, pose_b, &warm.data)
}

/// The support vertices a cover names itself ([`PolyhedronPair::support_of`]).
fn cover_support(a: &Polyhedron, b: &Polyhedron, cover: &Cover) -> (usize, usize) {
    match *cover {
        Cover::FaceVertex { face_a, vertex_b } => (a.face_vertices(face_a)[0], vertex_b),
        Cover::VertexFace { vertex_a, face_b } => (vertex_a, b.face_vertices(face_b)[0]),
        Cover::EdgeEdge { edge_a, edge_b } => (a.edge(edge_a).tail(), b.edge(edge_b).tail()),
    }
}

/// The answer of an edge-edge cover `best` (A's edge `edge_a`, B's `edge_b`) where a body has
/// leaning edges ([`Polyhedron::has_leaning_edges`]): its axis and the bodies' overlap along it
/// (negative: their gap) from both bodies' support vertices, not from the edges alone. (On other
/// bodies each edge is square to the axis to rounding and lies on its body's support plane, so
/// its tail gives the exact overlap, as the search took it.)
///
/// An edge that joins merged faces takes their line for its direction (`Polyhedron`'s
/// `edge_direction`), which may lean off the edge's own span (tail to head) by up to the hull's
/// tolerance over its length. The search's axis, square to those directions, is then not square
/// to the edge itself: its ends, or another vertex of its faces, differ along the axis by up to
/// the tolerance, and the edges' tails alone understated an overlap (by 2.3e-9 on a depth of
/// 1.16 in a proptest draw) or overstated a gap (by 1.1e-8, a draw CI met). (The search's own
/// value already takes each edge's end farther out along the axis
/// ([`PolyhedronPair::crossing_edge_cover`]): from the tails alone, an edge between
/// near-duplicate vertices, whose faces' line runs across it, could bar the minimum.) The
/// support vertices give the exact overlap along the axis, but a leaning axis is not the normal
/// of the facet the two edges make, so that overlap may exceed the minimum translation distance
/// (by up to 4.2e-7 of the size in `validate`'s rough point clouds). The axis square to both
/// edges' spans is that facet's normal; the answer is whichever of the two axes has the smaller
/// exact overlap (each an upper bound of the minimum translation distance, and each gap a
/// certified lower bound of the distance).
fn crossing_answer(
    pair: &PolyhedronPair,
    best: &Evaluated,
    edge_a: usize,
    edge_b: usize,
) -> (Vector3<f64>, f64) {
    let n = best.axis;
    let (a, b) = (pair.a, pair.b);
    let (ea, eb) = (a.edge(edge_a), b.edge(edge_b));
    // Both bodies' support vertices, the climbs started at the edges' tails.
    let tails = (ea.tail(), eb.tail());
    let along_n = pair.supports_along(&n, tails).2;
    let span_a = a.vertex(ea.head()) - a.vertex(ea.tail());
    let span_b = pair.b_vertex(eb.head()) - pair.b_vertex(eb.tail());
    let cross = span_a.cross(&span_b);
    let sine = cross.norm() / (span_a.norm() * span_b.norm());
    if sine.is_nan() || sine <= PARALLEL_SINE {
        return (n, along_n);
    }
    let m = cross.normalize();
    let m = if m.dot(&n) >= 0.0 { m } else { -m };
    let along_m = pair.supports_along(&m, tails).2;
    if along_m < along_n {
        (m, along_m)
    } else {
        (n, along_n)
    }
}

/// The search of [`fast_direct_search`] (seeded by the stored cover when `warm_started`), its
/// answer recorded in the warm state (the motion certificate only when the state is `kept`).
#[inline(never)]
fn evaluate_in_full(
    a: &Polyhedron,
    b: &Polyhedron,
    relative: &Pose,
    warm: &mut WarmState,
    warm_started: bool,
    kept: bool,
) -> Detection {
    let pair = PolyhedronPair::new(a, b, relative);
    let seed = if warm_started {
        stored_cover(&warm.data, a, b)
    } else {
        None
    };
    let mut hints = seed.map_or(Hints::NONE, |s| {
        let (vertex_a, vertex_b) = pair.support_of(&s);
        Hints { vertex_a, vertex_b }
    });
    let outcome = search(&pair, seed, &mut hints);
    let mut best = outcome.best;
    if let Cover::EdgeEdge { edge_a, edge_b } = best.cover {
        if pair.has_leaning_edges() {
            (best.axis, best.overlap) = crossing_answer(&pair, &best, edge_a, edge_b);
        }
    }
    let searched = best;
    let mut support = pair.support_of(&best.cover);
    let mut witness = None;
    if best.overlap > 0.0 && (!a.creased_faces().is_empty() || !b.creased_faces().is_empty()) {
        if let Some(c) = shallower_at_creases(&pair, best.overlap, support) {
            (best.axis, best.overlap, support) = (c.axis, c.overlap, c.support);
            witness = Some((c.point_b + c.axis * c.overlap, c.point_b));
        }
    }
    let n = best.axis;
    let kind = if best.overlap > 0.0 {
        contact_kind(&pair, &n, best.overlap, support)
    } else {
        match best.cover {
            Cover::EdgeEdge { .. } => ContactKind::EdgeEdge,
            _ => ContactKind::VertexFace,
        }
    };
    let (pa, pb) = witness.unwrap_or_else(|| witness_points(&pair, &best));
    let mut contact = Contact::from_points(pa, pb, n, best.overlap, false, kind);
    contact.iterations = outcome.covers;
    contact.warm_started = warm_started;

    let code = cover_code(&best.cover);
    warm.data[..3].copy_from_slice(&code);
    if kept {
        // The certificate's reference is the search's own cover (a touching one clears it).
        motion_certificate::record(&mut warm.data, &pair, relative, &searched, warm_started);
    }
    Detection {
        contact,
        cover: best,
        support,
    }
}

/// The basic contacts of a detection (A's frame), appended to `out`: none for a pair apart.
pub fn contact_list(
    a: &Polyhedron,
    b: &Polyhedron,
    relative: &Pose,
    detection: &Detection,
    out: &mut Vec<BasicContact>,
) {
    if !detection.contact.touching {
        return;
    }
    let pair = PolyhedronPair::new(a, b, relative);
    let n = detection.cover.axis;
    let patch = Patch::<LIST_VERTICES>::new(&pair, &n, detection.cover.overlap, detection.support);
    let before = out.len();
    basic_contacts(&pair, &n, &patch, out);
    if out.len() == before {
        // Features that only touch in projection (v-v, v-e): the deepest cover itself.
        let c = &detection.contact;
        let (kind, feature_a, feature_b) = match detection.cover.cover {
            Cover::FaceVertex { face_a, vertex_b } => (BasicKind::FaceVertex, face_a, vertex_b),
            Cover::VertexFace { vertex_a, face_b } => (BasicKind::VertexFace, vertex_a, face_b),
            Cover::EdgeEdge { edge_a, edge_b } => (BasicKind::EdgeEdge, edge_a, edge_b),
        };
        out.push(BasicContact {
            kind,
            feature_a,
            feature_b,
            point: c.point,
            normal: c.normal,
            depth: c.penetration,
        });
    }
}
