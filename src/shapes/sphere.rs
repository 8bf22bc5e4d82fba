//! The sphere: the shape whose contact is exact in closed form.

use crate::error::{ensure_finite, Error, Result};
use nalgebra::Vector3;

/// A sphere centred on its body-frame origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    radius: f64,
}

impl Sphere {
    /// A sphere of `radius` (host length unit), which must be finite and > 0.
    pub fn new(radius: f64) -> Result<Self> {
        ensure_finite("radius", &[radius])?;
        if radius <= 0.0 {
            return Err(Error::InvalidArgument(format!(
                "radius = {radius}: a sphere's radius must be > 0"
            )));
        }
        Ok(Sphere { radius })
    }

    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The point of the surface farthest along `direction` (body frame; any length but 0).
    pub fn support_point(&self, direction: &Vector3<f64>) -> Vector3<f64> {
        direction * (self.radius / direction.norm())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_radii() {
        assert!(Sphere::new(1.0).is_ok());
        assert!(matches!(Sphere::new(0.0), Err(Error::InvalidArgument(_))));
        assert!(matches!(Sphere::new(-2.0), Err(Error::InvalidArgument(_))));
        assert!(matches!(Sphere::new(f64::NAN), Err(Error::NonFinite(_))));
    }

    #[test]
    fn support_point_lies_on_the_surface() {
        let s = Sphere::new(2.0).unwrap();
        let p = s.support_point(&Vector3::new(0.0, 3.0, 4.0));
        assert!((p - Vector3::new(0.0, 1.2, 1.6)).norm() < 1e-15);
    }
}
