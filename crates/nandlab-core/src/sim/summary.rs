//! The run summary ([`Summary`]): every metric, the resolved config, seed and version.

use super::Simulator;
use crate::error::Result;
use crate::metrics::summary::{
    CacheSummary, CriticalBackup, CriticalSummary, Endurance, EnergySummary, FlashSummary, FlowSummary, HostReadBlocks,
    InterleaveSummary, ReliabilitySummary, RequestCounts, RetirementSummary, SimSummary, Summary, SuspendSummary,
    TvrSummary,
};
use crate::metrics::LatencyStats;
use crate::reliability::{model_endurance_pe, ErrorContext};

/// P/E cycles up to which the endurance estimate searches.
const ENDURANCE_PE_MAX: f64 = 1e6;

impl Simulator {
    pub(super) fn summary(&self, wall_s: f64) -> Result<Summary> {
        let first = self.counters.first_arrival_ns.unwrap_or(0);
        let span = self.counters.last_end_ns.saturating_sub(first).max(1);
        let mut all = LatencyStats::default();
        for s in &self.latency {
            all.merge(s);
        }
        let total: u64 = self.counters.requests.iter().sum();
        Ok(Summary {
            version: crate::VERSION,
            seed: self.cfg.seed,
            config: self.cfg.to_json(),
            requests: RequestCounts {
                count: total,
                reads: self.counters.requests[0],
                writes: self.counters.requests[1],
                trims: self.counters.requests[2],
            },
            read: self.latency[0].summary(span),
            read_page: self.page_reads.as_ref().map(|p| p.summary(span)),
            write: self.latency[1].summary(span),
            all: all.summary(span),
            flash: self.flash_summary(span),
            energy_uj: self.energy(),
            sim: SimSummary {
                simulated_ns: span,
                events: self.counters.events,
                mapping_entries: self.ftl.mapping_entries(),
                wall_s,
                requests_per_s: total as f64 / wall_s.max(1e-9),
            },
            flows: (!self.flow_latency.is_empty()).then(|| self.flows_summary(span)),
            reliability: self.read_path.enabled.then(|| self.reliability_summary()),
            mapping_cache: self.mapping_cache_summary(),
            cache: self.cache.as_ref().map(|c| {
                let s = c.stats;
                CacheSummary {
                    read_hits: s.read_hits,
                    read_misses: s.read_misses,
                    write_hits: s.write_hits,
                    write_misses: s.write_misses,
                    writebacks: s.writebacks,
                    writebacks_waited: self.writebacks.waited,
                }
            }),
            critical: self.critical_summary(),
            suspend: self.suspension.as_ref().map(|s| SuspendSummary {
                program_suspensions: s.counts[0],
                erase_suspensions: s.counts[1],
            }),
            scheduler: self.scheduler.summary(),
            pe_time: self.timing.summary(),
            tvr: self.tvr_summary()?,
            codec: self.read_path.codec_summary(),
        })
    }

    fn flash_summary(&self, span: u64) -> FlashSummary {
        let f = self.ftl.stats();
        let host_programs = f.host_programs.max(1);
        let (die_busy, chan_busy) = self.backend.busy_ns();
        let moved = f.gc_page_moves + f.wl_page_moves + f.refresh_page_moves + f.hot_page_moves;
        // The host page programs include the group rewrites.
        let interleave = (!self.cfg.ecc.interleave.is_off()).then(|| {
            let rewrites = self.counters.interleave_rewrites;
            InterleaveSummary {
                interleave_rewrite_pages: rewrites,
                interleave_write_amplification: f.host_programs as f64 / (f.host_programs - rewrites).max(1) as f64,
            }
        });
        FlashSummary {
            page_reads_incl_gc: self.counters.page_reads,
            gc_page_reads: self.counters.gc_page_reads,
            rmw_page_reads: self.counters.rmw_page_reads,
            soft_senses: self.counters.soft_senses,
            page_programs: self.counters.page_programs,
            erases: self.counters.erases,
            host_page_programs: f.host_programs,
            gc_page_moves: f.gc_page_moves,
            gc_erases: f.gc_erases,
            wl_page_moves: f.wl_page_moves,
            wl_erases: f.wl_erases,
            refresh_page_moves: f.refresh_page_moves,
            refresh_erases: f.refresh_erases,
            skipped_pages: f.skipped_pages,
            unmapped_reads: f.unmapped_reads,
            trimmed_pages: f.trimmed_pages,
            write_amplification: (f.host_programs + moved) as f64 / host_programs as f64,
            die_utilization: die_busy as f64 / (span as f64 * f64::from(self.geo.dies)),
            channel_utilization: chan_busy as f64 / (span as f64 * f64::from(self.cfg.device.channels)),
            by_cause: self.background.by_cause,
            interleave,
            retirement: self.ftl.retire_pe_limit().map(|limit| RetirementSummary {
                retire_pe_limit: limit,
                retired_blocks: self.ftl.retired_blocks(),
                spare_blocks_min: self.ftl.spare_blocks_min(),
                pe_by_block: self.ftl.pe_by_block(),
            }),
            host_read_blocks: (f.sensed_reads > 0).then(|| HostReadBlocks {
                pe_mean: f.sensed_pe_sum as f64 / f.sensed_reads as f64,
                reads_mean: f.sensed_block_reads_sum as f64 / f.sensed_reads as f64,
            }),
            refresh_wait: self
                .tsu
                .as_ref()
                .and_then(|q| q.refresh.as_ref())
                .map(super::tsu::RefreshClock::summary),
        }
    }

