//! Data codecs applied to a page's bytes before they are programmed (and undone after a
//! read): they change which cell states the page stores, and so its RBER.
//!
//! - [`bitflip`]: seed 000's BitFlip (Algorithms 1–2): per unit, invert every bit when
//!   the error-prone MLC states '00' and '01' outnumber '10' and '11'; one tag bit per
//!   unit in the OOB area.
//!
//! The `[codec]` config section is [`CodecConfig`].

pub mod bitflip;
pub mod config;

pub use bitflip::{storage_overhead, BitFlip, TagBits};
pub use config::{CodecConfig, CodecKind};
