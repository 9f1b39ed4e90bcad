//! Seed 002's coupling (Eq. 3) and read disturb (Eq. 5) priced on both TVR layouts, for
//! the `tvr` summary's `terms` section. 002 argues only their direction (§2.3: a smaller
//! ΔV_th^max couples less; §2.4: a lower V_pass disturbs less); the page RBERs here come
//! from the `vth` model's error terms, which are nandlab's extension (docs/reliability.md,
//! "Eq. 3–5 as error terms").

use super::tvr::WangPage;
use super::vth::{VthModel, VthParams};
use crate::error::Result;
use crate::metrics::summary::{TermLayout, TvrTerms};

/// Reads of a block since its erase at which the terms are priced: none, then decades up
/// to 10⁵. Cai et al. (DSN'15, research/models.md §2.3) measure read disturb over this
/// range; seed 003's read refresh acts at 10⁴ reads per block.
pub const TERM_READS: [f64; 4] = [0.0, 1e3, 1e4, 1e5];

/// The `terms` section for the standard and the reduced layout's parameters (each with
/// the configured terms), or `None` when neither term is configured.
pub fn terms_summary(standard: &VthParams, reduced: &VthParams) -> Result<Option<TvrTerms>> {
    if standard.coupling.is_none() && standard.read_disturb.is_none() {
        return Ok(None);
    }
    let layout = |p: &VthParams| -> Result<TermLayout> {
        let m = VthModel::new(p.clone())?;
        let at = |page: WangPage| -> Vec<f64> {
            TERM_READS
                .iter()
                .map(|&r| m.at_reads(r).page_rber(page.pattern_bit(), None, 0.0, 0.0))
                .collect()
        };
        let erased_rise: Vec<f64> = TERM_READS
            .iter()
            .map(|&r| m.at_reads(r).read_disturb_rise_v(0))
            .collect();
        Ok(TermLayout {
            rber_msb_page: at(WangPage::Msb),
            rber_lsb_page: at(WangPage::Lsb),
            erased_rise_v: erased_rise,
        })
    };
    let top = |p: &VthParams| p.levels[p.levels.len() - 1].centre_v();
    let pass_drop_v = top(standard) - top(reduced);
    Ok(Some(TvrTerms {
        coupling: serde_json::json!(standard.coupling),
        read_disturb: serde_json::json!(standard.read_disturb),
        reads: TERM_READS,
        standard: layout(standard)?,
        reduced: layout(reduced)?,
        pass_voltage_drop_v: pass_drop_v,
        leakage_factor: standard.read_disturb.map(|rd| rd.leakage_factor(pass_drop_v)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::interference::{Coupling, ReadDisturb};
    use crate::reliability::tvr::{VthLayout, WANG_RBER_LIMIT};

    fn params(l: &VthLayout, c: Option<Coupling>, rd: Option<ReadDisturb>) -> VthParams {
        VthParams {
            coupling: c,
            read_disturb: rd,
            ..l.to_vth_params()
        }
    }

    /// No term configured: no section. With read disturb (b₀ = 1/V, α_G = 0.5): the
    /// reduced layout's V_pass is 3.143 V lower (interference.rs), so its leakage is
    /// e^{−0.5·3.143} = 0.2077 of the standard's; the erased state of each layout rises by
    /// R·I₀·e^{b₀α_G(μ₃ + margin − μ₀)} (μ₀ = −1.4 V in both, margin 1 V): 10⁵ reads at
    /// I₀ = 1e-7 V give 0.01·e^{0.5·7.3} = 0.3847 V (standard) and 0.01·e^{0.5·4.157} =
    /// 0.0799 V (reduced). Fresh, each layout's RBER is its own without the term.
    #[test]
    fn read_disturb_priced_on_both_layouts() {
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        assert!(terms_summary(&params(&std, None, None), &params(&tvr, None, None))
            .unwrap()
            .is_none());
        let rd = ReadDisturb {
            b0_per_v: 1.0,
            gate_coupling_ratio: 0.5,
            i0_v_per_read: 1e-7,
            pass_margin_v: 1.0,
        };
        let s =
            serde_json::to_value(terms_summary(&params(&std, None, Some(rd)), &params(&tvr, None, Some(rd))).unwrap())
                .unwrap();
        let f = s["leakage_factor"].as_f64().unwrap();
        assert!((f - (-0.5f64 * 3.143_083).exp()).abs() < 1e-6, "{f}");
        let rise = |l: &str| s[l]["erased_rise_v"][3].as_f64().unwrap();
        assert!((rise("standard") - 0.01 * (0.5f64 * 7.3).exp()).abs() < 1e-9);
        assert!((rise("reduced") - 0.01 * (0.5f64 * (1.756_917 + 1.0 + 1.4)).exp()).abs() < 1e-6);
        assert_eq!(s["standard"]["erased_rise_v"][0], 0.0);
        // (Eq. 11's sum; the model also counts the far tails, 1e-8 of it.)
        let fresh = s["reduced"]["rber_lsb_page"][0].as_f64().unwrap();
        assert!((fresh / tvr.page_rber(WangPage::Lsb) - 1.0).abs() < 1e-6, "{fresh}");
        // 10⁵ reads add errors on both layouts. (Not monotone on the reduced one: a small
        // rise of every state first removes more downward misreads than it adds upward.)
        for l in ["standard", "reduced"] {
            let r: Vec<f64> = (0..4).map(|k| s[l]["rber_lsb_page"][k].as_f64().unwrap()).collect();
            assert!(r[3] > r[0], "{l} {r:?}");
        }
    }

    /// Coupling alone: no read-disturb fields, and every read count gives the same RBER,
    /// above the layout's own (the states move up towards the fixed references).
    #[test]
    fn coupling_priced_on_both_layouts() {
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        let c = Some(Coupling::cho());
        let s = serde_json::to_value(terms_summary(&params(&std, c, None), &params(&tvr, c, None)).unwrap()).unwrap();
        assert!(s["leakage_factor"].is_null() && s["read_disturb"].is_null());
        let r: Vec<f64> = (0..4)
            .map(|k| s["reduced"]["rber_msb_page"][k].as_f64().unwrap())
            .collect();
        assert!(r.iter().all(|&x| x == r[0]));
        assert!(r[0] > tvr.page_rber(WangPage::Msb));
    }
}
