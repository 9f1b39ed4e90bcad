//! nandlab-ldpc: a real rate-8/9 4 KB QC-LDPC code, a layered min-sum decoder and a
//! soft-sensing MLC channel on nandlab's Vth model, used to calibrate the frame error rate
//! curves of nandlab's LDPC ladder (seed 001 §2.2, §4.2, Fig. 3 and 10).
//!
//! * [`code`]: quasi-cyclic codes; [`QcCode::rate_8_9_4k`] is the 36 864-bit code.
//! * [`encoder`]: systematic encoder (`H·c = 0` for every word).
//! * [`decoder`]: normalized / offset min-sum, layered schedule, early termination (`f32`).
//! * [`fixed`]: the same decoder in 8-bit fixed point, 64 frames per SIMD batch.
//! * [`conditioned`]: frames with exactly `w` hard errors; [`stratified`]: FER far below
//!   plain Monte Carlo's reach from them; [`input_law`]: what the decoder sees of such a
//!   frame; [`strata_run`]: strata pooled across runs and RBER points of one input law;
//!   [`strata_quality`]: a stratified estimate's bootstrap interval and thin strata.
//! * [`frames`]: Monte Carlo frames (all-zero coset view or encode check mode).
//! * [`channel`]: BSC and MLC soft-sensing channels with model-derived LLR tables.
//! * [`calibrate`]: FER vs RBER Monte Carlo with confidence intervals and the table writer.
//! * [`table`]: pooling later runs into a table; [`tail`]: the model below its data.
//! * [`stats`]: Clopper–Pearson intervals.
//!
//! See `docs/ldpc.md` for the code, the decoder and how the shipped table was made.

mod alias;
pub mod calibrate;
pub mod channel;
pub mod code;
pub mod conditioned;
pub mod decoder;
pub mod encoder;
pub mod fixed;
pub mod frames;
pub mod input_law;
mod lanes;
pub mod stats;
pub mod strata_quality;
pub mod strata_run;
pub mod stratified;
pub mod table;
pub mod tail;

pub use calibrate::{calibrate, calibrate_on, Backend, CalibrationConfig, CalibrationPoint, CalibrationTable};
pub use channel::{BscChannel, Channel, MlcChannel, OperatingPoint, Placement, Sampling};
pub use code::QcCode;
pub use decoder::{Arithmetic, DecodeOutcome, DecoderConfig, MinSumDecoder, MinSumRule};
pub use encoder::Encoder;
pub use fixed::{FixedDecoder, Kernel};
pub use frames::{FrameSetup, Pipeline, Tally};
pub use stratified::{StratifiedConfig, StratifiedEstimate, Stratum};
pub use tail::TailModel;
