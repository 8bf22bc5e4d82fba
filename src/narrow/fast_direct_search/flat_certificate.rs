//! A certificate that a touching cover is the smallest of the pair, from its own features alone
//! (beyond the paper's text): when it holds, no other cover needs a bound or an evaluation.
//!
//! The overlap of the pair along a unit `u` (A's frame, B placed) is the support gap
//! `g(u) = h_A(u) + h_B(-u)`, and the minimum translation distance is the smallest `g` over the
//! sphere (every cover's overlap is `g` at its axis, and `g` is smallest at a cover's axis). Each
//! body's support function is at least that of any subset, so with `X` the cover's feature of A
//! (a face, an edge or a vertex) and `Y` that of B, `g(u) >= h_P(u)` for the flat set
//! `P = X - Y` (Minkowski difference), which lies across the cover's axis `u0` at the cover's
//! overlap `D` (every point of a face lies within its flatness of its plane).
//!
//! Write `u = cos(phi) u0 + sin(phi) e` with a unit `e` across `u0`. If the origin's projection
//! on `P`'s plane lies inside `P` at distance `delta` from its boundary (B's vertex inside A's
//! face, A's vertex inside B's face, or the crossing point of two edges away from their ends),
//! `P` reaches `delta` along every `e`, so
//!
//! ```text
//! g(u) >= D cos(phi) + delta sin(phi) >= D   while   tan(phi / 2) <= delta / D,
//! ```
//!
//! that is on the cap of angular radius `Phi = 2 atan(delta / D)` about `u0` (with `D` replaced
//! by the lowest point of `P` while `cos(phi) >= 0`). In a contact of a few percent of the size
//! whose point lies well inside its features, that is all the sphere but a small cap about
//! `-u0`. There, the inner balls bound the rest: `g(u) >= r_A + r_B - u . (c_B - c_A)`, largest
//! at the point of that cap nearest the centre line.
//!
//! So when both bounds reach `D`, the cover is the pair's minimum. The certificate asks the
//! features to be flat within rounding, so that the answer is exactly the cover's.
//!
//! When a v-f cover fails because its vertex lies past a side of its face, the entrance
//! polyhedron's facets across that side are the crossings of the side's edge with the vertex's
//! edges ([`Verdict::PastSide`]): the search evaluates those next, and they are often the
//! answer.

use super::pair::{Cover, EdgeLines, Evaluated, PolyhedronPair};
use crate::shapes::Polyhedron;
use nalgebra::Vector3;

/// Lengths of the pair below which the certificate's own rounding lies, relative to its size.
pub(super) const ROUNDING: f64 = 1e-12;

/// What the certificate needs of the pair besides the cover: the bodies' inner balls.
pub struct InnerBalls {
    /// `c_B - c_A`: the centroids' difference in A's frame.
    pub centre_line: Vector3<f64>,
    /// `r_A + r_B`: the sum of the inner radii about the centroids.
    pub radii: f64,
    /// A length of the pair (the sum of the bounding radii and the centres' distance), for the
    /// rounding allowance.
    pub size: f64,
}

impl InnerBalls {
    /// The inner balls of `pair`'s bodies about their centroids, in A's frame.
    #[inline]
    pub fn of(pair: &PolyhedronPair) -> Self {
        let (a, b) = (pair.a, pair.b);
        InnerBalls {
            centre_line: pair.rotation * b.centroid() + pair.translation - a.centroid(),
            radii: a.inner_radius() + b.inner_radius(),
            size: a.bounding_radius() + b.bounding_radius() + pair.translation.norm(),
        }
    }
}

/// What the certificate says of a cover ([`verdict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The cover is the pair's smallest, to rounding.
    Smallest,
    /// The contact point lies past a side of the cover's face: the facets across it may be
    /// smaller.
    PastSide(SidePast),
    /// Neither shown.
    Open,
}

/// Whether `cover`, touching (overlap at least 0), is the pair's smallest cover (module
/// documentation): its overlap is then the minimum translation distance, to rounding.
pub fn is_smallest(pair: &PolyhedronPair, cover: &Evaluated, balls: &InnerBalls) -> bool {
    verdict(pair, cover, balls) == Verdict::Smallest
}

