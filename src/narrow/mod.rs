//! Narrow phase: the exact contact of one pair of shapes, and of many pairs at once.
//!
//! [`collide`](crate::narrow::collide) is the one dispatcher: it matches the two shape families to a kernel (one file per
//! pair of families, named like its function). Kernels of shapes with an orientation take B's pose
//! relative to A ([`Pose::relative`]: one transform, fewer round-off steps) and their result goes back
//! to the world frame once, at the end ([`Contact::transformed`]); the sphere kernel, symmetric under
//! rotation, works on world positions directly and rotates nothing.

mod batch;
pub mod common_normal;
pub mod expanding_polytope;
pub mod fast_direct_search;
mod float_order;
pub mod gjk;
mod length;
pub mod potential_socp;
mod sphere_sphere;

pub use batch::{for_each_chunk, MAX_THREADS};
pub use fast_direct_search::{BasicContact, BasicKind};
pub use sphere_sphere::sphere_sphere;

use crate::contact::Contact;
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::shapes::{Shape, SmoothConvex};
use crate::warm::WarmState;

/// Whether `kernel` is the warm-state tag of one of this library's kernels.
pub fn is_known_kernel(kernel: u32) -> bool {
    kernel == sphere_sphere::KERNEL
        || kernel == common_normal::KERNEL
        || kernel == fast_direct_search::KERNEL
        || kernel == potential_socp::KERNEL
}

/// The contact of shape `a` at `pose_a` with shape `b` at `pose_b`, in the world frame.
///
/// `warm` is the pair's state from the previous time step (`None` or a cold state: a new contact); on
/// success it is updated for the next step, on failure it is left as it was. The normal points from A
/// to B; `penetration > 0` when the bodies overlap.
///
/// ```
/// use demcontact::{narrow::collide, pose::Pose, shapes::{Shape, Sphere}, warm::WarmState};
/// let ball = Shape::Sphere(Sphere::new(1.0)?);
/// let a = Pose::from_wxyz([0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])?;
/// let b = Pose::from_wxyz([0.0, 1.9, 0.0], [1.0, 0.0, 0.0, 0.0])?;
/// let mut warm = WarmState::cold();
/// let c = collide(&ball, &a, &ball, &b, Some(&mut warm))?;
/// assert!(c.touching && (c.penetration - 0.1).abs() < 1e-12);
/// assert_eq!(c.normal.y, 1.0);
/// # Ok::<(), demcontact::Error>(())
/// ```
#[inline]
pub fn collide(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    mut warm: Option<&mut WarmState>,
) -> Result<Contact> {
    let mut validated = false;
    if let Some(state) = warm.as_deref_mut() {
        // A pair apart at its last query that a kernel's motion certificate still excludes: the
        // warm state is read in place, not copied, and nothing of it changes but the step count.
        state.validate()?;
        validated = true;
        let certified = match (a, b) {
            (Shape::Polyhedron(pa), Shape::Polyhedron(pb)) => {
                fast_direct_search::certified_world(pa, pose_a, pb, pose_b, state)
            }
            _ => common_normal::certified_world(a, pose_a, b, pose_b, state),
        };
        if let Some(contact) = certified {
            contact.ensure_finite()?;
            state.steps = state.steps.saturating_add(1);
            return Ok(contact);
        }
    }
    query_in_full(a, pose_a, b, pose_b, warm, validated)
}

/// [`collide`] past the motion certificates: the kernel's query on a copy of the warm state
/// ([`with_warm_state`]). A call of its own, so that the certified answer, the hot path of a near
/// pair apart, stays a short stretch of code.
#[inline(never)]
fn query_in_full(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    warm: Option<&mut WarmState>,
    validated: bool,
) -> Result<Contact> {
    with_warm_state(warm, validated, |state, kept| {
        let contact = pair_contact(a, pose_a, b, pose_b, state, kept)?;
        contact.ensure_finite()?;
        Ok(contact)
    })
}

