//! The potential particles of Boon, Houlsby & Utili (2013) used by the validation and benchmarks:
//! Test A's unit cube and the tetrahedron inscribed in it, Test B's square prisms of aspect ratios
//! 1:3 and 1:8, the rounded tetrahedra of Figure 9, and random placements of pairs near contact.
//!
//! The paper does not print the rounding `r`, the shadow sphere `R` or `k` of its particles; ours
//! are chosen so that each looks like its polyhedron with rounded edges: `r = 0.05` (a twentieth of
//! the cube's edge, `0.1` for the visibly rounded Figure 9 tetrahedra), `R` 1.1 times the
//! polyhedron's circumradius and `k = 0.3` (`0.5` for Figure 9).

use crate::sampling::{self, SceneRng};
use demcontact::shapes::PotentialParticle;
use demcontact::Pose;
use nalgebra::Vector3;
use rand::Rng;

/// A named potential particle.
pub struct NamedParticle {
    /// What it models.
    pub name: &'static str,
    /// The particle.
    pub particle: PotentialParticle,
}

/// A box of half-extents `h` (6 planes).
fn cuboid(h: [f64; 3], r: f64, k: f64) -> PotentialParticle {
    let mut planes = Vec::new();
    for (axis, half) in h.iter().enumerate() {
        for sign in [1.0, -1.0] {
            let mut p = [0.0, 0.0, 0.0, *half];
            p[axis] = sign;
            planes.push(p);
        }
    }
    let circumradius = Vector3::from(h).norm();
    PotentialParticle::new(&planes, r, 1.1 * circumradius, k).expect("a valid box")
}

/// The regular tetrahedron inscribed in the cube of half-width `half` (vertices at alternate
/// corners; edge `sqrt(2)` times the cube's, volume a third), Test A.
fn inscribed_tetrahedron(half: f64, r: f64, k: f64) -> PotentialParticle {
    let d = half / 3f64.sqrt();
    let planes = [
        [-1.0, -1.0, -1.0, d * 3f64.sqrt()],
        [-1.0, 1.0, 1.0, d * 3f64.sqrt()],
        [1.0, -1.0, 1.0, d * 3f64.sqrt()],
        [1.0, 1.0, -1.0, d * 3f64.sqrt()],
    ];
    let circumradius = half * 3f64.sqrt();
    PotentialParticle::new(&planes, r, 1.1 * circumradius, k).expect("a valid tetrahedron")
}

/// The unit cube of Test A (6 planes).
pub fn cube() -> PotentialParticle {
    cuboid([0.5; 3], 0.05, 0.3)
}

/// The rounded tetrahedron of Figure 9 (4 planes).
pub fn figure9_tetrahedron() -> PotentialParticle {
    inscribed_tetrahedron(0.5, 0.1, 0.5)
}

/// The particles of Tests A and B and of Figure 9.
pub fn catalogue() -> Vec<NamedParticle> {
    vec![
        NamedParticle {
            name: "cube (Test A)",
            particle: cube(),
        },
        NamedParticle {
            name: "tetrahedron (Test A)",
            particle: inscribed_tetrahedron(0.5, 0.05, 0.3),
        },
        NamedParticle {
            name: "prism 1:3 (Test B)",
            particle: cuboid([0.5, 0.5, 1.5], 0.05, 0.3),
        },
        NamedParticle {
            name: "prism 1:8 (Test B)",
            particle: cuboid([0.5, 0.5, 4.0], 0.05, 0.3),
        },
        NamedParticle {
            name: "rounded tetrahedron (Figure 9)",
            particle: figure9_tetrahedron(),
        },
    ]
}

/// Random poses of `a` and `b` near contact: uniform orientations, B's centre along a uniform
/// direction `u` from A's at `g` times the sum of the bodies' extents along `u` (their support
/// values, which the bodies just touch at when they are, along `u`, boxes), `g` uniform in `gap`.
pub fn place(
    rng: &mut SceneRng,
    a: &PotentialParticle,
    b: &PotentialParticle,
    gap: std::ops::Range<f64>,
) -> (Pose, Pose) {
    let pa = sampling::pose(rng, 1.0);
    let rb = sampling::rotation(rng);
    let u = sampling::unit_vector(rng);
    let extent_a = u.dot(&pa.transform_vector(&a.support_point(&pa.inverse_transform_vector(&u))));
    let ub = rb.inverse_transform_vector(&-u);
    let extent_b = -u.dot(&(rb * b.support_point(&ub)));
    let distance = (extent_a + extent_b) * rng.random_range(gap);
    (pa, Pose::new(pa.position + u * distance, rb))
}
