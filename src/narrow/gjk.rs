//! The Gilbert-Johnson-Keerthi intersection test on a support map: the arbiter that decides
//! overlap or separation when a kernel's own certificate is not conclusive.

use nalgebra::Vector3;

/// What [`intersect`] decided about a convex set `K` given by its support map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gjk {
    /// `h_K(v) < 0`: the plane normal to `v` separates `K` from the origin.
    Separated(Vector3<f64>),
    /// The origin lies in a tetrahedron of support points of `K`, hence in `K`.
    Intersecting,
    /// Neither was proven within the iteration budget (the origin lies on `K`'s boundary to
    /// rounding).
    Undecided,
}

/// Decides whether the origin lies in the convex set `K` whose support point along `v` is
/// `support(v)`, starting from direction `v0` (any non-zero vector).
///
/// Both answers carry a certificate: a direction with `support(v) . v < 0`, or four support
/// points whose tetrahedron contains the origin (every signed volume test is exact up to the
/// rounding of its cross and dot products, so an origin within rounding of a face gives
/// [`Gjk::Undecided`] rather than a wrong answer).
pub fn intersect(
    mut support: impl FnMut(&Vector3<f64>) -> Vector3<f64>,
    v0: Vector3<f64>,
    max_iterations: usize,
) -> Gjk {
    let mut simplex: Vec<Vector3<f64>> = Vec::with_capacity(4);
    let mut v = if v0.norm_squared() > 0.0 {
        v0
    } else {
        Vector3::x()
    };
    for _ in 0..max_iterations {
        let w = support(&v);
        if w.dot(&v) < 0.0 {
            return Gjk::Separated(v);
        }
        simplex.push(w);
        match next_direction(&mut simplex) {
            Some(next) if next.norm_squared() > 0.0 && next.iter().all(|x| x.is_finite()) => {
                v = next
            }
            Some(_) => return Gjk::Undecided,
            None => return Gjk::Intersecting,
        }
    }
    Gjk::Undecided
}

/// Reduces `simplex` (newest point last) to the sub-simplex nearest the origin and returns the
/// next search direction, or `None` when the tetrahedron contains the origin.
fn next_direction(simplex: &mut Vec<Vector3<f64>>) -> Option<Vector3<f64>> {
    match simplex.len() {
        1 => Some(-simplex[0]),
        2 => {
            let (b, a) = (simplex[0], simplex[1]);
            let (ab, ao) = (b - a, -a);
            if ab.dot(&ao) > 0.0 {
                Some(ab.cross(&ao).cross(&ab))
            } else {
                *simplex = vec![a];
                Some(ao)
            }
        }
        3 => Some(triangle(simplex)),
        _ => tetrahedron(simplex),
    }
}

/// The triangle case (`[c, b, a]`, `a` newest).
fn triangle(simplex: &mut Vec<Vector3<f64>>) -> Vector3<f64> {
    let (c, b, a) = (simplex[0], simplex[1], simplex[2]);
    let (ab, ac, ao) = (b - a, c - a, -a);
    let abc = ab.cross(&ac);
    if abc.cross(&ac).dot(&ao) > 0.0 {
        if ac.dot(&ao) > 0.0 {
            *simplex = vec![c, a];
            return ac.cross(&ao).cross(&ac);
        }
        *simplex = vec![b, a];
        return edge(simplex);
    }
    if ab.cross(&abc).dot(&ao) > 0.0 {
        *simplex = vec![b, a];
        return edge(simplex);
    }
    if abc.dot(&ao) > 0.0 {
        abc
    } else {
        *simplex = vec![b, c, a];
        -abc
    }
}

/// The edge case (`[b, a]`, `a` newest) reached from a triangle.
fn edge(simplex: &mut Vec<Vector3<f64>>) -> Vector3<f64> {
    let (b, a) = (simplex[0], simplex[1]);
    let (ab, ao) = (b - a, -a);
    if ab.dot(&ao) > 0.0 {
        ab.cross(&ao).cross(&ab)
    } else {
        *simplex = vec![a];
        ao
    }
}

/// The tetrahedron case (`[d, c, b, a]`, `a` newest): `None` when it contains the origin.
fn tetrahedron(simplex: &mut Vec<Vector3<f64>>) -> Option<Vector3<f64>> {
    let (d, c, b, a) = (simplex[0], simplex[1], simplex[2], simplex[3]);
    let (ab, ac, ad, ao) = (b - a, c - a, d - a, -a);
    let faces = [
        (ab.cross(&ac), d, [c, b, a]),
        (ac.cross(&ad), b, [d, c, a]),
        (ad.cross(&ab), c, [b, d, a]),
    ];
    for (normal, opposite, tri) in faces {
        // Orient the face normal away from the opposite vertex.
        let n = if normal.dot(&(opposite - a)) > 0.0 {
            -normal
        } else {
            normal
        };
        if n.dot(&ao) > 0.0 {
            *simplex = tri.to_vec();
            return Some(triangle(simplex));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The support map of a ball of `radius` centred at `centre`.
    fn ball(centre: Vector3<f64>, radius: f64) -> impl FnMut(&Vector3<f64>) -> Vector3<f64> {
        move |v: &Vector3<f64>| centre + v.normalize() * radius
    }

    #[test]
    fn balls_are_classified_with_certificates() {
        let cases = [
            (Vector3::new(0.3, -0.2, 0.1), 1.0, true),
            (Vector3::new(0.0, 0.0, 0.999), 1.0, true),
            (Vector3::new(0.0, 1.001, 0.0), 1.0, false),
            (Vector3::new(2.0, 2.0, -1.0), 1.5, false),
            (Vector3::new(0.7, 0.7, 0.0), 1.0, true),
        ];
        for (centre, radius, inside) in cases {
            match intersect(ball(centre, radius), Vector3::x(), 200) {
                Gjk::Intersecting => assert!(inside, "{centre:?}"),
                Gjk::Separated(v) => {
                    assert!(!inside, "{centre:?}");
                    assert!(ball(centre, radius)(&v).dot(&v) < 0.0);
                }
                Gjk::Undecided => panic!("undecided for {centre:?}"),
            }
        }
    }

    #[test]
    fn boxes_with_the_origin_near_a_face() {
        for (shift, inside) in [(0.999_999, true), (1.000_001, false)] {
            let support = |v: &Vector3<f64>| {
                Vector3::new(v.x.signum() + shift, v.y.signum(), v.z.signum() * 2.0)
            };
            let got = intersect(support, Vector3::new(0.3, 0.2, 0.1), 200);
            assert_eq!(matches!(got, Gjk::Intersecting), inside, "{got:?}");
        }
    }
}
