//! The expanding polytope of a convex set `K` given by its support map (EPA, van den Bergen's
//! expanding polytope algorithm): a certified lower bound of the smallest support value of `K`
//! over unit directions, `min_u h_K(u)`, and where it is reached.
//!
//! For `K = A - B` (the Minkowski difference of two convex bodies) that minimum is the negated
//! separation when the bodies are apart and the minimum translation distance when they overlap: the
//! depth of the shallowest common normal. The common-normal search (Wellmann, Lillie & Wriggers
//! 2008) finds a local minimum of `h_K`; the polytope proves it global, or points to a shallower
//! direction to descend from (beyond the paper, whose random restarts and Nelder-Mead prove
//! nothing).
//!
//! # Method
//!
//! The polytope `P` is the convex hull of support points of `K`, so `P` lies in `K` (to the
//! rounding of the points) and `h_P <= h_K`. Each step takes the facet of `P` with the smallest
//! plane offset `d` (signed distance from the origin, outward normal `n`) and adds the support
//! point `s = support(n)`:
//!
//! * while the origin lies inside `P` (every offset positive), `min_u h_P(u)` is the smallest
//!   offset, so `lower = d <= min_u h_K(u)`, and `upper = n . s = h_K(n)` bounds that minimum from
//!   above: the step reports both ([`Step::Expanded`]);
//! * a facet with a negative offset has the origin outside it; if `h_K(n) < 0` as well, the plane
//!   normal to `n` separates the origin from `K` ([`Step::Separated`]); otherwise the polytope grows
//!   across the origin along `n`.
//!
//! The facets visible from `s` are found by a walk over their neighbours from the closest one, and
//! replaced by the fan of `s` over the horizon (each new facet linked to its neighbours), so a step
//! costs the support call and a few facets; a heap orders the facets by offset.
//!
//! The offsets carry the rounding of the support points and of the planes: [`ExpandingPolytope::lower_bound`]
//! takes off `ROUNDING` times the polytope's size. When a step would not move the polytope beyond
//! that rounding ([`Step::Converged`]) or a new facet is degenerate ([`Step::Failed`]) the
//! polytope stops; a caller then has its last bounds, or its own fallback.

use nalgebra::{Rotation3, Vector3};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The rounding of a plane offset, relative to the polytope's size (the largest support point
/// norm): the support points are within a few units in the last place of `K`'s boundary, and a
/// plane through three of them is off by about as much times the condition of its facet.
const ROUNDING: f64 = 1e-13;

/// The support points a polytope is first given room for (a nearly pointed superellipsoid pair
/// takes about 60 steps to a relative `1e-9`), and four times as many facets.
const CAPACITY: usize = 96;

/// What one step of [`ExpandingPolytope::step`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// The origin lies inside the polytope: `lower` (certified, [`ExpandingPolytope::lower_bound`])
    /// and `upper = h_K(normal)` bracket `min_u h_K(u)`; `normal` (unit) is the closest facet's,
    /// along which the polytope was expanded.
    Expanded {
        /// A certified lower bound of `min_u h_K(u)`.
        lower: f64,
        /// `h_K(normal)`, an upper bound of `min_u h_K(u)`.
        upper: f64,
        /// The closest facet's outward unit normal.
        normal: Vector3<f64>,
    },
    /// The origin is not yet inside the polytope; the polytope grew along `normal`.
    Growing {
        /// The facet normal the polytope grew along.
        normal: Vector3<f64>,
    },
    /// `h_K(normal) = support . normal < 0`: the plane normal to `normal` separates the origin
    /// from `K` by `-h_K(normal)`.
    Separated {
        /// The separating direction (unit).
        normal: Vector3<f64>,
        /// `h_K(normal)`, negative.
        support_value: f64,
    },
    /// The closest facet's support point adds nothing beyond the rounding: `lower` and `upper`
    /// are final (as in [`Step::Expanded`]; `lower` is `-inf` if the origin is outside).
    Converged {
        /// A certified lower bound of `min_u h_K(u)`.
        lower: f64,
        /// `h_K(normal)`.
        upper: f64,
        /// The closest facet's outward unit normal.
        normal: Vector3<f64>,
    },
    /// A new facet was degenerate or a support point not finite: the polytope cannot go on.
    Failed,
}

/// A facet: its corners (counter-clockwise seen from outside), the facets across its edges
/// (`adjacent[k]` across the edge from corner `k` to corner `k + 1`), its outward unit normal and
/// plane offset.
#[derive(Debug, Clone, Copy)]
struct Facet {
    corners: [u32; 3],
    adjacent: [u32; 3],
    normal: Vector3<f64>,
    offset: f64,
    alive: bool,
}

