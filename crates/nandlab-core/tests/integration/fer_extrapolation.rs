//! No summary metric computed from an extrapolated FER goes out without its flag
//! (issue 38): a curve-mode LDPC run reports which reads lay below the FER table's measured
//! range and the part of `expected_uncorrectable_pages` they contributed, and flags an
//! endurance limit read off a tail. Every metric the summary computes from the table's FER
//! (not drawn outcomes) is listed in `FROM_FER` with its flag; a new one must join it.

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

/// Summary metrics computed from FER values, each with the key that flags extrapolation.
const FROM_FER: [(&str, &str); 2] = [
    (
        "expected_uncorrectable_pages",
        "fer_extrapolation.expected_uncorrectable_pages",
    ),
    ("endurance.rber_limit", "endurance.rber_limit_extrapolated"),
];

fn run(rber: f64, ecc: &str) -> Value {
    let text = format!(
        "[aging]\nfill_fraction = 1.0\n[reliability]\nmodel = \"nominal\"\nnominal_rber = {rber}\n\
         error_draw = \"expected\"\n[ecc]\nscheme = \"ldpc\"\n{ecc}"
    );
    let cfg = SimConfig::from_toml_str(&text).unwrap();
    let reqs = (0..20)
        .map(|i| Request::new(i * 1000, i * 4096, 4096, Op::Read, 0))
        .collect();
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    out.summary.to_json()["reliability"].clone()
}

fn get<'a>(v: &'a Value, dotted: &str) -> &'a Value {
    dotted.split('.').fold(v, |v, k| &v[k])
}

#[test]
fn reads_below_the_measured_range_are_flagged_with_their_share() {
    // The shipped table: k = 6 (the last level) is measured from RBER 1.8e-2 up, so at
    // 1.2e-2 every read's uncorrectable probability is a tail model's, at 2.0e-2 none is
    // (k = 6 measured 23/800 there; every lower level is measured at 2.0e-2 too).
    let below = run(1.2e-2, "mode = \"curve\"\n");
    let f = &below["fer_extrapolation"];
    assert_eq!(f["measured_from_rber"].as_f64().unwrap(), 1.8e-2);
    assert_eq!(f["reads"], below["page_reads"]);
    assert!(below["page_reads"].as_u64().unwrap() > 0);
    assert_eq!(f["expected_uncorrectable_pages"], below["expected_uncorrectable_pages"]);
    let above = run(2.0e-2, "mode = \"curve\"\n");
    let f = &above["fer_extrapolation"];
    assert_eq!(
        (f["reads"].as_u64(), f["expected_uncorrectable_pages"].as_f64()),
        (Some(0), Some(0.0))
    );
    assert!(above["expected_uncorrectable_pages"].as_f64().unwrap() > 0.1);
    // Every FER-derived metric carries its flag in a curve-mode run.
    for (metric, flag) in FROM_FER {
        assert!(
            !get(&below, metric).is_null() && !get(&below, flag).is_null(),
            "{metric} / {flag}"
        );
    }
    // Thresholds are closed forms: no flag block.
    assert!(run(1.2e-2, "")["fer_extrapolation"].is_null());
}

#[test]
fn an_endurance_limit_on_a_tail_is_flagged() {
    // A one-level table measured from RBER 1e-2 up (FER 0.5 there), extrapolated below: the
    // limit (page FER 1e-3, ENDURANCE_PAGE_FAIL) lies on the tail, between 1e-3 and 1e-2.
    let dir = std::env::temp_dir().join(format!("nandlab_fer_extrap_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("t.csv");
    std::fs::write(
        &table,
        "level,rber,fer,extrapolated\n0,1e-3,1e-12,1\n0,1e-2,0.5,0\n0,2e-2,1,0\n",
    )
    .unwrap();
    let ecc = format!(
        "mode = \"curve\"\nmax_extra_levels = 0\nthresholds = [0.005]\ncurve_path = {:?}\n",
        table.display().to_string()
    );
    let s = run(1e-3, &ecc);
    let limit = s["endurance"]["rber_limit"].as_f64().unwrap();
    assert!(limit > 1e-3 && limit < 1e-2, "{limit}");
    assert_eq!(s["endurance"]["rber_limit_extrapolated"], true);
    // The shipped table's limit (FER 1e-3 at k = 6, near 1.9e-2) is measured: no flag.
    let s = run(2.0e-2, "mode = \"curve\"\n");
    assert!(s["endurance"]["rber_limit"].as_f64().unwrap() > 1.8e-2);
    assert_eq!(s["endurance"]["rber_limit_extrapolated"], false);
    std::fs::remove_dir_all(&dir).unwrap();
}
