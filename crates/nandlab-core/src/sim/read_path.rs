//! The reliability side of a page read: what the page stores, its RBER under the error
//! model, and the ECC read plan (levels, retries, energy). The simulator charges the plan's
//! sensing, transfers and decodes to the back end.

use crate::config::SimConfig;
use crate::content::ContentSource;
use crate::ecc::{EnergyParams, ReadEnergy, ReadOutcome, ReadPlan, ReadPlanner, Scheme};
use crate::engine::rng::{component, stream_rng};
use crate::engine::SimRng;
use crate::error::Result;
use crate::metrics::ReliabilityStats;
use crate::reliability::{ErrorContext, ErrorModel, ModelKind, Variation};
use std::path::Path;

/// What a read of one page needs from the flash state.
#[derive(Debug, Clone, Copy)]
pub struct PageState {
    /// Owner and content tag of the data, when the content model needs them.
    pub content: Option<(u64, u64)>,
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
}

/// Judges page reads.
pub struct ReadPath {
    /// Whether reads are judged at all (an error model or an ECC is configured).
    pub enabled: bool,
    content: ContentSource,
    model: Box<dyn ErrorModel>,
    variation: Variation,
    chip_factors: Vec<f64>,
    /// The ECC read planner.
    pub planner: ReadPlanner,
    energy: EnergyParams,
    rng: SimRng,
    /// Accumulated statistics.
    pub stats: ReliabilityStats,
    random_content: bool,
    /// The read plan for each needed level (index `L`) and for no level decoding (last
    /// entry), built once: reads share them by index.
    pub plans: Vec<ReadPlan>,
    /// What each of those plans yields: the decoded level, attempts, energy.
    outcomes: Vec<Outcome>,
    /// Plans that are a single hard attempt with no speculative sensing.
    simple: Vec<bool>,
    /// Idle time added to every page's age, seconds.
    idle_s: f64,
    /// Arrhenius factor from the storage temperature to the model's.
    age_factor: f64,
    /// Last (RBER, uncorrectable probability): consecutive reads often share an RBER.
    unc_memo: (f64, f64),
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
        let model = cfg.reliability.build(bits)?;
        let planner = cfg.ecc.build(page_bytes, cfg.reliability.error_draw, base_dir)?;
        let variation = cfg.reliability.variation(cfg.seed);
        let energy = cfg.ecc.energy;
        let plans: Vec<ReadPlan> = (0..=planner.max_level())
            .map(Some)
            .chain([None])
            .map(|n| planner.plan_for_needed(n))
            .collect();
        let outcomes = plans
            .iter()
            .map(|plan| {
                let level = match plan.outcome {
                    ReadOutcome::Decoded { level } => Some(level),
                    ReadOutcome::Uncorrectable => None,
                };
                Outcome {
                    level,
                    attempts: plan.attempts.len(),
                    energy: energy.read(plan),
                }
            })
            .collect();
        let simple = plans
            .iter()
            .map(|p| p.attempts.len() == 1 && !p.attempts[0].look_ahead && p.cancelled_look_ahead_levels == 0)
            .collect();
        Ok(ReadPath {
            simple,
            idle_s: cfg.aging.idle_days * 86_400.0,
            age_factor: crate::reliability::equivalent_retention_s(
                1.0,
                cfg.aging.storage_temperature_c,
                cfg.aging.model_temperature_c,
            ),
            plans,
            outcomes,
            unc_memo: (f64::NAN, 0.0),
            enabled: cfg.reliability.model != ModelKind::None || cfg.ecc.scheme != Scheme::None,
            chip_factors: (0..chips).map(|c| variation.chip_factor(u64::from(c))).collect(),
            random_content: cfg.content.source == crate::content::SourceKind::Random,
            content,
            model,
            variation,
            planner,
            energy,
            rng: stream_rng(cfg.seed, component::ERRORS),
            stats: ReliabilityStats::default(),
        })
    }

    /// Page RBER of a read at `now_ns`.
    pub fn rber(&self, page: &PageState, now_ns: u64) -> f64 {
        let hist = page.content.map(|(lpn, tag)| self.content.page_hist(lpn, tag));
        let variation = self.chip_factors[page.chip as usize]
            * if self.variation.block_sigma > 0.0 {
                self.variation.block_factor(u64::from(page.block))
            } else {
                1.0
            };
        let ctx = ErrorContext {
            pe_cycles: f64::from(page.pe_cycles),
            retention_s: ((now_ns as i64 - page.program_ns).max(0) as f64 / 1e9 + self.idle_s) * self.age_factor,
            reads_since_erase: f64::from(page.reads_since_erase),
            page_type: page.page_type,
            hist: hist.as_ref(),
            variation,
        };
        self.model.page_rber(&ctx)
    }

    /// Index into [`ReadPath::plans`] of the plan of a read of `page` at `now_ns` (from the
    /// lowest ECC level that decodes it); records the read's statistics.
    pub fn judge(&mut self, page: &PageState, now_ns: u64) -> usize {
        let rber = self.rber(page, now_ns);
        let (needed, errors) = self.planner.needed_level(rber, &mut self.rng);
        if self.unc_memo.0 != rber {
            self.unc_memo = (rber, self.planner.uncorrectable_prob(rber));
        }
        let p_unc = self.unc_memo.1;
        let idx = needed.map_or(self.plans.len() - 1, usize::from);
        let o = self.outcomes[idx];
        self.stats.record(rber, o.level, o.attempts, errors, p_unc);
        self.stats.add_energy(o.energy);
        idx
    }

    /// Whether reads need the page's owner and tag (content other than random data).
    pub fn needs_content(&self) -> bool {
        !self.random_content
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
