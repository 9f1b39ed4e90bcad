//! Time scales (`host.time_scale`, `workload.flows[i].time_scale`): factors on request
//! arrival times, their bound, and the scaling itself, which must stay on the clock.

use crate::error::{NandError, Result};

/// The largest time scale accepted: a million-fold slow-down turns a 1 µs gap into a
/// second, past any replay-speed experiment (0.5–100 in practice); beyond it a value is a
/// typo. (1e308 used to saturate every arrival at the end of the clock.)
pub const MAX_TIME_SCALE: f64 = 1e6;

/// The end of the simulation clock: the FTL keeps times as signed 64-bit ns (2^63 ns,
/// about 292 years).
pub(crate) const CLOCK_END_NS: f64 = 9_223_372_036_854_775_808.0;

/// Checks time scale `v` of config key `key`: a number in (0, [`MAX_TIME_SCALE`]].
pub fn validate(key: &str, v: f64) -> Result<()> {
    if v > 0.0 && v <= MAX_TIME_SCALE {
        Ok(())
    } else {
        Err(NandError::config(
            key,
            format!("must be a number above 0 and at most {MAX_TIME_SCALE}, got {v:?}"),
        ))
    }
}

/// `arrival_ns` × `scale`, truncated to whole ns; an error naming `key` when the product
/// falls past the end of the clock.
#[inline]
pub fn scale_arrival(arrival_ns: u64, scale: f64, key: &str) -> Result<u64> {
    if scale == 1.0 {
        return Ok(arrival_ns);
    }
    let t = arrival_ns as f64 * scale;
    if t < CLOCK_END_NS {
        Ok(t as u64)
    } else {
        Err(NandError::config(
            key,
            format!("{scale} puts an arrival at {arrival_ns} ns past the end of the clock (2^63 ns)"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_the_end_of_the_clock() {
        assert!(validate("k", 1e6).is_ok() && validate("k", 1e-9).is_ok());
        for bad in [0.0, -1.0, 1e6 * (1.0 + f64::EPSILON), f64::NAN, f64::INFINITY] {
            let e = validate("host.time_scale", bad).unwrap_err().to_string();
            assert!(
                e.starts_with("config key `host.time_scale`: must be a number above 0"),
                "{e}"
            );
        }
        assert_eq!(scale_arrival(7, 1.0, "k").unwrap(), 7);
        assert_eq!(scale_arrival(1_000, 2.5, "k").unwrap(), 2_500);
        // 2^62 ns × 1.5 = 3·2^61 ns is on the clock; × 2 = 2^63 ns is the first instant past it.
        assert_eq!(scale_arrival(1 << 62, 1.5, "k").unwrap(), 3 << 61);
        let e = scale_arrival(1 << 62, 2.0, "host.time_scale").unwrap_err().to_string();
        assert!(e.contains("past the end of the clock"), "{e}");
    }
}
