//! Beyond the paper: the exact hull's facets and hidden edges at creased faces.
//!
//! A face the construction merged from triangles that are coplanar only within its tolerance
//! ([`Polyhedron::creased_faces`](crate::shapes::Polyhedron::creased_faces)) stands, in the exact
//! hull of the input points, for several facets meeting at hidden edges. The covers of the search
//! are the merged faces', so along the exact facets' normals, and across a hidden edge and an edge
//! of the other body, the bodies may overlap less than the search's answer (by up to the face's
//! flatness: 4.7e-9 of the size on a depth of 1e-3 in `validate`'s random pairs at seed 47). For a
//! touching answer, those directions are evaluated too: the facets' normals, and every hidden edge
//! and every side of the face (a side's Gauss arc ends at a facet's normal, not at the merged
//! face's, so a crossing the search found invalid may be valid on the exact hull) crossed with each
//! edge of the other body whose arc the great circle square to it crosses, and where both bodies
//! have creased faces, each hidden edge or side of one crossed with each hidden edge of the other.
//! Each direction takes both bodies' exact support (the polyhedron's support vertex, or a corner
//! one of its merged faces dropped), so every overlap found is that along its direction and bounds
//! the minimum translation distance from above, and with the facets and hidden edges the exact
//! hull's minimum is among them. A face whose directions cannot overlap less than the answer, by a
//! bound from one of its corners and B's inner ball, costs a few dot products; so does a direction
//! ruled out by a bound from one point of each body.
//!
//! Not covered: faces merged from more than [`crate::shapes::CREASE_POINT_LIMIT`] points; a dropped
//! corner of one body that would be its support along a merged face's normal of the other (the
//! search's own covers take vertices only; the corner lies within the tolerance of its face); and
//! the crossings of a side of a face the ball bound skips (the bound holds within the face's spread
//! of its normal, while a side's exact arc reaches the next face's normal). Their depths keep the
//! tolerance bound of the [`Polyhedron`](crate::shapes::Polyhedron) documentation.

use super::pair::{PolyhedronPair, PARALLEL_SINE};
use crate::shapes::CreasedFace;
use nalgebra::Vector3;

/// The overlap of two bodies along a direction found at a crease (A's frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CreaseAnswer {
    /// Unit direction, A -> B.
    pub axis: Vector3<f64>,
    /// The bodies' overlap along it (negative: their gap).
    pub overlap: f64,
    /// A's vertex farthest along `axis` and B's lowest (body indices).
    pub support: (usize, usize),
    /// The point of A farthest along `axis` (a vertex, or a corner a merged face dropped).
    pub point_a: Vector3<f64>,
    /// The point of B lowest along `axis` (a vertex, or a corner a merged face dropped).
    pub point_b: Vector3<f64>,
}

/// The smallest overlap below `bar` along the directions of either body's creased faces, with
/// `hints` the support vertices (A's, B's) the climbs start from; `None` when none is below
/// `bar`.
pub fn shallower_at_creases(
    pair: &PolyhedronPair,
    bar: f64,
    hints: (usize, usize),
) -> Option<CreaseAnswer> {
    let mut best = None;
    let mut bar = bar;
    if !pair.a.creased_faces().is_empty() {
        best = creased_side(pair, bar, hints, false);
        bar = best.map_or(bar, |c| c.overlap);
    }
    if !pair.b.creased_faces().is_empty() {
        // B's creases from B's side: the same evaluation with the bodies' roles swapped, mapped
        // back to A's frame.
        if let Some(c) = creased_side(&pair.swapped(), bar, (hints.1, hints.0), true) {
            let to_a = |p: Vector3<f64>| pair.rotation * p + pair.translation;
            best = Some(CreaseAnswer {
                axis: -(pair.rotation * c.axis),
                overlap: c.overlap,
                support: (c.support.1, c.support.0),
                point_a: to_a(c.point_b),
                point_b: to_a(c.point_a),
            });
        }
    }
    best
}

