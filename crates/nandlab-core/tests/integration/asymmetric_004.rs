//! Seed 004's error model and ECC in `configs/004_asymmetric*.toml`: the numbers are worked
//! out by hand from the paper (§3, Eq. 3–4, Table 1, Table 2), not taken from the code.

use nandlab_core::ecc::Bch;
use nandlab_core::reliability::ErrorContext;
use nandlab_core::SimConfig;
use std::path::Path;

fn load(name: &str) -> SimConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    SimConfig::from_toml_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The preset's RBER of a page of type `page_type` at `pe` P/E cycles.
fn rber(cfg: &SimConfig, pe: f64, page_type: u8) -> f64 {
    let model = cfg.reliability.build(cfg.device.cell_type.bits() as u8).unwrap();
    model.page_rber(&ErrorContext {
        pe_cycles: pe,
        page_type,
        ..Default::default()
    })
}

#[test]
fn rber_follows_the_documented_power_law_with_sigma_one_half() {
    for name in ["004_asymmetric.toml", "004_asymmetric_256mb.toml"] {
        let cfg = load(name);
        // LSB = 2e-6 + 2.24e-10 · PE^1.71; 1000^1.71 = 10^5.13 = 134,896.3;
        // 3000^1.71 = e^(1.71 · 8.006368) = e^13.690889 = 882,830.5.
        for (pe, want_lsb) in [
            (0.0, 2.0e-6),
            (1000.0, 2.0e-6 + 2.24e-10 * 134_896.3),
            (3000.0, 2.0e-6 + 2.24e-10 * 882_830.5),
        ] {
            let lsb = rber(&cfg, pe, 0);
            assert!(
                (lsb / want_lsb - 1.0).abs() < 1e-4,
                "{name} PE {pe}: {lsb} vs {want_lsb}"
            );
            // §3 / Eq. 4: MSB = σ · LSB, σ = 0.5.
            assert!((rber(&cfg, pe, 1) / lsb - 0.5).abs() < 1e-12, "{name} PE {pe}");
        }
        // Rises with wear (Fig. 3a) and stops at the rated 3000 P/E (Table 2).
        assert!(rber(&cfg, 2000.0, 0) > rber(&cfg, 1000.0, 0));
        assert_eq!(rber(&cfg, 4000.0, 0), rber(&cfg, 3000.0, 0));
    }
}

#[test]
fn ecc_is_bch_over_eight_8640_bit_codewords_per_page() {
    let cfg = load("004_asymmetric.toml");
    // Table 2: 8192 + 448 B pages = 8 × (1024 + 56) B; 1080 B = 8640 bits, Table 1's N.
    assert_eq!(cfg.ecc.codeword_bits(), 8640);
    assert_eq!(
        8 * (cfg.ecc.codeword_data_bytes + cfg.ecc.codeword_parity_bytes),
        8192 + 448
    );
    assert_eq!(cfg.device.oob_bytes, 8 * cfg.ecc.codeword_parity_bytes);
    // §5.2 / §5.3.2: 4-bit BCH.
    assert_eq!(cfg.ecc.t, 4);
}

/// 004 §3 on Fig. 3b: at 3000 P/E with 3-bit BCH "page errors of over 50%" on LSB pages,
/// "a reasonably low error rate" on MSB pages. At LSB RBER 1.99754e-4, λ = 8640 · R = 1.72587
/// per codeword; P(X > 3) ≈ 1 − e^−λ (1 + λ + λ²/2 + λ³/6) = 1 − 0.178017 · 5.07199 = 0.0971
/// (Poisson approximation of the binomial); a page of 8 codewords fails with
/// 1 − 0.9029^8 = 0.558. MSB: λ = 0.86294, P(X > 3) ≈ 1 − 0.421921 · 2.34237 = 0.01170,
/// page 1 − 0.98830^8 = 0.0899.
#[test]
fn fig_3b_lsb_pages_fail_over_half_at_3000_pe_with_3_bit_bch() {
    let cfg = load("004_asymmetric.toml");
    let bch = Bch {
        n_bits: cfg.ecc.codeword_bits(),
        t: 3,
    };
    let codewords = cfg.device.page_size_bytes / cfg.ecc.codeword_data_bytes;
    assert_eq!(codewords, 8);
    let lsb = bch.page_fail_prob(rber(&cfg, 3000.0, 0), codewords);
    let msb = bch.page_fail_prob(rber(&cfg, 3000.0, 1), codewords);
    assert!((lsb - 0.558).abs() < 0.002, "{lsb}");
    assert!((msb - 0.0899).abs() < 0.001, "{msb}");
}
