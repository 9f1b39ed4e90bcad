//! LDPC as a ladder of decoding levels: hard decision (level 0), then up to `k` extra
//! soft sensing levels. Each level's capability is an RBER threshold (seed 000 Table I)
//! or a frame-error-rate curve vs RBER loaded from a CSV table
//! (`level,rber,frames,failures,fer,fer_lo,fer_hi`), interpolated in log-log.

use std::path::Path;

use super::binomial::binomial_sf;
use crate::error::{NandError, Result};

/// Seed 000 Table I: a level decodes pages whose RBER is below its bound — hard < 0.005,
/// 1 extra level < 0.006, 2 < 0.008, 3 < 0.009, 4 < 0.010, 5 < 0.012, 6 ≤ 0.013
/// (latencies 85 µs + 24 µs per extra level). Past 0.013 a page is uncorrectable.
pub const BITFLIP_TABLE1_THRESHOLDS: [f64; 7] = [0.005, 0.006, 0.008, 0.009, 0.010, 0.012, 0.013];

/// Read latency of seed 000 Table I per level (hard = 85 µs, +24 µs per extra level), ns.
pub fn bitflip_table1_latency_ns(level: u8) -> u64 {
    85_000 + 24_000 * u64::from(level)
}

/// One point of a FER curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FerPoint {
    /// Raw bit error rate.
    pub rber: f64,
    /// Frame (codeword) error rate at that RBER.
    pub fer: f64,
}

/// Codeword failure probability vs RBER for each level (`curves[level]`, sorted by RBER).
#[derive(Debug, Clone, PartialEq)]
pub struct FerCurves {
    /// One curve per level, 0 = hard.
    pub curves: Vec<Vec<FerPoint>>,
    /// Per level, the lowest RBER of a row whose FER was measured (not marked
    /// `extrapolated` in the table's optional column of that name): below it the level's
    /// FER comes from a tail model, or from the first segment's slope extended.
    pub measured_from: Vec<f64>,
    /// The codeword the table was measured on, `(n, k)` bits, from a `# code: … n=N k=K`
    /// provenance line (what nandlab-ldpc writes); `None` where the table has none.
    pub code_bits: Option<(u64, u64)>,
}