/// A heap entry: a facet by its offset, the smallest first.
#[derive(Debug, Clone, Copy)]
struct ByOffset(f64, u32);

impl PartialEq for ByOffset {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for ByOffset {}
impl PartialOrd for ByOffset {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByOffset {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: `BinaryHeap` is a max-heap. The offsets are finite (`push_facet` takes planes
        // of finite points only), so `partial_cmp` orders them all.
        other
            .0
            .partial_cmp(&self.0)
            .unwrap_or(Ordering::Equal)
            .then(other.1.cmp(&self.1))
    }
}

/// The expanding polytope of a convex set given by its support map (see the module
/// documentation). The set's frame and length unit are the caller's.
#[derive(Debug, Clone)]
pub struct ExpandingPolytope {
    points: Vec<Vector3<f64>>,
    facets: Vec<Facet>,
    heap: BinaryHeap<ByOffset>,
    /// The largest support point norm: the scale of the rounding.
    size: f64,
    /// Scratch of [`Self::insert`]: the walk's stack and the horizon (kept to save allocations).
    stack: Vec<(u32, u32)>,
    horizon: Vec<(u32, usize)>,
}

impl ExpandingPolytope {
    /// The octahedron of the support points of `K` along the six directions `+-e_i` of a frame
    /// turned off the axes (so that a box-like set's flat faces do not give the same corner
    /// twice), or `None` when it is degenerate (a facet of zero area or turned inward: `K` is flat
    /// or a point to rounding, or a support point is not finite).
    pub fn new(mut support: impl FnMut(&Vector3<f64>) -> Vector3<f64>) -> Option<Self> {
        let frame = Rotation3::from_euler_angles(0.1, 0.2, 0.3);
        let e = |i: usize| frame.matrix().column(i).into_owned();
        let axes = [e(0), -e(0), e(1), -e(1), e(2), -e(2)];
        let mut points: Vec<Vector3<f64>> = Vec::with_capacity(CAPACITY);
        points.extend(axes.iter().map(&mut support));
        if !points.iter().all(|p| p.iter().all(|v| v.is_finite())) {
            return None;
        }
        // Faces of the octahedron +x, -x, +y, -y, +z, -z (indices 0..6), outward.
        const CORNERS: [[u32; 3]; 8] = [
            [0, 2, 4],
            [2, 1, 4],
            [1, 3, 4],
            [3, 0, 4],
            [2, 0, 5],
            [1, 2, 5],
            [3, 1, 5],
            [0, 3, 5],
        ];
        let size = points.iter().map(|p| p.norm()).fold(0.0, f64::max);
        let mut polytope = ExpandingPolytope {
            points,
            facets: Vec::with_capacity(4 * CAPACITY),
            heap: BinaryHeap::with_capacity(4 * CAPACITY),
            size,
            stack: Vec::with_capacity(16),
            horizon: Vec::with_capacity(16),
        };
        for corners in CORNERS {
            polytope.push_facet(corners)?;
        }
        // Each facet's neighbours: the facet holding its edge reversed.
        for f in 0..polytope.facets.len() {
            for k in 0..3 {
                let c = polytope.facets[f].corners;
                let (a, b) = (c[k], c[(k + 1) % 3]);
                let across = polytope.facets.iter().position(|g| {
                    (0..3).any(|j| g.corners[j] == b && g.corners[(j + 1) % 3] == a)
                })?;
                polytope.facets[f].adjacent[k] = across as u32;
            }
        }
        // Each facet must face away from the octahedron's interior (its centroid).
        let centre: Vector3<f64> = polytope.points.iter().sum::<Vector3<f64>>() / 6.0;
        polytope
            .facets
            .iter()
            .all(|f| {
                f.normal
                    .dot(&(polytope.points[f.corners[0] as usize] - centre))
                    > 0.0
            })
            .then_some(polytope)
    }

    /// A certified lower bound of `min_u h_K(u)` over unit `u` while the origin lies inside the
    /// polytope (the smallest facet offset less its rounding); `-inf` otherwise.
    pub fn lower_bound(&self) -> f64 {
        match self.closest() {
            Some(f) if self.facets[f].offset > 0.0 => self.facets[f].offset - ROUNDING * self.size,
            _ => f64::NEG_INFINITY,
        }
    }

    /// The rounding of a facet offset at the polytope's present size: what its bounds are
    /// certified to beyond their own values (a caller's tolerance should exceed a few of these).
    pub fn resolution(&self) -> f64 {
        ROUNDING * self.size
    }