    /// Per-flow request counts and latencies (`workload.flows`), over the run's span.
    fn flows_summary(&self, span: u64) -> Vec<FlowSummary> {
        self.flow_latency
            .iter()
            .enumerate()
            .map(|(id, [read, write, trim])| {
                let mut all = read.clone();
                all.merge(write);
                all.merge(trim);
                FlowSummary {
                    id,
                    requests: RequestCounts {
                        count: read.count() + write.count() + trim.count(),
                        reads: read.count(),
                        writes: write.count(),
                        trims: trim.count(),
                    },
                    read: read.summary(span),
                    write: write.summary(span),
                    all: all.summary(span),
                }
            })
            .collect()
    }

    /// Energy by component (µJ). Judged reads carry their plan's energy; other host page
    /// reads (and copyback reads, which only sense) are one hard sense each.
    fn energy(&self) -> EnergySummary {
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
        EnergySummary {
            program,
            sense,
            transfer,
            decode,
            total: program + sense + transfer + decode,
        }
    }

    fn reliability_summary(&self) -> ReliabilitySummary {
        let stats = self.read_path.stats();
        // Endurance: the P/E count at which a fresh page (no retention, no reads) of each
        // page type reaches the RBER the ECC's strongest level can still correct.
        let planner = &self.read_path.planner;
        let endurance = planner.correctable_rber_limit().map(|limit| Endurance {
            rber_limit: limit,
            rber_limit_extrapolated: planner.fer_measured_from().is_some_and(|m| limit < m),
            pe_by_page_type: (0..self.cfg.device.cell_type.bits() as u8)
                .map(|t| {
                    let ctx = ErrorContext {
                        page_type: t,
                        ..ErrorContext::default()
                    };
                    model_endurance_pe(self.read_path.model(), &ctx, limit, ENDURANCE_PE_MAX)
                })
                .collect(),
        });
        ReliabilitySummary {
            reads: stats.summary(),
            // Raw errors are not drawn one by one (the decoding outcome is): report their mean.
            expected_raw_bit_errors: self.read_path.planner.expected_page_errors(stats.rber_mean())
                * stats.reads as f64,
            model: self.read_path.model().name(),
            ecc: self.cfg.ecc.scheme,
            strategy: self.cfg.ecc.strategy.clone(),
            endurance,
        }
    }

    /// Critical-page reads by page type (`host.critical`), with the backup copies' reads
    /// under a placement that keeps them.
    fn critical_summary(&self) -> Option<CriticalSummary> {
        if !self.cfg.host.critical.is_active() {
            return None;
        }
        let bits = self.cfg.device.cell_type.bits();
        let c = &self.counters;
        let backup = self.cfg.ftl.placement.policy().backs_up().then(|| CriticalBackup {
            backup_programs: self.ftl.stats().backup_programs,
            backup_reads: c.backup_reads,
            backup_uncorrectable_reads: c.backup_uncorrectable,
            backed_up_reads_by_page_types: c.critical_backed_up[..bits]
                .iter()
                .map(|r| r[..bits].to_vec())
                .collect(),
        });
        Some(CriticalSummary {
            reads_by_page_type: c.critical_reads[..bits].to_vec(),
            programs_by_page_type: c.critical_programs[..bits].to_vec(),
            uncorrectable_reads: c.critical_uncorrectable,
            backup,
        })
    }

    /// The TVR device mode's model, and its regions' counts when only part of the device
    /// is TVR.
    fn tvr_summary(&self) -> Result<Option<TvrSummary>> {
        if !self.cfg.tvr.enabled {
            return Ok(None);
        }
        Ok(Some(TvrSummary {
            model: self.cfg.tvr.summary(&self.cfg.reliability)?,
            regions: self.tvr.as_ref().map(|d| d.summary()),
        }))
    }
}
