//! A least-significant-digit radix sort on integer keys: linear time in the number of items for
//! keys of a fixed width, stable, with the scratch buffer kept by the caller between calls.

/// Bits per digit: 2048 counters (16 KiB) stay in the L1 cache.
const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;

/// Sorts `items` by `key(item)`, of which only the low `bits` bits may be non-zero; stable.
/// `scratch` is working space (resized as needed, its contents are overwritten).
pub(crate) fn radix_sort_by_key<T: Copy + Default>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    bits: u32,
    key: impl Fn(&T) -> u64,
) {
    let n = items.len();
    if n < 2 || bits == 0 {
        return;
    }
    // Every slot of `scratch[..n]` is written by each pass before it is read: only its length
    // matters (no clearing, which would write n defaults on every call).
    scratch.resize(n, T::default());
    // Every pass's histogram in one read of the items.
    let passes = bits.div_ceil(DIGIT_BITS) as usize;
    let mut counts = vec![0usize; BUCKETS * passes];
    for item in items.iter() {
        let k = key(item);
        for (p, histogram) in counts.chunks_exact_mut(BUCKETS).enumerate() {
            histogram[((k >> (p as u32 * DIGIT_BITS)) as usize) & (BUCKETS - 1)] += 1;
        }
    }
    for (p, histogram) in counts.chunks_exact_mut(BUCKETS).enumerate() {
        // A digit shared by every item moves nothing: skip the pass.
        if histogram.contains(&n) {
            continue;
        }
        let mut sum = 0;
        for c in histogram.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        let shift = p as u32 * DIGIT_BITS;
        for item in items.iter() {
            let d = ((key(item) >> shift) as usize) & (BUCKETS - 1);
            scratch[histogram[d]] = *item;
            histogram[d] += 1;
        }
        std::mem::swap(items, scratch);
    }
}

/// The number of bits needed to write `x` (0 for 0).
pub(crate) fn bit_width(x: u64) -> u32 {
    u64::BITS - x.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, bits) in [(0, 5), (1, 5), (7, 3), (1000, 20), (5000, 40), (3000, 64)] {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            let mut items: Vec<(u64, u32)> = (0..n).map(|i| (next() & mask, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            radix_sort_by_key(&mut items, &mut Vec::new(), bits, |item| item.0);
            assert_eq!(items, expected, "n = {n}, bits = {bits}");
        }
        assert_eq!((bit_width(0), bit_width(1), bit_width(1024)), (0, 1, 11));
    }
}
