//! The hash of the construction's maps, whose keys are small numbers the construction makes
//! itself (point and vertex indices, pairs of them, grid cells): the multiply-rotate hash of
//! rustc's `FxHasher`. The standard library's default (SipHash with a random key) resists
//! collisions that an adversary chooses, at a cost the construction does not need: with it, hashing
//! took about 40 % of the instructions of building a body of 20 random points (callgrind). The
//! construction's result does not depend on a map's order (its loops follow vectors and sorted
//! keys), so it is the same with either hash.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// `FxHasher`'s multiplier (a constant of the golden ratio's kind, odd).
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

/// The hasher: each word rotated into the state, mixed by one multiplication.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FastHasher {
    hash: u64,
}

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.add(i as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A hash map with [`FastHasher`].
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// An empty [`FastMap`] with room for `capacity` entries.
pub(super) fn fast_map<K, V>(capacity: usize) -> FastMap<K, V> {
    FastMap::with_capacity_and_hasher(capacity, BuildHasherDefault::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_every_kind_the_construction_uses_are_kept_apart() {
        let mut pairs = fast_map(0);
        let mut cells = fast_map(0);
        for i in 0..300usize {
            for j in 0..30usize {
                pairs.insert((i, j), i * 30 + j);
                cells.insert([i as i64 - 150, j as i64, -(j as i64)], i + j);
            }
        }
        assert_eq!(pairs.len(), 9000);
        assert_eq!(cells.len(), 9000);
        assert_eq!(pairs[&(123, 7)], 123 * 30 + 7);
        assert_eq!(cells[&[-27, 7, -7]], 130);
        assert!(!pairs.contains_key(&(7, 123)));
    }
}
