//! [`DoubleDouble`]: double-double arithmetic (about 106 bits of mantissa) as a float type clarabel
//! can run on, for the higher-precision reference of the potential particles' SOCP
//! ([`crate::potential_reference::clarabel_socp_dd`]). Validation only; the library never links it.
//!
//! The arithmetic is `twofloat`'s, by delegation, except the division. The newtype exists for what `TwoFloat` lacks as a
//! clarabel float:
//!
//! * exact `FromPrimitive::from_f64` / `from_f32` (`TwoFloat` falls back to `num_traits`' default,
//!   which converts through `i64`/`u64`, so clarabel's constants such as `(0.5).as_T()` come out as
//!   `None` and its `unwrap` panics);
//! * `Float::epsilon` the double-double unit, 2^-104 (`TwoFloat::EPSILON` is `f64::MIN_POSITIVE`,
//!   which makes clarabel's `epsilon()^2` regularisation default underflow to zero);
//! * IEEE behaviour at infinities and division by zero (double-double algorithms turn `1 / 0`,
//!   `x / inf` or an overflow into NaN; clarabel uses `infinity()` and `max_value()` as sentinels):
//!   where the double-double result is not finite, the result is the `f64` operation on the high
//!   words, which is what IEEE arithmetic gives there;
//! * an accurate division (and `recip`, `powi`, `%`): `TwoFloat`'s is only about as accurate as
//!   `f64`'s (see the `Div` implementation);
//! * `is_finite` as "both words finite", and comparisons, `min` and `max` word by word (`TwoFloat`'s
//!   also require the words not to overlap, which its own algorithms can break by the last bit at
//!   a rounding tie, and then take the value for an infinity or a NaN).

use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::num::FpCategory;
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};
use twofloat::TwoFloat;

/// A double-double number: `hi + lo`, two non-overlapping `f64`s (`twofloat::TwoFloat`), with the
/// traits clarabel's `FloatT` needs (see the module documentation for what differs from
/// `TwoFloat`'s own implementations).
#[derive(Clone, Copy, Default)]
pub struct DoubleDouble(pub TwoFloat);

impl DoubleDouble {
    /// The double-double unit roundoff scale, 2^-104 (a 106-bit mantissa, relative spacing 2^-105
    /// to 2^-104 depending on the split).
    pub const EPSILON: f64 = 4.930380657631324e-32;

    /// The exact value of an `f64`.
    pub const fn from_f64(x: f64) -> Self {
        DoubleDouble(TwoFloat::from_f64(x))
    }

    /// The high word: the `f64` nearest the value (the words do not overlap).
    pub fn hi(self) -> f64 {
        self.0.hi()
    }

    /// The low word: the value minus [`DoubleDouble::hi`].
    pub fn lo(self) -> f64 {
        self.0.lo()
    }

    /// The double-double result `dd` where it is finite, else IEEE's `f64` result `ieee` on the
    /// high words (infinity, NaN or a zero the double-double algorithm turned into NaN).
    #[inline]
    fn guarded(dd: TwoFloat, ieee: impl FnOnce() -> f64) -> Self {
        if dd.hi().is_finite() && dd.lo().is_finite() {
            DoubleDouble(dd)
        } else {
            DoubleDouble::from_f64(ieee())
        }
    }
}

impl fmt::Debug for DoubleDouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DoubleDouble({:e} + {:e})", self.hi(), self.lo())
    }
}

impl fmt::Display for DoubleDouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::LowerExp for DoubleDouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerExp::fmt(&self.0, f)
    }
}

/// Word by word (`TwoFloat`'s comparisons treat a value whose words overlap by its last bit, which
/// its own algorithms can return at a rounding tie, as an infinity).
impl PartialEq for DoubleDouble {
    fn eq(&self, other: &Self) -> bool {
        self.hi() == other.hi() && self.lo() == other.lo()
    }
}

/// Lexicographic on `(hi, lo)`, as `PartialEq`.
impl PartialOrd for DoubleDouble {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        match self.hi().partial_cmp(&other.hi())? {
            Ordering::Equal => self.lo().partial_cmp(&other.lo()),
            unequal => Some(unequal),
        }
    }
}

impl Neg for DoubleDouble {
    type Output = Self;
    fn neg(self) -> Self {
        DoubleDouble(-self.0)
    }
}

/// The four operations (and `%`) with their assigning forms, each guarded at non-finite results.
macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for DoubleDouble {
            type Output = Self;
            #[inline]
            fn $method(self, rhs: Self) -> Self {
                DoubleDouble::guarded(self.0 $op rhs.0, || self.hi() $op rhs.hi())
            }
        }

        impl $assign_trait for DoubleDouble {
            #[inline]
            fn $assign_method(&mut self, rhs: Self) {
                *self = *self $op rhs;
            }
        }
    };
}