/// The certificate's verdict on `cover` (module documentation): [`Verdict::Smallest`] when the
/// cover, touching, is the pair's smallest; for a v-f cover whose vertex lies past a side of its
/// face, [`Verdict::PastSide`] with that side (the entrance polyhedron's facets across it are the
/// crossings of the side's edge with the vertex's edges).
pub fn verdict(pair: &PolyhedronPair, cover: &Evaluated, balls: &InnerBalls) -> Verdict {
    let depth = cover.overlap;
    // NaN fails too.
    if depth.is_nan() || depth < 0.0 {
        return Verdict::Open;
    }
    let rounding = ROUNDING * balls.size;
    let (lowest, margin, past) = match cover.cover {
        Cover::FaceVertex { face_a, vertex_b } => {
            let (margin, edge) = nearest_side(pair.a, face_a, &pair.b_vertex(vertex_b));
            let past = SidePast::OfA { edge, vertex_b };
            (depth - pair.a.face_flatness(face_a), margin, Some(past))
        }
        Cover::VertexFace { vertex_a, face_b } => {
            let x = pair.rotation_t * (pair.a.vertex(vertex_a) - pair.translation);
            let (margin, edge) = nearest_side(pair.b, face_b, &x);
            let past = SidePast::OfB { vertex_a, edge };
            (depth - pair.b.face_flatness(face_b), margin, Some(past))
        }
        Cover::EdgeEdge { edge_a, edge_b } => (depth, crossing_margin(pair, edge_a, edge_b), None),
    };
    if margin < 0.0 {
        return past.map_or(Verdict::Open, Verdict::PastSide);
    }
    let margin = margin - rounding;
    if lowest < depth - rounding || margin.is_nan() || margin <= 0.0 {
        return Verdict::Open;
    }
    // The near cap: tan(Phi / 2) = margin / depth. The far cap about -u0 has angular radius
    // rho = pi - Phi: with N = margin^2 + depth^2, N cos(rho) = margin^2 - depth^2 and
    // N sin(rho) = 2 depth margin.
    let norm = margin * margin + depth * depth;
    let cos_far = margin * margin - depth * depth;
    let sin_far = 2.0 * depth * margin;
    // w = c_B - c_A at the angle alpha from -u0: |w| cos(alpha) = along, |w| sin(alpha) = across.
    let w = &balls.centre_line;
    let along = -cover.axis.dot(w);
    let length_squared = w.norm_squared();
    let across = (length_squared - along * along).max(0.0).sqrt();
    // The largest u . w over the far cap must leave the inner balls' bound at `depth`: |w| when w
    // lies in the cap (alpha <= rho, sin(rho - alpha) >= 0), |w| cos(alpha - rho) otherwise.
    let allowed = balls.radii - depth - rounding;
    let within = if along * sin_far - across * cos_far >= 0.0 {
        allowed >= 0.0 && length_squared <= allowed * allowed
    } else {
        along * cos_far + across * sin_far <= allowed * norm
    };
    if within {
        Verdict::Smallest
    } else {
        Verdict::Open
    }
}

/// The signed distance of `p`'s projection inside face `f` of `body` (its own frame) from the
/// face's nearest side, and that side's edge: along the sides' inward unit normals in the face's
/// plane ([`GaussArc::outward_across`](crate::shapes::GaussArc::outward_across), negated).
fn nearest_side(body: &Polyhedron, f: usize, p: &Vector3<f64>) -> (f64, usize) {
    body.face_edges(f)
        .iter()
        .map(|&e| {
            let edge = body.edge(e);
            let outward = body.edge_arc(e).outward_across(edge.left_face() == f);
            (outward.dot(&(body.vertex(edge.tail()) - p)), e)
        })
        .fold(
            (f64::INFINITY, usize::MAX),
            |a, b| if b.0 < a.0 { b } else { a },
        )
}

/// The side of a v-f cover's face that its vertex lies past ([`Verdict::PastSide`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SidePast {
    /// A's face: the side's edge of A, and B's vertex.
    OfA {
        /// A's edge.
        edge: usize,
        /// B's vertex.
        vertex_b: usize,
    },
    /// B's face: A's vertex, and the side's edge of B.
    OfB {
        /// A's vertex.
        vertex_a: usize,
        /// B's edge.
        edge: usize,
    },
}

