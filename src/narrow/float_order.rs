//! Doubles as integers in the order of `f64::total_cmp`, for cheap sorts and selections.

/// An integer that orders as `x` does in `f64::total_cmp`'s order, and whose negation does not
/// overflow (the one NaN that would map to `i64::MIN` maps next to it).
#[inline]
pub(crate) fn ordered_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    (bits ^ ((((bits >> 63) as u64) >> 1) as i64)).max(-i64::MAX)
}

/// The number whose [`ordered_key`] is `key`.
#[inline]
pub(crate) fn from_ordered_key(key: i64) -> f64 {
    f64::from_bits((key ^ ((((key >> 63) as u64) >> 1) as i64)) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_keys_order_as_total_cmp_and_come_back() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -0.0,
            0.0,
            1e-300,
            2.5,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(ordered_key(w[0]) < ordered_key(w[1]), "{w:?}");
        }
        for x in xs {
            assert_eq!(from_ordered_key(ordered_key(x)).to_bits(), x.to_bits());
        }
    }
}
