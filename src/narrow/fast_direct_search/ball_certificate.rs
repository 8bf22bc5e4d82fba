//! A certificate that a touching v-f cover is the smallest of the pair because a ball about its
//! vertex lies inside the other body (beyond the paper's text): when it holds, no other cover
//! needs a bound or an evaluation.
//!
//! The overlap of the pair along a unit `u` (A's frame, B placed) is the support gap
//! `g(u) = h_A(u) + h_B(-u)`, and the minimum translation distance is the smallest `g` over the
//! sphere. For any point `y` of B, `h_B(-u) >= -u . y`. If the ball of radius `D` about `y` lies
//! inside A, then `h_A(u) >= u . y + D` along every `u`, so
//!
//! ```text
//! g(u) >= h_A(u) - u . y >= D   for every unit u.
//! ```
//!
//! A v-f cover of A's face `f` and B's vertex `y` has overlap `D = d_f - n_f . y`: `y` lies `D`
//! below `f`'s plane. When it lies at least as far below every other face's plane, the ball of
//! radius `D` about it is inside A (a polyhedron whose faces are flat is the intersection of their
//! half-spaces), and `D` is the pair's minimum: the vertex is deeper inside A than its overlap
//! through `f`, in every direction at once. The same with the bodies' roles swapped for B's face
//! and A's vertex. In a DEM contact it holds unless the vertex lies within about the overlap of a
//! side of its face (the distance to the neighbouring face's plane grows with the distance from
//! the side), and it says nothing about crossing edges.
//!
//! The distances are those the search's face bounds form anyway (`d_f - n_f . y` is the witness
//! bound of A's face `f` when `y` is the witness), so checking it costs one pass over one body's
//! faces at most; on a body of many faces, through its tree of face planes
//! ([`Polyhedron::below_every_face_plane`]), it costs a visit of the faces whose planes pass near
//! the vertex, which saves the search its pass over them.

use super::pair::{Cover, Evaluated, PolyhedronPair};
use crate::shapes::Polyhedron;
use nalgebra::Vector3;

/// Whether the touching v-f `cover` is the pair's minimum, to `rounding` (a length), because the
/// ball of radius its overlap about its vertex lies inside the other body, for a caller that has
/// found the vertex at least `cover.overlap - rounding` below every face plane of that body (B's
/// vertex in A for A's face, A's vertex in B for B's face): whether the cover is touching and that
/// body's faces are flat to `rounding`. An e-e cover is never certified.
#[inline]
pub fn vertex_ball_settles(pair: &PolyhedronPair, cover: &Evaluated, rounding: f64) -> bool {
    certifiable(pair, cover, rounding).is_some()
}

/// [`vertex_ball_settles`] with the vertex's depth checked here too
/// ([`Polyhedron::below_every_face_plane`]: on a body of many faces, from the faces whose planes
/// pass near the vertex only, not a pass over every face).
#[inline]
pub fn vertex_ball_holds(pair: &PolyhedronPair, cover: &Evaluated, rounding: f64) -> bool {
    let Some((body, vertex)) = certifiable(pair, cover, rounding) else {
        return false;
    };
    body.below_every_face_plane(&vertex, cover.overlap - rounding)
}

