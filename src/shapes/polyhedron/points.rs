//! The input side of the hull: finiteness, the point count, the tolerance scheme and the removal
//! of duplicate points.

use super::fast_hash::{fast_map, FastMap};
use crate::error::{Error, Result};
use nalgebra::Vector3;

/// The absolute tolerance is this fraction of the bounding-box diagonal (plus a round-off floor,
/// see [`ROUND_OFF_FACTOR`]).
pub(super) const RELATIVE_TOLERANCE: f64 = 1e-8;

/// The round-off floor of the tolerance is this many units in the last place of the largest
/// coordinate magnitude: it matters only for a small body far from the origin of its frame.
pub(super) const ROUND_OFF_FACTOR: f64 = 64.0;

/// The distinct input points with the scale quantities the rest of the construction uses.
#[derive(Debug, Clone)]
pub(super) struct PreparedPoints {
    /// The distinct points, in the caller's order (the first of each cluster of duplicates kept).
    pub points: Vec<Vector3<f64>>,
    /// For each distinct point, its index in the caller's slice.
    pub source_indices: Vec<usize>,
    /// The absolute length tolerance of the construction.
    pub tolerance: f64,
    /// The diagonal of the axis-aligned bounding box of all input points.
    pub diagonal: f64,
    /// The round-off floor of the tolerance ([`ROUND_OFF_FACTOR`] units in the last place of the
    /// largest coordinate magnitude): lengths below it are rounding.
    pub round_off: f64,
}

/// Checks the input, computes the tolerance (`coarsening` times the scheme's: 1 but for the
/// rebuild of a hull that was not sound at the scheme's tolerance) and drops every point that
/// lies within the tolerance of an earlier kept point.
pub(super) fn prepare(points: &[Vector3<f64>], coarsening: f64) -> Result<PreparedPoints> {
    for (index, p) in points.iter().enumerate() {
        if !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()) {
            return Err(Error::NonFinite(format!(
                "points[{index}] = ({}, {}, {}) is not finite",
                p.x, p.y, p.z
            )));
        }
    }
    if points.len() < 4 {
        return Err(Error::DegenerateGeometry(format!(
            "{} points given: a polyhedron needs at least 4 non-coplanar points",
            points.len()
        )));
    }

    let mut lo = points[0];
    let mut hi = points[0];
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let diagonal = (hi - lo).norm();
    let largest_magnitude = lo.abs().max().max(hi.abs().max());
    let round_off = ROUND_OFF_FACTOR * f64::EPSILON * largest_magnitude;
    let tolerance = coarsening * (RELATIVE_TOLERANCE * diagonal + round_off);
    if diagonal == 0.0 {
        return Err(Error::DegenerateGeometry(format!(
            "all {} points coincide: a polyhedron needs at least 4 non-coplanar points",
            points.len()
        )));
    }
    let (shortest, longest) = crate::shapes::VALIDATED_LENGTHS.into_inner();
    if largest_magnitude > longest || diagonal < shortest {
        return Err(Error::InvalidArgument(format!(
            "the points reach {largest_magnitude:e} from the origin and span {diagonal:e}: a \
             polyhedron's coordinates must stay within {longest:e} and its extent above \
             {shortest:e} of the host's length unit (the range its contact kernel is validated \
             on); express them in another unit"
        )));
    }

    let (kept, source_indices) = drop_near_duplicates(points, &lo, tolerance);
    if kept.len() == 1 {
        return Err(Error::DegenerateGeometry(format!(
            "all {} points coincide within the tolerance {tolerance:e}: a polyhedron needs at \
             least 4 non-coplanar points",
            points.len()
        )));
    }
    if kept.len() < 4 {
        return Err(Error::DegenerateGeometry(format!(
            "only {} distinct points among the {} given (duplicates closer than {tolerance:e} \
             dropped): a polyhedron needs at least 4 non-coplanar points",
            kept.len(),
            points.len()
        )));
    }
    Ok(PreparedPoints {
        points: kept,
        source_indices,
        tolerance,
        diagonal,
        round_off,
    })
}

