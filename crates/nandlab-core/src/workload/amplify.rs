//! Read amplification (seed 003 §IV-A: "for triggering more RR operations in some traces,
//! we amplify read requests of both LUN traces by 10 times, hm1 and ads by 3 times"): each
//! read request of the workload is issued `factor` times, the copies arriving with the
//! original (the paper does not say when; at once is what multiplies a page's reads
//! without stretching the run). Writes and trims pass once.

use super::RequestStream;
use crate::error::Result;
use crate::host::{Op, Request};

/// A stream whose reads are each repeated `factor` times.
pub struct ReadAmplified {
    inner: RequestStream,
    factor: u32,
    pending: Option<Request>,
    left: u32,
}

impl ReadAmplified {
    /// Amplifies the reads of `inner` by `factor` (≥ 1).
    pub fn new(inner: RequestStream, factor: u32) -> Self {
        ReadAmplified {
            inner,
            factor,
            pending: None,
            left: 0,
        }
    }
}

impl Iterator for ReadAmplified {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        if self.left > 0 {
            self.left -= 1;
            return self.pending.map(Ok);
        }
        let r = self.inner.next()?;
        if let Ok(req) = &r {
            if req.op == Op::Read {
                self.pending = Some(*req);
                self.left = self.factor - 1;
            }
        }
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_repeated_writes_are_not() {
        let reqs = vec![
            Request::new(0, 0, 4096, Op::Read, 0),
            Request::new(5, 8192, 4096, Op::Write, 0),
            Request::new(9, 4096, 4096, Op::Read, 0),
        ];
        let out: Vec<Request> = ReadAmplified::new(Box::new(reqs.clone().into_iter().map(Ok)), 3)
            .map(|r| r.unwrap())
            .collect();
        let ops: Vec<(u64, Op)> = out.iter().map(|r| (r.arrival_ns, r.op)).collect();
        assert_eq!(
            ops,
            vec![
                (0, Op::Read),
                (0, Op::Read),
                (0, Op::Read),
                (5, Op::Write),
                (9, Op::Read),
                (9, Op::Read),
                (9, Op::Read)
            ]
        );
        assert!(out[..3].iter().all(|r| *r == reqs[0]));
    }
}
