//! The reliability side of a page read: what the page stores, its RBER under the error
//! model, and the ECC read plan (levels, retries, energy). The simulator charges the plan's
//! sensing, transfers and decodes to the back end.
//!
//! The page's stored cell states are the data codec's ([`Codec`], `[codec] kind`): each
//! host program encodes the page (`encode_program`, which returns the OOB word the FTL
//! keeps with it), and each read decodes them from that stored word, from a small
//! per-logical-page memo when the same version was judged before.

use crate::codec::Codec;
use crate::config::SimConfig;
use crate::content::{ContentSource, StateHist, MAX_STATES};
use crate::ecc::interleave::ChipGroups;
use crate::ecc::{
    EnergyParams, FailGrid, Interleave, ReadContext, ReadEnergy, ReadOutcome, ReadPlan, ReadPlanner, ReadStrategy,
    Scheme,
};
use crate::engine::rng::{component, stream_rng};
use crate::engine::SimRng;
use crate::error::Result;
use crate::metrics::summary::CodecSummary;
use crate::metrics::timeline::Counts;
use crate::metrics::ReliabilityStats;
use crate::reliability::{ErrorContext, ErrorModel, ModelKind, Needs, Variation};
use rustc_hash::FxHashMap;
use std::path::Path;

/// Most logical pages whose stored histogram is memoised (≈ 70 B each); the memo is
/// emptied when full.
const CODEC_MEMO_CAP: usize = 1 << 18;

/// The data codec of the read path, a memo of stored histograms (logical page → (content
/// tag, OOB word, histogram)) and a page buffer.
struct CodecPath {
    codec: Box<dyn Codec>,
    memo: FxHashMap<u64, (u64, u64, StateHist)>,
    buf: Vec<u8>,
}

impl CodecPath {
    fn remember(&mut self, lpn: u64, tag: u64, oob: u64, hist: StateHist) {
        if self.memo.len() >= CODEC_MEMO_CAP {
            self.memo.clear();
        }
        self.memo.insert(lpn, (tag, oob, hist));
    }

    /// Encodes version `tag` of `lpn` for its program: its OOB word.
    fn encode(&mut self, content: &ContentSource, lpn: u64, tag: u64) -> Result<u64> {
        content.page_data(lpn, tag, &mut self.buf)?;
        let (oob, hist) = self.codec.encode(&self.buf);
        self.remember(lpn, tag, oob, hist);
        Ok(oob)
    }

    /// The stored histogram of version `tag` of `lpn` stored with OOB word `oob`.
    fn stored_hist(&mut self, content: &ContentSource, lpn: u64, tag: u64, oob: u64) -> Result<StateHist> {
        match self.memo.get(&lpn) {
            Some(&(t, o, h)) if t == tag && o == oob => Ok(h),
            _ => {
                content.page_data(lpn, tag, &mut self.buf)?;
                let hist = self.codec.stored_hist(&self.buf, oob);
                self.remember(lpn, tag, oob, hist);
                Ok(hist)
            }
        }
    }
}

/// What a read of one page needs from the flash state.
#[derive(Debug, Clone, Copy)]
pub struct PageState {
    /// Owner, content tag and OOB word of the data, when the content model or the codec
    /// needs them.
    pub content: Option<(u64, u64, u64)>,
    /// Program time (ns; negative for data older than the run).
    pub program_ns: i64,
    /// P/E cycles of its block.
    pub pe_cycles: u32,
    /// Reads of its block since erase.
    pub reads_since_erase: u32,
    /// Page type.
    pub page_type: u8,
    /// Global chip index.
    pub chip: u32,
    /// Global block index.
    pub block: u32,
    /// Programmed with TVR's reduced layout (in a TVR region smaller than the device).
    pub tvr: bool,
}

