//! A TVR region (`[tvr.region]`, seed 002 §5.1: TVR for short-lived data only) and the
//! retention budget of TVR data (`tvr.retention_days`), in the simulator, on the default
//! device (4 KiB pages over 200 MB/s = 20,480 ns of transfer; fixed program times 121 µs
//! on type 0 and 1.45 ms on type 1; CWDP striping over 32 planes with the interleaved map,
//! so LPN 0–31 land on page 0 of each plane (type 0), 32–63 on page 1 (type 0) and 64–95
//! on page 2 (type 1)).

use nandlab_core::host::{Op, Request};
use serde_json::Value;

const XFER: u64 = 20_480;

fn req(arrival_ns: u64, lpn: u64, op: Op, stream: u32) -> Request {
    Request::new(arrival_ns, lpn * 4096, 4096, op, stream)
}

/// One-page writes to LPN 0 … 95, 10 ms apart; write `i` on stream `i mod 2`.
fn writes() -> Vec<Request> {
    (0..96)
        .map(|i| req(i * 10_000_000, i, Op::Write, (i % 2) as u32))
        .collect()
}

fn region(s: &Value, name: &str) -> Value {
    s["tvr"]["regions"][name].clone()
}

/// Region LPN [0, 48): TVR pages are LPN 0–47, all type 0, at 121/2 = 60.5 µs (22 → 11
/// ISPP steps); the standard ones are 16 type-0 pages at 121 µs and 32 type-1 pages at
/// 1.45 ms, mean (16·121 + 32·1450)/48 = 1,007 µs.
#[test]
fn lpn_range_region_program_times() {
    let cfg = "[tvr]\nenabled = true\n[tvr.region]\nkind = \"lpn_range\"\nfirst_lpn = 0\nend_lpn = 48\n";
    let (lat, s) = crate::common::replay(cfg, writes());
    assert_eq!(lat[0], XFER + 60_500);
    assert_eq!(lat[47], XFER + 60_500);
    assert_eq!(lat[48], XFER + 121_000);
    assert_eq!(lat[64], XFER + 1_450_000);
    assert_eq!(region(&s, "tvr")["programs"], 48);
    assert_eq!(region(&s, "tvr")["program_ns_mean"], 60_500.0);
    assert_eq!(region(&s, "standard")["programs"], 48);
    assert_eq!(region(&s, "standard")["program_ns_mean"], 1_007_000.0);
}

/// Region = stream 1 (the odd writes): TVR pages are 32 of type 0 at 60.5 µs and 16 of
/// type 1 at 725 µs (16 → 8 steps), mean (32·60.5 + 16·725)/48 = 282 µs; standard ones
/// 32 at 121 µs and 16 at 1.45 ms, mean (32·121 + 16·1450)/48 = 564 µs.
#[test]
fn stream_region_program_times() {
    let cfg = "[tvr]\nenabled = true\n[tvr.region]\nkind = \"streams\"\nstreams = [1]\n";
    let (lat, s) = crate::common::replay(cfg, writes());
    assert_eq!(lat[0], XFER + 121_000);
    assert_eq!(lat[1], XFER + 60_500);
    assert_eq!(lat[65], XFER + 725_000);
    assert_eq!(region(&s, "tvr")["program_ns_mean"], 282_000.0);
    assert_eq!(region(&s, "standard")["program_ns_mean"], 564_000.0);
}

/// RBER per region and the retention budget: on 002's standard layout with region LPN
/// [0, 48), a TVR page reads at the limit the reduced layout is solved at (Eq. 10–13 make
/// both page types 4.5e-4; the non-adjacent misreads the model adds are < 1e-7), a
/// standard page below 1e-9. With `retention_days = 1`, LPN 0 (TVR) and 60 (standard),
/// written at 0, are read at 12 h and at 2 days: one TVR read is at risk (2 days > 1 day),
/// no standard read is.
#[test]
fn rber_per_region_and_reads_at_risk() {
    let cfg = "[reliability]\nmodel = \"vth\"\nvth_preset = \"wang-standard-mlc\"\n\
               [tvr]\nenabled = true\nretention_days = 1.0\n\
               [tvr.region]\nkind = \"lpn_range\"\nfirst_lpn = 0\nend_lpn = 48\n";
    let hour = 3_600_000_000_000u64;
    let reqs = vec![
        req(0, 0, Op::Write, 0),
        req(10_000_000, 60, Op::Write, 0),
        req(12 * hour, 0, Op::Read, 0),
        req(12 * hour + 10_000_000, 60, Op::Read, 0),
        req(48 * hour, 0, Op::Read, 0),
        req(48 * hour + 10_000_000, 60, Op::Read, 0),
    ];
    let (_, s) = crate::common::replay(cfg, reqs);
    let (tvr, std) = (region(&s, "tvr"), region(&s, "standard"));
    assert_eq!(
        (tvr["reads"].as_u64(), tvr["reads_at_risk"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        (std["reads"].as_u64(), std["reads_at_risk"].as_u64()),
        (Some(2), Some(0))
    );
    let r = tvr["rber_mean"].as_f64().unwrap();
    assert!((r / 4.5e-4 - 1.0).abs() < 0.01, "{r}");
    assert!(std["rber_mean"].as_f64().unwrap() < 1e-9);
    assert_eq!(s["tvr"]["regions"]["retention_days"], 1.0);
}

/// Bad region keys are named.
#[test]
fn bad_region_keys_are_named() {
    use nandlab_core::{SimConfig, Simulator};
    for (text, key) in [
        (
            "[tvr]\nenabled = true\n[tvr.region]\nkind = \"streams\"\nstreams = []\n",
            "tvr.region.streams",
        ),
        (
            "[tvr]\nenabled = true\n[tvr.region]\nkind = \"lpn_range\"\nfirst_lpn = 9\nend_lpn = 3\n",
            "tvr.region.end_lpn",
        ),
        ("[tvr]\nenabled = true\nretention_days = 0\n", "tvr.retention_days"),
    ] {
        let e = SimConfig::from_toml_str(text)
            .and_then(Simulator::new)
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains(key), "{e}");
    }
    let e = SimConfig::from_toml_str("[tvr.region]\nkind = \"log\"\n")
        .expect_err("refused")
        .to_string();
    assert!(e.contains("tvr"), "{e}");
}
