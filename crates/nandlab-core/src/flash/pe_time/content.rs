//! `content`: program and erase times that follow the data, after seed 002 §4 (Wang, Xie,
//! Zhou, ICS'14, Figs. 7–10), measured on a 2-bit MLC chip.
//!
//! **A page's program time.** Each page type has a time per cell state (bit pattern):
//! the time 002 measured for pages whose cells all take that state. A page of mixed data
//! takes, with `compose = "slowest"` (default), the time of the slowest state present:
//! ISPP stops when the last cell verifies, so the slowest cell decides (§5.3, after Suh
//! et al. [25]); with `compose = "mean"`, the share-weighted mean of the state times (as
//! if each cell's share of the time were its own). The result is scaled by a factor that
//! falls with the block's P/E count (§4.1: −10.3 % up to 2×10⁵ cycles, a further −4.8 %
//! to the end of life), linear between the knots.
//!
//! **A block's erase time.** Each state has an early-life erase time (Fig. 10); a block
//! is composed the same way from the states its pages were programmed with since the
//! last erase (a block with no program in the run, i.e. preconditioned data, counts as
//! random data: every state equally). With wear the time moves towards a common
//! end-of-life time (Fig. 9: 9 ms for every content), linearly between the knots of
//! `erase_pe_weight`.

use super::{BaseTimes, PeTimeModel, PeTimeSpec};
use crate::content::{StateHist, MAX_STATES};
use crate::error::{NandError, Result};
use crate::flash::cell::PageType;
use crate::flash::timing::MAX_OP_NS;
use serde::{Deserialize, Serialize};

/// §5.4's largest P/E count under the RBER limit, 12.469×10⁵: the end of life of 002's
/// chip, where Figs. 8–9 end.
pub const WANG_END_OF_LIFE_PE: u32 = 1_246_900;

/// How a page's (or block's) time follows from the times of its cells' states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compose {
    /// The slowest state present decides (002 §5.3).
    #[default]
    Slowest,
    /// The states' times weighted by their shares.
    Mean,
}

/// `[timing.pe_time] model = "content"`. Defaults: seed 002 §4 for 2-bit MLC.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Content {
    /// `slowest` | `mean`.
    pub compose: Compose,
    /// Program time of a page whose cells all take one state: one row per page type
    /// (type 0 first; one row applies to all), one entry per bit pattern ('00', '01',
    /// '10', '11' for MLC). Default (Fig. 8): type 0, the lower page, programmed first
    /// and read with one reference (002's "MSB page"): 380 µs for '11' and '10',
    /// 1.42 × 380 = 539.6 µs for '00' and '01'; type 1 (002's "LSB page"): 919 µs for
    /// '11', 1,082 µs for '10' ("the longest"), and 1,082 µs for '00' and '01', which 002
    /// does not give (the value closest to Fig. 7's state averages that keeps '10' the
    /// longest).
    pub program_state_latency_ns: Vec<Vec<u64>>,
    /// P/E counts of the knots of the program-time factor.
    pub program_pe_knots: Vec<u32>,
    /// Program-time factor at each knot (default 1 fresh, 0.897 at 2×10⁵, 0.897 × 0.952
    /// at the end of life, §4.1).
    pub program_pe_factor: Vec<f64>,
    /// Early-life erase time of a block whose cells all take one state, by bit pattern
    /// (Fig. 10: '01' 3.1 ms, '11' 3.3 ms; '10' and '00', not given, linear in the
    /// states' Vth order between them: 3.233 and 3.167 ms).
    pub erase_state_latency_ns: Vec<u64>,
    /// Erase time every block reaches at the end of life (Fig. 9: 9 ms).
    pub erase_end_of_life_ns: u64,
    /// P/E counts of the knots of the end-of-life weight.
    pub erase_pe_knots: Vec<u32>,
    /// Weight of the end-of-life time at each knot, 0 … 1 (default 0 up to 10⁴ cycles,
    /// Fig. 10's range, and 1 at the end of life).
    pub erase_pe_weight: Vec<f64>,
}

