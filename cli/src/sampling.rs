//! Seeded random scenes: directions, rotations and poses drawn uniformly.

use demcontact::Pose;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator every protocol uses: seeded, so that a run can be repeated exactly.
pub type SceneRng = ChaCha8Rng;

/// A generator from `seed`.
pub fn rng(seed: u64) -> SceneRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A direction uniform on the unit sphere.
pub fn unit_vector(rng: &mut SceneRng) -> Vector3<f64> {
    loop {
        let v = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 1e-3 && n <= 1.0 {
            return v / n;
        }
    }
}

/// A rotation uniform over SO(3) (Shoemake's method).
pub fn rotation(rng: &mut SceneRng) -> UnitQuaternion<f64> {
    let (u1, u2, u3): (f64, f64, f64) = (rng.random(), rng.random(), rng.random());
    let tau = std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    UnitQuaternion::new_normalize(Quaternion::new(
        b * (tau * u3).cos(),
        a * (tau * u2).sin(),
        a * (tau * u2).cos(),
        b * (tau * u3).sin(),
    ))
}

/// A pose with a position uniform in the cube `[-half, half]^3` and a uniform rotation.
pub fn pose(rng: &mut SceneRng, half: f64) -> Pose {
    let p = Vector3::new(
        rng.random_range(-half..half),
        rng.random_range(-half..half),
        rng.random_range(-half..half),
    );
    Pose::new(p, rotation(rng))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_unit_and_reproducible() {
        let (mut a, mut b) = (rng(7), rng(7));
        for _ in 0..100 {
            let v = unit_vector(&mut a);
            assert!((v.norm() - 1.0).abs() < 1e-14);
            assert_eq!(v, unit_vector(&mut b));
            let q = rotation(&mut a);
            assert!((q.quaternion().norm() - 1.0).abs() < 1e-14);
            assert_eq!(q, rotation(&mut b));
        }
    }
}
