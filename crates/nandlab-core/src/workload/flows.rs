//! Several I/O flows on one device (MQSim's multi-flow scenarios): each `[[workload.flows]]`
//! entry is a workload of its own (trace or generator, with its own rate and time scale),
//! and [`Flows`] merges their streams by arrival time into one.
//!
//! Flow `i` (0-based, in config order) stamps `i` into [`Request::stream`], replacing the
//! trace's own device / volume number (a flow's `stream` key still filters the trace by
//! it first); the simulator keeps per-flow statistics by that id.

use super::{open_one, RequestStream, WorkloadConfig, WorkloadContext};
use crate::engine::rng::mix64;
use crate::error::{NandError, Result};
use crate::host::request::Request;
use crate::host::time_scale;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A k-way merge of the flows' request streams by (arrival time, flow id): equal arrival
/// times go to the lower flow first, so the merged order is deterministic.
pub struct Flows {
    streams: Vec<RequestStream>,
    /// Each flow's arrival-time multiplier.
    scales: Vec<f64>,
    /// The next request of every flow that has one.
    heads: Vec<Option<Request>>,
    /// (arrival_ns, flow) of every head, earliest first.
    order: BinaryHeap<Reverse<(u64, u32)>>,
    /// A flow's error, given after the request before it; it ends the merge.
    error: Option<NandError>,
}

/// The seed of flow `i`'s generator: distinct per flow, so two identical synthetic flows
/// do not issue the same addresses in lockstep.
pub fn flow_seed(seed: u64, flow: u32) -> u64 {
    mix64(seed ^ mix64(u64::from(flow) + 1))
}

impl Flows {
    /// Opens every flow of `flows` (already validated) and reads its first request.
    pub fn open(flows: &[WorkloadConfig], ctx: &WorkloadContext) -> Result<Self> {
        let mut streams = Vec::with_capacity(flows.len());
        for (i, f) in flows.iter().enumerate() {
            let fctx = WorkloadContext {
                seed: flow_seed(ctx.seed, i as u32),
                ..*ctx
            };
            streams.push(open_one(f, &fctx)?);
        }
        Self::from_streams(streams, flows.iter().map(|f| f.time_scale.unwrap_or(1.0)).collect())
    }

    /// Merges explicit streams, flow `i` being `streams[i]` with its times × `scales[i]`.
    pub fn from_streams(streams: Vec<RequestStream>, scales: Vec<f64>) -> Result<Self> {
        let n = streams.len();
        let mut merged = Flows {
            streams,
            scales,
            heads: vec![None; n],
            order: BinaryHeap::with_capacity(n),
            error: None,
        };
        for i in 0..n {
            merged.refill(i);
            if let Some(e) = merged.error.take() {
                return Err(e);
            }
        }
        Ok(merged)
    }

    /// Reads flow `i`'s next request into its head, or keeps its error.
    fn refill(&mut self, i: usize) {
        let r = match self.streams[i].next() {
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                self.error = Some(e);
                return;
            }
            None => return,
        };
        let arrival_ns =
            match time_scale::scale_arrival(r.arrival_ns, self.scales[i], &format!("workload.flows[{i}].time_scale")) {
                Ok(t) => t,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            };
        let r = Request {
            arrival_ns,
            stream: i as u32,
            ..r
        };
        self.order.push(Reverse((arrival_ns, i as u32)));
        self.heads[i] = Some(r);
    }
}

impl Iterator for Flows {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        // A bad line in one flow ends the run, as it would for a single workload.
        if let Some(e) = self.error.take() {
            self.order.clear();
            return Some(Err(e));
        }
        let Reverse((_, i)) = self.order.pop()?;
        let r = self.heads[i as usize].take().expect("every queued flow has a head");
        self.refill(i as usize);
        Some(Ok(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::request::Op;

    fn stream(times: &[u64], device: u32) -> RequestStream {
        let reqs: Vec<Result<Request>> = times
            .iter()
            .map(|&t| Ok(Request::new(t, t * 4096, 4096, Op::Read, device)))
            .collect();
        Box::new(reqs.into_iter())
    }

    #[test]
    fn merges_by_scaled_time_ties_to_the_lower_flow() {
        // Flow 1's times doubled: 0, 10, 40; flow 0: 0, 20, 30.
        let merged =
            Flows::from_streams(vec![stream(&[0, 20, 30], 7), stream(&[0, 5, 20], 7)], vec![1.0, 2.0]).unwrap();
        let got: Vec<(u64, u32, u64)> = merged
            .map(|r| r.unwrap())
            .map(|r| (r.arrival_ns, r.stream, r.offset_bytes / 4096))
            .collect();
        assert_eq!(
            got,
            vec![(0, 0, 0), (0, 1, 0), (10, 1, 5), (20, 0, 20), (30, 0, 30), (40, 1, 20)]
        );
    }

    #[test]
    fn a_bad_request_in_one_flow_ends_the_merge_with_its_error() {
        let bad: RequestStream = Box::new(
            vec![
                Ok(Request::new(0, 0, 4096, Op::Read, 0)),
                Err(crate::NandError::Invalid("t.csv:2: bad".into())),
            ]
            .into_iter(),
        );
        let out: Vec<Result<Request>> = Flows::from_streams(vec![bad, stream(&[1], 0)], vec![1.0, 1.0])
            .unwrap()
            .collect();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].as_ref().unwrap().arrival_ns, 0);
        assert_eq!(out[1].as_ref().unwrap_err().to_string(), "t.csv:2: bad");
    }

    #[test]
    fn flow_seeds_differ() {
        assert_ne!(flow_seed(0, 0), flow_seed(0, 1));
        assert_ne!(flow_seed(0, 1), flow_seed(1, 0));
    }
}