/// Judges page reads.
pub struct ReadPath {
    /// Whether reads are judged at all (an error model or an ECC is configured).
    pub enabled: bool,
    content: ContentSource,
    model: Box<dyn ErrorModel>,
    /// The error model of TVR pages when only a region of the device is TVR.
    tvr_model: Option<Box<dyn ErrorModel>>,
    variation: Variation,
    chip_factors: Vec<f64>,
    /// Codewords spread over chip groups: a read's RBER is its parts' mean.
    interleave: Interleave,
    groups: ChipGroups,
    /// Blocks per chip (global block numbers are chip-major).
    blocks_per_chip: u32,
    /// The ECC read planner.
    pub planner: ReadPlanner,
    energy: EnergyParams,
    rng: SimRng,
    /// RBER statistics of the judged reads (outcomes are counted in `plan_reads`).
    stats: ReliabilityStats,
    /// Judged reads that followed each plan.
    plan_reads: Vec<u64>,
    random_content: bool,
    /// The read strategy.
    strategy: Box<dyn ReadStrategy>,
    /// Whether the strategy's first level depends on the page's history.
    history: bool,
    /// The read plans, built once: reads share them by index. Row `f` (of `max_level + 2`
    /// plans) holds the plans of reads whose first attempt senses at level `f`, one per
    /// needed level (index `L`) and, last, for no level decoding. A strategy without
    /// history has only row 0.
    pub plans: Vec<ReadPlan>,
    /// Plans per row.
    row: usize,
    /// What each of those plans yields: the decoded level, attempts, energy.
    outcomes: Vec<Outcome>,
    /// Plans that are a single hard attempt with no speculative sensing.
    simple: Vec<bool>,
    /// Idle time added to every page's age, seconds.
    idle_s: f64,
    /// Arrhenius factor from the storage temperature to the model's.
    age_factor: f64,
    /// The page history the error models read (the others are passed as 0).
    needs: Needs,
    /// What a read gathers: `needs`, and the block's wear for a strategy with history.
    gathers: Needs,
    /// Per page type, the last `(P/E, reads, RBER)` of random content with no variation,
    /// for a model that does not read the page's age: its RBER while the inputs it reads
    /// repeat (NaN until first computed).
    memo: [(f64, f64, f64); MAX_STATES],
    /// Page failure probabilities per level, tabulated over RBER.
    fail_grid: FailGrid,
    /// The data codec, when it changes the stored states (`None` for `codec.kind = "none"`,
    /// whose stored states are the content's own).
    codec: Option<CodecPath>,
}

#[derive(Debug, Clone, Copy)]
struct Outcome {
    level: Option<u8>,
    attempts: usize,
    energy: ReadEnergy,
}

impl ReadPath {
    /// Builds the read path of a config for a device with `chips` chips.
    pub fn new(cfg: &SimConfig, chips: u32, base_dir: Option<&Path>) -> Result<Self> {
        let bits = cfg.device.cell_type.bits() as u8;
        let page_bytes = cfg.device.page_size_bytes;
        let content = ContentSource::new(&cfg.content, bits, page_bytes as usize, cfg.seed)?;
        let (model, tvr_model) = cfg.tvr.error_models(&cfg.reliability, bits)?;
        let codec = cfg.codec.build(page_bytes, bits, cfg.content.mapping)?;
        let codec = codec.transforms().then(|| CodecPath {
            codec,
            memo: FxHashMap::default(),
            buf: vec![0; page_bytes as usize],
        });
        let planner = cfg.ecc.build(page_bytes, cfg.reliability.error_draw, base_dir)?;
        let variation = cfg.reliability.variation(cfg.seed);
        cfg.ecc.interleave.validate(chips)?;
        let energy = cfg.ecc.energy;
        let k = planner.max_level();
        let planner_fer_from = planner.fer_measured_from().unwrap_or(0.0);
        let strategy = planner.strategy.build(&crate::ecc::strategy::BuildCtx {
            table: "ecc.strategy",
            seed: cfg.seed,
        });
        let history = strategy.has_history();
        let needs = tvr_model
            .as_ref()
            .map_or(model.needs(), |m| m.needs().union(model.needs()));
        let firsts = if history { k } else { 0 };
        let plans: Vec<ReadPlan> = (0..=firsts)
            .flat_map(|first| {
                let (planner, strategy) = (&planner, strategy.as_ref());
                (0..=k)
                    .map(Some)
                    .chain([None])
                    .map(move |n| planner.plan_with(strategy, first, n))
            })
            .collect();
        let outcomes = plans
            .iter()
            .map(|plan| {
                let level = match plan.outcome {
                    ReadOutcome::Decoded { level } => Some(level),
                    ReadOutcome::Uncorrectable => None,
                };
                let mut energy = energy.read(plan);
                // Each part of an interleaved codeword is sensed on its own die.
                energy.sense_uj *= f64::from(cfg.ecc.interleave.ways);
                Outcome {
                    level,
                    attempts: plan.attempts.len(),
                    energy,
                }
            })
            .collect();
        let simple = plans
            .iter()
            .map(|p| {
                p.attempts.len() == 1
                    && p.attempts[0].level == 0
                    && !p.attempts[0].look_ahead
                    && p.cancelled_look_ahead_levels == 0
            })
            .collect();
        Ok(ReadPath {
            strategy,
            history,
            row: usize::from(k) + 2,
            plan_reads: vec![0; plans.len()],
            simple,
            idle_s: cfg.aging.idle_days * 86_400.0,
            age_factor: crate::reliability::equivalent_retention_s(
                1.0,
                cfg.aging.storage_temperature_c,
                cfg.aging.model_temperature_c,
            ),
            plans,
            outcomes,
            fail_grid: FailGrid::new(usize::from(planner.max_level()) + 1),
            needs,
            gathers: Needs {
                pe: needs.pe || history,
                ..needs
            },
            memo: [(f64::NAN, f64::NAN, f64::NAN); MAX_STATES],
            codec,
            enabled: cfg.reliability.model != ModelKind::None || cfg.ecc.scheme != Scheme::None,
            chip_factors: (0..chips).map(|c| variation.chip_factor(u64::from(c))).collect(),
            interleave: cfg.ecc.interleave,
            groups: cfg.ecc.interleave.groups(cfg.device.chips_per_channel, chips),
            blocks_per_chip: cfg.device.dies_per_chip * cfg.device.planes_per_die * cfg.device.blocks_per_plane,
            random_content: cfg.content.source == crate::content::SourceKind::Random,
            content,
            model,
            tvr_model,
            variation,
            planner,
            energy,
            rng: stream_rng(cfg.seed, component::ERRORS),
            stats: ReliabilityStats::with_fer_measured_from(planner_fer_from),
        })
    }

