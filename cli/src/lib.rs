//! The `demcontact` command's library: each shape family's validation protocol and benchmarks,
//! plus the peers they are measured against. The library crate `demcontact` never links any of this.

pub mod bench;
pub mod broad_scenes;
pub mod double_double;
pub mod figure;
pub mod peers;
pub mod polyhedron_motion;
pub mod polyhedron_pairs;
pub mod polyhedron_reference;
pub mod potential_pairs;
pub mod potential_reference;
pub mod sampling;
pub mod sphere_pairs;
pub mod superellipsoid_pairs;
pub mod table;
pub mod validate;
