//! Content-dependent program times (`[timing.pe_time] model = "content"`, seed 002 §4) and
//! the TVR device mode (`[tvr]`, seed 002 §5) in the simulator, on the default device
//! (4 KiB pages over 200 MB/s = 20,480 ns of transfer; interleaved MLC map
//! L0 L1 M0 L2 M1 …, so the first two pages of a block are type 0 and the third type 1;
//! CWDP striping over 32 planes, so writes to LPN 0 … 95 fill pages 0–2 of every plane).

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

use crate::common;

const XFER: u64 = 20_480;

/// `n` one-page writes to LPN 0 … n−1, 10 ms apart (each on an idle die).
fn writes(n: u64) -> Vec<Request> {
    (0..n)
        .map(|i| Request::new(i * 10_000_000, i * 4096, 4096, Op::Write, 0))
        .collect()
}

fn run(cfg_text: &str, n: u64) -> (Value, Vec<u64>) {
    let (lat, summary) = common::replay(cfg_text, writes(n));
    (summary, lat)
}

/// Mean program time per page type (ns) from the run summary.
fn by_type(summary: &Value) -> Vec<f64> {
    summary["pe_time"]["program_ns_mean_by_page_type"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap_or(f64::NAN))
        .collect()
}

const CONTENT: &str = "[timing.pe_time]\nmodel = \"content\"\n";

/// 002 Fig. 8 as configured by default: an all-'11' page (byte 0xFF) programs in 380 µs
/// on page type 0 (the lower page, programmed first: 002's "MSB page") and 919 µs on
/// type 1 (002's "LSB page"); an all-'01' page (byte 0x55) in 539.6 and 1,082 µs: '11'
/// is faster by 159.6 µs and 163 µs. Each write's latency is its transfer plus its program.
#[test]
fn constant_pages_take_their_states_times() {
    for (byte, t0, t1) in [(0xFF, 380_000.0, 919_000.0), (0x55, 539_600.0, 1_082_000.0)] {
        let (s, lat) = run(
            &format!("{CONTENT}[content]\nsource = \"constant\"\nbyte = {byte}\n"),
            96,
        );
        assert_eq!(by_type(&s), vec![t0, t1], "byte {byte:#x}");
        assert_eq!(lat[0], XFER + t0 as u64);
        assert_eq!(s["pe_time"]["programs_by_page_type"], serde_json::json!([64, 32]));
    }
}

/// Random data holds every state: the slowest state decides by default, the mean of
/// the four state times with `compose = "mean"` ((2 · 539.6 + 2 · 380)/4 = 459.8 µs and
/// (3 · 1082 + 919)/4 = 1041.25 µs).
#[test]
fn random_pages_at_the_slowest_state_or_the_mean() {
    let (s, _) = run(CONTENT, 96);
    assert_eq!(by_type(&s), vec![539_600.0, 1_082_000.0]);
    let (s, _) = run(&format!("{CONTENT}compose = \"mean\"\n"), 96);
    assert_eq!(by_type(&s), vec![459_800.0, 1_041_250.0]);
}

/// The program time follows the states stored: BitFlip turns an all-'00' page
/// (error-prone) into an all-'11' one, which programs in 380 µs instead of 539.6 µs on
/// type 0 and in 919 µs instead of 1,082 µs on type 1.
#[test]
fn bitflip_changes_the_program_time_through_the_states() {
    let zeros = format!("{CONTENT}[content]\nsource = \"constant\"\nbyte = 0\n");
    let (plain, _) = run(&zeros, 96);
    let (flipped, lat) = run(&format!("{zeros}[codec]\nkind = \"bitflip\"\n"), 96);
    assert_eq!(by_type(&plain), vec![539_600.0, 1_082_000.0]);
    assert_eq!(by_type(&flipped), vec![380_000.0, 919_000.0]);
    // The encoder (8 units x 20 ns) runs before the program.
    assert_eq!(lat[0], XFER + 160 + 380_000);
}

/// TVR halves every program (002 §5.3: 22 → 11 steps on type 0, 002's "MSB page", 16 → 8
/// on type 1, its "LSB page"), over
/// the fixed times (121 µs / 1.45 ms) or the content model's; the summary carries the
/// model's numbers.
#[test]
fn tvr_halves_program_time() {
    let (s, lat) = run("[tvr]\nenabled = true\n", 96);
    assert_eq!(by_type(&s), vec![60_500.0, 725_000.0]);
    assert_eq!(lat[0], XFER + 60_500);
    assert_eq!(
        s["tvr"]["program_steps_msb"],
        serde_json::json!({"before": 22, "after": 11})
    );
    assert_eq!(
        s["tvr"]["program_steps_lsb"],
        serde_json::json!({"before": 16, "after": 8})
    );
    let (s, _) = run(&format!("{CONTENT}[tvr]\nenabled = true\n"), 96);
    assert_eq!(by_type(&s), vec![269_800.0, 541_000.0]);
}

/// Off by default: no `pe_time` or `tvr` section, and the resolved config has neither key.
#[test]
fn default_device_reports_nothing_new() {
    let (s, _) = run("", 4);
    assert!(s.get("pe_time").is_none() && s.get("tvr").is_none());
    assert!(s["config"].get("tvr").is_none() && s["config"]["timing"].get("pe_time").is_none());
}

/// The one-line error of building a simulator from `text`.
fn error_of(text: &str) -> String {
    SimConfig::from_toml_str(text)
        .and_then(Simulator::new)
        .err()
        .expect("the config is refused")
        .to_string()
}

#[test]
fn bad_keys_are_named() {
    for (text, key) in [
        (format!("{CONTENT}compose = \"fastest\"\n"), "timing.pe_time"),
        (
            format!("{CONTENT}program_pe_facter = [1.0]\n"),
            "timing.pe_time.program_pe_facter",
        ),
        (
            "[tvr]\nenabled = true\n[reliability]\nmodel = \"nominal\"\n".into(),
            "tvr.enabled",
        ),
        (
            format!(
                "[device]\ncell_type = \"tlc\"\npages_per_block = 96\n[timing]\nread_latency_ns = [50000]\n\
                 program_latency_ns = [1000000]\n{CONTENT}"
            ),
            "timing.pe_time.program_state_latency_ns",
        ),
    ] {
        let e = error_of(&text);
        assert!(e.contains(key), "{e}");
    }
}