/// For a touching v-f `cover` whose face's body is flat to `rounding`, that body and the cover's
/// vertex in its frame (B's vertex in A's frame for A's face, A's vertex in B's frame for B's
/// face); `None` otherwise.
#[inline]
fn certifiable<'p>(
    pair: &PolyhedronPair<'p>,
    cover: &Evaluated,
    rounding: f64,
) -> Option<(&'p Polyhedron, Vector3<f64>)> {
    // NaN fails every comparison.
    if cover.overlap.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let (body, vertex) = match cover.cover {
        Cover::FaceVertex { vertex_b, .. } => (pair.a, pair.b_vertex(vertex_b)),
        Cover::VertexFace { vertex_a, .. } => (
            pair.b,
            pair.rotation_t * (pair.a.vertex(vertex_a) - pair.translation),
        ),
        Cover::EdgeEdge { .. } => return None,
    };
    (body.flatness() <= rounding).then_some((body, vertex))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{corner_down, cuboid, random_touching_pair, sat};
    use super::super::{search, Hints};
    use super::*;
    use crate::pose::Pose;

    /// How far `point` (`body`'s frame) lies below the nearest of `body`'s face planes: the smallest
    /// `d_f - n_f . point` over the faces `f` (negative outside the body). The ball of that radius
    /// about the point lies inside the body when its faces are flat ([`Polyhedron::flatness`]).
    fn depth_inside(body: &Polyhedron, point: &Vector3<f64>) -> f64 {
        body.face_normals()
            .iter()
            .zip(body.face_offsets())
            .map(|(n, &d)| d - n.dot(point))
            .fold(f64::INFINITY, f64::min)
    }

    /// The depth of the vertex of cover `e` inside the other body.
    fn vertex_depth(pair: &PolyhedronPair, e: &Evaluated) -> f64 {
        match e.cover {
            Cover::FaceVertex { vertex_b, .. } => depth_inside(pair.a, &pair.b_vertex(vertex_b)),
            Cover::VertexFace { vertex_a, .. } => {
                let x = pair.rotation_t * (pair.a.vertex(vertex_a) - pair.translation);
                depth_inside(pair.b, &x)
            }
            Cover::EdgeEdge { .. } => f64::NAN,
        }
    }

    #[test]
    fn a_vertex_deep_inside_the_face_certifies_and_one_near_its_side_does_not() {
        // B stands on a vertex (its diagonal along z), 0.01 into A's top face (z = 0.5), at x
        // across it: the search's answer is that v-f cover.
        let (a, b) = (cuboid(0.5, 0.5, 0.5), cuboid(0.5, 0.5, 0.5));
        let at = |x: f64| {
            Pose::new(
                Vector3::new(x, 0.0, 0.5 + 0.75f64.sqrt() - 0.01),
                corner_down(),
            )
        };
        for (x, settles) in [(0.2, true), (0.495, false)] {
            let rel = at(x);
            let pair = PolyhedronPair::new(&a, &b, &rel);
            let best = search(&pair, None, &mut Hints::default()).best;
            assert!(matches!(best.cover, Cover::FaceVertex { .. }), "{best:?}");
            assert!((best.overlap - 0.01).abs() < 1e-12);
            assert!((sat(&a, &b, &rel).0 - 0.01).abs() < 1e-12);
            // The vertex lies 0.01 below the top, and 0.3 or 0.005 from the side at x = 0.5.
            let inside = vertex_depth(&pair, &best);
            assert!((inside - 0.01_f64.min(0.5 - x)).abs() < 1e-12, "{inside}");
            assert_eq!(vertex_ball_holds(&pair, &best, 1e-12), settles);
        }
    }

    #[test]
    fn a_certified_vertex_cover_is_the_smallest_overlap() {
        // Random pairs brought from just touching to 0.2 % - 10 % of their size inside: every v-f
        // cover the ball certifies has the SAT reference's depth, and it certifies one in many.
        let (mut certified, mut pairs) = (0, 0);
        for k in 0..300u64 {
            let inside = [0.002, 0.01, 0.03, 0.1][k as usize % 4];
            let vertices = (4 + (k % 30) as usize, 4 + (k % 17) as usize);
            let (a, b, rel) = random_touching_pair(k, vertices, inside);
            let pair = PolyhedronPair::new(&a, &b, &rel);
            let (depth, _) = sat(&a, &b, &rel);
            assert!(depth > 0.0);
            pairs += 1;
            // Every v-f cover of the pair, not only the search's answer.
            let covers = (0..a.num_faces())
                .map(|f| pair.face_a_cover(f, pair.b_lowest(&a.face_normal(f), 0)))
                .chain((0..b.num_faces()).map(|g| pair.face_b_cover(g, 0)));
            let mut any = false;
            for e in covers {
                // The face planes' tree gives the scan's verdict.
                let settles = vertex_depth(&pair, &e) >= e.overlap - 1e-12
                    && vertex_ball_settles(&pair, &e, 1e-12);
                assert_eq!(
                    vertex_ball_holds(&pair, &e, 1e-12),
                    settles,
                    "pair {k}: {e:?}"
                );
                if settles {
                    assert!(
                        (e.overlap - depth).abs() <= 1e-11,
                        "pair {k}: certified {e:?}, SAT depth {depth}"
                    );
                    any = true;
                }
            }
            certified += usize::from(any);
        }
        assert!(certified * 4 > pairs, "{certified} of {pairs}");
    }
}
