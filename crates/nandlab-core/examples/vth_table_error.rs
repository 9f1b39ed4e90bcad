//! How far the `vth` table is from the exact model over a range of wear and age: page
//! RBER of uniform content (the mean of the interpolated states, and the one interpolated
//! value the read path uses for random data, `VthTable::uniform_rber`) and of each single
//! state (the worst any content can do), table against `vth_exact`, on a grid of points that avoids the table's nodes. Used by
//! `benchmarks/vth_speed.md` to choose the grid; run it as
//! `cargo run --release --example vth_table_error -- PE_LO PE_HI AGE_LO_S AGE_HI_S [N]`
//! (ages spaced evenly in `ln(1 + t/1 h)`, P/E in `√PE`; `N` points per axis, default 24).

use nandlab_core::reliability::vth_table::VthTable;
use nandlab_core::reliability::{ReliabilityConfig, VthModel, VthParams};

/// States whose exact misread probability is below this add nothing a page RBER can
/// show (the tests' absolute floor).
const FLOOR: f64 = 1e-15;

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or_else(|_| panic!("{a}: not a number")))
        .collect();
    let [pe_lo, pe_hi, age_lo, age_hi] = args[..4] else {
        panic!("usage: vth_table_error PE_LO PE_HI AGE_LO_S AGE_HI_S [N]");
    };
    let n = args.get(4).map_or(24, |&x| x as usize);
    let c = ReliabilityConfig::default();
    let model = VthModel::new(VthParams::dong_mlc()).expect("preset");
    let t0 = model.params().retention.as_ref().map_or(1.0, |r| r.t0_s);
    let table = VthTable::new(model, c.vth_sqrt_pe_step, c.vth_points_per_decade);
    let states = table.vth().n_states();
    let lerp = |lo: f64, hi: f64, i: usize| lo + (hi - lo) * (i as f64 + 0.5) / n as f64;
    let (mut worst_uniform, mut worst_one, mut worst_state) = ([0.0f64; 3], [0.0f64; 3], [0.0f64; 3]);
    for i in 0..n {
        let pe = lerp(pe_lo.sqrt(), pe_hi.sqrt(), i).powi(2);
        for j in 0..n {
            let age = t0 * lerp((age_lo / t0).ln_1p(), (age_hi / t0).ln_1p(), j).exp_m1();
            let exact = table.exact(pe, age, 0.0);
            for page in 0..table.vth().bits_per_cell() {
                let mut got = vec![0.0; states];
                table.probs_into(page, pe, age, 0.0, &mut got);
                let want = &exact[page * states..(page + 1) * states];
                let sum = |p: &[f64]| p.iter().sum::<f64>();
                let e = (sum(&got) / sum(want) - 1.0).abs();
                if e > worst_uniform[0] {
                    worst_uniform = [e, pe, age];
                }
                let e = (table.uniform_rber(page, pe, age, 0.0) / (sum(want) / states as f64) - 1.0).abs();
                if e > worst_one[0] {
                    worst_one = [e, pe, age];
                }
                for s in 0..states {
                    if want[s] >= FLOOR {
                        let e = (got[s] / want[s] - 1.0).abs();
                        if e > worst_state[0] {
                            worst_state = [e, pe, age];
                        }
                    }
                }
            }
        }
    }
    println!(
        "P/E {pe_lo}..{pe_hi}, age {age_lo}..{age_hi} s, {n}x{n} points: worst page RBER error \
         uniform {:.2e} (P/E {:.0}, {:.3e} s), uniform as one value {:.2e} (P/E {:.0}, {:.3e} s), \
         one state {:.2e} (P/E {:.0}, {:.3e} s)",
        worst_uniform[0],
        worst_uniform[1],
        worst_uniform[2],
        worst_one[0],
        worst_one[1],
        worst_one[2],
        worst_state[0],
        worst_state[1],
        worst_state[2]
    );
}
