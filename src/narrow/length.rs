//! The length and direction of a vector, to rounding for any finite vector: the plain
//! `sqrt(x^2 + y^2 + z^2)` loses precision when the squares fall below the normal range (lengths
//! below about `1e-154`, where a direction `v / |v|` came out off unit length by up to `1e-6`) and
//! overflows when they rise above it (lengths above about `1e154`); and a vector of subnormal
//! components divided by its own length, itself rounded to the coarse grid of subnormal numbers,
//! is no unit vector (two components of `5e-324` over a length of `5e-324` gave a normal of length
//! `sqrt(2)`, a long run of the ABI's garbage-input property test found).

use nalgebra::Vector3;

/// Squared lengths from here up are formed to rounding: a component whose square is subnormal is
/// then below `2^-52` of the length (`2^-970`).
const SQUARED_LOW: f64 = 1.0e-292;

/// Squared lengths below this cannot have overflowed (`2^1000`).
const SQUARED_HIGH: f64 = 1.0e301;

/// `|v|` for a finite `v` (any length unit) to a few units in the last place, also for the
/// smallest and largest vectors. A NaN or infinite component gives a NaN or infinite length.
#[inline(always)]
pub fn length(v: &Vector3<f64>) -> f64 {
    let squared = v.norm_squared();
    if (SQUARED_LOW..SQUARED_HIGH).contains(&squared) {
        squared.sqrt()
    } else {
        scaled_length(v)
    }
}

/// [`length`] off its common path: `v` divided by its largest component's magnitude first (a
/// vector of length between 1 and `sqrt(3)`), whose length is then formed safely.
#[cold]
#[inline(never)]
fn scaled_length(v: &Vector3<f64>) -> f64 {
    let largest = v.amax();
    if largest == 0.0 || !v.iter().all(|x| x.is_finite()) {
        return v.norm();
    }
    largest * (v / largest).norm()
}

/// Lengths from here up have squares in the normal range: `v / length(v)` is a unit vector to
/// rounding.
const LENGTH_LOW: f64 = 1.0e-146;

/// `v / |v|` for a finite non-zero `v` of length `length` ([`length`]): a unit vector to rounding
/// for any such `v`, also one of subnormal components (formed from `v` over its largest
/// component's magnitude there, which is exact).
#[inline(always)]
pub fn direction(v: &Vector3<f64>, length: f64) -> Vector3<f64> {
    if length >= LENGTH_LOW {
        v / length
    } else {
        scaled_direction(v)
    }
}

/// [`direction`] off its common path.
#[cold]
#[inline(never)]
fn scaled_direction(v: &Vector3<f64>) -> Vector3<f64> {
    let scaled = v / v.amax();
    scaled / scaled.norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_and_huge_vectors_keep_an_exact_length_and_a_unit_direction() {
        let v = Vector3::new(3.0, -4.0, 12.0);
        for scale in [1e-320, 1e-300, 1e-160, 1e-150, 1.0, 1e150, 1e160, 1e300] {
            let w = v * scale;
            let l = length(&w);
            let direction = direction(&w, l);
            // Subnormal components carry fewer digits themselves.
            let digits = if scale < 1e-300 { 1e-3 } else { 1e-15 };
            assert!(
                (l / (13.0 * scale) - 1.0).abs() < digits,
                "{scale:e}: {l:e}"
            );
            assert!((direction.norm() - 1.0).abs() < 4.0 * f64::EPSILON);
            assert!(
                (direction - v / 13.0).norm() < digits,
                "{scale:e}: {direction:?}"
            );
        }
        // Subnormal components: the direction is formed before the length is rounded.
        for w in [
            Vector3::new(0.0, -5e-324, -5e-324),
            Vector3::new(5e-324, 0.0, 0.0),
            Vector3::new(1e-320, -3e-321, 5e-324),
        ] {
            let l = length(&w);
            let direction = direction(&w, l);
            assert!((direction.norm() - 1.0).abs() < 4.0 * f64::EPSILON, "{w:?}");
            assert!(direction.dot(&w) > 0.0 && l > 0.0);
        }
        let grid = Vector3::new(0.0, -5e-324, -5e-324);
        assert!((grid / length(&grid)).norm() > 1.4);
        // The plain formula fails at both ends.
        let tiny = v * 1e-160;
        assert!(((tiny / tiny.norm()).norm() - 1.0).abs() > 1e-9);
        assert!((v * 1e160).norm().is_infinite());
        assert_eq!(length(&Vector3::zeros()), 0.0);
        assert!(length(&Vector3::new(f64::NAN, 0.0, 0.0)).is_nan());
        assert_eq!(
            length(&Vector3::new(f64::INFINITY, 0.0, 1.0)),
            f64::INFINITY
        );
    }
}
