//! The C ABI: a thin layer over the Rust core that validates every argument, catches every panic,
//! and converts between `#[repr(C)]` plain structs and core types. Nothing else in the crate knows C.
//!
//! `include/demcontact.h` is generated from this module by cbindgen (see `cbindgen.toml`); a test fails
//! when the committed header differs from what this code generates.
#![allow(non_camel_case_types)]
#![deny(missing_docs)]

mod boundary;
mod broad_phase;
mod contact;
mod pointers;
mod polyhedron;
mod pose;
mod potential_particle;
mod shape;
mod status;
mod version;
mod warm;
mod world;

pub use boundary::demcontact_last_error_message;
pub use broad_phase::*;
pub use contact::*;
pub use polyhedron::*;
pub use pose::*;
pub use potential_particle::*;
pub use shape::*;
pub use status::*;
pub use version::*;
pub use warm::*;
pub use world::*;
