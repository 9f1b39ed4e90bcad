//! The run summary: every metric, the resolved config, seed and version, as JSON.

use super::Simulator;
use crate::metrics::LatencyStats;
use crate::reliability::{model_endurance_pe, ErrorContext};
use serde_json::{json, Value};

/// P/E cycles up to which the endurance estimate searches.
const ENDURANCE_PE_MAX: f64 = 1e6;

impl Simulator {
    pub(super) fn summary(&self, wall_s: f64) -> Value {
        let first = self.counters.first_arrival_ns.unwrap_or(0);
        let span = self.counters.last_end_ns.saturating_sub(first).max(1);
        let mut all = LatencyStats::default();
        for s in &self.latency {
            all.merge(s);
        }
        let f = self.ftl.stats();
        let host_programs = f.host_programs.max(1);
        let (die_busy, chan_busy) = self.backend.busy_ns();
        let total: u64 = self.counters.requests.iter().sum();
        let mut summary = json!({
            "version": crate::VERSION,
            "seed": self.cfg.seed,
            "config": self.cfg.to_json(),
            "requests": {
                "count": total,
                "reads": self.counters.requests[0],
                "writes": self.counters.requests[1],
                "trims": self.counters.requests[2],
            },
            "read": self.latency[0].summary(span),
            "write": self.latency[1].summary(span),
            "all": all.summary(span),
            "flash": {
                "page_reads_incl_gc": self.counters.page_reads,
                "gc_page_reads": self.counters.gc_page_reads,
                "rmw_page_reads": self.counters.rmw_page_reads,
                "soft_senses": self.counters.soft_senses,
                "page_programs": self.counters.page_programs,
                "erases": self.counters.erases,
                "host_page_programs": f.host_programs,
                "gc_page_moves": f.gc_page_moves,
                "gc_erases": f.gc_erases,
                "wl_page_moves": f.wl_page_moves,
                "wl_erases": f.wl_erases,
                "refresh_page_moves": f.refresh_page_moves,
                "refresh_erases": f.refresh_erases,
                "skipped_pages": f.skipped_pages,
                "unmapped_reads": f.unmapped_reads,
                "trimmed_pages": f.trimmed_pages,
                "write_amplification":
                    (f.host_programs + f.gc_page_moves + f.wl_page_moves + f.refresh_page_moves + f.hot_page_moves) as f64
                        / host_programs as f64,
                "die_utilization": die_busy as f64 / (span as f64 * f64::from(self.geo.dies)),
                "channel_utilization": chan_busy as f64 / (span as f64 * f64::from(self.cfg.device.channels)),
                "by_cause": self.background.summary(),
            },
            "energy_uj": self.energy(),
            "sim": {
                "simulated_ns": span,
                "events": self.counters.events,
                "mapping_entries": self.ftl.mapping_entries(),
                "wall_s": wall_s,
                "requests_per_s": total as f64 / wall_s.max(1e-9),
            },
        });
        if !self.flow_latency.is_empty() {
            summary["flows"] = self.flows_summary(span);
        }
        if self.read_path.enabled {
            summary["reliability"] = self.reliability_summary();
        }
        if let Some(m) = self.mapping_cache_summary() {
            summary["mapping_cache"] = m;
        }
        if let Some(c) = &self.cache {
            let s = c.stats;
            summary["cache"] = json!({
                "read_hits": s.read_hits,
                "read_misses": s.read_misses,
                "write_hits": s.write_hits,
                "write_misses": s.write_misses,
                "writebacks": s.writebacks,
                "writebacks_waited": self.writebacks.waited,
            });
        }
        if !self.cfg.host.critical.lpn_ranges.is_empty() {
            let bits = self.cfg.device.cell_type.bits();
            summary["critical"] = json!({
                "reads_by_page_type": &self.counters.critical_reads[..bits],
                "uncorrectable_reads": self.counters.critical_uncorrectable,
            });
            if self.cfg.ftl.placement.policy().backs_up() {
                let c = &self.counters;
                let backed_up: Vec<&[u64]> = c.critical_backed_up[..bits].iter().map(|r| &r[..bits]).collect();
                summary["critical"]["backup_programs"] = json!(f.backup_programs);
                summary["critical"]["backup_reads"] = json!(c.backup_reads);
                summary["critical"]["backup_uncorrectable_reads"] = json!(c.backup_uncorrectable);
                summary["critical"]["backed_up_reads_by_page_types"] = json!(backed_up);
            }
        }
        if let Some(s) = &self.suspension {
            summary["suspend"] = json!({
                "program_suspensions": s.counts[0],
                "erase_suspensions": s.counts[1],
            });
        }
        if let Some(s) = self.scheduler.summary() {
            summary["scheduler"] = s;
        }
        if let Some(pe_time) = self.timing.summary() {
            summary["pe_time"] = pe_time;
        }
        if self.cfg.tvr.enabled {
            // Checked when the simulator was built, so this cannot fail.
            summary["tvr"] = self
                .cfg
                .tvr
                .summary(&self.cfg.reliability)
                .unwrap_or_else(|e| json!({"error": e.to_string()}));
            if let Some(d) = &self.tvr {
                summary["tvr"]["regions"] = d.summary();
            }
        }
        if !self.cfg.ecc.interleave.is_off() {
            // The host page programs include the group rewrites.
            let rewrites = self.counters.interleave_rewrites;
            let host_pages = (f.host_programs - rewrites).max(1);
            summary["flash"]["interleave_rewrite_pages"] = json!(rewrites);
            summary["flash"]["interleave_write_amplification"] = json!(f.host_programs as f64 / host_pages as f64);
        }
        summary
    }