binary_op!(Add, add, AddAssign, add_assign, +);
binary_op!(Sub, sub, SubAssign, sub_assign, -);
binary_op!(Mul, mul, MulAssign, mul_assign, *);

/// Long division with three `f64` quotient digits, each remainder by `TwoFloat`'s (exact-product)
/// multiplication and subtraction: relative error about 2^-104. `TwoFloat`'s own division (and
/// `recip`) forms the residual `1 - b.hi * (1 / b.hi)` without a fused multiply-add, which rounds it
/// to zero whenever the product rounds to 1 (`1 / 3` comes out as the `f64` `1 / 3`, low word 0).
impl Div for DoubleDouble {
    type Output = Self;
    #[inline]
    fn div(self, rhs: Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        let q1 = a.hi() / b.hi();
        let r = a - b * q1;
        let q2 = r.hi() / b.hi();
        let r = r - b * q2;
        let q3 = r.hi() / b.hi();
        DoubleDouble::guarded(TwoFloat::new_add(q1, q2) + q3, || a.hi() / b.hi())
    }
}

impl DivAssign for DoubleDouble {
    #[inline]
    fn div_assign(&mut self, rhs: Self) {
        *self = *self / rhs;
    }
}

/// `self - trunc(self / rhs) * rhs` with the division above.
impl Rem for DoubleDouble {
    type Output = Self;
    fn rem(self, rhs: Self) -> Self {
        DoubleDouble::guarded((self - (self / rhs).trunc() * rhs).0, || {
            self.hi() % rhs.hi()
        })
    }
}

impl RemAssign for DoubleDouble {
    fn rem_assign(&mut self, rhs: Self) {
        *self = *self % rhs;
    }
}

impl Zero for DoubleDouble {
    fn zero() -> Self {
        DoubleDouble::from_f64(0.0)
    }
    fn is_zero(&self) -> bool {
        self.hi() == 0.0
    }
}

impl One for DoubleDouble {
    fn one() -> Self {
        DoubleDouble::from_f64(1.0)
    }
}

impl Num for DoubleDouble {
    type FromStrRadixErr = twofloat::TwoFloatError;
    /// Delegated to `TwoFloat`, which parses nothing (clarabel never parses numbers).
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        TwoFloat::from_str_radix(s, radix).map(DoubleDouble)
    }
}

impl ToPrimitive for DoubleDouble {
    fn to_i64(&self) -> Option<i64> {
        self.0.to_i64()
    }
    fn to_u64(&self) -> Option<u64> {
        self.0.to_u64()
    }
    fn to_i128(&self) -> Option<i128> {
        self.0.to_i128()
    }
    fn to_u128(&self) -> Option<u128> {
        self.0.to_u128()
    }
    /// The high word (the nearest `f64`, up to the last bit's tie).
    fn to_f64(&self) -> Option<f64> {
        Some(self.hi())
    }
    fn to_f32(&self) -> Option<f32> {
        Some(self.hi() as f32)
    }
}

impl NumCast for DoubleDouble {
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        <TwoFloat as NumCast>::from(n).map(DoubleDouble)
    }
}

impl FromPrimitive for DoubleDouble {
    fn from_i64(n: i64) -> Option<Self> {
        TwoFloat::from_i64(n).map(DoubleDouble)
    }
    fn from_u64(n: u64) -> Option<Self> {
        TwoFloat::from_u64(n).map(DoubleDouble)
    }
    fn from_i128(n: i128) -> Option<Self> {
        TwoFloat::from_i128(n).map(DoubleDouble)
    }
    fn from_u128(n: u128) -> Option<Self> {
        TwoFloat::from_u128(n).map(DoubleDouble)
    }
    /// Exact: the `f64` becomes the high word, the low word zero.
    fn from_f64(n: f64) -> Option<Self> {
        Some(DoubleDouble::from_f64(n))
    }
    /// Exact (every `f32` is an `f64`).
    fn from_f32(n: f32) -> Option<Self> {
        Some(DoubleDouble::from_f64(n as f64))
    }
}

