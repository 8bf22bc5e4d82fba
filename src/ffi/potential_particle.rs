//! Potential particles through the C ABI (Boon, Houlsby & Utili 2013): creation. Pairs of potential
//! particles go through `demcontact_collide` like every other pair.

use super::boundary::run;
use super::pointers::{arg_mut, records};
use super::shape::demcontact_shape;
use super::status::*;
use crate::shapes::{PotentialParticle, Shape};

/// Creates a potential particle (Boon, Houlsby & Utili 2013, eq. (2)):
/// `f = (1-k) (sum_i <a_i x + b_i y + c_i z - d_i>^2 / r^2 - 1) + k (|x|^2 / R^2 - 1)`, the body
/// where `f <= 0`, in its body frame (host length unit).
///
/// `abcd` holds the `n_planes` planes as `a0, b0, c0, d0, a1, ...` (`4 * n_planes` doubles): outward
/// normals `(a, b, c)` of any non-zero length (each plane is divided by its normal's length, which
/// leaves the plane unchanged and makes `d` its distance from the origin) and `d > 0` (the body-frame
/// origin inside every plane). `r > 0` is the rounding, `R > 0` the shadow sphere's radius and `k`
/// in the open range (0, 1) its weight. Pairs of potential particles use the second-order cone
/// program of the paper's eq. (6) (contact type `DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE`);
/// paired with any other family, `demcontact_collide` returns `DEMCONTACT_STATUS_UNSUPPORTED_PAIR`.
///
/// On success `*out` is a new handle that the caller frees with `demcontact_shape_release`; on
/// failure `*out` is NULL. Fails with `DEMCONTACT_STATUS_NULL_ARGUMENT` when `out` is NULL, or
/// `abcd` is NULL with `n_planes > 0`; `DEMCONTACT_STATUS_NON_FINITE` for a NaN or infinite number;
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` for `r <= 0`, `R <= 0`, `k` outside (0, 1), a plane with
/// `d <= 0`, or a count whose `4 * n_planes` doubles cannot be addressed;
/// `DEMCONTACT_STATUS_DEGENERATE_GEOMETRY` for fewer than 4 planes, a zero normal, or normals that do
/// not positively span 3-D (the planes bound no finite body). Thread-safe.
///
/// # Safety
/// `abcd` is NULL or points to `4 * n_planes` readable doubles; `out` is NULL or points to writable
/// storage for one pointer.
// `R` is the paper's name for the shadow sphere's radius (beside the rounding `r`).
#[allow(non_snake_case)]
#[no_mangle]
pub unsafe extern "C" fn demcontact_potential_particle_create(
    abcd: *const f64,
    n_planes: usize,
    r: f64,
    R: f64,
    k: f64,
    out: *mut *mut demcontact_shape,
) -> demcontact_status {
    run(|| {
        let out = unsafe { arg_mut(out, "out") }?;
        *out = std::ptr::null_mut();
        let planes = unsafe { records::<4>(abcd, n_planes, "abcd", "n_planes") }?;
        let particle = PotentialParticle::new(planes, r, R, k)?;
        *out = demcontact_shape::into_raw(Shape::PotentialParticle(particle));
        Ok(())
    })
}
