//! Checks on the shipped FER table `crates/nandlab-core/data/ldpc_fer.csv`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use nandlab_ldpc::calibrate::{default_rber_grid, parse_fer_csv, FerRow, CSV_HEADER};
use nandlab_ldpc::stats::clopper_pearson;

fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../nandlab-core/data/ldpc_fer.csv")
}

fn rows() -> Vec<FerRow> {
    parse_fer_csv(&std::fs::read_to_string(table_path()).expect("shipped table")).expect("valid table")
}

/// Rows by level, each sorted by RBER.
fn by_level() -> BTreeMap<usize, Vec<FerRow>> {
    let mut m: BTreeMap<usize, Vec<FerRow>> = BTreeMap::new();
    for r in rows() {
        m.entry(r.level).or_default().push(r);
    }
    for v in m.values_mut() {
        v.sort_by(|a, b| a.rber.total_cmp(&b.rber));
    }
    m
}

#[test]
fn comments_only_at_the_top_and_exact_header() {
    let text = std::fs::read_to_string(table_path()).unwrap();
    let mut lines = text.lines().skip_while(|l| l.starts_with('#'));
    assert_eq!(lines.next(), Some(CSV_HEADER));
    assert!(lines.all(|l| !l.starts_with('#')));
}

#[test]
fn levels_0_to_6_share_the_default_grid_plus_their_own_points() {
    let m = by_level();
    assert_eq!(m.keys().copied().collect::<Vec<_>>(), (0..=6).collect::<Vec<_>>());
    for v in m.values() {
        let has = |x: f64| v.iter().any(|r| (r.rber / x - 1.0).abs() < 1e-9);
        assert!(default_rber_grid().into_iter().all(has));
        assert!(v.windows(2).all(|w| w[0].rber < w[1].rber));
    }
}

#[test]
fn rates_and_intervals_are_consistent() {
    for r in rows() {
        assert!(r.frames > 0 && r.failures <= r.frames);
        if r.stratified {
            // Frames and failures over the strata, the estimate inside its monotone bounds
            // (recomputed from the strata by tests/test_ldpc_table.py).
            assert!(!r.extrapolated && r.fer_lo <= r.fer && r.fer <= r.fer_hi, "{r:?}");
            continue;
        }
        if r.extrapolated {
            // The tail model's FER, inside the bound of the zero-failure measurement.
            assert!(r.failures == 0 && r.fer > 0.0 && r.fer <= r.fer_hi, "{r:?}");
        } else {
            assert!((r.fer - r.failures as f64 / r.frames as f64).abs() < 1e-6);
        }
        let (lo, hi) = clopper_pearson(r.failures, r.frames, 0.05);
        assert!((r.fer_lo - lo).abs() <= 1e-6 * lo.max(1e-9) + 1e-12, "{r:?}");
        assert!((r.fer_hi - hi).abs() <= 1e-6 * hi + 1e-12, "{r:?}");
        assert!(r.fer_lo <= r.fer && r.fer <= r.fer_hi);
    }
}

#[test]
fn fer_non_decreasing_in_rber_within_confidence() {
    for (level, v) in by_level() {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                assert!(
                    v[j].fer_hi >= v[i].fer_lo,
                    "level {level}: FER drops from {:?} to {:?}",
                    v[i],
                    v[j]
                );
            }
        }
    }
}

#[test]
fn fer_non_increasing_in_soft_levels_within_confidence() {
    let m = by_level();
    for k in 0..6 {
        for k2 in k + 1..=6 {
            for a in &m[&k] {
                for b in m[&k2].iter().filter(|b| b.rber == a.rber) {
                    assert!(b.fer_lo <= a.fer_hi, "k={k} {a:?} vs k={k2} {b:?}");
                }
            }
        }
    }
}

#[test]
fn soft_sensing_helps_and_hard_waterfall_is_where_expected() {
    // Coarse physics checks (research/models.md §4.5: NMS hard waterfall near 8–9e-3):
    // hard decoding fails every frame well above 1.2e-2 and no frame below 7e-3; the
    // last level survives an RBER at which hard decoding always fails.
    let m = by_level();
    for r in &m[&0] {
        if r.rber <= 7e-3 {
            // No Monte Carlo failure; strata (frames with far more errors than the mean)
            // put the FER below 1e-5.
            assert!(if r.stratified { r.fer < 1e-5 } else { r.failures == 0 }, "{r:?}");
        }
        if r.rber >= 1.4e-2 {
            assert_eq!(r.failures, r.frames, "{r:?}");
        }
    }
    assert!(m[&0].iter().zip(&m[&6]).any(|(h, s)| h.fer == 1.0 && s.failures == 0));
}

#[test]
fn json_sidecar_has_provenance() {
    let text = std::fs::read_to_string(table_path().with_extension("json")).expect("ldpc_fer.json");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = &v["provenance"];
    for key in [
        "code", "decoder", "channel", "vth", "config", "version", "wall_s", "threads",
    ] {
        assert!(!p[key].is_null(), "missing {key}");
    }
    assert_eq!(p["n"], 36_864);
    assert_eq!(p["k"], 32_768);
    assert_eq!(v["points"].as_array().unwrap().len(), rows().len());
    // One tail model per level, and the runs pooled into the first table.
    assert_eq!(v["tails"].as_array().unwrap().len(), 7);
    assert!(!v["extensions"].as_array().unwrap().is_empty());
    // Every stratified row names a pooled strata run with its seeds and decoder.
    let runs = v["strata_runs"].as_array().unwrap();
    let stratified = rows().iter().filter(|r| r.stratified).count();
    assert!(stratified >= 2 && !runs.is_empty());
    for p in v["points"].as_array().unwrap() {
        if let Some(i) = p["stratified"]["run"].as_u64() {
            let run = &runs[i as usize];
            assert!(!run["seeds"].as_array().unwrap().is_empty() && !run["decoder"].is_null());
        }
    }
}