    /// Cell-state histogram of version `tag` of `lpn` as stored with OOB word `oob`: the
    /// content's own, or as the codec decodes it.
    pub fn stored_hist(&mut self, lpn: u64, tag: u64, oob: u64) -> Result<StateHist> {
        match self.codec.as_mut() {
            Some(c) => c.stored_hist(&self.content, lpn, tag, oob),
            None => Ok(self.content.page_hist(lpn, tag)),
        }
    }

    /// Page RBER of a read at `now_ns` (an error only when the content cannot be read).
    pub fn rber(&mut self, page: &PageState, now_ns: u64) -> Result<f64> {
        let hist = match page.content {
            Some((lpn, tag, oob)) => Some(self.stored_hist(lpn, tag, oob)?),
            None => None,
        };
        Ok(self.rber_of(hist, page, now_ns))
    }

    /// Page RBER of a read at `now_ns` of a page whose stored states are `hist` (`None`:
    /// random data).
    pub fn rber_of(&mut self, hist: Option<StateHist>, page: &PageState, now_ns: u64) -> f64 {
        let variation = if self.interleave.is_off() {
            self.part_factor(page.chip, page.block)
        } else {
            self.codeword_factor(page.chip, page.block)
        };
        let tvr_model = self.tvr_model.as_ref().filter(|_| page.tvr);
        let n = self.needs;
        // A model reading all three takes them as gathered (no masks on its path).
        let (pe_cycles, retention_s, reads_since_erase) = if n == Needs::ALL {
            (
                f64::from(page.pe_cycles),
                self.retention_s(page.program_ns, now_ns),
                f64::from(page.reads_since_erase),
            )
        } else {
            (
                if n.pe { f64::from(page.pe_cycles) } else { 0.0 },
                if n.retention {
                    self.retention_s(page.program_ns, now_ns)
                } else {
                    0.0
                },
                if n.reads {
                    f64::from(page.reads_since_erase)
                } else {
                    0.0
                },
            )
        };
        let ctx = ErrorContext {
            pe_cycles,
            retention_s,
            reads_since_erase,
            page_type: page.page_type,
            hist: hist.as_ref(),
            variation,
        };
        // The memo's key is every input the model reads (age never repeats, so a model
        // reading it is not memoised).
        let memo = hist.is_none() && variation == 1.0 && !n.retention && tvr_model.is_none();
        if !memo {
            return tvr_model.unwrap_or(&self.model).page_rber(&ctx);
        }
        let slot = &mut self.memo[page.page_type as usize];
        if (slot.0, slot.1) != (ctx.pe_cycles, ctx.reads_since_erase) {
            *slot = (ctx.pe_cycles, ctx.reads_since_erase, self.model.page_rber(&ctx));
        }
        slot.2
    }

    /// Retention age (s, at the model's temperature) at `now_ns` of data programmed at
    /// `program_ns`.
    #[inline]
    pub fn retention_s(&self, program_ns: i64, now_ns: u64) -> f64 {
        // A product, not a quotient: this sits on the critical path of every judged read.
        ((now_ns as i64 - program_ns).max(0) as f64 * 1e-9 + self.idle_s) * self.age_factor
    }