impl Default for Content {
    fn default() -> Self {
        Content {
            compose: Compose::Slowest,
            program_state_latency_ns: vec![
                vec![539_600, 539_600, 380_000, 380_000],
                vec![1_082_000, 1_082_000, 1_082_000, 919_000],
            ],
            program_pe_knots: vec![0, 200_000, WANG_END_OF_LIFE_PE],
            program_pe_factor: vec![1.0, 0.897, 0.897 * 0.952],
            erase_state_latency_ns: vec![3_166_667, 3_100_000, 3_233_333, 3_300_000],
            erase_end_of_life_ns: 9_000_000,
            erase_pe_knots: vec![10_000, WANG_END_OF_LIFE_PE],
            erase_pe_weight: vec![0.0, 1.0],
        }
    }
}

/// A piecewise-linear function of the P/E count, constant beyond its end knots.
#[derive(Debug, Clone)]
struct Knots {
    pe: Vec<u32>,
    value: Vec<f64>,
}

impl Knots {
    fn new(table: &str, knots: (&str, &[u32]), values: (&str, &[f64]), range: (f64, f64)) -> Result<Self> {
        let (kk, pe) = knots;
        let (vk, value) = values;
        if pe.is_empty() || pe.len() != value.len() {
            return Err(NandError::config(
                format!("{table}.{vk}"),
                format!("needs one value per entry of {table}.{kk} (at least one)"),
            ));
        }
        if pe.windows(2).any(|w| w[0] >= w[1]) {
            return Err(NandError::config(format!("{table}.{kk}"), "P/E counts must increase"));
        }
        let (lo, hi) = range;
        if value.iter().any(|v| !(v.is_finite() && *v >= lo && *v <= hi)) {
            return Err(NandError::config(
                format!("{table}.{vk}"),
                format!("every value must be between {lo} and {hi}"),
            ));
        }
        Ok(Knots {
            pe: pe.to_vec(),
            value: value.to_vec(),
        })
    }

    fn at(&self, pe: u32) -> f64 {
        let i = self.pe.partition_point(|&k| k <= pe);
        if i == 0 {
            return self.value[0];
        }
        if i == self.pe.len() {
            return self.value[i - 1];
        }
        let (x0, x1) = (f64::from(self.pe[i - 1]), f64::from(self.pe[i]));
        let (y0, y1) = (self.value[i - 1], self.value[i]);
        y0 + (y1 - y0) * (f64::from(pe) - x0) / (x1 - x0)
    }
}

/// The time of cells whose states have `weights`, each state taking `times[s]`.
fn compose(rule: Compose, times: &[u64], weights: &[u64]) -> u64 {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        // Nothing known of the content: random data, every state equally.
        return compose(rule, times, &[1; MAX_STATES][..times.len()]);
    }
    match rule {
        Compose::Slowest => times
            .iter()
            .zip(weights)
            .filter(|(_, &w)| w > 0)
            .map(|(&t, _)| t)
            .max()
            .unwrap_or(0),
        Compose::Mean => {
            let sum: u128 = times.iter().zip(weights).map(|(&t, &w)| u128::from(t) * u128::from(w)).sum();
            ((sum + u128::from(total) / 2) / u128::from(total)) as u64
        }
    }
}

fn check_ns(key: String, values: &[u64], n: usize) -> Result<()> {
    if values.len() != n {
        return Err(NandError::config(
            key,
            format!("needs {n} values (one per cell state, by bit pattern), got {}", values.len()),
        ));
    }
    if values.iter().any(|&ns| ns == 0 || ns > MAX_OP_NS) {
        return Err(NandError::config(key, format!("every time must be between 1 and {MAX_OP_NS} ns")));
    }
    Ok(())
}

