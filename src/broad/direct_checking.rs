//! Munjiza's direct checking contact detection (Munjiza 2004, *The Combined Finite-Discrete Element
//! Method*, sect. 3.2): a bounding object per body, and every pair's bounding objects tested, O(N^2)
//! time, O(1) memory beyond the output. The reference of the fast search ([`super::cell_list`]).
//!
//! Both of the book's variants, in 3D (the book gives them in 2D and extends them at the end of its
//! chapter 3): identical bounding spheres of the largest body's diameter (sect. 3.2.1, eq. (3.9)),
//! and bounding boxes (sect. 3.2.2).

use super::{Aabb, BodyPair, BoundingSphere};

/// The book's bounding objects of the first variant for bodies bounded by `spheres`: every sphere
/// given the largest radius (Munjiza 2004, sect. 3.2.1, Figure 3.4). Their diameter is the one
/// [`direct_checking_spheres`] takes.
pub fn identical_bounding_spheres(spheres: &[BoundingSphere]) -> Vec<BoundingSphere> {
    let largest = spheres.iter().map(|s| s.radius).fold(0.0, f64::max);
    spheres
        .iter()
        .map(|s| BoundingSphere {
            radius: largest,
            ..*s
        })
        .collect()
}

/// The pairs `[i, j]`, `i < j`, whose identical bounding spheres of diameter `diameter` about
/// `centres` intersect: `|x_i - x_j|^2 < d^2` (Munjiza 2004, eq. (3.9), with the z term added for
/// 3D). `diameter` is the largest body's, so that no point of any body lies outside its sphere.
/// Sorted by `i`, then `j`. Positions in the world frame, host length unit.
///
/// ```
/// use demcontact::broad::direct_checking_spheres;
/// let centres = [[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [5.0, 0.0, 0.0]];
/// assert_eq!(direct_checking_spheres(&centres, 1.0), vec![[0, 1]]);
/// ```
pub fn direct_checking_spheres(centres: &[[f64; 3]], diameter: f64) -> Vec<BodyPair> {
    let d2 = diameter * diameter;
    let mut pairs = Vec::new();
    // The book's double loop: i over all bodies, j over the remaining ones.
    for (i, a) in centres.iter().enumerate() {
        for (j, b) in centres.iter().enumerate().skip(i + 1) {
            let (dx, dy, dz) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
            // Eq. (3.9).
            if dx * dx + dy * dy + dz * dz < d2 {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}

/// The pairs `[i, j]`, `i < j`, whose bounding boxes intersect (closed boxes: touching counts),
/// tested axis by axis (Munjiza 2004, sect. 3.2.2). Sorted by `i`, then `j`.
///
/// ```
/// use demcontact::broad::{direct_checking_boxes, Aabb};
/// let boxes = [Aabb::of_sphere([0.0; 3], 1.0), Aabb::of_sphere([1.9, 1.9, 0.0], 1.0)];
/// assert_eq!(direct_checking_boxes(&boxes), vec![[0, 1]]);
/// ```
pub fn direct_checking_boxes(boxes: &[Aabb]) -> Vec<BodyPair> {
    let mut pairs = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spheres_touching_exactly_are_not_in_contact() {
        // Eq. (3.9) is strict: centres exactly one diameter apart do not intersect.
        let centres = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]];
        assert_eq!(direct_checking_spheres(&centres, 1.0), vec![[0, 2], [1, 2]]);
        assert!(direct_checking_spheres(&[], 1.0).is_empty());
        assert!(direct_checking_spheres(&[[1.0; 3]], 1.0).is_empty());
    }

    #[test]
    fn boxes_overlap_axis_by_axis() {
        let unit = |x: f64, y: f64, z: f64| Aabb {
            lo: [x, y, z],
            hi: [x + 1.0, y + 1.0, z + 1.0],
        };
        // 0 and 1 share a face; 0 and 2 overlap in x and y but not in z; 1 and 3 overlap.
        let boxes = [
            unit(0.0, 0.0, 0.0),
            unit(1.0, 0.0, 0.0),
            unit(0.5, 0.5, 1.5),
            unit(1.5, 0.9, 0.9),
        ];
        assert_eq!(direct_checking_boxes(&boxes), vec![[0, 1], [1, 3], [2, 3]]);
    }
}
