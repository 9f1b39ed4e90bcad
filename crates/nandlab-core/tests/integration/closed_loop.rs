//! Closed-loop replay with a host queue (`host.replay = "closed"`, `host.outstanding`):
//! exactly N requests are outstanding at every moment until the stream runs out, and the
//! ones the device does not hold wait where a reordering scheduler can pick among them.

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

use crate::common::one_plane_device;

/// Requests outstanding at time `t`: issued at or before `t` and completed after it.
fn outstanding_at(t: u64, issued: &[u64], ended: &[u64]) -> usize {
    issued.iter().zip(ended).filter(|&(&a, &e)| a <= t && t < e).count()
}

/// A hand-built trace of 8 KiB pages: eight writes (LPN 0-7), then reads of those pages
/// and writes of LPN 8-15 in turn, with trace timestamps a second apart that closed-loop
/// replay must ignore. Every read finds data, so every request takes flash time.
fn trace() -> Vec<Request> {
    (0..24u64)
        .map(|i| {
            let (op, lpn) = match i {
                0..=7 => (Op::Write, i),
                _ if i % 2 == 0 => (Op::Read, i % 8),
                _ => (Op::Write, 8 + i % 8),
            };
            Request::new(i * 1_000_000_000, lpn * 8192, 8192, op, 0)
        })
        .collect()
}

fn run(host: &str) -> (Vec<u64>, Vec<u64>, serde_json::Value) {
    let text = format!("[aging]\nfill_fraction = 0.0\n[ftl]\noverprovisioning = 0.25\n[host]\n{host}");
    let mut cfg = SimConfig::from_toml_str(&text).unwrap();
    cfg.device = one_plane_device().cfg;
    cfg.output.record_requests = true;
    let out = Simulator::new(cfg).unwrap().run_requests(trace()).unwrap();
    let r = out.requests.unwrap();
    let ended = r.arrival_ns.iter().zip(&r.latency_ns).map(|(a, l)| a + l).collect();
    (r.arrival_ns.clone(), ended, out.summary.to_json())
}

#[test]
fn exactly_n_requests_stay_outstanding() {
    for (n, depth) in [(1, 1), (3, 1), (4, 2), (5, 0)] {
        let (issued, ended, _) = run(&format!(
            "replay = \"closed\"\noutstanding = {n}\nqueue_depth = {depth}\n"
        ));
        assert_eq!(issued.len(), 24);
        // The first n are issued at 0; the trace's timestamps (seconds apart) are ignored.
        assert_eq!(issued.iter().filter(|&&a| a == 0).count(), n, "n = {n}");
        let last_issue = *issued.iter().max().unwrap();
        assert!(last_issue < 1_000_000_000, "timestamps were used: {last_issue}");
        // Until the last request is issued, every issue and every completion leaves exactly
        // n outstanding (a completion issues the next request at the same instant).
        for &t in issued.iter().chain(ended.iter().filter(|&&e| e <= last_issue)) {
            assert_eq!(outstanding_at(t, &issued, &ended), n, "n = {n}, depth {depth}, t = {t}");
        }
    }
}

#[test]
fn requests_beyond_the_device_depth_wait_in_the_host_queue() {
    // One request at the device at a time (depth 1): with 3 outstanding the requests run
    // one after another, each ending when the next begins its service, so the span of the
    // run equals the sum of the service times of depth-1 replay with one outstanding.
    let (_, ended1, _) = run("replay = \"closed\"\noutstanding = 1\nqueue_depth = 1\n");
    let (issued3, ended3, _) = run("replay = \"closed\"\noutstanding = 3\nqueue_depth = 1\n");
    assert_eq!(ended1.iter().max(), ended3.iter().max());
    // ... but with 3 outstanding a request waits for the two ahead of it: responses grow.
    let mean = |i: &[u64], e: &[u64]| e.iter().zip(i).map(|(e, i)| e - i).sum::<u64>();
    let (issued1, _, _) = run("replay = \"closed\"\noutstanding = 1\nqueue_depth = 1\n");
    assert!(mean(&issued3, &ended3) > 2 * mean(&issued1, &ended1));
}

#[test]
fn request_feedback_reorders_the_closed_loop_host_queue() {
    // One plane, pages L0 L1 M0 L2 ...; the first write (LPN 0) is critical, the others
    // are not. Three outstanding, one at the device: the critical write at the head meets
    // LSB pages 0 and 1, and each time the oldest non-critical write behind it takes the
    // page (two feedbacks); page 2 is an MSB page and takes it. Nothing is skipped.
    let reqs: Vec<Request> = (0..6u64)
        .map(|i| Request::new(0, (if i == 0 { 0 } else { 8 + i }) * 8192, 8192, Op::Write, 0))
        .collect();
    let text = "[aging]\nfill_fraction = 0.0\n[ftl]\noverprovisioning = 0.25\n[ftl.placement]\n\
                policy = \"msb_critical\"\n[host]\nreplay = \"closed\"\noutstanding = 3\nqueue_depth = 1\n\
                scheduler = \"feedback\"\n[host.critical]\nlpn_ranges = [[0, 0]]\n";
    let mut cfg = SimConfig::from_toml_str(text).unwrap();
    cfg.device = one_plane_device().cfg;
    let s = Simulator::new(cfg)
        .unwrap()
        .run_requests(reqs)
        .unwrap()
        .summary
        .to_json();
    assert_eq!(s["scheduler"]["feedbacks"], 2, "{s}");
    assert_eq!(s["scheduler"]["critical_writes_unfed"], 0);
    assert_eq!(s["flash"]["skipped_pages"], 0);
}
