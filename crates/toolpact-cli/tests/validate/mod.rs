//! End-to-end tests of `toolpact validate`: the binary is run as a user runs it, and only what
//! a user sees is checked (exit code, standard output, standard error).

mod args;
mod calls;
mod exit_codes;
mod json;
mod lenient;
mod read_back;
