//! Dispatch: the host queue hands requests to the device, a request splits into page
//! transactions, and a request completes when its last page is done.

use super::*;

impl Simulator {
    #[inline]
    pub(super) fn try_dispatch(&mut self, now: u64, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        let depth = self.device_depth;
        while !self.waiting.is_empty() && (depth == 0 || self.inflight < depth) {
            let i = self
                .scheduler
                .pick(&self.waiting, now, &DeviceView::new(&self.ftl, &self.cfg.host.critical));
            let q = self.waiting.remove(i).expect("scheduler picked a waiting request");
            self.dispatch(now, q, progress)?;
        }
        Ok(())
    }

    /// Splits a request into page transactions and starts them at `now`.
    #[inline]
    pub(super) fn dispatch(&mut self, now: u64, q: Queued, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        if q.id.is_multiple_of(PROGRESS_EVERY) && q.id > 0 && !progress(q.id) {
            return Err(NandError::Invalid("cancelled".into()));
        }
        let req = q.req;
        if req.size_bytes == 0 {
            return Err(NandError::Invalid(format!("request {} has size 0", q.id)));
        }
        self.counters.first_arrival_ns.get_or_insert(req.arrival_ns);
        self.counters.requests[op_index(req.op)] += 1;
        self.ftl.host_request();
        let first = req.offset_bytes / self.page_bytes;
        let end = req.offset_bytes.checked_add(req.size_bytes).ok_or_else(|| {
            NandError::Invalid(format!(
                "request {} ends past byte 2^64 (offset {})",
                q.id, req.offset_bytes
            ))
        })?;
        let last = (end - 1) / self.page_bytes;
        let pages = u32::try_from(last - first + 1).map_err(|_| {
            NandError::Invalid(format!(
                "request {} spans {} pages, more than the {} one request may have",
                q.id,
                last - first + 1,
                u32::MAX
            ))
        })?;
        let logical = self.ftl.logical_pages();
        if last >= logical && self.cfg.host.out_of_range == OutOfRange::Error {
            return Err(NandError::Invalid(format!(
                "request {} ends at byte {}, past the logical capacity of {} bytes \
                 (set host.out_of_range = \"wrap\" to wrap addresses, or use a larger device)",
                q.id,
                req.offset_bytes + req.size_bytes,
                logical * self.page_bytes
            )));
        }
        let slot = self.reqs.insert(ReqState {
            id: q.id,
            req,
            remaining: pages,
            end_ns: now,
        });
        self.inflight += 1;
        // The controller starts on the pages once the command (and a write's data) crossed
        // the host interface.
        let now = match self.host_link.as_mut() {
            Some(link) => link.submit(now, if req.op == Op::Write { req.size_bytes } else { 0 }),
            None => now,
        };
        match req.op {
            Op::Read => {
                self.issue_reads(now, slot, first, last, (req.offset_bytes, end))?;
                // Blocks these reads pushed past the refresh trigger are refreshed now,
                // behind the reads on the same dies.
                self.ftl.refresh_due(now as i64, &mut self.bg_ops)?;
                self.run_background(now)?;
                // A refresh whose die these reads took past the urgency bound goes now.
                self.urgent_refresh(now)
            }
            Op::Write => self.issue_writes(now, slot, first, last, (req.offset_bytes, end)),
            Op::Trim => {
                for lpn in first..=last {
                    let lpn = wrap(lpn, logical);
                    if let Some(c) = self.cache.as_mut() {
                        c.trim(lpn);
                    }
                    self.ftl.trim(lpn);
                    self.finish_page(slot, now);
                }
                Ok(())
            }
        }
    }

    /// One page of request `slot` is done at `end_ns`; completes the request after its last.
    /// Every page comes here: inlined (always: since the simulator's split into files it
    /// was called instead), with the completion out of line.
    #[inline(always)]
    pub(super) fn finish_page(&mut self, slot: u32, end_ns: u64) {
        let st = &mut self.reqs[slot];
        if let Some(pages) = self.page_reads.as_mut() {
            if st.req.op == Op::Read {
                pages.record(end_ns - st.req.arrival_ns, self.page_bytes);
            }
        }
        st.end_ns = st.end_ns.max(end_ns);
        st.remaining -= 1;
        if st.remaining == 0 {
            self.complete_request(slot);
        }
    }

    /// Request `slot`, whose last page is done, completes: its latency is recorded and its
    /// completion crosses the host interface.
    #[inline(never)]
    pub(super) fn complete_request(&mut self, slot: u32) {
        let ReqState { id, req, end_ns, .. } = self.reqs[slot];
        if req.op == Op::Read && self.background.hot_moves() {
            let first = req.offset_bytes / self.page_bytes;
            let pages = ((req.offset_bytes + req.size_bytes - 1) / self.page_bytes - first + 1) as u32;
            self.events.push(end_ns, Event::MoveHot { first, pages });
        }
        // A read's data and every command's completion cross the host interface back.
        let end_ns = match self.host_link.as_mut() {
            Some(link) => link.complete(end_ns, if req.op == Op::Read { req.size_bytes } else { 0 }),
            None => end_ns,
        };
        let latency = end_ns - req.arrival_ns;
        let i = op_index(req.op);
        self.latency[i].record(latency, req.size_bytes);
        if let Some(flow) = self.flow_latency.get_mut(req.stream as usize) {
            flow[i].record(latency, req.size_bytes);
        }
        if let Some(r) = self.records.as_mut() {
            let row = Row {
                arrival_ns: req.arrival_ns,
                latency_ns: latency,
                offset_bytes: req.offset_bytes,
                size_bytes: req.size_bytes,
                op: i as u8,
            };
            r.push(id, row);
        }
        if let Some(t) = self.timeline.as_mut() {
            t.completed(i, req.size_bytes, end_ns, latency, req.stream);
        }
        self.counters.last_end_ns = self.counters.last_end_ns.max(end_ns);
        if self.cfg.host.replay == ReplayMode::Closed || self.device_depth > 0 {
            self.events.push(end_ns, Event::RequestDone(slot));
        } else {
            self.reqs.remove(slot);
            self.inflight -= 1;
        }
    }
}
