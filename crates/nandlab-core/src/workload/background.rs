//! Reading a request stream on a background thread: the trace is parsed while the
//! simulator replays what was already read, so on two cores parsing leaves the replay's
//! critical path. Requests cross in batches, in order, so a run's results are the same as
//! when the stream is read inline; an error ends the stream where it occurred.

use std::sync::mpsc::{sync_channel, Receiver};
use std::thread::{self, JoinHandle};

use super::{Request, RequestStream};
use crate::error::{NandError, Result};

/// Requests per batch (about 200 KB): large enough that the channel costs nothing per
/// request.
const BATCH: usize = 4096;
/// Batches the reader may run ahead of the replay.
const AHEAD: usize = 4;

/// A request stream read on its own thread.
pub struct Background {
    rx: Receiver<Vec<Result<Request>>>,
    batch: std::vec::IntoIter<Result<Request>>,
    /// The reader, joined when its batches run out (to tell its end from a crash).
    reader: Option<JoinHandle<()>>,
}

impl Background {
    /// Starts reading `stream` on a new thread. The thread ends at the end of the
    /// stream, after an error, or when this reader is dropped.
    pub fn spawn(mut stream: RequestStream) -> Result<Self> {
        let (tx, rx) = sync_channel(AHEAD);
        let reader = thread::Builder::new()
            .name("nandlab-reader".into())
            .spawn(move || loop {
                let mut batch = Vec::with_capacity(BATCH);
                let mut last = true;
                for r in stream.by_ref() {
                    let failed = r.is_err();
                    batch.push(r);
                    if failed {
                        break;
                    }
                    if batch.len() == BATCH {
                        last = false;
                        break;
                    }
                }
                if batch.is_empty() || tx.send(batch).is_err() || last {
                    break;
                }
            })
            .map_err(|e| NandError::Invalid(format!("cannot start the trace reader thread: {e}")))?;
        Ok(Background {
            rx,
            batch: Vec::new().into_iter(),
            reader: Some(reader),
        })
    }
}

impl Iterator for Background {
    type Item = Result<Request>;

    #[inline]
    fn next(&mut self) -> Option<Result<Request>> {
        loop {
            if let Some(r) = self.batch.next() {
                return Some(r);
            }
            match self.rx.recv() {
                Ok(batch) => self.batch = batch.into_iter(),
                // The reader is done; if it died instead, say so rather than end early.
                Err(_) => {
                    let crashed = self.reader.take().is_some_and(|r| r.join().is_err());
                    return crashed.then(|| Err(NandError::Invalid("the trace reader thread failed".into())));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Op;

    fn req(i: u64) -> Request {
        Request::new(i, i * 4096, 4096, Op::Read, 0)
    }

    #[test]
    fn passes_every_request_in_order_then_stops_at_an_error() {
        let n = 3 * BATCH as u64 + 5;
        let items: Vec<Result<Request>> = (0..n).map(|i| Ok(req(i))).collect();
        let got: Vec<u64> = Background::spawn(Box::new(items.into_iter()))
            .unwrap()
            .map(|r| r.unwrap().arrival_ns)
            .collect();
        assert_eq!(got, (0..n).collect::<Vec<_>>());
        // An error mid-stream arrives in its place; nothing after it is read.
        let items = (0..10u64).map(|i| {
            if i == 4 {
                Err(NandError::Invalid("bad line".into()))
            } else {
                Ok(req(i))
            }
        });
        let got: Vec<Result<Request>> = Background::spawn(Box::new(items)).unwrap().collect();
        assert_eq!(got.len(), 5);
        assert!(got[4].is_err());
        // A reader that dies ends the stream with an error, not silently.
        let dies = (0..10u64).map(|i| if i < 3 { Ok(req(i)) } else { panic!("reader bug") });
        let got: Vec<Result<Request>> = Background::spawn(Box::new(dies)).unwrap().collect();
        assert_eq!(got.len(), 1);
        assert!(got[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("reader thread failed"));
    }
}