/// How far the crossing point of A's edge `ea` and B's edge `eb` lies inside their Minkowski
/// difference (a parallelogram across the cover's axis): `sin(theta)` times its distance from
/// the nearer end of each edge, the smaller of the two; when it lies past an end, a negative
/// number (the parameter past the end, not a length), which only says so.
fn crossing_margin(pair: &PolyhedronPair, ea: usize, eb: usize) -> f64 {
    let EdgeLines { u, v, s, t, .. } = pair.edge_lines(ea, eb);
    let (uu, uv, vv) = (u.dot(&u), u.dot(&v), v.dot(&v));
    let denom = uu * vv - uv * uv;
    // |u x v| = sqrt(denom); the distance from the side s = 0 is s |u x v| / |v|.
    let (near_a, near_b) = (s.min(1.0 - s), t.min(1.0 - t));
    if near_a <= 0.0 || near_b <= 0.0 {
        return near_a.min(near_b);
    }
    (near_a * near_a * denom / vv)
        .min(near_b * near_b * denom / uu)
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cuboid, random_touching_pair};
    use super::*;
    use crate::pose::Pose;

    /// Every cover of the pair: A's faces against B's lowest vertex, B's faces against A's
    /// highest, and every crossing pair of edges.
    fn all_covers(pair: &PolyhedronPair) -> Vec<Evaluated> {
        let (a, b) = (pair.a, pair.b);
        let mut covers: Vec<Evaluated> = (0..a.num_faces())
            .map(|f| pair.face_a_cover(f, pair.b_lowest(&a.face_normal(f), 0)))
            .collect();
        covers.extend((0..b.num_faces()).map(|g| pair.face_b_cover(g, 0)));
        for i in 0..a.num_edges() {
            let edge = pair.a_edge(i);
            covers.extend((0..b.num_edges()).filter_map(|j| pair.edge_cover(&edge, j)));
        }
        covers
    }

    #[test]
    fn a_certified_cover_is_the_smallest_of_all_covers() {
        // Random touching pairs, shallow to deep: every touching cover the certificate accepts is
        // the smallest of all the pair's covers (to rounding), and it accepts one in many pairs.
        let (mut pairs, mut certified_smallest) = (0, 0);
        for k in 0..600u64 {
            // From about a percent of the size inside to deep (where the far cap is wide).
            let inside = [0.01, 0.03, 0.2, 0.6, 1.2][k as usize % 5];
            let vertices = (4 + (k % 20) as usize, 4 + (k % 13) as usize);
            let (a, b, rel) = random_touching_pair(k, vertices, inside);
            let pair = PolyhedronPair::new(&a, &b, &rel);
            let covers = all_covers(&pair);
            let smallest = covers
                .iter()
                .map(|c| c.overlap)
                .fold(f64::INFINITY, f64::min);
            assert!(smallest > 0.0);
            let balls = InnerBalls::of(&pair);
            pairs += 1;
            let mut found = false;
            for c in &covers {
                if is_smallest(&pair, c, &balls) {
                    assert!(
                        c.overlap <= smallest + 1e-12 * balls.size,
                        "pair {k}: certified {c:?}, smallest {smallest}"
                    );
                    found = true;
                }
            }
            certified_smallest += usize::from(found);
        }
        assert!(
            certified_smallest * 3 > pairs,
            "{certified_smallest} of {pairs}"
        );
    }

    #[test]
    fn a_vertex_inside_the_face_certifies_and_one_past_its_side_does_not() {
        // B stands on a vertex (its diagonal along z), 0.01 into A's top face.
        let (a, b) = (cuboid(0.5, 0.5, 0.5), cuboid(0.5, 0.5, 0.5));
        let standing = crate::narrow::fast_direct_search::tests::corner_down();
        let half_diagonal = 0.75f64.sqrt();
        let at = |x: f64| Pose::new(Vector3::new(x, 0.0, 0.5 + half_diagonal - 0.01), standing);
        let top = (0..a.num_faces())
            .find(|&f| a.face_normal(f).z > 0.5)
            .unwrap();
        let face_cover =
            |pair: &PolyhedronPair| pair.face_a_cover(top, pair.b_lowest(&Vector3::z(), 0));
        // Centred: the vertex is 0.5 inside every side.
        let rel = at(0.0);
        let pair = PolyhedronPair::new(&a, &b, &rel);
        let cover = face_cover(&pair);
        assert!((cover.overlap - 0.01).abs() < 1e-12);
        assert!(is_smallest(&pair, &cover, &InnerBalls::of(&pair)));
        // Past the side x = 0.5: B's vertex overhangs, and A's side face is the smaller cover.
        let rel = at(0.505);
        let pair = PolyhedronPair::new(&a, &b, &rel);
        let cover = face_cover(&pair);
        assert!(!is_smallest(&pair, &cover, &InnerBalls::of(&pair)));
        // Just inside the side (0.005 from it) with a 0.01 overlap: the near cap ends at
        // 2 atan(1/2), and the bodies' inner balls cannot cover the rest.
        let rel = at(0.495);
        let pair = PolyhedronPair::new(&a, &b, &rel);
        let cover = face_cover(&pair);
        assert!(!is_smallest(&pair, &cover, &InnerBalls::of(&pair)));
    }
}
