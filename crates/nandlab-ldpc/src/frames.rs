//! Monte Carlo frames: make a frame's channel LLRs, decode, count the failure.
//!
//! Two pipelines ([`Pipeline`]): `coset` (default) draws the all-zero view of a uniformly
//! random word directly from the channel ([`Channel::transmit_coset`]; no encoding, one
//! random word per bit) and fails a frame whose decisions are not all zero; `encode` (the
//! check mode) draws random data, encodes it and sends the codeword through
//! [`Channel::transmit`], and fails a frame whose decisions differ from the codeword. Frame
//! `f` always draws from `stream_rng(stream_seed, f)`, and frames are decoded in one task
//! per rayon worker (a [`FixedDecoder`] stream, or [`MinSumDecoder`] calls); a frame's
//! result depends on its seed only, not on its task or lane, so a tally depends on the seed
//! and the frame range, not on the thread count.

use std::cell::{Cell, RefCell};

use nandlab_core::engine::rng::stream_rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::channel::{random_bits, Channel};
use crate::code::QcCode;
use crate::decoder::{Arithmetic, DecodeOutcome, DecoderConfig, MinSumDecoder};
use crate::encoder::Encoder;
use crate::fixed::FixedDecoder;
use crate::lanes::LANES;

/// How a frame's LLRs are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Pipeline {
    /// All-zero view of a random word (random coset), region sampling, no encoder.
    #[default]
    Coset,
    /// Random data → systematic encoder → channel (check mode).
    Encode,
}

/// Counts over a set of frames.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Frames simulated.
    pub frames: u64,
    /// Frames whose decisions differ from the sent word.
    pub failures: u64,
    /// Failures that converged to another codeword.
    pub miscorrections: u64,
    /// Sum of decoder iterations.
    pub iterations: u64,
    /// Raw (hard-decision) bit errors.
    pub raw_errors: u64,
}

impl Tally {
    /// The sum of two tallies.
    pub fn merge(mut self, o: Tally) -> Tally {
        self.frames += o.frames;
        self.failures += o.failures;
        self.miscorrections += o.miscorrections;
        self.iterations += o.iterations;
        self.raw_errors += o.raw_errors;
        self
    }

    fn count(&mut self, out: DecodeOutcome, wrong: bool, raw: usize) {
        self.frames += 1;
        self.failures += u64::from(wrong);
        self.miscorrections += u64::from(wrong && out.converged);
        self.iterations += u64::from(out.iterations);
        self.raw_errors += raw as u64;
    }
}

/// What the frames of a point share.
#[derive(Clone, Copy)]
pub struct FrameSetup<'a> {
    /// The code.
    pub code: &'a QcCode,
    /// Its encoder (needed by [`Pipeline::Encode`] only).
    pub encoder: Option<&'a Encoder>,
    /// The channel.
    pub channel: &'a dyn Channel,
    /// The decoder.
    pub decoder: DecoderConfig,
    /// The pipeline.
    pub pipeline: Pipeline,
    /// Seed of the point's frame streams.
    pub stream_seed: u64,
}

enum Engine {
    F32(Box<MinSumDecoder>),
    Fixed(Box<FixedDecoder>),
}

/// One worker's decoder and buffers.
struct Worker {
    engine: Engine,
    llr: Vec<f32>,
    /// Sent codewords of the task's frames (encode pipeline only).
    sent: Vec<Vec<u8>>,
    data: Vec<u8>,
}

