//! FFI tests: real C, C++ and Fortran programs compiled against `include/demcontact.h` (or the
//! bindings) and linked with the library cargo built, checking numbers; plus the header, ABI baseline
//! and packaging checks.

mod abi_baseline;
mod c_programs;
mod cpp_programs;
mod fortran_programs;
mod harness;
mod header;
mod packaging;
