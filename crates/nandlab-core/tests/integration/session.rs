//! A run in steps (`Session`, sim/session.rs; `nandlab endurance` carries the drive's
//! data layout between epochs with it): pausing and resuming changes nothing, and the wear
//! fast-forward adds exactly what it is given, retires the free blocks it wears out and
//! fails the drive when a plane runs short — all checked by hand.

use nandlab_core::{Session, SimConfig, Simulator};
use serde_json::Value;

/// 2 planes x `blocks` blocks x 16 pages of 4 KiB, 25 % over-provisioning, retirement at
/// 10 P/E.
fn small(blocks: u32) -> String {
    format!(
        r#"
seed = 11
[device]
channels = 1
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = {blocks}
pages_per_block = 16
page_size_bytes = 4096
[ftl]
overprovisioning = 0.25
retire_pe_limit = 10
"#
    )
}

fn without_wall(mut s: Value) -> Value {
    let sim = s["sim"].as_object_mut().unwrap();
    sim.remove("wall_s");
    sim.remove("requests_per_s");
    s
}

fn whole(cfg: &SimConfig) -> Value {
    let out = Simulator::new(cfg.clone()).unwrap().run(&mut |_| true).unwrap();
    without_wall(out.summary.to_json())
}

fn in_steps(cfg: &SimConfig, steps: &[u64]) -> Value {
    let mut s = Session::new(Simulator::new(cfg.clone()).unwrap()).unwrap();
    let mut taken = 0;
    for &n in steps {
        assert!(
            s.advance(n, &mut |_| true).unwrap(),
            "the workload has more after {taken} + {n}: {}",
            s.requests()
        );
        // Exactly `n` more, but a closed loop takes its first outstanding requests at once.
        taken = (taken + n).max(s.requests());
        assert_eq!(s.requests(), taken);
        // Reading the summary between steps changes nothing either.
        s.summary().unwrap();
    }
    without_wall(s.finish(&mut |_| true).unwrap().summary.to_json())
}

#[test]
fn a_run_paused_and_resumed_is_the_uninterrupted_run() {
    // Random writes and reads over a full drive with the vth model, LDPC and stochastic
    // error draws: GC, the error model's random draws and the latencies all depend on the
    // exact order of events, so any difference the pauses made would show.
    let base = format!(
        "{}[workload]\nkind = \"synthetic\"\nrequests = 6000\nread_fraction = 0.4\niops = 20000.0\n\
         [reliability]\nmodel = \"vth\"\nerror_draw = \"stochastic\"\n[ecc]\nscheme = \"ldpc\"\nmode = \"curve\"\n",
        small(128)
    );
    for (extra, what) in [
        ("", "open loop"),
        ("[host]\nreplay = \"closed\"\nqueue_depth = 4\n", "closed loop"),
        ("[host]\nqueue_depth = 2\n", "bounded device queue"),
    ] {
        let cfg = SimConfig::from_toml_str(&format!("{base}{extra}")).unwrap();
        let one = whole(&cfg);
        assert!(one["flash"]["gc_erases"].as_u64().unwrap() > 0, "{what}: GC ran");
        assert_eq!(one["requests"]["count"], 6000);
        assert_eq!(one, in_steps(&cfg, &[1, 999, 2500]), "{what}");
        assert_eq!(one, in_steps(&cfg, &[3000, 2990]), "{what}");
    }
}

fn retirement(s: &Session) -> Value {
    s.summary().unwrap().to_json()["flash"]["retirement"].clone()
}

#[test]
fn wear_fast_forward_adds_exactly_its_list_and_retires_free_worn_blocks() {
    // 32 blocks per plane: 768 logical pages, 384 (24 blocks) per plane; GC's threshold 2
    // (+2): a plane needs 28 blocks in service. Half full: blocks 0-11 of each plane hold
    // data, 12-31 are free.
    let cfg = SimConfig::from_toml_str(&format!("{}[aging]\nfill_fraction = 0.5\n", small(32))).unwrap();
    let mut s = Session::new(Simulator::new(cfg).unwrap()).unwrap();
    // A wrong length is refused by name and changes nothing.
    let e = s.add_wear(&[1; 63]).unwrap_err().to_string();
    assert!(e.contains("63 blocks") && e.contains("64"), "{e}");
    let e = s.add_wear(&[20_000_000; 64]).unwrap_err().to_string();
    assert!(e.contains("block 0") && e.contains("bound"), "{e}");
    assert_eq!(retirement(&s)["pe_by_block"], Value::from(vec![0u32; 64]));
    // +3 everywhere, +10 on the last 4 free blocks of each plane and on data block 0.
    let worn = |b: usize| b % 32 >= 28 || b.is_multiple_of(32);
    let delta: Vec<u32> = (0..64).map(|b| if worn(b) { 10 } else { 3 }).collect();
    s.add_wear(&delta).unwrap();
    let r = retirement(&s);
    assert_eq!(r["pe_by_block"], Value::from(delta.clone()));
    // The 8 free ones retire now; block 0 holds data and retires at its next erase.
    assert_eq!(r["retired_blocks"], 8);
    // 28 in service - 24 of data - GC's 4 = 0 spare.
    assert_eq!(r["spare_blocks_min"], 0);
    // Retired blocks gain no more wear.
    s.add_wear(&[1; 64]).unwrap();
    let pe: Vec<u64> = retirement(&s)["pe_by_block"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    for (b, &p) in pe.iter().enumerate() {
        let want = if b % 32 >= 28 { 10 } else { u64::from(delta[b]) + 1 };
        assert_eq!(p, want, "block {b}");
    }
    // One more free block of plane 1 worn out: 27 in service, -1 spare.
    let mut one = vec![0u32; 64];
    one[32 + 27] = 10;
    let e = s.add_wear(&one).unwrap_err().to_string();
    assert!(
        e.starts_with("the drive failed: plane 1 has 27 blocks in service"),
        "{e}"
    );
    let e = s.advance(10, &mut |_| true).unwrap_err().to_string();
    assert!(e.contains("the session stopped at an error"), "{e}");
}