impl FerCurves {
    /// Parses the CSV text (columns `level`, `rber`, `fer`, and optionally `extrapolated`
    /// (`0`/`1`); any others, such as nandlab-ldpc's `frames`, `failures`, `fer_lo`,
    /// `fer_hi`, are ignored). `name` labels errors.
    pub fn parse(name: &str, text: &str) -> Result<Self> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let code_bits = text
            .lines()
            .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
            .find_map(|l| l.trim_start().strip_prefix("# code:").map(code_bits_of));
        let code_bits = match code_bits {
            Some(Some(nk)) => Some(nk),
            Some(None) => return Err(NandError::parse(name, 0, "`# code:` line without `n=… k=…`")),
            None => None,
        };
        let (hline, header) = lines
            .next()
            .ok_or_else(|| NandError::parse(name, 1, "empty FER table"))?;
        let cols: Vec<&str> = header.split(',').map(str::trim).collect();
        let idx = |c: &str| {
            cols.iter()
                .position(|h| *h == c)
                .ok_or_else(|| NandError::parse(name, hline as u64 + 1, format!("missing column `{c}`")))
        };
        let (il, ir, ifer) = (idx("level")?, idx("rber")?, idx("fer")?);
        let iext = idx("extrapolated").ok();
        let mut curves: Vec<Vec<FerPoint>> = Vec::new();
        let mut measured_from: Vec<f64> = Vec::new();
        for (i, line) in lines {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let get = |j: usize, what: &str| -> Result<f64> {
                f.get(j)
                    .ok_or_else(|| NandError::parse(name, i as u64 + 1, format!("missing field `{what}`")))?
                    .parse::<f64>()
                    .map_err(|e| NandError::parse(name, i as u64 + 1, format!("field `{what}`: {e}")))
            };
            let level = get(il, "level")?;
            let rber = get(ir, "rber")?;
            let fer = get(ifer, "fer")?;
            if !(level >= 0.0 && level.fract() == 0.0 && level <= 64.0) {
                return Err(NandError::parse(
                    name,
                    i as u64 + 1,
                    "`level` must be a whole number 0 … 64",
                ));
            }
            if rber <= 0.0 || rber >= 1.0 || rber.is_nan() || !(0.0..=1.0).contains(&fer) {
                return Err(NandError::parse(
                    name,
                    i as u64 + 1,
                    "`rber` must be in (0, 1) and `fer` in [0, 1]",
                ));
            }
            let extrapolated = match iext {
                None => false,
                Some(j) => match f.get(j).copied() {
                    Some("0") => false,
                    Some("1") => true,
                    _ => {
                        return Err(NandError::parse(
                            name,
                            i as u64 + 1,
                            "field `extrapolated` must be 0 or 1",
                        ))
                    }
                },
            };
            let level = level as usize;
            if curves.len() <= level {
                curves.resize(level + 1, Vec::new());
                measured_from.resize(level + 1, f64::INFINITY);
            }
            curves[level].push(FerPoint { rber, fer });
            if !extrapolated {
                measured_from[level] = measured_from[level].min(rber);
            }
        }
        for (l, c) in curves.iter_mut().enumerate() {
            if c.is_empty() {
                return Err(NandError::parse(name, 0, format!("no points for level {l}")));
            }
            c.sort_by(|a, b| a.rber.partial_cmp(&b.rber).expect("finite"));
        }
        if curves.is_empty() {
            return Err(NandError::parse(name, 0, "no data rows"));
        }
        Ok(FerCurves {
            curves,
            measured_from,
            code_bits,
        })
    }

    /// Loads a CSV file (see [`FerCurves::parse`]).
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| NandError::io(path.display(), e))?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Codeword failure probability at `level` and `rber`: log-log interpolation between
    /// points (linear where an end point has FER 0); below the first point the first
    /// segment's log-log slope is extended (0 if the first FER is 0); above the last
    /// point, the last FER.
    pub fn fer(&self, level: usize, rber: f64) -> f64 {
        let c = &self.curves[level.min(self.curves.len() - 1)];
        if rber <= 0.0 {
            return 0.0;
        }
        let interp = |a: FerPoint, b: FerPoint, x: f64| -> f64 {
            if a.fer > 0.0 && b.fer > 0.0 && b.rber > a.rber {
                let s = (b.fer.ln() - a.fer.ln()) / (b.rber.ln() - a.rber.ln());
                (a.fer.ln() + s * (x.ln() - a.rber.ln())).exp()
            } else if b.rber > a.rber {
                a.fer + (b.fer - a.fer) * (x - a.rber) / (b.rber - a.rber)
            } else {
                b.fer
            }
        };
        let last = c[c.len() - 1];
        if rber >= last.rber || c.len() == 1 {
            return last.fer;
        }
        if rber <= c[0].rber {
            if c[0].fer == 0.0 {
                return 0.0;
            }
            return interp(c[0], c[1], rber).min(c[0].fer).clamp(0.0, 1.0);
        }
        let k = c.partition_point(|p| p.rber <= rber);
        interp(c[k - 1], c[k], rber).clamp(0.0, 1.0)
    }
}

impl LdpcLadder {
    /// The RBER below which some level's failure probability, and so what the ladder
    /// reports at that RBER, rests on extrapolated FER: the highest of the levels'
    /// [`FerCurves::measured_from`]. `None` for thresholds (exact binomial tails).
    pub fn fer_measured_from(&self) -> Option<f64> {
        match &self.capability {
            LevelCapability::Thresholds(_) => None,
            LevelCapability::Curves(c) => {
                let k = (self.max_extra_levels as usize).min(c.curves.len() - 1);
                Some(c.measured_from[..=k].iter().copied().fold(0.0, f64::max))
            }
        }
    }
}

/// `(n, k)` from a provenance line's `n=N k=K` words.
fn code_bits_of(line: &str) -> Option<(u64, u64)> {
    let word = |key: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .and_then(|v| v.parse().ok())
    };
    Some((word("n=")?, word("k=")?))
}

/// How each LDPC level's capability is described.
#[derive(Debug, Clone, PartialEq)]
pub enum LevelCapability {
    /// Level `L` decodes a codeword whose RBER (page RBER in expected mode, the drawn
    /// error fraction in stochastic mode) is `< thresholds[L]` (`≤` for the last level).
    Thresholds(Vec<f64>),
    /// Codeword failure probability vs RBER per level.
    Curves(FerCurves),
}