/// [`shallower_at_creases`] over A's creased faces only; `swapped` when A is the query's B (the
/// directions of two creased faces against each other are then left to the other pass).
fn creased_side(
    pair: &PolyhedronPair,
    bar: f64,
    hints: (usize, usize),
    swapped: bool,
) -> Option<CreaseAnswer> {
    let (a, b) = (pair.a, pair.b);
    let mut best: Option<CreaseAnswer> = None;
    let mut bar = bar;
    // B's inner ball, in A's frame: B's support against any unit `u` is at least `r - u . c`.
    let centre = pair.rotation * b.centroid() + pair.translation;
    let radius = b.inner_radius();
    for crease in a.creased_faces() {
        let f = crease.face();
        let n = a.face_normal(f);
        let corner = a.face_vertices(f)[0];
        // Every direction the crease needs lies within `spread` of `n`, and along each the
        // overlap is at least `u . (corner - centre) + radius`: a face far from B costs no climb.
        let ball_reach = a.vertex(corner) - centre;
        if n.dot(&ball_reach) - crease.spread() * ball_reach.norm() + radius >= bar {
            continue;
        }
        let low = pair.b_lowest(&n, hints.1);
        // Any point of A less any point of B: the overlap along every direction `u` is at least
        // `u . reach`.
        let reach = a.vertex(corner) - pair.b_vertex(low);
        let mut consider = |u: &Vector3<f64>, bar: &mut f64| {
            if u.dot(&reach) >= *bar {
                return;
            }
            let c = overlap_along(pair, crease, u, (corner, low));
            if c.overlap < *bar {
                *bar = c.overlap;
                best = Some(c);
            }
        };
        for m in crease.facet_normals() {
            consider(m, &mut bar);
        }
        // The direction square to a unit edge direction `along` of A and to `span`, turned to
        // `side`'s side, all three in one frame; none when `along` and `span` are parallel.
        let square_to = |along: &Vector3<f64>, span: &Vector3<f64>, side: &Vector3<f64>| {
            let d = along.cross(span);
            let length = d.norm();
            (!length.is_nan() && length > PARALLEL_SINE * span.norm())
                .then(|| if d.dot(side) >= 0.0 { d } else { -d } / length)
        };
        let n_b = pair.rotation_t * n;
        // The exact hull's edges there: the hidden edges, whose Gauss arcs run between two facet
        // normals, and the face's sides, whose arcs end at a facet's normal where the search's
        // end at the face's (a crossing the search found invalid may be valid on the exact hull).
        let corners = a.face_vertices(f);
        let sides = (0..corners.len()).map(|i| {
            let next = corners[(i + 1) % corners.len()];
            (a.vertex(next) - a.vertex(corners[i])).normalize()
        });
        for along in crease.hidden_edge_directions().iter().copied().chain(sides) {
            // Against each edge of B whose arc on `-B`'s Gauss map the great circle square to
            // `along` crosses (the exact arc of `along` lies on that circle, so every crossing of
            // the exact hull is among them), and against B's hidden edges where B has creased
            // faces too (two creased faces against each other; B's own pass, with the roles
            // swapped, would find the same directions, so only A's pass takes them).
            // (In B's frame, where `-d` must lie on B's own arc of the edge.)
            let along_b = pair.rotation_t * along;
            for e in 0..b.num_edges() {
                let edge = b.edge(e);
                let span = b.vertex(edge.head()) - b.vertex(edge.tail());
                let crossing = square_to(&along_b, &span, &n_b)
                    .filter(|d| b.edge_arc(e).projection_inside(&-d));
                if let Some(d) = crossing {
                    consider(&(pair.rotation * d), &mut bar);
                }
            }
            if !swapped {
                for other in b.creased_faces() {
                    for hidden_b in other.hidden_edge_directions() {
                        if let Some(d) = square_to(&along, &(pair.rotation * hidden_b), &n) {
                            consider(&d, &mut bar);
                        }
                    }
                }
            }
        }
    }
    best
}

