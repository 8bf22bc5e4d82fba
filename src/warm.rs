//! Per-pair warm-start state: a fixed-size plain record the host keeps between time steps.

use crate::error::{Error, Result};

/// How many doubles of kernel data a warm state holds (the record is 16 doubles, 128 bytes, in all).
pub const WARM_STATE_DATA_LEN: usize = 15;

/// What a pair's kernel remembers from one time step to the next, so that the next query starts from
/// the previous answer instead of from scratch.
///
/// The record is plain data of fixed size (128 bytes) that a host stores in its per-contact history.
/// All-zero means cold: a new contact, or one whose history was lost. `kernel` names the pair kernel
/// that wrote `data`; a state written by another kernel (the slot was reused for another pair) is
/// treated as cold. Each kernel stores only frame-independent quantities (expressed in a body frame),
/// so the state stays valid while both bodies move.
///
/// Laid out as the C ABI's `demcontact_warm_state` (`#[repr(C)]`, the same fields in the same
/// order), so that a query through the ABI works on the host's record in place.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WarmState {
    /// Which kernel wrote `data` (0: cold).
    pub kernel: u32,
    /// How many consecutive queries have updated this state (saturating).
    pub steps: u32,
    /// Kernel-specific data, in body frames.
    pub data: [f64; WARM_STATE_DATA_LEN],
}

impl WarmState {
    /// The cold (all-zero) state.
    pub fn cold() -> Self {
        WarmState::default()
    }

    /// Whether this is the cold state of a new pair.
    pub fn is_cold(&self) -> bool {
        self.kernel == 0
    }

    /// Checks that the record can have come from a query: a known kernel tag and finite data.
    pub fn validate(&self) -> Result<()> {
        if self.kernel != 0 && !crate::narrow::is_known_kernel(self.kernel) {
            return Err(Error::InvalidArgument(format!(
                "warm state names kernel {} which this library does not have: zero the record for a cold start",
                self.kernel
            )));
        }
        crate::error::ensure_finite("warm state data", &self.data)
    }

    /// Makes this state the one of `kernel`: returns true when it already was (a warm start), and
    /// otherwise resets it to a cold state tagged with `kernel`.
    pub fn claim(&mut self, kernel: u32) -> bool {
        if self.kernel == kernel {
            true
        } else {
            *self = WarmState {
                kernel,
                ..WarmState::cold()
            };
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_keeps_own_state_and_resets_foreign() {
        let mut w = WarmState::cold();
        assert!(w.is_cold());
        assert!(!w.claim(1));
        w.data[0] = 0.5;
        assert!(w.claim(1));
        assert_eq!(w.data[0], 0.5);
        assert!(!w.claim(2));
        assert_eq!(w.data[0], 0.0);
    }

    #[test]
    fn validation_rejects_garbage() {
        let mut w = WarmState::cold();
        assert!(w.validate().is_ok());
        w.kernel = 0xdead_beef;
        assert!(matches!(w.validate(), Err(Error::InvalidArgument(_))));
        w.kernel = 0;
        w.data[3] = f64::NAN;
        assert!(matches!(w.validate(), Err(Error::NonFinite(_))));
        assert_eq!(std::mem::size_of::<WarmState>(), 128);
    }
}
