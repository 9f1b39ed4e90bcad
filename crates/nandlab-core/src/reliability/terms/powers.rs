//! `x^e` of whole `x`, each computed once: a term's P/E count and block read count are whole
//! numbers that recur across reads, but reads alternate between blocks, so a last-value memo
//! misses (the 003 preset on DTRS: the wear term's missed on 97 % of reads) and every miss
//! is a `powf` (~100 instructions; the lookup is a few). The value is `powf`'s own, so a
//! term gives the same bits with or without the table.

/// Whole values whose power is tabulated (larger or fractional ones are computed).
const LEN: usize = 1 << 16;

/// `x^e` for whole `x < 65,536`, NaN until first needed; one table per exponent.
#[derive(Clone, Default, PartialEq)]
pub struct WholePowers(Vec<f64>);

impl std::fmt::Debug for WholePowers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WholePowers({} entries)", self.0.len())
    }
}

impl WholePowers {
    /// `x^e` (`x ≥ 0`); `e` must be the same on every call to one table.
    #[inline]
    pub fn pow(&mut self, x: f64, e: f64) -> f64 {
        // `as` truncates without a libm call.
        let whole = x as u32;
        if f64::from(whole) != x || whole as usize >= LEN {
            return x.powf(e);
        }
        if self.0.is_empty() {
            self.0 = vec![f64::NAN; LEN];
        }
        let v = &mut self.0[whole as usize];
        if v.is_nan() {
            *v = x.powf(e);
        }
        *v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives `powf`'s bits, for whole values on and off it and for fractional
    /// ones, on first use and again; hand values for a check of the exponent: 2000^0.5 =
    /// 44.72136, 10,000^1.71 = 10^6.84 = 6.9183e6.
    #[test]
    fn same_bits_as_powf() {
        let mut t = WholePowers::default();
        for _ in 0..2 {
            for x in [0.0, 1.0, 2000.0, 2000.5, 65_535.0, 65_536.0, 1e6] {
                assert_eq!(t.pow(x, 2.05).to_bits(), x.powf(2.05).to_bits(), "{x}");
            }
        }
        let (mut a, mut b) = (WholePowers::default(), WholePowers::default());
        assert!((a.pow(2000.0, 0.5) - 44.72136).abs() < 1e-5);
        assert!((b.pow(10_000.0, 1.71) / 6.9183e6 - 1.0).abs() < 1e-4);
    }
}