    /// RBER factor (chip × block variation) of the data on `chip`, block `block`.
    fn part_factor(&self, chip: u32, block: u32) -> f64 {
        let c = u64::from(chip);
        self.chip_factors[chip as usize]
            * if self.variation.block_sigma(c) > 0.0 {
                self.variation.block_factor(c, u64::from(block))
            } else {
                1.0
            }
    }

    /// RBER factor of an interleaved codeword whose part on `chip` is in `block`: the mean
    /// of its parts' factors, each at the same block of its own chip (equal parts, so the
    /// codeword's raw errors are the sum of theirs).
    fn codeword_factor(&self, chip: u32, block: u32) -> f64 {
        let local = block - chip * self.blocks_per_chip;
        let sum: f64 = self
            .groups
            .group(chip)
            .map(|c| self.part_factor(c, c * self.blocks_per_chip + local))
            .sum();
        sum / f64::from(self.interleave.ways)
    }

    /// Index into [`ReadPath::plans`] of the plan of a read of `page` at `rber` (from the
    /// lowest ECC level that decodes it and, for a strategy with history, the page's first
    /// level); records the read's statistics.
    pub fn judge(&mut self, rber: f64, page: &PageState) -> usize {
        let (idx, p_unc) = self.plan_of(rber, page);
        self.stats.record_rber(rber, p_unc);
        self.plan_reads[idx] += 1;
        idx
    }

    /// Index of the plan of a background read (a page read out through the controller to
    /// be moved), decided as for a host read but kept out of the host reads' statistics.
    pub fn judge_background(&mut self, rber: f64, page: &PageState) -> usize {
        self.plan_of(rber, page).0
    }

    /// The plan index of a read at `rber` and the page's uncorrectable probability.
    fn plan_of(&mut self, rber: f64, page: &PageState) -> (usize, f64) {
        let planner = &self.planner;
        let fail = self.fail_grid.probs(rber, |r| planner.page_fail_probs(r));
        let needed = planner.decide(rber, |u, l| fail.reaches(u, l), &mut self.rng);
        let p_unc = fail.at(usize::from(planner.max_level()));
        let mut idx = needed.map_or(self.row - 1, usize::from);
        if self.history {
            let ctx = ReadContext {
                block: page.block,
                pe_cycles: page.pe_cycles,
                page_type: page.page_type,
                max_level: (self.row - 2) as u8,
            };
            idx += usize::from(self.strategy.first_level(&ctx)) * self.row;
            self.strategy.record(&ctx, self.outcomes[idx].level);
        }
        (idx, p_unc)
    }

    /// Energy of a read that follows plan `i`, and whether it decodes.
    pub fn plan_energy(&self, i: usize) -> (ReadEnergy, bool) {
        (self.outcomes[i].energy, self.outcomes[i].level.is_some())
    }

    /// Whether a read following plan `i` ends uncorrectable.
    pub fn uncorrectable(&self, i: usize) -> bool {
        self.outcomes[i].level.is_none()
    }

    /// Statistics of the judged reads: RBER, decoding levels, retries, energy.
    pub fn stats(&self) -> ReliabilityStats {
        let mut s = self.stats.clone();
        for (o, &n) in self.outcomes.iter().zip(&self.plan_reads) {
            s.record_outcomes(o.level, o.attempts, n);
            s.add_energy(o.energy, n);
        }
        s
    }

    /// The judged reads' counts the timeline samples at each window's close, as `stats()`
    /// has them, without building it (a clone per close: ~200 instructions a row).
    pub fn sample_counts(&self, c: &mut Counts) {
        let s = &self.stats;
        c.judged = s.reads;
        c.rber_sum = s.rber_sum();
        c.decoded = s.decoded_at_level.iter().sum();
        c.level_sum = s.decoded_at_level.iter().enumerate().map(|(l, &n)| l as u64 * n).sum();
        c.retries = s.retries;
        c.uncorrectable = s.uncorrectable;
        for (o, &n) in self.outcomes.iter().zip(&self.plan_reads) {
            c.retries += o.attempts.saturating_sub(1) as u64 * n;
            match o.level {
                Some(l) => {
                    c.decoded += n;
                    c.level_sum += u64::from(l) * n;
                }
                None => c.uncorrectable += n,
            }
        }
    }

    /// Whether reads need the page's owner and tag (content other than random data, or a
    /// codec, whose stored states depend on the bytes).
    pub fn needs_content(&self) -> bool {
        !self.random_content || self.codec.is_some()
    }