/// The LDPC ladder: levels `0 ..= max_extra_levels`.
#[derive(Debug, Clone, PartialEq)]
pub struct LdpcLadder {
    /// Largest number of extra soft sensing levels.
    pub max_extra_levels: u8,
    /// Capability per level.
    pub capability: LevelCapability,
}

impl LdpcLadder {
    /// Seed 000's Table I ladder (hard + six extra levels).
    pub fn bitflip_table1() -> Self {
        LdpcLadder {
            max_extra_levels: 6,
            capability: LevelCapability::Thresholds(BITFLIP_TABLE1_THRESHOLDS.to_vec()),
        }
    }

    /// Whether level `level` decodes a codeword at error rate `rber` (threshold mode).
    pub fn threshold_decodes(thresholds: &[f64], level: usize, rber: f64) -> bool {
        if level + 1 == thresholds.len() {
            rber <= thresholds[level]
        } else {
            rber < thresholds[level]
        }
    }

    /// First level that decodes a codeword at `rber` in threshold mode (`None`: none).
    pub fn threshold_level(&self, rber: f64) -> Option<u8> {
        match &self.capability {
            LevelCapability::Thresholds(t) => (0..=self.max_extra_levels as usize)
                .find(|&l| Self::threshold_decodes(t, l, rber))
                .map(|l| l as u8),
            LevelCapability::Curves(_) => None,
        }
    }

    /// Codeword failure probability at each level for a codeword of `n_bits` bits at
    /// `rber`, made non-increasing with the level. Thresholds: the raw errors are
    /// Binomial(n, RBER) and level `L` fails when they exceed what it decodes
    /// ([`threshold_max_errors`]); curves: their FER.
    pub fn codeword_fail_probs(&self, rber: f64, n_bits: u64) -> Vec<f64> {
        let k = self.max_extra_levels as usize;
        let mut v: Vec<f64> = match &self.capability {
            LevelCapability::Thresholds(t) => (0..=k)
                .map(|l| binomial_sf(threshold_max_errors(t, l, n_bits), n_bits, rber))
                .collect(),
            LevelCapability::Curves(c) => (0..=k).map(|l| c.fer(l, rber)).collect(),
        };
        for l in 1..v.len() {
            v[l] = v[l].min(v[l - 1]);
        }
        v
    }
}