impl FloatConst for DoubleDouble {
    fn E() -> Self {
        DoubleDouble(TwoFloat::E())
    }
    fn FRAC_1_PI() -> Self {
        DoubleDouble(TwoFloat::FRAC_1_PI())
    }
    fn FRAC_1_SQRT_2() -> Self {
        DoubleDouble(TwoFloat::FRAC_1_SQRT_2())
    }
    fn FRAC_2_PI() -> Self {
        DoubleDouble(TwoFloat::FRAC_2_PI())
    }
    fn FRAC_2_SQRT_PI() -> Self {
        DoubleDouble(TwoFloat::FRAC_2_SQRT_PI())
    }
    fn FRAC_PI_2() -> Self {
        DoubleDouble(TwoFloat::FRAC_PI_2())
    }
    fn FRAC_PI_3() -> Self {
        DoubleDouble(TwoFloat::FRAC_PI_3())
    }
    fn FRAC_PI_4() -> Self {
        DoubleDouble(TwoFloat::FRAC_PI_4())
    }
    fn FRAC_PI_6() -> Self {
        DoubleDouble(TwoFloat::FRAC_PI_6())
    }
    fn FRAC_PI_8() -> Self {
        DoubleDouble(TwoFloat::FRAC_PI_8())
    }
    fn LN_10() -> Self {
        DoubleDouble(TwoFloat::LN_10())
    }
    fn LN_2() -> Self {
        DoubleDouble(TwoFloat::LN_2())
    }
    fn LOG10_E() -> Self {
        DoubleDouble(TwoFloat::LOG10_E())
    }
    fn LOG2_E() -> Self {
        DoubleDouble(TwoFloat::LOG2_E())
    }
    fn PI() -> Self {
        DoubleDouble(TwoFloat::PI())
    }
    fn SQRT_2() -> Self {
        DoubleDouble(TwoFloat::SQRT_2())
    }
    fn TAU() -> Self {
        DoubleDouble(TwoFloat::TAU())
    }
    fn LOG10_2() -> Self {
        DoubleDouble(TwoFloat::LOG10_2())
    }
    fn LOG2_10() -> Self {
        DoubleDouble(TwoFloat::LOG2_10())
    }
}

/// `Float` methods of one argument, delegated to `TwoFloat` and guarded by the `f64` method.
macro_rules! unary {
    ($($name:ident),*) => {
        $(
            #[inline]
            fn $name(self) -> Self {
                DoubleDouble::guarded(Float::$name(self.0), || self.hi().$name())
            }
        )*
    };
}

/// `Float` methods of two arguments, delegated to `TwoFloat` and guarded by the `f64` method.
macro_rules! binary {
    ($($name:ident),*) => {
        $(
            #[inline]
            fn $name(self, other: Self) -> Self {
                DoubleDouble::guarded(Float::$name(self.0, other.0), || self.hi().$name(other.hi()))
            }
        )*
    };
}