    /// The number of support points taken so far (six for the octahedron).
    pub fn points(&self) -> usize {
        self.points.len()
    }

    /// One step: the support point of `K` along the closest facet's normal, added to the
    /// polytope (see [`Step`]).
    pub fn step(&mut self, mut support: impl FnMut(&Vector3<f64>) -> Vector3<f64>) -> Step {
        let Some(closest) = self.closest() else {
            return Step::Failed;
        };
        let facet = self.facets[closest];
        let normal = facet.normal;
        let s = support(&normal);
        if !s.iter().all(|v| v.is_finite()) {
            return Step::Failed;
        }
        let upper = normal.dot(&s);
        if upper < 0.0 {
            return Step::Separated {
                normal,
                support_value: upper,
            };
        }
        let inside = facet.offset > 0.0;
        let rounding = ROUNDING * self.size.max(s.norm());
        if upper - facet.offset <= 4.0 * rounding {
            return Step::Converged {
                lower: self.lower_bound(),
                upper,
                normal,
            };
        }
        self.size = self.size.max(s.norm());
        if self.insert(closest, s).is_none() {
            return Step::Failed;
        }
        if inside {
            // The bound of the polytope before this point (the one `upper` goes with): the
            // smallest offset only grows as points are added.
            Step::Expanded {
                lower: facet.offset - ROUNDING * self.size,
                upper,
                normal,
            }
        } else {
            Step::Growing { normal }
        }
    }

    /// The alive facet of the smallest offset (stale heap entries dropped).
    fn closest(&self) -> Option<usize> {
        // The heap's top may be a facet removed since; `insert` pops those.
        self.heap.peek().map(|e| e.1 as usize)
    }

    /// Adds facet `corners` (its plane from the points); `None` for a degenerate one.
    fn push_facet(&mut self, corners: [u32; 3]) -> Option<u32> {
        let [a, b, c] = corners.map(|i| self.points[i as usize]);
        let cross = (b - a).cross(&(c - a));
        let length = cross.norm();
        if !(length.is_finite() && length > 0.0) {
            return None;
        }
        let normal = cross / length;
        // The offset from the corner nearest the origin's side is as good as any; the mean of
        // the three evens out their roundings.
        let offset = (normal.dot(&a) + normal.dot(&b) + normal.dot(&c)) / 3.0;
        let index = self.facets.len() as u32;
        self.facets.push(Facet {
            corners,
            adjacent: [u32::MAX; 3],
            normal,
            offset,
            alive: true,
        });
        self.heap.push(ByOffset(offset, index));
        Some(index)
    }

    /// Replaces the facets visible from `s` (starting with `start`, which is) by the fan of `s`
    /// over their horizon; `None` if a new facet is degenerate or the horizon is not one loop.
    fn insert(&mut self, start: usize, s: Vector3<f64>) -> Option<()> {
        let tolerance = ROUNDING * self.size;
        let visible = |f: &Facet| f.normal.dot(&s) - f.offset > tolerance;
        // The walk: each removed facet's other edges, in order, so that the horizon comes out as
        // one loop of edges (facet outside, its edge index), counter-clockwise seen from `s`.
        let mut horizon = std::mem::take(&mut self.horizon);
        let mut stack = std::mem::take(&mut self.stack);
        horizon.clear();
        stack.clear();
        // Stack entries: a facet and the removed facet it was reached from.
        self.facets[start].alive = false;
        let first = self.facets[start].adjacent;
        stack.extend(first.iter().rev().map(|&across| (across, start as u32)));
        while let Some((f, from)) = stack.pop() {
            let facet = &self.facets[f as usize];
            if !facet.alive {
                continue;
            }
            let edge = self.edge_towards(f, from);
            if visible(facet) {
                let adjacent = facet.adjacent;
                self.facets[f as usize].alive = false;
                stack.push((adjacent[(edge + 2) % 3], f));
                stack.push((adjacent[(edge + 1) % 3], f));
            } else {
                horizon.push((f, edge));
            }
        }
        self.stack = stack;
        let result = self.fan(&horizon, s);
        self.horizon = horizon;
        result
    }

