//! End-to-end tests of `toolpact request`: the binary is run as a user runs it, and only what
//! a user sees is checked (exit code, standard output, standard error, files written).

mod bodies;
mod errors;