impl Float for DoubleDouble {
    fn nan() -> Self {
        DoubleDouble::from_f64(f64::NAN)
    }
    fn infinity() -> Self {
        DoubleDouble::from_f64(f64::INFINITY)
    }
    fn neg_infinity() -> Self {
        DoubleDouble::from_f64(f64::NEG_INFINITY)
    }
    fn neg_zero() -> Self {
        DoubleDouble::from_f64(-0.0)
    }
    fn min_value() -> Self {
        DoubleDouble(TwoFloat::MIN)
    }
    fn min_positive_value() -> Self {
        DoubleDouble(TwoFloat::MIN_POSITIVE)
    }
    /// 2^-104, not `TwoFloat`'s `f64::MIN_POSITIVE`.
    fn epsilon() -> Self {
        DoubleDouble::from_f64(DoubleDouble::EPSILON)
    }
    fn max_value() -> Self {
        DoubleDouble(TwoFloat::MAX)
    }
    fn is_nan(self) -> bool {
        self.hi().is_nan() || self.lo().is_nan()
    }
    fn is_infinite(self) -> bool {
        self.hi().is_infinite()
    }
    /// Both words finite.
    fn is_finite(self) -> bool {
        self.hi().is_finite() && self.lo().is_finite()
    }
    fn is_normal(self) -> bool {
        self.hi().is_normal()
    }
    fn classify(self) -> FpCategory {
        self.hi().classify()
    }
    fn is_sign_positive(self) -> bool {
        self.0.is_sign_positive()
    }
    fn is_sign_negative(self) -> bool {
        self.0.is_sign_negative()
    }
    /// `self * a + b` in double-double (no single rounding, as `TwoFloat`'s).
    fn mul_add(self, a: Self, b: Self) -> Self {
        self * a + b
    }
    /// Binary powering by the double-double multiplication (and division for `n < 0`).
    fn powi(self, n: i32) -> Self {
        let (mut base, mut e, mut result) = (self, n.unsigned_abs(), Self::one());
        while e > 0 {
            if e & 1 == 1 {
                result *= base;
            }
            base = base * base;
            e >>= 1;
        }
        if n < 0 {
            Self::one() / result
        } else {
            result
        }
    }
    /// `1 / self` by the double-double division.
    fn recip(self) -> Self {
        Self::one() / self
    }
    /// The high word's sign, exponent and mantissa (the low word is dropped).
    fn integer_decode(self) -> (u64, i16, i8) {
        Float::integer_decode(self.hi())
    }
    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }
    fn abs(self) -> Self {
        if self.is_sign_negative() {
            -self
        } else {
            self
        }
    }
    fn signum(self) -> Self {
        DoubleDouble::from_f64(self.hi().signum())
    }
    /// The larger; the other argument if one is NaN (as `f64::max`).
    fn max(self, other: Self) -> Self {
        if self.is_nan() || self < other {
            other
        } else {
            self
        }
    }
    /// The smaller; the other argument if one is NaN (as `f64::min`).
    fn min(self, other: Self) -> Self {
        if self.is_nan() || self > other {
            other
        } else {
            self
        }
    }
    fn to_degrees(self) -> Self {
        DoubleDouble(self.0.to_degrees())
    }
    fn to_radians(self) -> Self {
        DoubleDouble(self.0.to_radians())
    }
    unary!(
        floor, ceil, round, trunc, fract, sqrt, exp, exp2, ln, log2, log10, cbrt, sin, cos, tan,
        asin, acos, atan, exp_m1, ln_1p, sinh, cosh, tanh, asinh, acosh, atanh
    );
    /// The positive difference `max(self - other, 0)` (`TwoFloat`'s returns `|self - other|`).
    fn abs_sub(self, other: Self) -> Self {
        if self <= other {
            Self::zero()
        } else {
            self - other
        }
    }
    binary!(powf, log, hypot, atan2);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dd(x: f64) -> DoubleDouble {
        DoubleDouble::from_f64(x)
    }

    #[test]
    fn from_f64_and_f32_are_exact_and_round_trip() {
        for x in [
            0.1,
            -0.1,
            0.5,
            1e-13,
            2e-7,
            1e20,
            f64::MIN_POSITIVE,
            1.0 / 3.0,
            -7.25,
        ] {
            let v = <DoubleDouble as FromPrimitive>::from_f64(x).unwrap();
            assert_eq!((v.hi(), v.lo()), (x, 0.0));
            assert_eq!(v.to_f64(), Some(x));
        }
        let v = <DoubleDouble as FromPrimitive>::from_f32(0.1f32).unwrap();
        assert_eq!((v.hi(), v.lo()), (0.1f32 as f64, 0.0));
        assert_eq!(<DoubleDouble as NumCast>::from(0.1f64).unwrap().hi(), 0.1);
        assert_eq!(DoubleDouble::from_i64(-3).unwrap().hi(), -3.0);
        assert_eq!(
            DoubleDouble::from_u64(u64::MAX).unwrap().to_u128(),
            Some(18_446_744_073_709_551_615u128)
        );
    }

    #[test]
    fn arithmetic_carries_about_106_bits() {
        // 1/10 in double-double differs from the f64 0.1 by about 5.6e-18.
        let tenth = dd(1.0) / dd(10.0);
        assert_eq!(tenth.hi(), 0.1);
        assert!((tenth.lo() + 5.551115123125783e-18).abs() < 1e-30);
        // (1 + 2^-80) - 1 survives in double-double, not in f64.
        let tiny = (dd(1.0) + dd(2f64.powi(-80))) - dd(1.0);
        assert_eq!(tiny.hi(), 2f64.powi(-80));
        // sqrt(2)^2 - 2 to the double-double unit.
        let two = dd(2.0).sqrt() * dd(2.0).sqrt() - dd(2.0);
        assert!(two.abs().hi() < 1e-30, "{two:?}");
        let third = dd(1.0) / dd(3.0);
        assert!((third * dd(3.0) - dd(1.0)).abs().hi() < 1e-31);
        assert!(DoubleDouble::epsilon().hi() > 0.0);
        assert!(DoubleDouble::epsilon() * DoubleDouble::epsilon() > dd(0.0));
        assert!((dd(1.0) + DoubleDouble::epsilon()) > dd(1.0));
    }

    #[test]
    fn non_finite_values_behave_as_ieee() {
        let inf = DoubleDouble::infinity();
        assert_eq!((dd(1.0) / dd(0.0)).hi(), f64::INFINITY);
        assert_eq!((dd(-1.0) / dd(0.0)).hi(), f64::NEG_INFINITY);
        assert_eq!((dd(1.0) / inf).hi(), 0.0);
        assert!((dd(0.0) / dd(0.0)).is_nan());
        assert!((inf - inf).is_nan());
        assert_eq!((dd(f64::MAX) * dd(2.0)).hi(), f64::INFINITY);
        assert!(inf.is_infinite() && !inf.is_finite() && dd(1.0).is_finite());
        assert_eq!(inf.sqrt().hi(), f64::INFINITY);
        assert_eq!(dd(0.0).sqrt().hi(), 0.0);
        assert!(dd(1.0) < inf && DoubleDouble::max_value() < inf);
        assert_eq!(Float::min(dd(2.0), inf).hi(), 2.0);
    }
}
