//! The error model of a stack of terms (`reliability/terms/`): a page's RBER is the sum of
//! its terms, capped at 0.5, times its page type's scale, split over the cell states by
//! relative weights. The `empirical` model is the stack `constant + wear + retention +
//! read_disturb` of its preset's constants (then any `[[reliability.terms]]`); the `terms`
//! model is the listed terms alone.

use std::cell::RefCell;

use super::model::{weighted_page_rber, ErrorContext, ErrorModel, RBER_CAP};
use super::nominal::scale_of;
use super::terms::{Constant, ErrorTerm, Limits, Needs, ReadDisturb, Retention, TermConfig, Wear};
use crate::content::MAX_STATES;

/// A stack's terms, called in list order.
// One per model, read on every judged read: the large variant stays inline (boxing it would
// add a pointer chase to each read).
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Terms {
    /// `constant, wear, retention, read_disturb` first (the `empirical` law, however it
    /// was configured), then any others: the four called directly, not through the
    /// registry's match, so they inline into the read's path.
    PowerLaw(Constant, Wear, Retention, ReadDisturb, Vec<TermConfig>),
    /// Any other list, and how many leading terms do not read the block's reads.
    Listed(Vec<TermConfig>, usize),
}

impl Terms {
    fn new(terms: Vec<TermConfig>) -> Self {
        let mut it = terms.into_iter();
        match (it.next(), it.next(), it.next(), it.next()) {
            (
                Some(TermConfig::Constant(c)),
                Some(TermConfig::Wear(w)),
                Some(TermConfig::Retention(r)),
                Some(TermConfig::ReadDisturb(d)),
            ) => Terms::PowerLaw(c, w, r, d, it.collect()),
            (a, b, c, d) => {
                let terms: Vec<TermConfig> = [a, b, c, d].into_iter().flatten().chain(it).collect();
                let fixed = terms.iter().take_while(|t| !t.policy().needs().reads).count();
                Terms::Listed(terms, fixed)
            }
        }
    }

    /// The sum of the leading terms that do not read the block's reads.
    #[inline]
    fn fixed(&mut self, ctx: &ErrorContext) -> f64 {
        let mut v = 0.0;
        match self {
            Terms::PowerLaw(c, w, r, ..) => {
                v += c.rber(ctx);
                v += w.rber(ctx);
                v += r.rber(ctx);
            }
            Terms::Listed(terms, fixed) => {
                for t in &mut terms[..*fixed] {
                    v += t.rber(ctx);
                }
            }
        }
        v
    }

    /// `s` plus the other terms, in order (every judged read: inlined).
    #[inline(always)]
    fn add_rest(&mut self, ctx: &ErrorContext, mut s: f64) -> f64 {
        match self {
            Terms::PowerLaw(.., d, more) => {
                s += d.rber(ctx);
                for t in more {
                    s += t.rber(ctx);
                }
            }
            Terms::Listed(terms, fixed) => {
                for t in &mut terms[*fixed..] {
                    s += t.rber(ctx);
                }
            }
        }
        s
    }
}

/// The terms and the memo of their leading sum: one borrow per read.
#[derive(Debug)]
struct Memoised {
    terms: Terms,
    /// `(P/E, age, page type)`, clamped to the leading terms' limits, of the last read.
    key: (f64, f64, u8),
    /// The leading terms' sum there.
    fixed: f64,
}