    /// The fan of the new point `s` over `horizon` (see [`Self::insert`]).
    fn fan(&mut self, horizon: &[(u32, usize)], s: Vector3<f64>) -> Option<()> {
        if horizon.len() < 3 {
            return None;
        }
        self.points.push(s);
        let apex = (self.points.len() - 1) as u32;
        let first = self.facets.len();
        for &(f, edge) in horizon {
            let c = self.facets[f as usize].corners;
            // The edge runs c[edge] -> c[edge + 1] in `f`; the new facet runs it the other way.
            let new = self.push_facet([c[(edge + 1) % 3], c[edge], apex])?;
            self.facets[new as usize].adjacent[0] = f;
            self.facets[f as usize].adjacent[edge] = new;
        }
        // Link the fan: facet i = [a_i, b_i, apex]; its edge b_i -> apex meets the edge
        // apex -> a_j of the facet j with a_j = b_i.
        let count = horizon.len();
        for i in first..first + count {
            let b = self.facets[i].corners[1];
            // The depth-first walk over the visible facets (a disc) gives the horizon as a loop,
            // so the next fan facet is the one. The search is the fallback, for a visible set
            // that the rounding of `visible` leaves not a disc: never taken in probe
            // `pointstats`'s runs (3000 queries, about 10^5 steps).
            let next = first + (i + 1 - first) % count;
            let j = if self.facets[next].corners[0] == b {
                next
            } else {
                (first..first + count).find(|&j| self.facets[j].corners[0] == b)?
            };
            self.facets[i].adjacent[1] = j as u32;
            self.facets[j].adjacent[2] = i as u32;
        }
        // Drop removed facets from the heap's top, so that `closest` sees an alive one.
        while let Some(top) = self.heap.peek() {
            if self.facets[top.1 as usize].alive {
                break;
            }
            self.heap.pop();
        }
        Some(())
    }

