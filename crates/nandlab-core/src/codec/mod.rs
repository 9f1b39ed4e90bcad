//! Data codecs applied to a page's bytes before they are programmed (and undone after a
//! read): they change which cell states the page stores, and so its RBER.
//!
//! A codec is a [`Codec`], chosen by `[codec] kind`:
//! - [`none`]: data are stored as written;
//! - [`bitflip`]: seed 000's BitFlip (Algorithms 1–2): per unit, invert every bit when
//!   the error-prone MLC states '00' and '01' outnumber '10' and '11'; one tag bit per
//!   unit in the OOB area.
//!
//! The `[codec]` config section is [`CodecConfig`].

pub mod bitflip;
pub mod config;
pub mod none;

use crate::content::StateHist;
use crate::metrics::summary::CodecSummary;

pub use bitflip::{storage_overhead, BitFlip, TagBits};
pub use config::{CodecConfig, CodecKind};
pub use none::NoCodec;

/// A data codec: encodes a page on program (its stored cell states and the word it keeps
/// in the page's OOB area, `PageMeta::oob_tags`) and decodes it on read from that stored
/// word. The simulator keeps no page bytes: a page's data are regenerated from its owner
/// and content tag, and the codec says what the flash holds for them.
pub trait Codec: Send {
    /// Name in `codec.kind`.
    fn kind(&self) -> &'static str;

    /// Whether the stored cell states can differ from the data's: reads then need the
    /// page's bytes and its OOB word.
    fn transforms(&self) -> bool;

    /// Encodes a host page of `data` on its way to the flash: the OOB word to store with
    /// it and the histogram of the cell states it stores (without writing the encoded
    /// bytes). Counted in the codec's statistics.
    fn encode(&mut self, data: &[u8]) -> (u64, StateHist);

    /// The cell states stored for a page whose data are `data` and whose OOB word is
    /// `oob`, as the read decodes it: from the stored word. A word of 0 means no OOB was
    /// kept (data programmed before the run): the codec then derives what its encoder
    /// would have written.
    fn stored_hist(&self, data: &[u8], oob: u64) -> StateHist;

    /// Decodes a page read back (`stored` holds the bytes as programmed) in place with
    /// its stored OOB word, giving the data written.
    fn decode(&self, stored: &mut [u8], oob: u64);

    /// Encoder time per host page program (ns).
    fn encode_ns_per_page(&self) -> u64;

    /// Decoder time per page read (ns), after the ECC decode.
    fn decode_ns_per_page(&self) -> u64;

    /// The `codec` section of the run summary (`None` for a codec that stores data as
    /// written).
    fn summary(&self) -> Option<CodecSummary>;
}
