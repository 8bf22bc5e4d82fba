//! `demcontact_warm_state`: the per-pair record a host keeps between time steps.

use crate::warm::WarmState;

/// Doubles of kernel data in a `demcontact_warm_state`.
pub const DEMCONTACT_WARM_STATE_DATA_LEN: usize = 15;
/// Size in bytes of a `demcontact_warm_state` (16 doubles): what a host reserves per contact.
pub const DEMCONTACT_WARM_STATE_SIZE: usize = 128;

/// A pair's warm-start state: plain data of fixed size (128 bytes) that the host stores with its
/// per-contact history and passes back at the next time step, so the query starts from the previous
/// answer.
///
/// All-zero means cold (a new contact): `memset` it to 0, or `= {0}`. The library writes it on every
/// successful query and leaves it untouched on failure. Its content is frame-independent (stored in
/// body frames), so it stays valid while both bodies move, but it belongs to one ordered pair (A, B):
/// query the pair always in the same order. A record written for another pair of shape families is
/// treated as cold. It may be copied bytewise (e.g. when a host migrates a contact to another MPI rank).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct demcontact_warm_state {
    /// Which pair kernel wrote `data` (0: cold). Opaque to the host.
    pub kernel: u32,
    /// How many consecutive queries have updated this record (saturating).
    pub steps: u32,
    /// Kernel data, in body frames. Opaque to the host.
    pub data: [f64; DEMCONTACT_WARM_STATE_DATA_LEN],
}

impl From<demcontact_warm_state> for WarmState {
    fn from(w: demcontact_warm_state) -> Self {
        WarmState {
            kernel: w.kernel,
            steps: w.steps,
            data: w.data,
        }
    }
}

impl From<WarmState> for demcontact_warm_state {
    fn from(w: WarmState) -> Self {
        demcontact_warm_state {
            kernel: w.kernel,
            steps: w.steps,
            data: w.data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warm::WARM_STATE_DATA_LEN;

    #[test]
    fn sizes_match_the_core_and_the_header() {
        assert_eq!(DEMCONTACT_WARM_STATE_DATA_LEN, WARM_STATE_DATA_LEN);
        assert_eq!(
            std::mem::size_of::<demcontact_warm_state>(),
            DEMCONTACT_WARM_STATE_SIZE
        );
        let mut w = WarmState::cold();
        w.kernel = 1;
        w.data[14] = 2.5;
        assert_eq!(WarmState::from(demcontact_warm_state::from(w)), w);
    }
}
