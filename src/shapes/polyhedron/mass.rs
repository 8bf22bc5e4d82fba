//! The volume and the centroid of the solid, for the host's mass properties.

use super::brep::BoundaryRepresentation;
use nalgebra::Vector3;

/// The volume and the centroid of the solid bounded by `brep`: a sum over the tetrahedra that join
/// a reference point (the mean of the vertices, which keeps the terms small) to a fan
/// triangulation of each face. Each tetrahedron's signed volume is `a . (b x c) / 6` with its
/// corners taken relative to the reference point, and its centroid is the mean of its corners.
pub(super) fn volume_and_centroid(brep: &BoundaryRepresentation) -> (f64, Vector3<f64>) {
    let positions = &brep.positions;
    let reference = positions.iter().sum::<Vector3<f64>>() / positions.len() as f64;
    let mut volume = 0.0;
    let mut first_moment = Vector3::zeros();
    for f in 0..brep.face_normals.len() {
        let ring = brep.face_vertices(f);
        let apex = positions[ring[0]] - reference;
        for k in 1..ring.len() - 1 {
            let b = positions[ring[k]] - reference;
            let c = positions[ring[k + 1]] - reference;
            let tetrahedron = apex.dot(&b.cross(&c)) / 6.0;
            volume += tetrahedron;
            first_moment += (apex + b + c) * (tetrahedron / 4.0);
        }
    }
    (volume, reference + first_moment / volume)
}