    /// The index of the edge of facet `f` that it shares with facet `g`.
    fn edge_towards(&self, f: u32, g: u32) -> usize {
        let adjacent = self.facets[f as usize].adjacent;
        (0..3).find(|&k| adjacent[k] == g).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs up to `steps` steps; the last bounds.
    fn run(support: &impl Fn(&Vector3<f64>) -> Vector3<f64>, steps: usize, tolerance: f64) -> Step {
        let mut p = ExpandingPolytope::new(support).expect("a full-dimensional set");
        let mut last = Step::Failed;
        for _ in 0..steps {
            last = p.step(support);
            match last {
                Step::Expanded { lower, upper, .. } if upper - lower <= tolerance => return last,
                Step::Growing { .. } | Step::Expanded { .. } => {}
                _ => return last,
            }
        }
        last
    }

    #[test]
    fn a_ball_about_a_point_near_the_origin_has_its_distance_bracketed() {
        // K: a ball of radius 1 about c; min_u h_K(u) = 1 - |c|.
        for c in [
            Vector3::new(0.3, -0.2, 0.1),
            Vector3::new(0.0, 0.0, 0.999),
            Vector3::new(-0.5, 0.4, 0.7),
        ] {
            let support = |u: &Vector3<f64>| c + u / u.norm();
            let exact = 1.0 - c.norm();
            match run(&support, 500, 1e-9) {
                Step::Expanded {
                    lower,
                    upper,
                    normal,
                } => {
                    assert!(
                        lower <= exact && exact <= upper + 1e-15,
                        "{lower} {exact} {upper}"
                    );
                    assert!(upper - lower <= 1e-9);
                    assert!((normal + c / c.norm()).norm() < 1e-3, "{normal}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_box_is_bracketed_exactly_and_a_set_beside_the_origin_is_separated() {
        // K: the box [-1, 2] x [-3, 0.25] x [-1, 1]: min_u h_K(u) = 0.25 along +y.
        let (lo, hi) = (Vector3::new(-1.0, -3.0, -1.0), Vector3::new(2.0, 0.25, 1.0));
        let support = |u: &Vector3<f64>| {
            Vector3::new(
                if u.x >= 0.0 { hi.x } else { lo.x },
                if u.y >= 0.0 { hi.y } else { lo.y },
                if u.z >= 0.0 { hi.z } else { lo.z },
            )
        };
        match run(&support, 100, 0.0) {
            Step::Converged {
                lower,
                upper,
                normal,
            } => {
                assert!((upper - 0.25).abs() < 1e-14 && lower <= 0.25 && lower > 0.25 - 1e-12);
                assert!((normal - Vector3::y()).norm() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        // Shifted so that the origin lies outside: a separating direction is found.
        let apart = |u: &Vector3<f64>| support(u) + Vector3::new(0.0, -0.5, 0.0);
        match run(&apart, 100, 0.0) {
            Step::Separated {
                normal,
                support_value,
            } => {
                assert!(support_value < 0.0);
                assert!((apart(&normal).dot(&normal) - support_value).abs() < 1e-15);
            }
            other => panic!("{other:?}"),
        }
    }

    /// Every alive facet's neighbour across edge `k` is alive and holds that edge reversed, and
    /// each facet faces away from the polytope's points (none lies above its plane beyond the
    /// rounding): the walk, the fan and its links keep the polytope a closed convex surface.
    /// A seeded generator of numbers uniform in [0, 1) (a linear congruential one: the tests'
    /// draws need no dependency).
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// The support map of the axis-aligned ellipsoid of semi-axes `r` centred at `c`.
    fn ellipsoid_support(
        r: Vector3<f64>,
        c: Vector3<f64>,
    ) -> impl Fn(&Vector3<f64>) -> Vector3<f64> {
        move |u: &Vector3<f64>| {
            let m = u.component_mul(&r);
            c + m.component_mul(&r) / m.norm()
        }
    }

    fn assert_closed_and_convex(p: &ExpandingPolytope) {
        let alive: Vec<usize> = (0..p.facets.len()).filter(|&f| p.facets[f].alive).collect();
        assert!(alive.len() >= 4);
        for &f in &alive {
            let facet = &p.facets[f];
            for k in 0..3 {
                let (a, b) = (facet.corners[k], facet.corners[(k + 1) % 3]);
                let g = &p.facets[facet.adjacent[k] as usize];
                assert!(g.alive, "facet {f}'s neighbour {k} was removed");
                assert!(
                    (0..3).any(|j| g.corners[j] == b && g.corners[(j + 1) % 3] == a),
                    "facet {f}'s neighbour {k} does not hold its edge"
                );
            }
            for x in &p.points {
                assert!(facet.normal.dot(x) - facet.offset <= 1e-9 * p.size);
            }
        }
        // Euler: a closed triangulated surface of V vertices has 2 V - 4 facets.
        let mut used: Vec<u32> = alive.iter().flat_map(|&f| p.facets[f].corners).collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(alive.len(), 2 * used.len() - 4);
    }

    #[test]
    fn every_step_leaves_a_closed_convex_polytope() {
        let mut next = uniform(11);
        type Support = Box<dyn Fn(&Vector3<f64>) -> Vector3<f64>>;
        let mut sets: Vec<Support> = Vec::new();
        for _ in 0..10 {
            let r = Vector3::new(0.1 + next(), 0.1 + next(), 0.1 + next());
            let c = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 0.2;
            sets.push(Box::new(ellipsoid_support(r, c)));
        }
        // A box, whose support points repeat (coplanar and duplicate candidates).
        sets.push(Box::new(|u: &Vector3<f64>| {
            Vector3::new(u.x.signum() * 1.5, u.y.signum() * 0.5 - 0.1, u.z.signum())
        }));
        for support in &sets {
            let mut p = ExpandingPolytope::new(support).unwrap();
            assert_closed_and_convex(&p);
            for _ in 0..80 {
                match p.step(support) {
                    Step::Expanded { .. } | Step::Growing { .. } => assert_closed_and_convex(&p),
                    _ => break,
                }
            }
        }
    }

    #[test]
    fn lower_bounds_never_pass_the_true_minimum_on_random_ellipsoids() {
        // K: an ellipsoid D S^2 (semi-axes r, turned) about c, min_u h_K(u) by a dense search.
        let mut next = uniform(7);
        for _ in 0..20 {
            let r = Vector3::new(0.2 + next(), 0.2 + next(), 0.2 + next());
            let c = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 0.3;
            let support = ellipsoid_support(r, c);
            let h = |u: &Vector3<f64>| support(u).dot(u);
            let mut p = ExpandingPolytope::new(&support).unwrap();
            let mut best_upper = f64::INFINITY;
            for _ in 0..200 {
                match p.step(&support) {
                    Step::Expanded { lower, upper, .. } => {
                        best_upper = best_upper.min(upper);
                        assert!(lower <= best_upper);
                        // No sampled direction lies below the lower bound.
                        for k in 0..200 {
                            let t = k as f64 * 0.1;
                            let u =
                                Vector3::new(t.cos() * (0.3 * t).sin(), t.sin(), (0.7 * t).cos());
                            assert!(h(&(u / u.norm())) >= lower - 1e-12);
                        }
                        if upper - lower < 1e-10 {
                            break;
                        }
                    }
                    Step::Growing { .. } => {}
                    other => panic!("{other:?}"),
                }
            }
            assert!(best_upper - p.lower_bound() < 1e-9);
        }
    }
}
