//! One page-type convention everywhere: page type 0 is the lower page, programmed first on
//! its wordline, and the page the `vth` model senses with a single read reference (MLC
//! physics: the first program pass sets its bit, the second never moves a cell across that
//! reference; seed 002 Table 1 and Eq. 10 for its "MSB page"). docs/reliability.md,
//! "Page-type names".

use nandlab_core::flash::page_map::{PageMap, PageMapSpec};
use nandlab_core::flash::CellType;
use nandlab_core::reliability::vth::pattern_bit_of_page_type;
use nandlab_core::reliability::{ErrorContext, LevelOrder, ModelKind, ReliabilityConfig, VthModel};
use nandlab_core::SimConfig;
use std::path::Path;

const BUILT_IN: [&str; 3] = ["sequential", "interleaved", "interleaved-pairs"];
const PRESETS: [&str; 3] = ["dong-mlc", "wang-retention-free-mlc", "wang-standard-mlc"];

/// The page type programmed first on each wordline of `map` (`n_wl` wordlines).
fn first_programmed_types(map: &PageMap, pages: u32, n_wl: u32) -> Vec<u8> {
    (0..n_wl)
        .map(|w| {
            let first = (0..pages)
                .find(|&p| map.wordline(p) == w)
                .expect("every wordline has pages");
            map.page_type(first)
        })
        .collect()
}

/// On every built-in MLC page map, every `vth` preset and both level orders, the
/// first-programmed page of each wordline is type 0, and the pattern bit type 0 reads
/// changes exactly once across the levels (one read reference); type 1's bit changes
/// more often (Gray: twice, 1,0,0,1; `cai`: three times, 1,0,1,0).
#[test]
fn first_programmed_page_is_the_single_reference_page() {
    let pages = 128;
    for name in BUILT_IN {
        let map = PageMap::build(&PageMapSpec::Named(name.into()), CellType::Mlc, pages).unwrap();
        let first = first_programmed_types(&map, pages, pages / 2);
        assert!(first.iter().all(|&t| t == 0), "{name}: {first:?}");
        for preset in PRESETS {
            for (order, upper_refs) in [(LevelOrder::Gray, 2), (LevelOrder::Cai, 3)] {
                let cfg = ReliabilityConfig {
                    model: ModelKind::Vth,
                    vth_preset: preset.into(),
                    level_order: order,
                    ..ReliabilityConfig::default()
                };
                let m = VthModel::new(cfg.vth_params().unwrap()).unwrap();
                let refs = |t: u8| m.page_refs(pattern_bit_of_page_type(2, usize::from(t))).len();
                assert_eq!(refs(first[0]), 1, "{name}, {preset}, {order:?}");
                assert_eq!(refs(1), upper_refs, "{name}, {preset}, {order:?}");
            }
        }
    }
}

/// On the demo device (`vth`, Dong MLC, Gray order, `interleaved` map), the
/// first-programmed, single-reference type 0 errs at most as often as type 1 over the
/// demo's wear (its blocks start at 15,000–25,000 P/E; the Dong model's end of life lies
/// around 10⁴–3·10⁴) and ages up to its year of retention: type 0's errors come from one
/// boundary (levels 1|2), type 1's from two (0|1 and 2|3). (Far past that, near 2·10⁵
/// P/E, Dong's narrowest gap, 0.4 V between levels 1 and 2, makes type 0 the worse page:
/// the summary's `reliability.endurance.pe_by_page_type` is about [1.99e5, 2.21e5].)
#[test]
fn demo_lower_page_errs_no_more_than_upper_page() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/demo.toml");
    let cfg = SimConfig::from_toml_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(cfg.reliability.model, ModelKind::Vth);
    assert_eq!(cfg.reliability.level_order, LevelOrder::Gray);
    assert_eq!(cfg.device.page_map, PageMapSpec::Named("interleaved".into()));
    let bits = u8::try_from(cfg.device.cell_type.bits()).unwrap();
    let model = cfg.reliability.build(bits).unwrap();
    let day = 86_400.0;
    for pe in [1_000.0, 3_000.0, 10_000.0, 30_000.0] {
        for retention_s in [0.0, day, 30.0 * day, 365.0 * day] {
            let rber = |page_type| {
                model.page_rber(&ErrorContext {
                    pe_cycles: pe,
                    retention_s,
                    page_type,
                    ..Default::default()
                })
            };
            let (lower, upper) = (rber(0), rber(1));
            assert!(upper > 0.0, "P/E {pe}, {retention_s} s: {upper}");
            assert!(
                lower <= upper,
                "P/E {pe}, {retention_s} s: type 0 {lower} > type 1 {upper}"
            );
        }
    }
}
