//! The core's error type. The FFI layer maps each variant to one `demcontact_status` code.

/// Why a core operation refused its input or could not finish.
///
/// Every variant carries a message for a person: it names the argument or the shape parameter at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// An argument is out of its documented range (a radius <= 0, a quaternion far from unit length, ...).
    #[error("{0}")]
    InvalidArgument(String),
    /// An argument is NaN or infinite.
    #[error("{0}")]
    NonFinite(String),
    /// The geometry is degenerate (flat or needle-like point sets, planes that bound no finite body, ...).
    #[error("{0}")]
    DegenerateGeometry(String),
    /// An iterative method did not reach its tolerance within its iteration budget.
    #[error("{0}")]
    NotConverged(String),
    /// No contact kernel exists for this pair of shape families.
    #[error("{0}")]
    UnsupportedPair(String),
}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Checks that every component of `values` is finite; `what` names the argument in the message.
#[inline]
pub fn ensure_finite(what: &str, values: &[f64]) -> Result<()> {
    // Fast path: NaN and infinities propagate through a sum, so a finite sum proves every term finite.
    // A non-finite sum of finite terms (an overflow near 1e308) falls through to the exact scan.
    // (Two running sums, alternate terms: independent chains, one packed addition per pair.)
    let mut pairs = values.chunks_exact(2);
    let (mut even, mut odd) = (0.0, 0.0);
    for pair in &mut pairs {
        even += pair[0];
        odd += pair[1];
    }
    let rest: f64 = pairs.remainder().iter().sum();
    if (even + odd + rest).is_finite() {
        return Ok(());
    }
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(Error::NonFinite(format!(
            "{what}[{i}] is {} (must be finite)",
            values[i]
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ensure_finite_names_the_bad_component() {
        assert!(ensure_finite("x", &[1.0, 2.0]).is_ok());
        let e = ensure_finite("pose.position", &[1.0, f64::NAN, 0.0]).unwrap_err();
        assert_eq!(
            e,
            Error::NonFinite("pose.position[1] is NaN (must be finite)".into())
        );
        assert!(ensure_finite("big", &[f64::MAX, f64::MAX]).is_ok());
        let e = ensure_finite("r", &[f64::NEG_INFINITY]).unwrap_err();
        assert!(e.to_string().contains("-inf"));
    }
}
