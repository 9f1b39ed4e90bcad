//! Tests of [`super::VthTable`]: exactness on the nodes and at the grid's edges, and the
//! interpolation within the documented tolerance of the exact model.

use std::sync::LazyLock;

use proptest::prelude::*;

use super::*;
use crate::content::StateHist;
use crate::reliability::model::{weighted_page_rber, ErrorContext};
use crate::reliability::vth::VthParams;
use crate::reliability::ReliabilityConfig;

/// The table's promise: page RBER within 0.1 % of the exact model's, or within 1e-15
/// absolute (a page whose every cell sits in states with RTN-only tails, p < 1e-30
/// each, e.g. all-programmed data at a few hundred P/E).
const TOLERANCE: f64 = 1e-3;
const ABS_FLOOR: f64 = 1e-15;

/// The demo's model (Dong MLC) on the default grid, shared so that nodes filled by one
/// case serve the next.
static DONG: LazyLock<VthTable> = LazyLock::new(|| {
    let c = ReliabilityConfig::default();
    VthTable::new(
        VthModel::new(VthParams::dong_mlc()).unwrap(),
        c.vth_sqrt_pe_step,
        c.vth_points_per_decade,
    )
});

fn page_rber(p: &[f64], hist: Option<&StateHist>) -> f64 {
    let ctx = ErrorContext {
        hist,
        ..Default::default()
    };
    weighted_page_rber(p, &ctx)
}

/// Table and exact page RBER of page type `page` at one point.
fn both(t: &VthTable, page: usize, pe: f64, age: f64, reads: f64, hist: Option<&StateHist>) -> (f64, f64) {
    let n = t.vth().n_states();
    let mut got = vec![0.0; n];
    t.probs_into(page, pe, age, reads, &mut got);
    let exact = t.exact(pe, age, reads);
    (page_rber(&got, hist), page_rber(&exact[page * n..(page + 1) * n], hist))
}

/// On the grid's nodes the table is the exact model: its corners (P/E 0 and the last
/// node, 320² = 102,400 ≥ [`MAX_PE`]; retention 0 and the last node,
/// `τ·(10^(35/4) − 1)` ≈ 1.69e10 s ≥ [`MAX_RETENTION_S`]) and an inner node, every
/// state, and the random-content page RBER (the mean of the exact states).
#[test]
fn nodes_are_exact_including_the_edges() {
    let t = &*DONG;
    let (pe_last, age_last) = (t.pe.node_value(t.pe.n - 1), t.age.node_value(t.age.n - 1));
    assert_eq!(pe_last, 102_400.0);
    let want_age_last = AGE_TAU_S * (10f64.powf(8.75) - 1.0);
    assert!((age_last / want_age_last - 1.0).abs() < 1e-12, "{age_last}");
    let (pe_inner, age_inner) = (t.pe.node_value(t.pe.n / 2), t.age.node_value(t.age.n / 2));
    for (pe, age) in [
        (0.0, 0.0),
        (0.0, age_last),
        (pe_last, 0.0),
        (pe_last, age_last),
        (pe_inner, age_inner),
    ] {
        let exact = t.exact(pe, age, 0.0);
        for page in 0..2 {
            let mut got = [0.0; 4];
            t.probs_into(page, pe, age, 0.0, &mut got);
            for s in 0..4 {
                let want = exact[page * 4 + s];
                assert!(
                    (got[s] - want).abs() <= 1e-9 * want,
                    "P/E {pe} age {age} page {page} pattern {s}: {} vs {want}",
                    got[s]
                );
            }
            let want = exact[page * 4..(page + 1) * 4].iter().sum::<f64>() / 4.0;
            let got = t.uniform_rber(page, pe, age, 0.0);
            assert!(
                (got - want).abs() <= 1e-9 * want,
                "P/E {pe} age {age} page {page} random content: {got} vs {want}"
            );
        }
    }
}

/// Beyond the grid the model is evaluated exactly.
#[test]
fn beyond_the_grid_is_exact() {
    let t = &*DONG;
    let (a, b) = both(t, 1, 1.5 * MAX_PE, 3600.0, 0.0, None);
    assert_eq!(a, b);
}

/// A model that ignores wear and age is one node.
#[test]
fn blind_model_is_one_node() {
    let t = VthTable::new(VthModel::new(VthParams::wang_retention_free_mlc()).unwrap(), 100.0, 8.0);
    assert!(t.is_constant());
    let (a, b) = both(&t, 0, 12_345.0, 1e7, 0.0, None);
    assert_eq!(a, b);
    assert!(!DONG.is_constant());
}

/// The table's page RBER against the exact model's at `10^log_age − 1` s with content
/// shares from weights `w` (all zero: random content).
fn within_tolerance(pe: f64, log_age: f64, page: usize, w: &[f64]) -> Result<(), TestCaseError> {
    let age = 10f64.powf(log_age) - 1.0;
    let hist = (w.iter().sum::<f64>() > 0.0).then(|| StateHist::from_weights(w));
    let (got, want) = both(&DONG, page, pe, age, 0.0, hist.as_ref());
    close(got, want, format!("P/E {pe} age {age} page {page} shares {w:?}"))
}

