//! The error model of a stack of terms (`reliability/terms/`): a page's RBER is the sum of
//! its terms, capped at 0.5, times its page type's scale, split over the cell states by
//! relative weights. The `empirical` model is the stack `constant + wear + retention +
//! read_disturb` of its preset's constants (then any `[[reliability.terms]]`); the `terms`
//! model is the listed terms alone.

use std::cell::{Cell, RefCell};

use super::model::{weighted_page_rber, ErrorContext, ErrorModel, RBER_CAP};
use super::nominal::scale_of;
use super::terms::{Needs, TermConfig};
use crate::content::MAX_STATES;

/// A model summing [`TermConfig`]s.
#[derive(Debug)]
pub struct TermStack {
    name: &'static str,
    /// The terms; `RefCell`: a term may remember its powers.
    terms: RefCell<Vec<TermConfig>>,
    /// How many leading terms read neither the block's reads: their sum depends on
    /// `(P/E, age)` alone, which consecutive reads of a block mostly share.
    fixed: usize,
    /// `((P/E, age, page type), sum of the leading terms)` of the last read.
    fixed_memo: Cell<((f64, f64, u8), f64)>,
    /// What any term reads.
    needs: Needs,
    /// Per page type multiplier (LSB first; last repeats).
    page_type_scale: Vec<f64>,
    /// Normalised state weights `n · w_s / Σw` (mean 1).
    rel: Vec<f64>,
    /// Largest relative weight.
    max_rel: f64,
}

impl TermStack {
    /// A model named `name` summing `terms`; `state_weights` by bit pattern (all equal =
    /// content-blind).
    pub fn new(name: &'static str, terms: Vec<TermConfig>, page_type_scale: Vec<f64>, state_weights: &[f64]) -> Self {
        let n = state_weights.len() as f64;
        let total: f64 = state_weights.iter().sum();
        TermStack {
            name,
            fixed: terms.iter().take_while(|t| !t.policy().needs().reads).count(),
            fixed_memo: Cell::new(((f64::NAN, f64::NAN, 0), 0.0)),
            needs: terms.iter().fold(Needs::NONE, |a, t| a.union(t.policy().needs())),
            terms: RefCell::new(terms),
            page_type_scale,
            rel: state_weights.iter().map(|w| n * w / total).collect(),
            max_rel: state_weights.iter().fold(0.0, |m: f64, w| m.max(n * w / total)),
        }
    }

    /// The terms' sum in `ctx` (in list order), capped to `[0, 0.5]`. The leading terms
    /// that do not read the block's reads are summed once per `(P/E, age, page type)` (a read
    /// increments its block's reads, so only the later terms change from read to read).
    pub fn law(&self, ctx: &ErrorContext) -> f64 {
        let mut terms = self.terms.borrow_mut();
        let (fixed, rest) = terms.split_at_mut(self.fixed);
        let key = (ctx.pe_cycles, ctx.retention_s, ctx.page_type);
        let mut s = match self.fixed_memo.get() {
            (k, v) if k == key => v,
            _ => {
                let mut v = 0.0;
                for t in fixed {
                    v += t.rber(ctx);
                }
                self.fixed_memo.set((key, v));
                v
            }
        };
        for t in rest {
            s += t.rber(ctx);
        }
        s.clamp(0.0, RBER_CAP)
    }

    /// The law times the page type's scale: every state's error probability for uniform
    /// state weights.
    #[inline]
    fn base_rber(&self, ctx: &ErrorContext) -> f64 {
        self.law(ctx) * scale_of(&self.page_type_scale, ctx.page_type)
    }
}

impl ErrorModel for TermStack {
    fn name(&self) -> &'static str {
        self.name
    }

    fn n_states(&self) -> usize {
        self.rel.len()
    }

    fn needs(&self) -> Needs {
        self.needs
    }

    fn wear_and_age_blind(&self) -> bool {
        self.needs == Needs::NONE
    }

    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]) {
        let base = self.base_rber(ctx);
        for (o, r) in out.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
    }

    fn page_rber(&self, ctx: &ErrorContext) -> f64 {
        let base = self.base_rber(ctx);
        if ctx.hist.is_none() && base * self.max_rel <= 1.0 {
            // Uniform data: no state probability is capped, so they average to `base`
            // (the relative weights have mean 1).
            return (base * ctx.variation).clamp(0.0, RBER_CAP);
        }
        let mut probs = [0.0; MAX_STATES];
        let p = &mut probs[..self.rel.len()];
        for (o, r) in p.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
        weighted_page_rber(p, ctx)
    }
}
