//! demcontact: fast, exact, robust contact detection between non-spherical DEM particles.
//!
//! The Rust core (`shapes`, `narrow`, `broad`, `world`, `pose`, `contact`, `warm`) knows nothing of C; the stable C ABI
//! lives in [`ffi`] only, a thin layer that validates, catches panics and converts.
//!
//! Conventions everywhere: lengths in the host's unit; poses map body frame to world frame with a
//! position and a unit quaternion (w, x, y, z); the normal points from A to B; `penetration > 0` when
//! the bodies overlap.
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// cbindgen:ignore
pub mod broad;
/// cbindgen:ignore
pub mod contact;
/// cbindgen:ignore
pub mod error;
#[allow(unsafe_code)]
pub mod ffi;
/// cbindgen:ignore
pub mod narrow;
/// cbindgen:ignore
pub mod pose;
/// cbindgen:ignore
pub mod shapes;
/// cbindgen:ignore
pub mod warm;
/// cbindgen:ignore
pub mod world;

pub use contact::{Contact, ContactKind};
pub use error::{Error, Result};
pub use pose::Pose;
pub use shapes::{Shape, ShapeFamily, Sphere};
pub use warm::WarmState;