    /// Per-flow request counts and latencies (`workload.flows`), over the run's span.
    fn flows_summary(&self, span: u64) -> Value {
        let flows: Vec<Value> = self
            .flow_latency
            .iter()
            .enumerate()
            .map(|(id, [read, write, trim])| {
                let mut all = read.clone();
                all.merge(write);
                all.merge(trim);
                json!({
                    "id": id,
                    "requests": {
                        "count": read.count() + write.count() + trim.count(),
                        "reads": read.count(),
                        "writes": write.count(),
                        "trims": trim.count(),
                    },
                    "read": read.summary(span),
                    "write": write.summary(span),
                    "all": all.summary(span),
                })
            })
            .collect();
        json!(flows)
    }

    /// Energy by component (µJ). Judged reads carry their plan's energy; other host page
    /// reads (and copyback reads, which only sense) are one hard sense each.
    fn energy(&self) -> Value {
        let e = self.read_path.energy();
        let stats = self.read_path.stats();
        let unjudged = self.counters.page_reads - self.counters.gc_page_reads - stats.reads;
        let cw = f64::from(self.read_path.planner.codewords_decoded());
        let page_4k = f64::from(self.cfg.device.page_size_bytes) / 4096.0;
        let judged = stats.energy;
        // Background reads: copyback ones sense once; those through the controller carry
        // their plan's energy and the transfer back.
        let copyback = self.counters.gc_page_reads - self.background.controller_reads;
        let moved = &self.background.controller_energy;
        let sense = judged.sense_uj + (unjudged + copyback) as f64 * e.sense_hard_uj + moved.sense_uj;
        let transfer = judged.transfer_uj + unjudged as f64 * page_4k * e.transfer_uj_per_4kib + moved.transfer_uj;
        let decode = judged.decode_uj + unjudged as f64 * cw * e.decode_uj_per_codeword + moved.decode_uj;
        let program = self.counters.page_programs as f64 * e.program_uj;
        json!({
            "program": program,
            "sense": sense,
            "transfer": transfer,
            "decode": decode,
            "total": program + sense + transfer + decode,
        })
    }

    fn reliability_summary(&self) -> Value {
        let stats = self.read_path.stats();
        let mut r = stats.summary();
        // Raw errors are not drawn one by one (the decoding outcome is): report their mean.
        r["expected_raw_bit_errors"] =
            json!(self.read_path.planner.expected_page_errors(stats.rber_mean()) * stats.reads as f64);
        r["model"] = json!(self.read_path.model().name());
        r["ecc"] = json!(self.cfg.ecc.scheme);
        r["strategy"] = json!(self.cfg.ecc.strategy);
        // Endurance: the P/E count at which a fresh page (no retention, no reads) of each
        // page type reaches the RBER the ECC's strongest level can still correct.
        if let Some(limit) = self.read_path.planner.correctable_rber_limit() {
            let per_type: Vec<Value> = (0..self.cfg.device.cell_type.bits() as u8)
                .map(|t| {
                    let ctx = ErrorContext {
                        page_type: t,
                        ..ErrorContext::default()
                    };
                    json!(model_endurance_pe(
                        self.read_path.model(),
                        &ctx,
                        limit,
                        ENDURANCE_PE_MAX
                    ))
                })
                .collect();
            r["endurance"] = json!({"rber_limit": limit, "pe_by_page_type": per_type});
        }
        r
    }
}
