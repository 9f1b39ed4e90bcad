//! nandlab-ldpc: a real rate-8/9 4 KB QC-LDPC code for nandlab's ECC ladder.
pub mod code;
pub mod decoder;
pub mod encoder;