/// Keeps each point unless an earlier kept point lies within `tolerance` of it. A hash grid of
/// cell size `tolerance` anchored at `origin` makes this linear: only the 27 cells around a point
/// can hold a kept point that close.
fn drop_near_duplicates(
    points: &[Vector3<f64>],
    origin: &Vector3<f64>,
    tolerance: f64,
) -> (Vec<Vector3<f64>>, Vec<usize>) {
    let cell_of = |p: &Vector3<f64>| -> [i64; 3] {
        let scaled = (p - origin) / tolerance;
        [
            scaled.x.floor() as i64,
            scaled.y.floor() as i64,
            scaled.z.floor() as i64,
        ]
    };
    let mut grid: FastMap<[i64; 3], Vec<usize>> = fast_map(points.len());
    let mut kept: Vec<Vector3<f64>> = Vec::with_capacity(points.len());
    let mut source_indices = Vec::with_capacity(points.len());
    for (index, p) in points.iter().enumerate() {
        let cell = cell_of(p);
        let mut duplicate = false;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let neighbour = [cell[0] + dx, cell[1] + dy, cell[2] + dz];
                    if let Some(members) = grid.get(&neighbour) {
                        if members
                            .iter()
                            .any(|&k| (kept[k] - p).norm_squared() <= tolerance * tolerance)
                        {
                            duplicate = true;
                            break 'search;
                        }
                    }
                }
            }
        }
        if !duplicate {
            grid.entry(cell).or_default().push(kept.len());
            kept.push(*p);
            source_indices.push(index);
        }
    }
    (kept, source_indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_tetrahedron() -> Vec<Vector3<f64>> {
        vec![
            Vector3::new(0.0, 0.0, 0.0),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 1.0, 0.0),
            Vector3::new(0.0, 0.0, 1.0),
        ]
    }

    #[test]
    fn non_finite_point_is_named_by_index() {
        let mut points = unit_tetrahedron();
        points.push(Vector3::new(0.5, f64::INFINITY, 0.0));
        let err = prepare(&points, 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::NonFinite(m) if m.contains("points[4]")),
            "{err}"
        );
        points[1].z = f64::NAN;
        let err = prepare(&points, 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::NonFinite(m) if m.contains("points[1]")),
            "{err}"
        );
    }

    #[test]
    fn too_few_points_are_rejected() {
        let err = prepare(&unit_tetrahedron()[..3], 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("3 points")),
            "{err}"
        );
        let err = prepare(&[], 1.0).unwrap_err();
        assert!(matches!(err, Error::DegenerateGeometry(_)));
    }

    #[test]
    fn coincident_points_are_rejected() {
        let p = Vector3::new(1.0, -2.0, 3.0);
        let err = prepare(&[p; 5], 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("coincide")),
            "{err}"
        );
        let nudged = p + Vector3::new(1e-14, 0.0, 0.0);
        let err = prepare(&[p, nudged, p, nudged], 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("coincide")),
            "{err}"
        );
    }

    #[test]
    fn three_distinct_points_are_too_few() {
        let mut points = unit_tetrahedron();
        points[3] = points[0];
        points.push(points[1]);
        let err = prepare(&points, 1.0).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("only 3 distinct")),
            "{err}"
        );
    }

    #[test]
    fn duplicates_within_tolerance_keep_the_first() {
        let mut points = unit_tetrahedron();
        points.push(points[2] + Vector3::new(0.0, 1e-12, -1e-12));
        points.push(points[0]);
        points.push(Vector3::new(0.25, 0.25, 0.25));
        let prepared = prepare(&points, 1.0).unwrap();
        assert_eq!(prepared.source_indices, vec![0, 1, 2, 3, 6]);
        assert_eq!(prepared.points[4], points[6]);
        let expected = RELATIVE_TOLERANCE * 3f64.sqrt() + ROUND_OFF_FACTOR * f64::EPSILON;
        assert!((prepared.tolerance - expected).abs() < 1e-9 * expected);
    }
}
