//! Checking a `[workload]` table: every key of the selected kind (or of every flow), with
//! errors naming the key (`workload.read_fraction`, `workload.flows[1].iops`).

use super::config::{AddressDistribution, Generator, WorkloadConfig, WorkloadKind};
use super::{jesd219, zoned, WorkloadContext};
use crate::error::{NandError, Result};
use crate::host::time_scale;

/// The largest Zipf exponent accepted. At θ = 10 the first address already takes
/// 1/ζ(10) = 99.9 % of the accesses (ζ(10) = 1.000995), so a larger θ is the same one-address
/// workload (YCSB's default is 0.99; web request traces measure 0.64–0.83, Breslau et al.,
/// INFOCOM 1999).
pub const MAX_ZIPF_THETA: f64 = 10.0;

fn check_fraction(key: &dyn Fn(&str) -> String, name: &str, v: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&v) {
        return Err(NandError::config(
            key(name),
            format!("must be between 0 and 1, got {v}"),
        ));
    }
    Ok(())
}

impl WorkloadConfig {
    /// Checks the keys of the selected kind, or of every flow; errors name the key
    /// (`workload.read_fraction`, `workload.flows[1].iops`).
    pub fn validate(&self, ctx: &WorkloadContext) -> Result<()> {
        if self.flows.is_empty() {
            if self.time_scale.is_some() {
                return Err(NandError::config(
                    "workload.time_scale",
                    "only a [[workload.flows]] entry has one (use host.time_scale)",
                ));
            }
            return self.validate_at("workload", ctx);
        }
        let own = WorkloadConfig {
            flows: Vec::new(),
            ..self.clone()
        };
        if let Some(k) = differing_key(&own, &WorkloadConfig::default()) {
            return Err(NandError::config(
                format!("workload.{k}"),
                "set it in each [[workload.flows]] entry: with workload.flows the [workload] table holds only them",
            ));
        }
        for (i, f) in self.flows.iter().enumerate() {
            let at = format!("workload.flows[{i}]");
            if !f.flows.is_empty() {
                return Err(NandError::config(format!("{at}.flows"), "a flow cannot hold flows"));
            }
            if let Some(t) = f.time_scale {
                time_scale::validate(&format!("{at}.time_scale"), t)?;
            }
            f.validate_at(&at, ctx)?;
        }
        Ok(())
    }

    /// Checks the keys of the selected kind, naming them `{at}.KEY`.
    fn validate_at(&self, at: &str, ctx: &WorkloadContext) -> Result<()> {
        let key = |k: &str| format!("{at}.{k}");
        if self.read_amplification == 0 {
            return Err(NandError::config(key("read_amplification"), "must be at least 1"));
        }
        self.check_unconditional(&key)?;
        self.fs_metadata.validate(at, ctx.logical_bytes)?;
        let ctx = &self.data_context(ctx);
        match self.kind {
            WorkloadKind::Trace => self.validate_trace(&key),
            WorkloadKind::Synthetic => self.check_synthetic(&key, ctx),
        }
    }

    /// Keys checked whatever the kind and address distribution, even where they are not
    /// used: a typo in them must not hide until the setting that reads them is switched on.
    fn check_unconditional(&self, key: &dyn Fn(&str) -> String) -> Result<()> {
        if self.repeat == 0 {
            return Err(NandError::config(key("repeat"), "must be at least 1"));
        }
        if !(0.0..=MAX_ZIPF_THETA).contains(&self.zipf_theta) {
            return Err(NandError::config(
                key("zipf_theta"),
                format!("must be between 0 and {MAX_ZIPF_THETA}, got {:?}", self.zipf_theta),
            ));
        }
        if !(self.hot_fraction > 0.0 && self.hot_fraction < 1.0) {
            return Err(NandError::config(
                key("hot_fraction"),
                format!("must lie strictly between 0 and 1, got {}", self.hot_fraction),
            ));
        }
        check_fraction(key, "hot_access", self.hot_access)?;
        zoned::validate(&self.zones, key)
    }

    fn validate_trace(&self, key: &dyn Fn(&str) -> String) -> Result<()> {
        match &self.path {
            Some(p) if !p.trim().is_empty() => {}
            _ => {
                return Err(NandError::config(
                    key("path"),
                    "required when workload.kind = \"trace\"",
                ))
            }
        }
        if self.max_requests == Some(0) {
            return Err(NandError::config(
                key("max_requests"),
                "must be at least 1 (leave it out to read all)",
            ));
        }
        Ok(())
    }

    /// Checks the synthetic keys of a `[workload]` table (the generators call it).
    pub(super) fn validate_synthetic(&self, ctx: &WorkloadContext) -> Result<()> {
        let key = |k: &str| format!("workload.{k}");
        self.check_unconditional(&key)?;
        self.check_synthetic(&key, ctx)
    }

