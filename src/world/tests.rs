//! The world against pair queries on its candidate pairs, thread-count determinism, warm states.

use super::*;
use crate::broad::direct_checking_boxes;
use crate::shapes::{Sphere, Superellipsoid};
use nalgebra::{UnitQuaternion, Vector3};
use std::collections::HashMap;
use std::sync::Arc;

fn ball(r: f64) -> Arc<Shape> {
    Arc::new(Shape::Sphere(Sphere::new(r).unwrap()))
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::new(Vector3::new(x, y, z), UnitQuaternion::identity())
}

use crate::broad::tests::Uniform;

/// `n` random spheres and (one in four) superellipsoids in a box of edge `extent`, random
/// orientations.
fn scene(seed: u64, n: usize, extent: f64) -> (Vec<Arc<Shape>>, Vec<Pose>) {
    let mut u = Uniform(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut shapes = Vec::new();
    let mut poses = Vec::new();
    for i in 0..n {
        shapes.push(if i % 4 != 0 {
            ball(0.3 + 0.2 * u.next())
        } else {
            let r = |u: &mut Uniform| 0.25 + 0.35 * u.next();
            let e = |u: &mut Uniform| 0.4 + 1.2 * u.next();
            Arc::new(Shape::Superellipsoid(
                Superellipsoid::new(r(&mut u), r(&mut u), r(&mut u), e(&mut u), e(&mut u)).unwrap(),
            ))
        });
        let axis = Vector3::new(u.next() - 0.5, u.next() - 0.5, u.next() - 0.5) * 6.0;
        poses.push(Pose::new(
            Vector3::new(u.next(), u.next(), u.next()) * extent,
            UnitQuaternion::from_scaled_axis(axis),
        ));
    }
    (shapes, poses)
}

/// Every pose moved a little and turned a little.
fn jiggle(poses: &[Pose], u: &mut Uniform, step: f64) -> Vec<Pose> {
    poses
        .iter()
        .map(|p| {
            let dx = Vector3::new(u.next() - 0.5, u.next() - 0.5, u.next() - 0.5) * step;
            let turn = UnitQuaternion::from_scaled_axis(dx * 2.0);
            Pose::new(p.position + dx, turn * p.rotation)
        })
        .collect()
}

#[test]
fn a_row_of_spheres_has_the_contacts_of_the_closed_form() {
    // Radius 0.5 at x = 0, 0.9, 1.7, 5: overlaps 0.1 (0-1) and 0.2 (1-2), none with the far one.
    let mut world = World::new(0.05).unwrap();
    let shapes = vec![ball(0.5); 4];
    let poses = vec![
        at(0.0, 0.0, 0.0),
        at(0.9, 0.0, 0.0),
        at(1.7, 0.0, 0.0),
        at(5.0, 0.0, 0.0),
    ];
    world.set_bodies(shapes, poses).unwrap();
    let contacts = world.step(2).unwrap().to_vec();
    assert_eq!(contacts.len(), 2);
    assert_eq!((contacts[0].a, contacts[0].b), (0, 1));
    assert_eq!((contacts[1].a, contacts[1].b), (1, 2));
    assert!((contacts[0].contact.penetration - 0.1).abs() < 1e-15);
    assert!((contacts[1].contact.penetration - 0.2).abs() < 1e-15);
    assert_eq!(contacts[0].contact.normal, Vector3::x());
    assert!(!contacts[0].contact.warm_started);
    // The next step starts every kept pair from its warm state.
    let contacts = world.step(1).unwrap();
    assert!(contacts.iter().all(|c| c.contact.warm_started));
    assert_eq!(world.candidate_pairs(), &[[0, 1], [1, 2]]);
}

#[test]
fn pairs_leave_beyond_the_skin_and_come_back_cold() {
    let mut world = World::new(0.1).unwrap();
    world
        .set_bodies(
            vec![ball(0.5), ball(0.5)],
            vec![at(0.0, 0.0, 0.0), at(0.95, 0.0, 0.0)],
        )
        .unwrap();
    assert_eq!(world.step(1).unwrap().len(), 1);
    // Apart by 0.05, within the skin: the pair and its warm state stay.
    world
        .set_poses(&[at(0.0, 0.0, 0.0), at(1.05, 0.0, 0.0)])
        .unwrap();
    assert!(world.step(1).unwrap().is_empty());
    assert_eq!(world.candidate_pairs(), &[[0, 1]]);
    // Far apart: dropped.
    world
        .set_poses(&[at(0.0, 0.0, 0.0), at(3.0, 0.0, 0.0)])
        .unwrap();
    assert!(world.step(1).unwrap().is_empty());
    assert!(world.candidate_pairs().is_empty());
    world
        .set_poses(&[at(0.0, 0.0, 0.0), at(0.9, 0.0, 0.0)])
        .unwrap();
    let c = world.step(1).unwrap();
    assert_eq!(c.len(), 1);
    assert!(!c[0].contact.warm_started);
}

#[test]
fn contacts_equal_pair_queries_on_every_candidate_pair_and_any_thread_count() {
    let (shapes, mut poses) = scene(4, 60, 3.0);
    let mut worlds: Vec<World<Arc<Shape>>> = [1, 2, 3]
        .iter()
        .map(|_| {
            let mut w = World::new(0.05).unwrap();
            w.set_bodies(shapes.clone(), poses.clone()).unwrap();
            w
        })
        .collect();
    // The reference: the pair query on each candidate pair, with warm states kept by pair.
    let mut reference: HashMap<BodyPair, WarmState> = HashMap::new();
    let mut u = Uniform(77);
    for step in 0..4 {
        let runs: Vec<Vec<BodyContact>> = worlds
            .iter_mut()
            .zip([1, 2, 0])
            .map(|(w, threads)| w.step(threads).unwrap().to_vec())
            .collect();
        assert_eq!(runs[0], runs[1], "step {step}: 1 vs 2 threads");
        assert_eq!(runs[0], runs[2], "step {step}: 1 thread vs all cores");
        let candidates = worlds[0].candidate_pairs().to_vec();
        reference.retain(|p, _| candidates.binary_search(p).is_ok());
        let mut expected = Vec::new();
        for &[a, b] in &candidates {
            let w = reference.entry([a, b]).or_default();
            let (i, j) = (a as usize, b as usize);
            let c = collide(&shapes[i], &poses[i], &shapes[j], &poses[j], Some(w)).unwrap();
            if c.touching {
                expected.push(BodyContact { a, b, contact: c });
            }
        }
        assert_eq!(runs[0], expected, "step {step}");
        // Every overlapping pair of boxes is a candidate.
        let boxes: Vec<Aabb> = shapes
            .iter()
            .zip(&poses)
            .map(|(s, p)| Aabb::of_shape(s, p))
            .collect();
        let overlapping = direct_checking_boxes(&boxes);
        assert!(overlapping
            .iter()
            .all(|p| candidates.binary_search(p).is_ok()));
        assert!(!expected.is_empty());
        poses = jiggle(&poses, &mut u, 0.02);
        for w in worlds.iter_mut() {
            w.set_poses(&poses).unwrap();
        }
    }
}

#[test]
fn bad_bodies_and_unsupported_pairs_are_refused() {
    let mut world = World::new(0.0).unwrap();
    assert!(world.set_bodies(vec![ball(1.0)], vec![]).is_err());
    assert!(world.step(0).unwrap().is_empty());
    assert!(World::<Shape>::new(f64::NAN).is_err());
    let cube: Vec<Vector3<f64>> = (0..8)
        .map(|i| Vector3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
        .collect();
    let cube = Arc::new(Shape::Polyhedron(
        crate::shapes::Polyhedron::new(&cube).unwrap(),
    ));
    world
        .set_bodies(
            vec![ball(0.5), ball(0.5), cube],
            vec![at(10.0, 0.0, 0.0), at(0.0, 0.0, 0.0), at(0.2, 0.2, 0.2)],
        )
        .unwrap();
    let e = world.step(1).unwrap_err();
    assert!(
        matches!(e, Error::UnsupportedPair(ref m) if m.starts_with("bodies 1 and 2")),
        "{e}"
    );
    assert!(world.contacts().is_empty());
    assert!(world.set_poses(&[at(0.0, 0.0, 0.0)]).is_err());
    assert_eq!(world.len(), 3);
}
