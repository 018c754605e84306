//! End-to-end tests of `toolpact convert`: the binary is run as a user runs it, and only what
//! a user sees is checked (exit code, standard output, standard error, files written).

mod broken_pipe;
mod exit_codes;
mod large;
mod malformed;
mod options;
mod report;
