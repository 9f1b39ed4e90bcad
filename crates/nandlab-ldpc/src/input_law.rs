//! What the decoder sees of a frame with a given number of hard errors: the law of one
//! bit's decoder input given that the bit is an error, and given that it is not.
//!
//! Given `W = w` errors a frame's error positions are a uniform `w`-subset and each bit's
//! decoder input is an independent draw from the law restricted to error (or correct)
//! outcomes (`conditioned.rs`). So the failure rate `f(w)` depends on the operating point
//! only through these two restricted laws of *decoder inputs*, and strata measured at one
//! RBER serve every RBER where both laws are identical ([`InputLaw::same`]). For the 8-bit
//! decoder the input is the quantised LLR: at hard decision both error outcomes (a 0 read
//! as 1 and a 1 read as 0) quantise to one value over a range of RBERs, and so do both
//! correct ones, so `f(w)` is one curve there. Soft reads spread each side over several
//! regions whose LLRs and weights move with the RBER: no two points share a law.

use serde::{Deserialize, Serialize};

use crate::channel::CosetLaw;
use crate::decoder::Arithmetic;
use crate::fixed::quantize;

/// One bit's decoder input law, split by whether the bit's hard decision errs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputLaw {
    /// `(input, probability)` given an error, by increasing input (inputs distinct).
    pub err: Vec<(f32, f64)>,
    /// `(input, probability)` given no error, by increasing input.
    pub ok: Vec<(f32, f64)>,
}

/// Probabilities closer than this count as equal (the restricted laws are ratios of sums
/// of the channel's outcome probabilities, exact to a few ulps).
const SAME_PROB: f64 = 1e-12;

impl InputLaw {
    /// The law `law` presents to a decoder with `arithmetic` (the quantised value for
    /// `Fixed8`, the LLR itself for `F32`).
    pub fn new(law: &CosetLaw, arithmetic: Arithmetic) -> Self {
        let input = |l: f32| match arithmetic {
            Arithmetic::F32 => l,
            Arithmetic::Fixed8 { llr_scale } => f32::from(quantize(l, llr_scale)),
        };
        let side = |want: bool| {
            let mut v: Vec<(f32, f64)> = Vec::new();
            for ((&p, &l), &e) in law.prob.iter().zip(&law.llr).zip(&law.err) {
                if e != want || p == 0.0 {
                    continue;
                }
                let x = input(l);
                match v.iter_mut().find(|(y, _)| *y == x) {
                    Some((_, q)) => *q += p,
                    None => v.push((x, p)),
                }
            }
            let total: f64 = v.iter().map(|t| t.1).sum();
            for t in &mut v {
                t.1 /= total;
            }
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            v
        };
        InputLaw {
            err: side(true),
            ok: side(false),
        }
    }

    /// Whether frames with `w` errors look alike to the decoder under both laws: the same
    /// inputs with the same probabilities on each side.
    pub fn same(&self, other: &InputLaw) -> bool {
        let eq = |a: &[(f32, f64)], b: &[(f32, f64)]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() <= SAME_PROB)
        };
        eq(&self.err, &other.err) && eq(&self.ok, &other.ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(llr: [f32; 4], prob: [f64; 4]) -> CosetLaw {
        // Outcomes: a 0 read as 0 (+a), a 1 read as 1 (+b), a 0 read as 1 (−b), a 1 read
        // as 0 (−a): the all-zero view of a hard read.
        CosetLaw {
            prob: prob.to_vec(),
            llr: llr.to_vec(),
            err: vec![false, false, true, true],
        }
    }

    #[test]
    fn hard_reads_quantising_alike_share_a_law() {
        // LLRs ±4.97 / ±5.09 and ±4.90 / ±5.01 (the table's 6.5e-3 and 7e-3): ×4 rounds
        // every one to ±20, so the 8-bit decoder sees +20 on correct bits and −20 on
        // errors at both points, whatever the weights.
        let a = law([4.97, 5.09, -5.09, -4.97], [0.49, 0.5035, 0.0035, 0.003]);
        let b = law([4.90, 5.01, -5.01, -4.90], [0.49, 0.503, 0.0037, 0.0033]);
        let q = Arithmetic::Fixed8 { llr_scale: 4.0 };
        let (la, lb) = (InputLaw::new(&a, q), InputLaw::new(&b, q));
        assert_eq!(la.err, vec![(-20.0, 1.0)]);
        assert_eq!(la.ok, vec![(20.0, 1.0)]);
        assert!(la.same(&lb));
        // The f32 decoder sees the LLRs themselves: different inputs.
        assert!(!InputLaw::new(&a, Arithmetic::F32).same(&InputLaw::new(&b, Arithmetic::F32)));
        // 5.17 × 4 = 20.68 rounds to 21 (the table's 6e-3): not the same law.
        let c = law([5.05, 5.17, -5.17, -5.05], [0.49, 0.504, 0.003, 0.003]);
        assert!(!la.same(&InputLaw::new(&c, q)));
    }

    #[test]
    fn restricted_weights_are_normalised_per_side() {
        // Error side: −5 with 0.003 and −4 with 0.001 → 3/4 and 1/4 (f32 keeps both).
        let l = law([4.0, 5.0, -5.0, -4.0], [0.5, 0.496, 0.003, 0.001]);
        let f = InputLaw::new(&l, Arithmetic::F32);
        assert_eq!(f.err.len(), 2);
        assert!((f.err[0].1 - 0.75).abs() < 1e-12 && (f.err[1].1 - 0.25).abs() < 1e-12);
        assert!((f.ok[0].1 - 0.5 / 0.996).abs() < 1e-12, "{f:?}");
    }
}