    fn check_synthetic(&self, key: &dyn Fn(&str) -> String, ctx: &WorkloadContext) -> Result<()> {
        match self.generator {
            Generator::Jesd219 => jesd219::applied(self, key)?.check_generated(key, ctx),
            _ => self.check_generated(key, ctx),
        }
    }

    /// The generator's keys as they will be used (after `jesd219` filled in its own).
    fn check_generated(&self, key: &dyn Fn(&str) -> String, ctx: &WorkloadContext) -> Result<()> {
        match (self.generator, self.segment_requests) {
            (Generator::Iometer, Some(0)) => {
                return Err(NandError::config(key("segment_requests"), "must be at least 1"))
            }
            (Generator::Mix | Generator::Sensor | Generator::Jesd219, Some(_)) => {
                return Err(NandError::config(
                    key("segment_requests"),
                    "only used with workload.generator = \"iometer\"",
                ))
            }
            _ => {}
        }
        match (self.address, self.zones.is_empty()) {
            (AddressDistribution::Zoned, true) => {
                return Err(NandError::config(
                    key("zones"),
                    "needed with workload.address = \"zoned\"",
                ))
            }
            (AddressDistribution::Uniform | AddressDistribution::Zipf | AddressDistribution::Hotcold, false) => {
                return Err(NandError::config(
                    key("zones"),
                    "only used with workload.address = \"zoned\"",
                ))
            }
            _ => {}
        }
        if self.generator == Generator::Sensor && !self.sizes.is_empty() {
            return Err(NandError::config(
                key("sizes"),
                "the sensor generator writes files of one size: set workload.size_bytes",
            ));
        }
        if self.requests == Some(0) {
            return Err(NandError::config(key("requests"), "must be at least 1"));
        }
        if let Some(d) = self.duration_s {
            if !(d.is_finite() && d > 0.0) {
                return Err(NandError::config(
                    key("duration_s"),
                    format!("must be a positive number of seconds, got {d}"),
                ));
            }
            if self.iops <= 0.0 {
                return Err(NandError::config(
                    key("duration_s"),
                    "needs workload.iops > 0 (with iops = 0 every request arrives at time 0)",
                ));
            }
        }
        check_fraction(key, "read_fraction", self.read_fraction)?;
        check_fraction(key, "trim_fraction", self.trim_fraction)?;
        if self.read_fraction + self.trim_fraction > 1.0 + 1e-12 {
            return Err(NandError::config(
                key("trim_fraction"),
                format!(
                    "read_fraction + trim_fraction = {} exceeds 1",
                    self.read_fraction + self.trim_fraction
                ),
            ));
        }
        check_fraction(key, "random_fraction", self.random_fraction)?;
        if self.sizes.is_empty() {
            if self.size_bytes == 0 {
                return Err(NandError::config(key("size_bytes"), "must be at least 1 byte"));
            }
        } else {
            for (i, s) in self.sizes.iter().enumerate() {
                if s.size_bytes == 0 {
                    return Err(NandError::config(
                        key(&format!("sizes[{i}].size_bytes")),
                        "must be at least 1 byte",
                    ));
                }
                if !(s.weight.is_finite() && s.weight >= 0.0) {
                    return Err(NandError::config(
                        key(&format!("sizes[{i}].weight")),
                        format!("must be a non-negative number, got {}", s.weight),
                    ));
                }
            }
            if self.sizes.iter().map(|s| s.weight).sum::<f64>() <= 0.0 {
                return Err(NandError::config(key("sizes"), "the weights sum to 0"));
            }
        }
        if self.alignment_bytes == 0 {
            return Err(NandError::config(key("alignment_bytes"), "must be at least 1 byte"));
        }
        if !(self.iops.is_finite() && self.iops >= 0.0) {
            return Err(NandError::config(
                key("iops"),
                format!("must be a non-negative rate, got {}", self.iops),
            ));
        }
        if let Some(b) = &self.bursts {
            b.validate(key, self.iops)?;
        }
        let footprint = self.footprint_bytes.unwrap_or(ctx.logical_bytes);
        if footprint < self.max_size_bytes() {
            let what = if self.footprint_bytes.is_some() {
                ""
            } else {
                " (the default, the logical capacity)"
            };
            return Err(NandError::config(
                key("footprint_bytes"),
                format!(
                    "{footprint} B{what} is smaller than the largest request ({} B)",
                    self.max_size_bytes()
                ),
            ));
        }
        if self.footprint_bytes.is_some() && footprint > ctx.logical_bytes {
            return Err(NandError::config(
                key("footprint_bytes"),
                format!(
                    "{footprint} B exceeds the device's logical capacity ({} B)",
                    ctx.logical_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// The first top-level key (in declaration order) whose value differs between `a` and `b`.
fn differing_key(a: &WorkloadConfig, b: &WorkloadConfig) -> Option<String> {
    let (a, b) = (serde_json::to_value(a).ok()?, serde_json::to_value(b).ok()?);
    let (a, b) = (a.as_object()?, b.as_object()?);
    a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k)).cloned()
}