impl PeTimeSpec for Content {
    fn build(&self, table: &str, base: &BaseTimes) -> Result<Box<dyn PeTimeModel>> {
        let n_states = 1usize << base.bits;
        let key = |k: &str| format!("{table}.{k}");
        let rows = self.program_state_latency_ns.len();
        if rows != 1 && rows != base.bits {
            return Err(NandError::config(
                key("program_state_latency_ns"),
                format!(
                    "needs 1 or {} rows (one per page type), got {rows} (the default is seed 002's 2-bit MLC table)",
                    base.bits
                ),
            ));
        }
        for (t, row) in self.program_state_latency_ns.iter().enumerate() {
            check_ns(format!("{table}.program_state_latency_ns[{t}]"), row, n_states)?;
        }
        check_ns(key("erase_state_latency_ns"), &self.erase_state_latency_ns, n_states)?;
        check_ns(key("erase_end_of_life_ns"), &[self.erase_end_of_life_ns], 1)?;
        let program_factor = Knots::new(
            table,
            ("program_pe_knots", &self.program_pe_knots),
            ("program_pe_factor", &self.program_pe_factor),
            (1e-3, 1e3),
        )?;
        let erase_weight = Knots::new(
            table,
            ("erase_pe_knots", &self.erase_pe_knots),
            ("erase_pe_weight", &self.erase_pe_weight),
            (0.0, 1.0),
        )?;
        Ok(Box::new(ContentTimes {
            p: self.clone(),
            n_states,
            program_factor,
            erase_weight,
            block_states: Vec::new(),
        }))
    }
}

#[derive(Debug)]
struct ContentTimes {
    p: Content,
    n_states: usize,
    program_factor: Knots,
    erase_weight: Knots,
    /// Per block (`n_states` entries each), the summed quantised shares of each state
    /// over the pages programmed since its erase (saturating); grown on demand.
    block_states: Vec<u32>,
}

impl ContentTimes {
    fn block_slot(&mut self, block: u32) -> &mut [u32] {
        let start = block as usize * self.n_states;
        if self.block_states.len() < start + self.n_states {
            self.block_states.resize(start + self.n_states, 0);
        }
        &mut self.block_states[start..start + self.n_states]
    }
}

impl PeTimeModel for ContentTimes {
    fn needs_content(&self) -> bool {
        true
    }

    fn program_ns(&mut self, block: u32, page_type: PageType, hist: Option<&StateHist>, pe: u32) -> u64 {
        // On the stack: this runs for every page programmed.
        let n = self.n_states;
        let mut buf = [1u64; MAX_STATES];
        let weights = &mut buf[..n];
        if let Some(h) = hist {
            for (s, w) in weights.iter_mut().enumerate() {
                *w = u64::from(h.share_q(s));
            }
        }
        for (acc, &w) in self.block_slot(block).iter_mut().zip(weights.iter()) {
            // A share is at most SHARE_SCALE (< 2^16), so it fits.
            *acc = acc.saturating_add(w as u32);
        }
        let rows = &self.p.program_state_latency_ns;
        let row = &rows[usize::from(page_type).min(rows.len() - 1)];
        let t = compose(self.p.compose, row, weights);
        (t as f64 * self.program_factor.at(pe)).round() as u64
    }