/// A model summing [`TermConfig`]s.
#[derive(Debug)]
pub struct TermStack {
    name: &'static str,
    /// The terms; `RefCell`: a term may remember its powers.
    terms: RefCell<Memoised>,
    /// Where the leading terms that do not read the block's reads all stop changing: their
    /// sum depends on `(P/E, age)` clamped to these alone, which consecutive reads mostly
    /// share (a block's reads share its wear; data older than the fits' range its age).
    fixed_limits: Limits,
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
        let fixed = terms.iter().take_while(|t| !t.policy().needs().reads);
        // An input a term does not read stops changing it at 0.
        let fixed_limits = fixed.fold(
            Limits {
                pe: 0.0,
                retention_s: 0.0,
                reads: 0.0,
            },
            |a, t| {
                let (reads, l) = (t.policy().needs(), t.policy().limits());
                a.max(Limits {
                    pe: if reads.pe { l.pe } else { 0.0 },
                    retention_s: if reads.retention { l.retention_s } else { 0.0 },
                    reads: 0.0,
                })
            },
        );
        TermStack {
            name,
            fixed_limits,
            needs: terms.iter().fold(Needs::NONE, |a, t| a.union(t.policy().needs())),
            terms: RefCell::new(Memoised {
                terms: Terms::new(terms),
                key: (f64::NAN, f64::NAN, 0),
                fixed: 0.0,
            }),
            page_type_scale,
            rel: state_weights.iter().map(|w| n * w / total).collect(),
            max_rel: state_weights.iter().fold(0.0, |m: f64, w| m.max(n * w / total)),
        }
    }

    /// The terms' sum in `ctx` (in list order), capped to `[0, 0.5]`. The leading terms
    /// that do not read the block's reads are summed once per `(P/E, age, page type)`
    /// clamped to their limits (a read increments its block's reads, so only the later
    /// terms change from read to read). Inlined into `page_rber`: it runs for every judged
    /// read.
    #[inline(always)]
    pub fn law(&self, ctx: &ErrorContext) -> f64 {
        let l = &self.fixed_limits;
        let key = (
            ctx.pe_cycles.min(l.pe),
            ctx.retention_s.min(l.retention_s),
            ctx.page_type,
        );
        let m = &mut *self.terms.borrow_mut();
        if m.key != key {
            m.fixed = m.terms.fixed(ctx);
            m.key = key;
        }
        m.terms.add_rest(ctx, m.fixed).clamp(0.0, RBER_CAP)
    }

    /// The law times the page type's scale: every state's error probability for uniform
    /// state weights.
    #[inline(always)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::EmpiricalParams;

    fn ctx(pe: f64, days: f64, reads: f64) -> ErrorContext<'static> {
        ErrorContext {
            pe_cycles: pe,
            retention_s: days * 86_400.0,
            reads_since_erase: reads,
            ..Default::default()
        }
    }

    /// `retention` stops changing at 30 days for mlc-2y (its `max_time`, in days): the limit
    /// is 2,592,000 s to rounding, and the term there equals the term a year on.
    #[test]
    fn retention_limit_is_its_clamp() {
        let law = EmpiricalParams::mlc_2y();
        let TermConfig::Retention(mut r) = law.terms().remove(2) else {
            panic!("the third term is retention")
        };
        let limit = r.limits().retention_s;
        assert!((limit / 2_592_000.0 - 1.0).abs() < 1e-15, "{limit}");
        let at = r.rber(&ErrorContext {
            pe_cycles: 3000.0,
            retention_s: limit,
            ..Default::default()
        });
        // By hand: β·PE^m·30^n.
        let hand = 5.56e-19 * 3000f64.powf(2.49) * 30f64.powf(3.33);
        assert!((at / hand - 1.0).abs() < 1e-12, "{at} {hand}");
        assert_eq!(at, r.rber(&ctx(3000.0, 365.0, 0.0)));
    }

    /// A stack memoising its leading terms on clamped inputs gives, read after read, what a
    /// fresh stack (nothing memoised) gives; ages past 30 days share the memo, younger ones
    /// do not; the mlc-2y law at 3000 P/E, 10^4 reads and any age past 30 days is the
    /// hand-computed sum.
    #[test]
    fn clamped_memo_matches_a_fresh_stack() {
        let law = EmpiricalParams::mlc_2y();
        let stack = TermStack::new("empirical", law.terms(), vec![1.0], &[1.0; 4]);
        assert!(matches!(stack.terms.borrow().terms, Terms::PowerLaw(..)));
        let reads = [
            (3000.0, 40.0, 1e4),
            (3000.0, 400.0, 1e4),
            (3000.0, 20.0, 1e4),
            (3000.0, 31.0, 10.0),
            (10.0, 50.0, 5.0),
            (3000.0, 60.0, 7.0),
        ];
        for (pe, days, r) in reads {
            let c = ctx(pe, days, r);
            let fresh = TermStack::new("empirical", law.terms(), vec![1.0], &[1.0; 4]).law(&c);
            assert_eq!(stack.law(&c), fresh, "{pe} {days} {r}");
        }
        let hand = 8.34e-5
            + 3.30e-11 * 3000f64.powf(1.71)
            + 5.56e-19 * 3000f64.powf(2.49) * 30f64.powf(3.33)
            + 6.26e-13 * 3000f64.powf(1.76) * 1e4f64.powf(0.47);
        let got = stack.law(&ctx(3000.0, 90.0, 1e4));
        assert!((got / hand - 1.0).abs() < 1e-12, "{got} {hand}");
    }

    /// The same four terms in another order go through the registry's match (list order
    /// kept): the same law to rounding.
    #[test]
    fn other_orders_are_listed() {
        let law = EmpiricalParams::mlc_2y();
        let mut terms = law.terms();
        terms.swap(0, 1);
        let stack = TermStack::new("terms", terms, vec![1.0], &[1.0; 4]);
        assert!(matches!(stack.terms.borrow().terms, Terms::Listed(_, 3)));
        for (pe, days, r) in [(3000.0, 40.0, 1e4), (500.0, 3.0, 100.0)] {
            let want = law.rber(pe, days * 86_400.0, r);
            let got = stack.law(&ctx(pe, days, r));
            assert!((got / want - 1.0).abs() < 1e-14, "{got} {want}");
        }
    }
}