/// Most raw errors level `level` decodes in a codeword of `n_bits` bits in threshold mode:
/// the largest `e` with `e / n` below the level's threshold (at or below, for the last).
fn threshold_max_errors(thresholds: &[f64], level: usize, n_bits: u64) -> u64 {
    let decodes = |e: u64| LdpcLadder::threshold_decodes(thresholds, level, e as f64 / n_bits as f64);
    // Start from the real-valued bound and step to the exact float comparison's edge.
    let mut e = ((thresholds[level] * n_bits as f64).floor() as u64).min(n_bits);
    while e > 0 && !decodes(e) {
        e -= 1;
    }
    while e < n_bits && decodes(e + 1) {
        e += 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "level,rber,frames,failures,fer,fer_lo,fer_hi
0,0.004,1000,0,0,0,0.003
0,0.008,1000,1,0.001,0.00003,0.0056
0,0.010,1000,100,0.1,0.08,0.12
0,0.012,100,100,1,0.96,1
1,0.010,1000,1,0.001,0.00003,0.0056
1,0.014,1000,500,0.5,0.47,0.53
";

    #[test]
    fn loads_and_interpolates_log_log() {
        let c = FerCurves::parse("t.csv", TABLE).unwrap();
        assert_eq!(c.curves.len(), 2);
        // Log-log between (0.008, 1e-3) and (0.010, 0.1): slope = ln(100)/ln(1.25) = 20.638;
        // at 0.009: 1e-3 · (1.125)^20.638 = 1.13e-2.
        let s = (100f64).ln() / (1.25f64).ln();
        let want = 1e-3 * (1.125f64).powf(s);
        assert!((c.fer(0, 0.009) / want - 1.0).abs() < 1e-9, "{}", c.fer(0, 0.009));
        // Linear where one end has FER 0: halfway between 0.004 (0) and 0.008 (1e-3).
        assert!((c.fer(0, 0.006) - 5e-4).abs() < 1e-12);
        assert_eq!(c.fer(0, 0.002), 0.0);
        assert_eq!(c.fer(0, 0.02), 1.0);
        // Below the first point of level 1: the first segment extended, capped.
        let s1 = (500f64).ln() / (1.4f64).ln();
        assert!((c.fer(1, 0.009) / (1e-3 * (0.9f64).powf(s1)) - 1.0).abs() < 1e-9);
        let ladder = LdpcLadder {
            max_extra_levels: 1,
            capability: LevelCapability::Curves(c),
        };
        let p = ladder.codeword_fail_probs(0.010, 36_864);
        assert_eq!(p.len(), 2);
        assert!((p[0] - 0.1).abs() < 1e-12 && (p[1] - 0.001).abs() < 1e-12);
    }

    #[test]
    fn the_measured_range_comes_from_the_extrapolated_column() {
        // Without the column every row is measured: level 0 from 0.004, level 1 from 0.010.
        let c = FerCurves::parse("t.csv", TABLE).unwrap();
        assert_eq!(c.measured_from, vec![0.004, 0.010]);
        // With it, rows marked 1 are not: level 0 from 0.008, level 1 from 0.012, and the
        // ladder's reports rest on extrapolation below the higher of the two.
        let t = "level,rber,fer,extrapolated\n0,0.004,1e-9,1\n0,0.008,1e-3,0\n0,0.010,0.1,0\n\
                 1,0.010,1e-7,1\n1,0.012,1e-3,0\n";
        let c = FerCurves::parse("t.csv", t).unwrap();
        assert_eq!(c.measured_from, vec![0.008, 0.012]);
        let ladder = |k: u8| LdpcLadder {
            max_extra_levels: k,
            capability: LevelCapability::Curves(c.clone()),
        };
        assert_eq!(ladder(1).fer_measured_from(), Some(0.012));
        assert_eq!(ladder(0).fer_measured_from(), Some(0.008));
        assert_eq!(LdpcLadder::bitflip_table1().fer_measured_from(), None);
        let e = FerCurves::parse("t.csv", "level,rber,fer,extrapolated\n0,0.01,0.1,yes\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.csv:2:") && e.contains("extrapolated"), "{e}");
    }

    #[test]
    fn the_codeword_comes_from_the_provenance_line() {
        assert_eq!(FerCurves::parse("t.csv", TABLE).unwrap().code_bits, None);
        let t = format!("# nandlab LDPC\n# code: QC-LDPC (x) n=36864 k=32768\n{TABLE}");
        assert_eq!(FerCurves::parse("t.csv", &t).unwrap().code_bits, Some((36_864, 32_768)));
        let t = format!("# code: QC-LDPC n=36864\n{TABLE}");
        let e = FerCurves::parse("t.csv", &t).unwrap_err().to_string();
        assert!(e.contains("n=… k=…"), "{e}");
    }

    #[test]
    fn bad_tables_name_the_line() {
        let e = FerCurves::parse("t.csv", "level,rber,fer\n0,abc,0.1\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.csv:2:"), "{e}");
        let e = FerCurves::parse("t.csv", "lvl,rber,fer\n").unwrap_err().to_string();
        assert!(e.contains("missing column `level`"), "{e}");
        let e = FerCurves::parse("t.csv", "level,rber,fer\n1,0.01,0.1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no points for level 0"), "{e}");
    }

    #[test]
    fn table1_thresholds() {
        let l = LdpcLadder::bitflip_table1();
        assert_eq!(l.threshold_level(0.0049), Some(0));
        assert_eq!(l.threshold_level(0.005), Some(1));
        assert_eq!(l.threshold_level(0.0085), Some(3));
        assert_eq!(l.threshold_level(0.013), Some(6));
        assert_eq!(l.threshold_level(0.0131), None);
        assert_eq!(bitflip_table1_latency_ns(6), 229_000);
        // 36,864-bit codewords: hard decodes e/n < 0.005, i.e. e ≤ 184 (184.32 is the
        // bound); the last level e/n ≤ 0.013, i.e. e ≤ 479 (479.232).
        let t = &BITFLIP_TABLE1_THRESHOLDS;
        assert_eq!(threshold_max_errors(t, 0, 36_864), 184);
        assert_eq!(threshold_max_errors(t, 6, 36_864), 479);
        // An exact edge: n = 1000, 0.005·1000 = 5 errors is not below the bound.
        assert_eq!(threshold_max_errors(t, 0, 1000), 4);
        assert_eq!(threshold_max_errors(t, 6, 1000), 13);
        let p = l.codeword_fail_probs(0.0045, 36_864);
        assert!((p[0] - binomial_sf(184, 36_864, 0.0045)).abs() < 1e-15);
    }
}