    fn erase_ns(&mut self, block: u32, pe: u32) -> u64 {
        let slot = self.block_slot(block);
        let mut buf = [0u64; MAX_STATES];
        let weights = &mut buf[..slot.len()];
        for (w, &s) in weights.iter_mut().zip(slot.iter()) {
            *w = u64::from(s);
        }
        slot.fill(0);
        let fresh = compose(self.p.compose, &self.p.erase_state_latency_ns, weights) as f64;
        let eol = self.p.erase_end_of_life_ns as f64;
        (fresh + (eol - fresh) * self.erase_weight.at(pe)).round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(compose: Compose) -> Box<dyn PeTimeModel> {
        let base = BaseTimes {
            program_ns: vec![1, 1],
            erase_ns: 1,
            bits: 2,
        };
        Content {
            compose,
            ..Content::default()
        }
        .build("timing.pe_time", &base)
        .unwrap()
    }

    /// Fig. 8 by page type, fresh: all-'11' and all-'01' pages (bit patterns 3 and 1).
    #[test]
    fn single_state_pages_take_the_papers_times() {
        let mut m = model(Compose::Slowest);
        let at = |m: &mut Box<dyn PeTimeModel>, t, s| m.program_ns(0, t, Some(&StateHist::single(4, s)), 0);
        assert_eq!(at(&mut m, 0, 0b11), 380_000);
        assert_eq!(at(&mut m, 0, 0b01), 539_600);
        assert_eq!(at(&mut m, 1, 0b11), 919_000);
        assert_eq!(at(&mut m, 1, 0b10), 1_082_000);
    }

    /// Random data (each state 1/4): the slowest state, or the mean of the four times:
    /// type 0 (2 · 539.6 + 2 · 380)/4 = 459.8 µs, type 1 (3 · 1082 + 919)/4 = 1041.25 µs.
    #[test]
    fn random_pages_compose_by_the_rule() {
        let u = StateHist::uniform(4);
        let mut slow = model(Compose::Slowest);
        assert_eq!(slow.program_ns(0, 0, Some(&u), 0), 539_600);
        assert_eq!(slow.program_ns(0, 1, Some(&u), 0), 1_082_000);
        let mut mean = model(Compose::Mean);
        assert_eq!(mean.program_ns(0, 0, Some(&u), 0), 459_800);
        assert_eq!(mean.program_ns(0, 1, Some(&u), 0), 1_041_250);
        // A page of '11' and '10' cells only: 002's MSB page never leaves 380 µs.
        let h = StateHist::from_counts(&[0, 0, 5, 3]);
        assert_eq!(slow.program_ns(0, 0, Some(&h), 0), 380_000);
    }

    /// §4.1: factor 1 fresh, 0.897 at 2×10⁵ (linear: 0.9485 at 10⁵), 0.853944 at the
    /// end of life and beyond.
    #[test]
    fn program_time_falls_with_wear() {
        let mut m = model(Compose::Slowest);
        let h = StateHist::single(4, 0b11);
        assert_eq!(m.program_ns(0, 0, Some(&h), 100_000), 360_430); // 380 µs · 0.9485
        assert_eq!(m.program_ns(0, 0, Some(&h), 200_000), 340_860);
        assert_eq!(m.program_ns(0, 0, Some(&h), 2_000_000), 324_499); // · 0.853944
    }

    /// Fig. 10 early in life, Fig. 9's common 9 ms at the end; a block's content is what
    /// was programmed since its last erase.
    #[test]
    fn erase_time_follows_block_content_and_wear() {
        let mut m = model(Compose::Slowest);
        let all = |s| StateHist::single(4, s);
        m.program_ns(7, 0, Some(&all(0b01)), 0);
        m.program_ns(7, 1, Some(&all(0b01)), 0);
        assert_eq!(m.erase_ns(7, 5_000), 3_100_000);
        m.program_ns(7, 0, Some(&all(0b11)), 0);
        assert_eq!(m.erase_ns(7, 5_000), 3_300_000);
        // Nothing programmed since (or preconditioned data): random data, slowest = '11'.
        assert_eq!(m.erase_ns(7, 5_000), 3_300_000);
        assert_eq!(m.erase_ns(3, WANG_END_OF_LIFE_PE), 9_000_000);
        // Halfway between the knots: 3.3 + (9 − 3.3)/2 = 6.15 ms.
        assert_eq!(m.erase_ns(3, (10_000 + WANG_END_OF_LIFE_PE) / 2), 6_150_000);
        let mut mean = model(Compose::Mean);
        assert_eq!(mean.erase_ns(0, 0), 3_200_000);
    }

    #[test]
    fn bad_tables_name_the_key() {
        let base = BaseTimes {
            program_ns: vec![1, 1, 1],
            erase_ns: 1,
            bits: 3,
        };
        let e = Content::default().build("timing.pe_time", &base).unwrap_err().to_string();
        assert!(e.contains("timing.pe_time.program_state_latency_ns"), "{e}");
        let base = BaseTimes { bits: 2, ..base };
        let c = Content {
            program_pe_knots: vec![5, 5, 6],
            ..Content::default()
        };
        let e = c.build("timing.pe_time", &base).unwrap_err().to_string();
        assert!(e.contains("timing.pe_time.program_pe_knots"), "{e}");
        let c = Content {
            erase_pe_weight: vec![0.0, 1.5],
            ..Content::default()
        };
        let e = c.build("timing.pe_time", &base).unwrap_err().to_string();
        assert!(e.contains("timing.pe_time.erase_pe_weight"), "{e}");
    }
}
