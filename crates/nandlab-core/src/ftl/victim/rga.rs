//! RGA, the randomized greedy algorithm (B. Van Houdt, "A Mean Field Model for a Class of
//! Garbage Collection Algorithms in Flash-based Solid State Drives", SIGMETRICS 2013;
//! MQSim's `GC_Block_Selection_Policy` `RGA`): `d` of the plane's reclaimable blocks drawn
//! uniformly at random, with replacement, and of those the one with the fewest valid pages
//! (the lowest on a tie). `d = 1` is random selection; as `d` grows it becomes greedy.
//!
//! A stateful, seeded policy: `build` gives each plane its own instance with its own
//! generator (`BuildCtx::rng`: the run seed, `ftl.gc`, the plane), which `select` draws
//! from, so a plane's draws never shift another's and the same seed repeats the run.

use super::VictimPolicy;
use crate::engine::rng::SimRng;
use crate::error::{NandError, Result};
use crate::ftl::plane_view::PlaneView;
use crate::flash::BuildCtx;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// `[ftl.gc] victim = "rga"`, with `d` beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rga {
    /// Candidate blocks drawn per victim (Van Houdt's d), at least 1.
    pub d: u32,
    /// The plane's generator: set by `build`, absent from the config.
    #[serde(skip)]
    rng: Option<SimRng>,
}

impl VictimPolicy for Rga {
    fn validate(&self, table: &str) -> Result<()> {
        if self.d == 0 {
            return Err(NandError::config(format!("{table}.d"), "must be at least 1"));
        }
        Ok(())
    }

    fn build(&self, ctx: &BuildCtx) -> Option<Box<dyn VictimPolicy>> {
        Some(Box::new(Rga {
            d: self.d,
            rng: Some(ctx.rng()),
        }))
    }

    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        let rng = self.rng.as_mut().expect("RGA selects through its built instance");
        let candidates: Vec<(u16, usize)> = plane.reclaimable().map(|(i, b)| (b.valid, i)).collect();
        if candidates.is_empty() {
            return None;
        }
        (0..self.d)
            .map(|_| candidates[rng.random_range(0..candidates.len())])
            .min()
            .map(|(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::flash::block::BlockState;
    use crate::flash::Geometry;
    use crate::ftl::plane_view::fixture::{full, view};
    use crate::ftl::victim::VictimConfig;

    /// Built by name from a config, as the FTL builds it (one instance per plane).
    fn built(d: u32, plane: u32) -> Box<dyn VictimPolicy> {
        let cfg = SimConfig::from_toml_str(&format!("[ftl.gc]\nvictim = \"rga\"\nd = {d}\n")).unwrap();
        assert!(matches!(cfg.ftl.gc, VictimConfig::Rga(Rga { d: got, .. }) if got == d));
        let geo = Geometry::new(&cfg.device).unwrap();
        cfg.ftl.gc.build(&BuildCtx {
            table: "ftl.gc",
            seed: 7,
            plane: Some(plane),
            geometry: &geo,
        })
    }

    /// Blocks 0, 1, 3 are reclaimable with 5, 2, 2 valid pages of 8; block 2 is free and
    /// block 4 full of valid pages (reclaims nothing).
    fn blocks() -> [BlockState; 5] {
        [full(5, 0), full(2, 0), BlockState::new_free(0), full(2, 0), full(8, 0)]
    }

    /// Shares of each block index over `n` selections.
    fn shares(policy: &mut dyn VictimPolicy, n: usize) -> [f64; 5] {
        let blocks = blocks();
        let last = |_| 0;
        let mut counts = [0usize; 5];
        for _ in 0..n {
            counts[policy.select(&view(&blocks, 0, &last)).unwrap()] += 1;
        }
        counts.map(|c| c as f64 / n as f64)
    }

    #[test]
    fn d_one_is_uniform_over_the_reclaimable_blocks() {
        // 1/3 each; the standard error of a share over 30,000 draws is 0.0027.
        let s = shares(&mut *built(1, 0), 30_000);
        for i in [0, 1, 3] {
            assert!((s[i] - 1.0 / 3.0).abs() < 0.015, "{s:?}");
        }
        assert_eq!((s[2], s[4]), (0.0, 0.0));
    }

    #[test]
    fn d_two_takes_the_fewest_valid_of_two_draws() {
        // Block 0 (5 valid) only when both draws are block 0: (1/3)^2 = 1/9. Block 3 when
        // the draws are from {0, 3} and not both 0: (2/3)^2 - 1/9 = 1/3 (a tie with block 1
        // goes to block 1). Block 1 otherwise: 5/9.
        let s = shares(&mut *built(2, 0), 30_000);
        assert!((s[0] - 1.0 / 9.0).abs() < 0.012, "{s:?}");
        assert!((s[3] - 1.0 / 3.0).abs() < 0.015, "{s:?}");
        assert!((s[1] - 5.0 / 9.0).abs() < 0.015, "{s:?}");
    }

    #[test]
    fn large_d_is_greedy_and_nothing_reclaimable_is_none() {
        // Missing both 2-valid blocks in 200 draws: (1/3)^200.
        let mut p = built(200, 0);
        let (blocks, last) = (blocks(), |_| 0);
        assert_eq!(p.select(&view(&blocks, 0, &last)), Some(1));
        assert_eq!(p.select(&view(&blocks[4..], 0, &last)), None);
    }

    #[test]
    fn each_plane_draws_its_own_seeded_stream() {
        let (blocks, last) = (blocks(), |_| 0);
        let run = |mut p: Box<dyn VictimPolicy>| -> Vec<Option<usize>> {
            (0..64).map(|_| p.select(&view(&blocks, 0, &last))).collect()
        };
        let (a, again, other) = (run(built(1, 0)), run(built(1, 0)), run(built(1, 1)));
        assert_eq!(a, again);
        // Equal by chance with probability (1/3)^64.
        assert_ne!(a, other);
    }

    #[test]
    fn d_zero_and_unknown_keys_name_the_key() {
        let e = SimConfig::from_toml_str("[ftl.gc]\nvictim = \"rga\"\nd = 0\n")
            .and_then(|c| c.ftl.gc.policy().validate("ftl.gc"))
            .unwrap_err();
        assert!(e.to_string().contains("ftl.gc.d"), "{e}");
        let e = SimConfig::from_toml_str("[ftl.gc]\nvictim = \"rga\"\nd = 2\nk = 1\n").unwrap_err();
        assert!(e.to_string().contains("ftl.gc") && e.to_string().contains("unknown field `k`"), "{e}");
    }
}