/// `got` within the table's tolerance of `want`; `what` names the case on failure.
fn close(got: f64, want: f64, what: String) -> Result<(), TestCaseError> {
    prop_assert!(
        (got - want).abs() <= TOLERANCE * want + ABS_FLOOR,
        "{}: {} vs {} ({:e})",
        what,
        got,
        want,
        got / want - 1.0
    );
    Ok(())
}

/// The table's random-content page RBER ([`VthTable::uniform_rber`], one interpolated
/// value) against the mean of the exact model's states at `10^log_age − 1` s; and its
/// wear × age path (`plane_value`, summed axis by axis) the general stencil's value to
/// rounding (the same cubic summed in another order: ≤ 1e-12 relative).
fn uniform_within_tolerance(pe: f64, log_age: f64, page: usize) -> Result<(), TestCaseError> {
    let age = 10f64.powf(log_age) - 1.0;
    let got = DONG.uniform_rber(page, pe, age, 0.0);
    let general = DONG.at(pe, age, 0.0, |at| at.value(2 * 4 + page));
    let general = general.expect("on the grid");
    prop_assert!(
        (got / general - 1.0).abs() <= 1e-12,
        "P/E {} age {}: {} vs {}",
        pe,
        age,
        got,
        general
    );
    let want = DONG.exact(pe, age, 0.0)[page * 4..(page + 1) * 4].iter().sum::<f64>() / 4.0;
    close(got, want, format!("P/E {pe} age {age} page {page} random content"))
}

/// Level-share weights of a page's content, some states absent.
fn content() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(prop_oneof![1 => Just(0.0), 4 => 0.0f64..1.0], 4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Page RBER from the table within 0.1 % of the exact model over the demo's
    /// wear and age with margin (P/E 5,000 … 30,000, retention 1 day … 2 years,
    /// log-uniform) and random content (level shares from random weights, some
    /// states absent), and random content's page RBER interpolated as one value within
    /// the same 0.1 %. Below that, see docs/reliability.md ("The `vth` table").
    #[test]
    fn table_within_tolerance_of_exact(
        pe in 5_000.0f64..30_000.0,
        log_age in 4.94f64..7.8,
        page in 0usize..2,
        w in content(),
    ) {
        within_tolerance(pe, log_age, page, &w)?;
        uniform_within_tolerance(pe, log_age, page)?;
    }

    /// Data written minutes before it is read (the demo reads what its run wrote,
    /// 0 … 50 s old) up to an hour old, the demo's wear with margin, random content:
    /// within the same 0.1 %. (With the RTN convolution as a Simpson sum the exact
    /// model was rough here and the table missed by up to 1e-2 for uniform content;
    /// the closed form made it smooth: measured worst 1.8e-4 uniform, 3.4e-4 for a
    /// single state, benchmarks/vth_speed.md.) Random content as one value, too.
    #[test]
    fn fresh_data_within_tolerance(
        pe in 10_000.0f64..30_000.0,
        log_age in 0.0f64..3.56,
        page in 0usize..2,
        w in content(),
    ) {
        within_tolerance(pe, log_age, page, &w)?;
        uniform_within_tolerance(pe, log_age, page)?;
    }
}

/// The log axes' coordinate (`ln_1p(x/x₀) · ppd / ln 10`) is `ppd · log10(1 + x/x₀)`,
/// worked out by hand: age axis (τ = 30 s, 4 per decade) at 270 s is `4 · log10(10)` = 4,
/// at 2,970 s `4 · log10(100)` = 8, at 0 s 0; read axis (x₀ = 1) at 999 reads 12; and a
/// node's value maps back to its index (to rounding).
#[test]
fn log_axis_coordinate_is_decades_times_points() {
    let age = Axis::log(4.0, MAX_RETENTION_S, AGE_TAU_S);
    for (x, want) in [
        (0.0, 0.0),
        (270.0, 4.0),
        (2_970.0, 8.0),
        (AGE_TAU_S * 1e6 - AGE_TAU_S, 24.0),
    ] {
        let c = age.coord(x).expect("on the grid");
        assert!((c - want).abs() <= 1e-13 * want.max(1.0), "age {x}: {c} vs {want}");
    }
    let reads = Axis::log(4.0, MAX_READS, 1.0);
    let c = reads.coord(999.0).expect("on the grid");
    assert!((c - 12.0).abs() <= 1e-13 * 12.0, "reads: {c}");
    for k in 0..age.n {
        let c = age.coord(age.node_value(k)).expect("a node is on the grid");
        assert!((c - k as f64).abs() <= 1e-12 * (k as f64).max(1.0), "node {k}: {c}");
    }
    assert!(age.coord(MAX_RETENTION_S * 10.0).is_none(), "beyond the last node");
}