impl FrameSetup<'_> {
    /// Simulates frames `first .. first + count` (in parallel on the current rayon pool).
    pub fn run(&self, first: u64, count: u64) -> Tally {
        assert!(
            self.pipeline == Pipeline::Coset || self.encoder.is_some(),
            "the encode pipeline needs an encoder"
        );
        // A frame's result does not depend on its task or lane, so the split may follow
        // the threads.
        let per_task = frames_per_task(count, rayon::current_num_threads(), self.decoder.arithmetic);
        let chunks: Vec<(u64, usize)> = (first..first + count)
            .step_by(per_task as usize)
            .map(|s| (s, (first + count - s).min(per_task) as usize))
            .collect();
        chunks
            .into_par_iter()
            .map_init(|| self.worker(), |w, (start, len)| self.chunk(w, start, len))
            .reduce(Tally::default, Tally::merge)
    }

    fn worker(&self) -> Worker {
        let n = self.code.n();
        let engine = match self.decoder.arithmetic {
            Arithmetic::F32 => Engine::F32(Box::new(MinSumDecoder::new(self.code, self.decoder))),
            Arithmetic::Fixed8 { llr_scale } => {
                Engine::Fixed(Box::new(FixedDecoder::new(self.code, self.decoder, llr_scale)))
            }
        };
        let encode = self.pipeline == Pipeline::Encode;
        Worker {
            engine,
            llr: vec![0.0; n],
            sent: Vec::new(),
            data: if encode { vec![0; self.code.k()] } else { Vec::new() },
        }
    }

    /// Writes frame `frame`'s LLRs (and, encoding, its codeword into `sent`); returns its
    /// raw bit errors.
    fn make_frame(&self, frame: u64, llr: &mut [f32], data: &mut [u8], sent: Option<&mut Vec<u8>>) -> usize {
        let mut rng = stream_rng(self.stream_seed, frame);
        match (self.encoder, sent) {
            (Some(enc), Some(cw)) if self.pipeline == Pipeline::Encode => {
                random_bits(&mut data[..enc.data_len()], &mut rng);
                enc.encode_into(&data[..enc.data_len()], cw);
                self.channel.transmit(cw, llr, &mut rng)
            }
            _ => self.channel.transmit_coset(llr, &mut rng),
        }
    }

    /// Whether decisions `word` of frame `i` of the task are wrong.
    fn wrong(&self, w_sent: &[Vec<u8>], i: usize, word: &[u8]) -> bool {
        match self.pipeline {
            Pipeline::Coset => word.iter().any(|&b| b != 0),
            Pipeline::Encode => word != &w_sent[i][..],
        }
    }

    fn chunk(&self, w: &mut Worker, start: u64, len: usize) -> Tally {
        let mut t = Tally::default();
        let Worker {
            engine,
            llr,
            sent,
            data,
        } = w;
        if self.pipeline == Pipeline::Encode && sent.len() < len {
            sent.resize(len, vec![0; self.code.n()]);
        }
        match engine {
            Engine::F32(dec) => {
                for i in 0..len {
                    let raw = self.make_frame(start + i as u64, llr, data, sent.get_mut(i));
                    let out = dec.decode(llr);
                    t.count(out, self.wrong(sent, i, dec.decoded()), raw);
                }
            }
            Engine::Fixed(dec) => {
                // Both closures need the raw error counts and the sent words.
                let raw: Vec<Cell<usize>> = vec![Cell::new(0); len];
                let mut next = 0;
                let sent_cell = RefCell::new(sent);
                dec.decode_stream(
                    |llr| {
                        let i = next;
                        (i < len).then(|| {
                            next += 1;
                            raw[i].set(self.make_frame(start + i as u64, llr, data, sent_cell.borrow_mut().get_mut(i)));
                            i as u64
                        })
                    },
                    |i, out, word| {
                        let i = i as usize;
                        t.count(out, self.wrong(&sent_cell.borrow(), i, word), raw[i].get());
                    },
                );
            }
        }
        t
    }
}

/// Frames per parallel task for `count` frames on `threads` threads: one task per thread,
/// but at least [`LANES`] frames for the fixed-point decoder, whose SIMD kernel decodes that
/// many frames side by side (fewer would leave lanes empty). The `f32` decoder takes one
/// frame at a time, so its tasks may be as small as one frame: a batch of 128 then keeps 16
/// threads busy, where a 64-frame floor left 2 of them working.
fn frames_per_task(count: u64, threads: usize, arithmetic: Arithmetic) -> u64 {
    let floor = match arithmetic {
        Arithmetic::F32 => 1,
        Arithmetic::Fixed8 { .. } => LANES as u64,
    };
    count.div_ceil(threads.max(1) as u64).max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::BscChannel;
    use crate::code::testing::array7;

    #[test]
    fn tasks_follow_the_threads_down_to_a_frame_for_f32_and_a_vector_for_fixed8() {
        let fixed = Arithmetic::Fixed8 { llr_scale: 4.0 };
        // 128 frames on 16 threads: 8 each (16 tasks) in f32, 64 (2 tasks) in fixed point.
        assert_eq!(frames_per_task(128, 16, Arithmetic::F32), 8);
        assert_eq!(frames_per_task(128, 16, fixed), 64);
        // 256 on 14: ceil(256 / 14) = 19 in f32 (14 tasks); fixed point fills its 64 lanes.
        assert_eq!(frames_per_task(256, 14, Arithmetic::F32), 19);
        assert_eq!(frames_per_task(256, 14, fixed), 64);
        // More threads than frames: one frame per task; 4,096 on 16: 256 either way.
        assert_eq!(frames_per_task(5, 16, Arithmetic::F32), 1);
        assert_eq!(frames_per_task(4096, 16, Arithmetic::F32), 256);
        assert_eq!(frames_per_task(4096, 16, fixed), 256);
    }

    #[test]
    fn tallies_do_not_depend_on_threads_or_chunking() {
        // p = 0.06 on the length-49 code: a mix of corrected and failed frames.
        let code = array7();
        let enc = Encoder::new(&code).unwrap();
        let ch = BscChannel::new(0.06);
        for pipeline in [Pipeline::Coset, Pipeline::Encode] {
            for arithmetic in [Arithmetic::F32, Arithmetic::Fixed8 { llr_scale: 4.0 }] {
                let setup = FrameSetup {
                    code: &code,
                    encoder: Some(&enc),
                    channel: &ch,
                    decoder: DecoderConfig {
                        arithmetic,
                        ..DecoderConfig::default()
                    },
                    pipeline,
                    stream_seed: 11,
                };
                let on = |threads: usize, f: &(dyn Fn() -> Tally + Sync)| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(f)
                };
                let whole = on(1, &|| setup.run(0, 300));
                assert!(whole.failures > 10 && whole.failures < 290, "{whole:?}");
                assert_eq!(on(2, &|| setup.run(0, 300)), whole);
                assert_eq!(on(2, &|| setup.run(0, 37).merge(setup.run(37, 263))), whole);
            }
        }
    }
}