/// Runs `query` on a copy of the pair's warm state (validated, unless the caller has just done
/// so: `validated`; cold when `warm` is `None`) and writes the copy back, one step older, only
/// when the query succeeds: on failure the host's state is left as it was. `query`'s second
/// argument tells whether the state is kept (`false`: a scratch state for a host that passed
/// none, dropped afterwards, in which a kernel need not record anything for a next query).
fn with_warm_state<T>(
    warm: Option<&mut WarmState>,
    validated: bool,
    query: impl FnOnce(&mut WarmState, bool) -> Result<T>,
) -> Result<T> {
    let mut state = match &warm {
        Some(w) => {
            if !validated {
                w.validate()?;
            }
            **w
        }
        None => WarmState::cold(),
    };
    let result = query(&mut state, warm.is_some())?;
    state.steps = state.steps.saturating_add(1);
    if let Some(w) = warm {
        *w = state;
    }
    Ok(result)
}

/// The kernel dispatch of [`collide`]: the world-frame contact, `state` updated (what serves
/// only a next query is left out unless the state is `kept`).
#[inline]
fn pair_contact(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    state: &mut WarmState,
    kept: bool,
) -> Result<Contact> {
    Ok(match (a, b) {
        (Shape::Sphere(sa), Shape::Sphere(sb)) => {
            sphere_sphere(sa, sb, &pose_a.position, &pose_b.position, state)
        }
        (Shape::Superellipsoid(sa), Shape::Superellipsoid(sb)) => {
            smooth_pair(sa, pose_a, sb, pose_b, state, kept)?
        }
        (Shape::Sphere(sa), Shape::Superellipsoid(sb)) => {
            smooth_pair(sa, pose_a, sb, pose_b, state, kept)?
        }
        (Shape::Superellipsoid(sa), Shape::Sphere(sb)) => {
            smooth_pair(sa, pose_a, sb, pose_b, state, kept)?
        }
        (Shape::Polyhedron(pa), Shape::Polyhedron(pb)) => {
            fast_direct_search::world_contact_kept(pa, pose_a, pb, pose_b, state, kept)
        }
        (Shape::PotentialParticle(pa), Shape::PotentialParticle(pb)) => {
            let (relative, rotation_a) = pose_a.relative_and_matrix(pose_b);
            potential_socp::potential_socp(pa, pb, &relative, state)?
                .contact
                .transformed_by(&rotation_a, &pose_a.position)
        }
        (Shape::Polyhedron(_), _)
        | (_, Shape::Polyhedron(_))
        | (Shape::PotentialParticle(_), _)
        | (_, Shape::PotentialParticle(_)) => {
            return Err(unsupported_mix(a, b));
        }
    })
}

/// The error for a polyhedron or a potential particle paired with another family (no kernel for
/// that mix yet).
fn unsupported_mix(a: &Shape, b: &Shape) -> Error {
    Error::UnsupportedPair(format!(
        "no contact kernel for a {:?} with a {:?}: polyhedra pair only with polyhedra and potential \
         particles only with potential particles so far",
        a.family(),
        b.family()
    ))
}

/// The contact of two polyhedra, as [`collide`], and their list of basic contacts (Zheng et al.
/// 2017: vertex-face both ways and crossing edge-edge, each with its point, normal and depth; see
/// [`BasicContact`]) appended to `list`, all in the world frame. A pair apart adds nothing.
///
/// # Errors
///
/// [`Error::UnsupportedPair`] unless both shapes are polyhedra; otherwise as [`collide`].
pub fn contact_list(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    warm: Option<&mut WarmState>,
    list: &mut Vec<BasicContact>,
) -> Result<Contact> {
    let (Shape::Polyhedron(pa), Shape::Polyhedron(pb)) = (a, b) else {
        return Err(Error::UnsupportedPair(format!(
            "contact lists are for polyhedron pairs, not a {:?} with a {:?}",
            a.family(),
            b.family()
        )));
    };
    with_warm_state(warm, false, |state, _| {
        let (relative, rotation_a) = pose_a.relative_and_matrix(pose_b);
        let detection = fast_direct_search::fast_direct_search(pa, pb, &relative, state);
        let contact = detection
            .contact
            .transformed_by(&rotation_a, &pose_a.position);
        contact.ensure_finite()?;
        let start = list.len();
        fast_direct_search::contact_list(pa, pb, &relative, &detection, list);
        for item in &mut list[start..] {
            item.point = rotation_a * item.point + pose_a.position;
            item.normal = rotation_a * item.normal;
        }
        Ok(contact)
    })
}