/// The bodies' overlap along unit `u` (A's frame): A's exact hull's support (its support vertex,
/// or a corner `crease` dropped) less B's (its lowest vertex, or a corner one of B's creased faces
/// dropped), the climbs started at `hints`.
fn overlap_along(
    pair: &PolyhedronPair,
    crease: &CreasedFace,
    u: &Vector3<f64>,
    hints: (usize, usize),
) -> CreaseAnswer {
    let (top, low, _) = pair.supports_along(u, hints);
    let mut point_a = pair.a.vertex(top);
    let mut point_b = pair.b_vertex(low);
    for x in crease.dropped_points() {
        if u.dot(x) > u.dot(&point_a) {
            point_a = *x;
        }
    }
    for other in pair.b.creased_faces() {
        for x in other.dropped_points() {
            let placed = pair.rotation * x + pair.translation;
            if u.dot(&placed) < u.dot(&point_b) {
                point_b = placed;
            }
        }
    }
    let overlap = u.dot(&point_a) - u.dot(&point_b);
    CreaseAnswer {
        axis: *u,
        overlap,
        support: (top, low),
        point_a,
        point_b,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fast_direct_search;
    use super::super::tests::{corner_down, exact_hull_depth, random_points, sat};
    use super::*;
    use crate::pose::Pose;
    use crate::shapes::{raised_corner_box, Polyhedron};
    use crate::warm::WarmState;
    use nalgebra::UnitQuaternion;
    use proptest::prelude::*;

    /// The corners of the cube of half-side `h` about the origin.
    fn cube_points(h: f64) -> Vec<Vector3<f64>> {
        (0..8)
            .map(|i| {
                let side = |bit: usize| if i >> bit & 1 == 1 { h } else { -h };
                Vector3::new(side(0), side(1), side(2))
            })
            .collect()
    }

    /// A cube pressed 1e-3 into the creased top of [`raised_corner_box`] by a corner, at several
    /// places, and by an edge across the crease: the depth is the exact hull's (the merged
    /// face's plane alone overstates it by up to 5e-9), cold, warm, and with A and B swapped.
    #[test]
    fn depths_at_a_crease_are_the_exact_hulls() {
        let a_points = raised_corner_box(1e-8);
        let a = Polyhedron::new(&a_points).unwrap();
        let h = 0.2;
        let b_points = cube_points(h);
        let b = Polyhedron::new(&b_points).unwrap();
        let depth = 1e-3;
        // An edge down along (cos 0.35, -sin 0.35, 0), across the crease but square neither to it
        // nor to a facet's normal: the deepest direction is square to the crease and the edge.
        let edge_down = UnitQuaternion::from_scaled_axis(Vector3::z() * -0.35)
            * UnitQuaternion::from_scaled_axis(Vector3::x() * std::f64::consts::FRAC_PI_4);
        let mut poses = Vec::new();
        for x in [-0.7, -0.3, 0.2, 0.6] {
            for y in [-0.6, 0.1, 0.5] {
                let height = h * 3f64.sqrt() - depth;
                poses.push(Pose::new(Vector3::new(x, y, height), corner_down()));
            }
        }
        for t in [-0.4, 0.0, 0.3] {
            let height = h * 2f64.sqrt() - depth;
            poses.push(Pose::new(Vector3::new(t, t + 0.05, height), edge_down));
        }
        let mut overstated = 0;
        for rel in &poses {
            let placed: Vec<_> = b_points.iter().map(|p| rel.transform_point(p)).collect();
            let exact = exact_hull_depth(&a_points, &placed);
            let mut warm = WarmState::cold();
            let cold = fast_direct_search(&a, &b, rel, &mut warm).contact;
            assert!(cold.touching);
            assert!(
                (cold.penetration - exact).abs() < 1e-13,
                "{rel:?}: {cold:?} vs {exact:e}"
            );
            let again = fast_direct_search(&a, &b, rel, &mut warm).contact;
            assert!(again.warm_started);
            assert_eq!(
                (again.penetration, again.normal),
                (cold.penetration, cold.normal)
            );
            let inverse = rel.relative(&Pose::identity());
            let swapped = fast_direct_search(&b, &a, &inverse, &mut WarmState::cold()).contact;
            assert!(
                (swapped.penetration - exact).abs() < 1e-13,
                "{swapped:?} vs {exact:e}"
            );
            let swapped_normal = -rel.transform_vector(&swapped.normal);
            assert!((swapped_normal - cold.normal).norm() < 1e-12);
            if sat(&a, &b, rel).0 > exact + 1e-10 {
                overstated += 1;
            }
        }
        assert!(
            overstated >= poses.len() / 2,
            "{overstated} of {}",
            poses.len()
        );
    }

    /// Two creased tops against each other, crossing: A's top creased along a diagonal (a ridge
    /// 1e-8 high at a corner), B's the same at half the size, upside down and turned, so that
    /// the deepest direction is square to both hidden edges. Before both bodies' hidden edges
    /// were crossed, the depth was up to 7e-10 too deep; now it is the exact hull's, cold, warm
    /// and with A and B swapped.
    #[test]
    fn two_creased_faces_meet_at_their_hidden_edges() {
        let a_points = raised_corner_box(1e-8);
        let b_points: Vec<_> = raised_corner_box(1e-8).iter().map(|p| p * 0.5).collect();
        let a = Polyhedron::new(&a_points).unwrap();
        let b = Polyhedron::new(&b_points).unwrap();
        assert_eq!((a.creased_faces().len(), b.creased_faces().len()), (1, 1));
        let upside_down = UnitQuaternion::from_scaled_axis(Vector3::x() * std::f64::consts::PI);
        for turn in [-0.3, -0.6, -0.87, -1.2] {
            for (x, y) in [(0.0, 0.0), (0.1, -0.2), (-0.3, 0.25)] {
                let q = UnitQuaternion::from_scaled_axis(Vector3::z() * turn) * upside_down;
                let rel = Pose::new(Vector3::new(x, y, -1e-3), q);
                let placed: Vec<_> = b_points.iter().map(|p| rel.transform_point(p)).collect();
                let exact = exact_hull_depth(&a_points, &placed);
                let mut warm = WarmState::cold();
                let cold = fast_direct_search(&a, &b, &rel, &mut warm).contact;
                assert!(
                    (cold.penetration - exact).abs() < 1e-13,
                    "turn {turn} at ({x}, {y}): {:e} vs {exact:e}",
                    cold.penetration
                );
                let again = fast_direct_search(&a, &b, &rel, &mut warm).contact;
                assert!(again.warm_started);
                assert_eq!(again.penetration, cold.penetration);
                let inverse = rel.relative(&Pose::identity());
                let swapped = fast_direct_search(&b, &a, &inverse, &mut WarmState::cold()).contact;
                assert!(
                    (swapped.penetration - exact).abs() < 1e-13,
                    "swapped, turn {turn} at ({x}, {y}): {:e} vs {exact:e}",
                    swapped.penetration
                );
            }
        }
    }

    /// Checks that the hulls of `a_points` and `b_points`, B at `rel` relative to A, queried cold
    /// in both orders, have the depth of the brute-force SAT of the points.
    fn exact_in_both_orders(
        a_points: &[Vector3<f64>],
        b_points: &[Vector3<f64>],
        rel: &Pose,
    ) -> Result<(), TestCaseError> {
        let a = Polyhedron::new(a_points).unwrap();
        let b = Polyhedron::new(b_points).unwrap();
        let placed: Vec<_> = b_points.iter().map(|p| rel.transform_point(p)).collect();
        let exact = exact_hull_depth(a_points, &placed);
        let inverse = rel.relative(&Pose::identity());
        let ab = fast_direct_search(&a, &b, rel, &mut WarmState::cold()).contact;
        let ba = fast_direct_search(&b, &a, &inverse, &mut WarmState::cold()).contact;
        for (order, depth) in [("A, B", ab.penetration), ("B, A", ba.penetration)] {
            prop_assert!(
                (depth - exact).abs() < 1e-12 * (1.0 + exact),
                "{order}: {depth:e} vs {exact:e}"
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

        /// Two creased tops pressed together at random: A the box of [`raised_corner_box`], B
        /// the same at a random size, upside down, turned and tilted by a few times the creases'
        /// angles, anywhere over A's top, pressed in by a random depth: the depth is the
        /// brute-force SAT's of the input points, in both orders.
        #[test]
        fn creased_tops_pressed_together_have_the_exact_hulls_depth(
            rise_a in 0.1e-8f64..1e-8, rise_b in 0.1e-8f64..1e-8, size in 0.2f64..0.9,
            turn in -3.2f64..3.2, tilt in prop::array::uniform2(-2e-8f64..2e-8),
            at in prop::array::uniform2(-0.8f64..0.8), depth in 1e-4f64..1e-2,
        ) {
            let a_points = raised_corner_box(rise_a);
            let b_points: Vec<_> = raised_corner_box(rise_b / size)
                .iter()
                .map(|p| p * size)
                .collect();
            let q = UnitQuaternion::from_scaled_axis(Vector3::new(tilt[0], tilt[1], 0.0))
                * UnitQuaternion::from_scaled_axis(Vector3::z() * turn)
                * UnitQuaternion::from_scaled_axis(Vector3::x() * std::f64::consts::PI);
            let rel = Pose::new(Vector3::new(at[0], at[1], -depth), q);
            exact_in_both_orders(&a_points, &b_points, &rel)?;
        }

        /// A random body pressed into a creased top: A the box of [`raised_corner_box`], B the
        /// hull of random points turned at random, its lowest point a random depth below
        /// anywhere on A's top: the depth is the brute-force SAT's of the input points, in both
        /// orders.
        #[test]
        fn a_random_body_on_a_creased_top_has_the_exact_hulls_depth(
            rise in 0.1e-8f64..1e-8, seed in 0u64..1000, n in 4usize..30,
            turn in prop::array::uniform3(-3.2f64..3.2),
            at in prop::array::uniform2(-0.95f64..0.95), depth in 1e-4f64..1e-2,
        ) {
            let a_points = raised_corner_box(rise);
            let b_points = random_points(seed, n);
            let q = UnitQuaternion::from_scaled_axis(Vector3::from(turn));
            let lowest = b_points
                .iter()
                .map(|p| q * p)
                .min_by(|u, v| u.z.total_cmp(&v.z))
                .unwrap();
            let rel = Pose::new(Vector3::new(at[0], at[1], -depth) - lowest, q);
            exact_in_both_orders(&a_points, &b_points, &rel)?;
        }
    }
}
