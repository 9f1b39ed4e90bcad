//! `term = "retention"`: the power law's retention term `β·PE^m·t^n` (research/models.md
//! §2.1), with `t` in the fit's time unit; P/E and `t` clamped to the fit's range.

use serde::{Deserialize, Serialize};

use super::powers::WholePowers;
use super::{clamp_to, non_negative, positive, ErrorTerm, Limits, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// `β·PE^m·t^n`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retention {
    /// `β`, errors per bit at one P/E cycle and one time unit.
    pub beta: f64,
    /// `m`, the P/E exponent.
    pub m: f64,
    /// `n`, the time exponent.
    pub n: f64,
    /// Seconds per unit of `t` in the fit (86400: days, 3600: hours).
    pub time_unit_s: f64,
    /// Largest P/E count the fit is used at (cycles).
    pub max_pe: f64,
    /// Largest retention time the fit is used at, in its time unit.
    pub max_time: f64,
    /// `((PE, t), β·PE^m·t^n)` of the last read: data older than `max_time` shares it.
    #[serde(skip)]
    memo: Option<((f64, f64), f64)>,
    /// `PE^m` of whole P/E counts (reads alternate between blocks of different wear).
    #[serde(skip)]
    pe_powers: WholePowers,
}

impl Retention {
    /// The term with these constants.
    pub fn new(beta: f64, m: f64, n: f64, time_unit_s: f64, max_pe: f64, max_time: f64) -> Self {
        Retention {
            beta,
            m,
            n,
            time_unit_s,
            max_pe,
            max_time,
            memo: None,
            pe_powers: WholePowers::default(),
        }
    }
}

impl ErrorTerm for Retention {
    fn validate(&self, table: &str) -> Result<()> {
        non_negative(table, "beta", self.beta)?;
        non_negative(table, "m", self.m)?;
        non_negative(table, "n", self.n)?;
        for (name, v) in [
            ("time_unit_s", self.time_unit_s),
            ("max_pe", self.max_pe),
            ("max_time", self.max_time),
        ] {
            positive(table, name, v)?;
        }
        Ok(())
    }

    fn needs(&self) -> Needs {
        Needs {
            pe: true,
            retention: true,
            ..Needs::NONE
        }
    }

    fn limits(&self) -> Limits {
        // The least age the clamp catches: `max_time · time_unit_s` may scale back to just
        // under `max_time` by rounding.
        let recip = self.time_unit_s.recip();
        let mut age = self.max_time * self.time_unit_s;
        while age * recip < self.max_time {
            age = age.next_up();
        }
        Limits {
            pe: self.max_pe,
            retention_s: age,
            ..Limits::NONE
        }
    }

    #[inline]
    fn rber(&mut self, ctx: &ErrorContext) -> f64 {
        // `β = 0` (the `tlc-3d` preset: no retention term) is 0 at any finite P/E and age;
        // two `powf` per read otherwise.
        if self.beta == 0.0 {
            return 0.0;
        }
        let pe = clamp_to(ctx.pe_cycles, self.max_pe);
        // The reciprocal does not wait for `retention_s`: one multiply on the read's path.
        let t = clamp_to(ctx.retention_s * self.time_unit_s.recip(), self.max_time);
        match self.memo {
            Some((k, v)) if k == (pe, t) => v,
            _ => {
                let v = self.beta * self.pe_powers.pow(pe, self.m) * t.powf(self.n);
                self.memo = Some(((pe, t), v));
                v
            }
        }
    }
}