/// The common-normal kernel on B's pose relative to A, its result mapped back to the world frame
/// (`kept`: whether `state` serves a next query).
#[inline]
fn smooth_pair<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    state: &mut WarmState,
    kept: bool,
) -> Result<Contact> {
    let (relative, rotation_a) = pose_a.relative_and_matrix(pose_b);
    let solution = common_normal::common_normal_kept(a, b, &relative, state, kept)?;
    Ok(solution
        .contact
        .transformed_by(&rotation_a, &pose_a.position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Sphere;
    use nalgebra::{UnitQuaternion, Vector3};
    use proptest::prelude::*;

    fn pose(p: [f64; 3], axis_angle: [f64; 3]) -> Pose {
        Pose::new(
            Vector3::from(p),
            UnitQuaternion::from_scaled_axis(Vector3::from(axis_angle)),
        )
    }

    #[test]
    fn rotated_body_a_gives_world_frame_results() {
        let ball = Shape::Sphere(Sphere::new(1.0).unwrap());
        let a = pose([1.0, 1.0, 1.0], [0.3, -1.2, 2.0]);
        let b = pose([1.0, 2.5, 1.0], [0.0, 0.0, 0.0]);
        let c = collide(&ball, &a, &ball, &b, None).unwrap();
        assert!((c.normal - Vector3::y()).norm() < 1e-15);
        assert!((c.penetration - 0.5).abs() < 1e-14);
        assert!((c.point_a - Vector3::new(1.0, 2.0, 1.0)).norm() < 1e-14);
        assert!((c.point_b - Vector3::new(1.0, 1.5, 1.0)).norm() < 1e-14);
    }

    #[test]
    fn warm_state_is_left_alone_on_failure() {
        let ball = Shape::Sphere(Sphere::new(1e300).unwrap());
        let a = pose([-1e308, 0.0, 0.0], [0.0; 3]);
        let b = pose([1e308, 0.0, 0.0], [0.0; 3]);
        let mut warm = WarmState::cold();
        assert!(collide(&ball, &a, &ball, &b, Some(&mut warm)).is_err());
        assert!(warm.is_cold());
    }

    fn arb_pose() -> impl Strategy<Value = Pose> {
        (
            prop::array::uniform3(-5.0f64..5.0),
            prop::array::uniform3(-3.0f64..3.0),
        )
            .prop_map(|(p, r)| pose(p, r))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

        #[test]
        fn swapping_a_and_b_flips_the_normal(ra in 0.1f64..3.0, rb in 0.1f64..3.0,
                                             pa in arb_pose(), pb in arb_pose()) {
            let (sa, sb) = (Shape::Sphere(Sphere::new(ra).unwrap()), Shape::Sphere(Sphere::new(rb).unwrap()));
            let ab = collide(&sa, &pa, &sb, &pb, None).unwrap();
            let ba = collide(&sb, &pb, &sa, &pa, None).unwrap();
            prop_assert!((ab.normal + ba.normal).norm() < 1e-12);
            prop_assert!((ab.point_a - ba.point_b).norm() < 1e-12);
            prop_assert!((ab.point - ba.point).norm() < 1e-12);
            prop_assert!((ab.penetration - ba.penetration).abs() < 1e-12);
            prop_assert_eq!(ab.touching, ba.touching);
        }

        #[test]
        fn rigid_motion_of_both_bodies_moves_the_contact(ra in 0.1f64..3.0, rb in 0.1f64..3.0,
                                                         pa in arb_pose(), pb in arb_pose(), m in arb_pose()) {
            let (sa, sb) = (Shape::Sphere(Sphere::new(ra).unwrap()), Shape::Sphere(Sphere::new(rb).unwrap()));
            let c = collide(&sa, &pa, &sb, &pb, None).unwrap();
            let moved = collide(&sa, &m.compose(&pa), &sb, &m.compose(&pb), None).unwrap();
            prop_assert!((m.transform_point(&c.point) - moved.point).norm() < 1e-11);
            prop_assert!((m.transform_vector(&c.normal) - moved.normal).norm() < 1e-11);
            prop_assert!((c.penetration - moved.penetration).abs() < 1e-11);
            prop_assert!((c.separation - moved.separation).abs() < 1e-11);
        }
    }

    /// A body of each family, of size `s` (host length unit).
    fn body_of_size(family: usize, s: f64) -> Shape {
        use crate::shapes::{Polyhedron, Superellipsoid};
        match family {
            0 => Shape::Sphere(Sphere::new(s).unwrap()),
            1 => Shape::Superellipsoid(Superellipsoid::new(s, 1.5 * s, 0.7 * s, 0.5, 1.5).unwrap()),
            2 => {
                let corners: Vec<Vector3<f64>> = (0..8)
                    .map(|i| {
                        Vector3::new(
                            (i & 1) as f64 - 0.5,
                            ((i >> 1) & 1) as f64 - 0.5,
                            (i >> 2) as f64 * 1.5 - 0.75,
                        ) * s
                    })
                    .collect();
                Shape::Polyhedron(Polyhedron::new(&corners).unwrap())
            }
            _ => Shape::PotentialParticle(super::potential_socp::tests::cube(
                s,
                0.1 * s,
                2.0 * s,
                0.3,
            )),
        }
    }

    /// The scales each family is exercised at: about `1e-150` and `1e150` for spheres and potential
    /// particles (which take any length), the ends of [`crate::shapes::VALIDATED_LENGTHS`] (in
    /// powers of two) for superellipsoids and polyhedra.
    fn extreme_scales(family: usize) -> [f64; 2] {
        match family {
            0 | 3 => [2f64.powi(-500), 2f64.powi(500)],
            _ => [2f64.powi(-99), 2f64.powi(99)],
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(96)))]

        /// Every family at the ends of the lengths it takes (bodies from about 1e-150 to 1e150,
        /// or 1e-30 to 1e30, centres from 1e-9 to 2 sizes apart) answers as at size 1, scaled:
        /// finite numbers, a unit normal, and for a touching pair the same depth, normal and
        /// point (the scale is a power of two, so the configuration scales exactly). Spheres
        /// centred 1e-159 apart once had a normal 1e-6 off unit length, and superellipsoids below
        /// 1e-78 depths off by up to 100 % (they are refused there now).
        #[test]
        fn answers_scale_with_the_bodies_across_the_lengths_each_family_takes(
            family in 0usize..4,
            large in any::<bool>(),
            apart in prop::sample::select(vec![1e-9, 0.3, 0.5, 1.0, 1.5, 2.0]),
            direction in prop::array::uniform3(-1.0f64..1.0),
            ra in prop::array::uniform3(-3.0f64..3.0),
            rb in prop::array::uniform3(-3.0f64..3.0),
        ) {
            let s = extreme_scales(family)[large as usize];
            let (qa, qb) = (
                UnitQuaternion::from_scaled_axis(Vector3::from(ra)),
                UnitQuaternion::from_scaled_axis(Vector3::from(rb)),
            );
            let (at, to) = (Vector3::new(1.0, -2.0, 3.0), Vector3::from(direction) * apart);
            let query = |s: f64, warm: Option<&mut WarmState>| {
                let body = body_of_size(family, s);
                collide(&body, &Pose::new(at * s, qa), &body, &Pose::new((at + to) * s, qb), warm)
            };
            let mut warm = WarmState::cold();
            let (one, scaled) = (query(1.0, None).unwrap(), query(s, Some(&mut warm)));
            prop_assert!(scaled.is_ok(), "{:?}", scaled);
            let c = scaled.unwrap();
            // A deep overlap of nearly concentric bodies has several common normals, and the cold
            // search at the ends of the lengths may settle on another one than at size 1 (a long
            // run of this test met superellipsoids answering a depth of 1.33825 at 2^-99 and 2^99
            // against 1.33954 at size 1, both common normals). The scaled answer must then be a
            // common normal at size 1 too: the query there, started from its direction (the warm
            // state keeps it in A's frame, free of the scale), returns it.
            let one = if one.touching && (c.normal - one.normal).norm() >= 1e-7 {
                query(1.0, Some(&mut warm)).unwrap()
            } else {
                one
            };
            let numbers = [c.point_a, c.point_b, c.point, c.normal];
            prop_assert!(numbers.iter().flatten().all(|x| x.is_finite()), "{:?}", c);
            prop_assert!(c.penetration.is_finite() && c.separation.is_finite(), "{:?}", c);
            prop_assert!((c.normal.norm() - 1.0).abs() < 1e-12, "{:?}", c);
            prop_assert_eq!(c.touching, one.touching);
            if one.touching {
                prop_assert!((c.penetration / s - one.penetration).abs() <= 1e-9 * one.penetration,
                    "{:?} against {:?}", c, one);
                prop_assert!((c.normal - one.normal).norm() < 1e-7, "{:?} against {:?}", c, one);
                // The point to 1e-7 along the normal. Across it, where a body is nearly flat (box-like
                // sides), a normal within 1e-12 rad may put it elsewhere on the contact patch: the
                // saved cases (eps 0.5 / 1.5) answer 1.7e-6 and 1.55e-5 apart at the two scales
                // (normals 1.4e-11 rad apart in the second); 1e-5 across, or the spread of the
                // points the normal's difference allows on the bodies' curvature radii there.
                let moved = c.point / s - one.point;
                let along = moved.dot(&one.normal);
                prop_assert!(along.abs() < 1e-7, "{:?} against {:?}", c, one);
                let body = body_of_size(family, 1.0);
                let spread = if family == 1 {
                    let (pa, pb) = (Pose::new(at, qa), Pose::new(at + to, qb));
                    let turn = (c.normal - one.normal).norm();
                    super::common_normal::tests::point_spread(&body, &pa, &body, &pb, &one.normal, turn)
                } else {
                    0.0
                };
                let across = (moved - one.normal * along).norm();
                prop_assert!(across < 1e-5_f64.max(spread), "{:?} against {:?}", c, one);
            }
        }
    }

    /// A number a host's warm record that no query wrote may hold: small numbers, counts, the
    /// flags' values, tiny and huge magnitudes (finite: `WarmState::validate` refuses the rest).
    fn record_value() -> impl Strategy<Value = f64> {
        prop_oneof![
            -2.0f64..2.0,
            (0u32..12).prop_map(f64::from),
            prop::sample::select(vec![0.0, 1.0, -1.0, 1e-300]),
            -1e300f64..1e300,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(1024)))]

        /// A warm record of random finite numbers under any kernel's tag (memory a host never
        /// zeroed) gives a cold query's answer: a superellipsoid record whose direction's square
        /// overflowed once gave a zero normal and an overlapping pair reported apart, and a
        /// potential particles' record with its multiplier at 0 ended Newton at once on a tiny
        /// shortened step. The pairs stand on their support planes `gap` apart, as in a DEM
        /// contact (overlaps of a few percent of the size at most).
        #[test]
        fn a_warm_record_of_random_numbers_gives_a_cold_answer(
            family in 0usize..4,
            kernel in 1u32..=4,
            steps in 0u32..10,
            data in prop::array::uniform15(record_value()),
            gap in -0.04f64..0.04,
            u in crate::unit_direction(),
            ra in prop::array::uniform3(-3.0f64..3.0),
            rb in prop::array::uniform3(-3.0f64..3.0),
        ) {
            let body = body_of_size(family, 1.0);
            let (qa, qb) = (
                UnitQuaternion::from_scaled_axis(Vector3::from(ra)),
                UnitQuaternion::from_scaled_axis(Vector3::from(rb)),
            );
            let extent = |q: &UnitQuaternion<f64>, d: Vector3<f64>| {
                let local = q.inverse_transform_vector(&d);
                body.support_point(&local).dot(&local)
            };
            let distance = extent(&qa, u) + extent(&qb, -u) + gap;
            let (pa, pb) = (Pose::new(Vector3::zeros(), qa), Pose::new(u * distance, qb));
            let cold = collide(&body, &pa, &body, &pb, None).unwrap();
            let mut record = WarmState { kernel, steps, data };
            let hot = collide(&body, &pa, &body, &pb, Some(&mut record));
            prop_assert!(hot.is_ok(), "{:?}", hot);
            let hot = hot.unwrap();
            prop_assert!((hot.normal.norm() - 1.0).abs() < 1e-12, "{:?}", hot);
            let depth = |c: &Contact| if c.touching { c.penetration } else { -c.separation };
            if hot.touching != cold.touching {
                prop_assert!(depth(&hot).abs().max(depth(&cold).abs()) < 1e-12, "{:?} vs {:?}", hot, cold);
            } else if cold.touching {
                prop_assert!((hot.penetration - cold.penetration).abs() < 1e-10, "{:?} vs {:?}", hot, cold);
            }
        }
    }
}