    /// The page history a read must gather: what the error models read, and the block's
    /// wear for a read strategy with history (to tell an erase).
    #[inline]
    pub fn gathers(&self) -> Needs {
        self.gathers
    }

    /// Encoder time added to each host page program (ns).
    pub fn encode_ns_per_page(&self) -> u64 {
        self.codec.as_ref().map_or(0, |c| c.codec.encode_ns_per_page())
    }

    /// Codec decoder time added to each page read after its ECC decode (ns).
    pub fn codec_decode_ns_per_page(&self) -> u64 {
        self.codec.as_ref().map_or(0, |c| c.codec.decode_ns_per_page())
    }

    /// Encodes the host program of version `tag` of `lpn`: the word for the page's OOB
    /// area (0 for a codec that stores data as written).
    pub fn encode_program(&mut self, lpn: u64, tag: u64) -> Result<u64> {
        match self.codec.as_mut() {
            Some(c) => c.encode(&self.content, lpn, tag),
            None => Ok(0),
        }
    }

    /// The `codec` section of the run summary (`None` for a codec that stores data as
    /// written).
    pub fn codec_summary(&self) -> Option<CodecSummary> {
        self.codec.as_ref()?.codec.summary()
    }

    /// Extra levels the first attempt of plan `i` senses after the hard sensing (0 unless
    /// the strategy has history).
    pub fn first_extra_levels(&self, i: usize) -> u8 {
        if self.history {
            self.plans[i].attempts[0].extra_levels_sensed
        } else {
            0
        }
    }

    /// Whether plan `i` is one hard attempt with nothing speculative: timed like an
    /// unjudged read.
    pub fn is_single_hard_read(&self, i: usize) -> bool {
        self.simple[i]
    }

    /// Energy constants.
    pub fn energy(&self) -> &EnergyParams {
        &self.energy
    }

    /// The error model.
    pub fn model(&self) -> &dyn ErrorModel {
        self.model.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(pe_cycles: u32, reads_since_erase: u32) -> PageState {
        PageState {
            content: None,
            program_ns: 0,
            pe_cycles,
            reads_since_erase,
            page_type: 0,
            chip: 0,
            block: 0,
            tvr: false,
        }
    }

    /// A model of terms reading only the block's reads: the read path keys its RBER memo
    /// on them (never stale) and hands the terms 0 P/E cycles whatever the block's wear.
    /// By hand: 1e-4 + 2e-9 · reads.
    #[test]
    fn the_memo_is_keyed_on_the_inputs_the_terms_declare() {
        let cfg = SimConfig::from_toml_str(
            "[reliability]\nmodel = \"terms\"\n\
             [[reliability.terms]]\nterm = \"constant\"\neps = 1e-4\n\
             [[reliability.terms]]\nterm = \"linear_read_disturb\"\nrber_per_read = 2e-9\n",
        )
        .unwrap();
        let mut rp = ReadPath::new(&cfg, 4, None).unwrap();
        assert_eq!(
            rp.gathers(),
            Needs {
                reads: true,
                ..Needs::NONE
            }
        );
        let by_hand = |reads: f64| 1e-4 + 2e-9 * reads;
        for (pe, reads) in [(0, 0), (0, 50_000), (0, 50_000), (3000, 50_000), (3000, 10)] {
            let rber = rp.rber_of(None, &page(pe, reads), 1_000_000_000);
            assert!((rber - by_hand(f64::from(reads))).abs() < 1e-18, "{pe} {reads}: {rber}");
        }
    }

    /// The `empirical` model reads wear, age and reads; its RBER moves with each.
    #[test]
    fn empirical_reads_its_whole_history() {
        let cfg = SimConfig::from_toml_str("[reliability]\nmodel = \"empirical\"\n").unwrap();
        let mut rp = ReadPath::new(&cfg, 4, None).unwrap();
        assert_eq!(rp.gathers(), Needs::ALL);
        let law = crate::reliability::EmpiricalParams::mlc_2y();
        let day_ns = 86_400_000_000_000;
        let mut seen = Vec::new();
        for (pe, reads, days) in [(0, 0, 0), (3000, 0, 0), (3000, 10_000, 0), (3000, 10_000, 10)] {
            let rber = rp.rber_of(None, &page(pe, reads), days * day_ns);
            let want = law.rber(f64::from(pe), days as f64 * 86_400.0, f64::from(reads));
            assert!((rber / want - 1.0).abs() < 1e-12, "{pe} {reads} {days}: {rber} {want}");
            assert!(!seen.contains(&rber), "each input moves it: {seen:?} {rber}");
            seen.push(rber);
        }
    }
}
