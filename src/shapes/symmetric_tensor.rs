//! A totally symmetric third-order tensor in three dimensions: the second derivatives of a
//! point-with-normal map, which is the gradient of a support function, so that
//! `d^2 x_k / dn_i dn_j` is the support function's third derivative, symmetric in all three
//! indices.

use nalgebra::{Matrix3, Vector3};

/// A third-order tensor `T[k][i][j]` on R^3 that is symmetric in all three indices, kept as its
/// 10 distinct entries (27 in full).
///
/// What the common-normal search needs of it is one contraction per body and iterate,
/// `sum_k v_k T[k]` (Wellmann, Lillie & Wriggers 2008, eq. (11): the term `d . d_ij` of the
/// Hessian of `f`), which [`Self::contract`] forms from the 10 entries in 18 multiplications.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SymmetricTensor3 {
    /// The distinct entries, indices sorted: `000, 001, 002, 011, 012, 022, 111, 112, 122, 222`.
    entries: [f64; 10],
}

/// The position in [`SymmetricTensor3::entries`] of the sorted index triple `(i <= j <= l)`.
const fn slot(i: usize, j: usize, l: usize) -> usize {
    // Triples with first index 0 take slots 0-5, with 1 take 6-8, with 2 take 9.
    match i {
        0 => match j {
            0 => l,
            1 => 2 + l,
            _ => 5,
        },
        1 => 4 + j + l,
        _ => 9,
    }
}

impl SymmetricTensor3 {
    /// The zero tensor.
    pub fn zeros() -> Self {
        SymmetricTensor3::default()
    }

    /// Every entry `value` (e.g. NaN for an undefined tensor).
    pub fn from_element(value: f64) -> Self {
        SymmetricTensor3 {
            entries: [value; 10],
        }
    }

    /// The tensor whose entries are `f(i, j, l)` for the sorted triples `i <= j <= l` (the
    /// others follow by symmetry).
    #[inline(always)]
    pub fn from_fn(mut f: impl FnMut(usize, usize, usize) -> f64) -> Self {
        let mut entries = [0.0; 10];
        let mut n = 0;
        for i in 0..3 {
            for j in i..3 {
                for l in j..3 {
                    entries[n] = f(i, j, l);
                    n += 1;
                }
            }
        }
        SymmetricTensor3 { entries }
    }

    /// The entry `T[k][i][j]`, in any order of the indices.
    #[inline(always)]
    pub fn get(&self, k: usize, i: usize, j: usize) -> f64 {
        let mut s = [k, i, j];
        s.sort_unstable();
        self.entries[slot(s[0], s[1], s[2])]
    }

    /// Each entry `T[k][i][j]` multiplied by `common f(k) f(i) f(j)` (a change of scale along
    /// each axis, and of the whole).
    #[inline(always)]
    pub fn scaled_per_axis(&self, f: &Vector3<f64>, common: f64) -> Self {
        let mut n = 0;
        let mut entries = self.entries;
        for i in 0..3 {
            for j in i..3 {
                for l in j..3 {
                    entries[n] *= common * (f[i] * f[j] * f[l]);
                    n += 1;
                }
            }
        }
        SymmetricTensor3 { entries }
    }

    /// The contraction `sum_k v_k T[k]`: a symmetric matrix.
    #[inline(always)]
    pub fn contract(&self, v: &Vector3<f64>) -> Matrix3<f64> {
        let t = &self.entries;
        let (x, y, z) = (v.x, v.y, v.z);
        let k00 = x * t[0] + y * t[1] + z * t[2];
        let k01 = x * t[1] + y * t[3] + z * t[4];
        let k02 = x * t[2] + y * t[4] + z * t[5];
        let k11 = x * t[3] + y * t[6] + z * t[7];
        let k12 = x * t[4] + y * t[7] + z * t[8];
        let k22 = x * t[5] + y * t[8] + z * t[9];
        Matrix3::new(k00, k01, k02, k01, k11, k12, k02, k12, k22)
    }

    /// The three slices `T[k]` as matrices (`[k][(i, j)]`).
    pub fn matrices(&self) -> [Matrix3<f64>; 3] {
        [0, 1, 2].map(|k| Matrix3::from_fn(|i, j| self.get(k, i, j)))
    }

    /// The largest absolute entry.
    pub fn amax(&self) -> f64 {
        self.entries.iter().fold(0.0, |m, v| m.max(v.abs()))
    }

    /// Whether every entry is finite.
    pub fn is_finite(&self) -> bool {
        self.entries.iter().all(|v| v.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_enumerate_the_sorted_triples_in_order() {
        let mut n = 0;
        for i in 0..3 {
            for j in i..3 {
                for l in j..3 {
                    assert_eq!(slot(i, j, l), n, "({i}, {j}, {l})");
                    n += 1;
                }
            }
        }
        assert_eq!(n, 10);
    }

    #[test]
    fn contraction_and_matrices_agree_with_the_full_tensor() {
        let t = SymmetricTensor3::from_fn(|i, j, l| 1.0 + (i * 9 + j * 3 + l) as f64 * 0.37);
        let m = t.matrices();
        for k in 0..3 {
            for i in 0..3 {
                for j in 0..3 {
                    // Symmetric in all three indices.
                    assert_eq!(m[k][(i, j)], m[i][(k, j)]);
                    assert_eq!(m[k][(i, j)], m[j][(i, k)]);
                    assert_eq!(m[k][(i, j)], t.get(j, k, i));
                }
            }
        }
        let v = Vector3::new(0.3, -1.2, 2.5);
        let full = m[0] * v.x + m[1] * v.y + m[2] * v.z;
        assert!((t.contract(&v) - full).amax() < 1e-14);
        let f = Vector3::new(2.0, 0.5, -3.0);
        let s = t.scaled_per_axis(&f, 1.5).matrices();
        for k in 0..3 {
            for i in 0..3 {
                for j in 0..3 {
                    let want = m[k][(i, j)] * f[k] * f[i] * f[j] * 1.5;
                    assert!((s[k][(i, j)] - want).abs() < 1e-14 * (1.0 + want.abs()));
                }
            }
        }
        assert_eq!(t.amax(), t.get(2, 2, 2));
        assert!(t.is_finite() && !SymmetricTensor3::from_element(f64::NAN).is_finite());
    }
}
