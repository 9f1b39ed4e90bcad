//! Several I/O flows on one device (`[[workload.flows]]`): per-flow statistics with
//! hand-computed times, counts that add up to the totals, and bad flow keys named.
//!
//! Times on the default device: 4 KiB pages over a 200 MB/s bus (20,480 ns), LSB t_PROG
//! 121 µs; the channel and the die are separate resources.

use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

const XFER: u64 = 20_480;
const T_PROG_LSB: u64 = 121_000;

/// One channel, chip, die and plane: every page of every flow goes to the same die
/// (preconditioned by `[aging] fill_fraction`, default full, so tests set it).
const ONE_DIE: &str = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\n\
                       planes_per_die = 1\nblocks_per_plane = 64\npages_per_block = 64\n";

fn run(text: &str) -> Result<Value, String> {
    let cfg = SimConfig::from_toml_str(text).map_err(|e| e.to_string())?;
    let sim = Simulator::new(cfg).map_err(|e| e.to_string())?;
    sim.run(&mut |_| true)
        .map(|o| o.summary.to_json())
        .map_err(|e| e.to_string())
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

#[test]
fn two_flows_sharing_a_die_queue_on_it() {
    // Each flow writes one 4 KiB page at time 0 on an idle device. Equal arrival times go
    // to the lower flow first. Flow 0: bus 0 … 20,480, program (page 0, LSB) until
    // 141,480. Flow 1: bus 20,480 … 40,960 (the channel is free while the die programs),
    // then waits for the die: program (page 1, LSB) 141,480 … 262,480.
    let flow = "[[workload.flows]]\nrequests = 1\nread_fraction = 0.0\n";
    let s = run(&format!("{ONE_DIE}[aging]\nfill_fraction = 0.0\n{flow}{flow}")).unwrap();
    let flows = s["flows"].as_array().unwrap();
    assert_eq!(flows.len(), 2);
    let first = XFER + T_PROG_LSB;
    let second = first + T_PROG_LSB;
    for (id, want) in [(0, first), (1, second)] {
        let f = &flows[id];
        assert_eq!(u(&f["id"]), id as u64);
        assert_eq!(u(&f["write"]["count"]), 1);
        assert_eq!(u(&f["read"]["count"]), 0);
        assert_eq!(u(&f["write"]["max_ns"]), want, "flow {id}");
        assert_eq!(f["write"]["mean_ns"].as_f64().unwrap(), want as f64, "flow {id}");
    }
    // The device-wide table holds both.
    assert_eq!(u(&s["write"]["count"]), 2);
    assert_eq!(u(&s["write"]["max_ns"]), second);
}

#[test]
fn per_flow_counts_add_up_to_the_totals() {
    // Three flows: a read-heavy one, a write-only one at a slower rate stretched in time,
    // and one with trims; different sizes so requests span several pages.
    let text = format!(
        "{ONE_DIE}[aging]\nfill_fraction = 0.5\n\
         [[workload.flows]]\nrequests = 300\nread_fraction = 0.9\niops = 2000.0\n\
         [[workload.flows]]\nrequests = 200\nread_fraction = 0.0\niops = 500.0\ntime_scale = 2.0\nsize_bytes = 8192\n\
         [[workload.flows]]\nrequests = 100\nread_fraction = 0.5\ntrim_fraction = 0.2\niops = 1000.0\n"
    );
    let s = run(&text).unwrap();
    let flows = s["flows"].as_array().unwrap();
    let sum = |f: &dyn Fn(&Value) -> u64| flows.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|f| u(&f["requests"]["count"])), 600);
    assert_eq!(u(&s["requests"]["count"]), 600);
    for (per_flow, total) in [
        ("reads", &s["read"]["count"]),
        ("writes", &s["write"]["count"]),
        ("trims", &s["requests"]["trims"]),
    ] {
        assert_eq!(sum(&|f| u(&f["requests"][per_flow])), u(total), "{per_flow}");
    }
    assert_eq!(sum(&|f| u(&f["read"]["bytes"])), u(&s["read"]["bytes"]));
    assert_eq!(sum(&|f| u(&f["write"]["bytes"])), u(&s["write"]["bytes"]));
    // Each flow's own request count and ops: flow 1 writes only, 8 KiB each.
    let counts: Vec<u64> = flows.iter().map(|f| u(&f["requests"]["count"])).collect();
    assert_eq!(counts, vec![300, 200, 100]);
    assert_eq!(u(&flows[1]["requests"]["reads"]), 0);
    assert_eq!(u(&flows[1]["write"]["bytes"]), 200 * 8192);
    // Flow 1 read nothing: its read statistics are null, not 0.
    for key in ["mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns"] {
        assert!(flows[1]["read"][key].is_null(), "{key}");
    }
    // The device-wide maximum is the largest maximum of the flows that have one.
    for class in ["read", "write"] {
        let max = flows.iter().filter_map(|f| f[class]["max_ns"].as_u64()).max().unwrap();
        assert_eq!(max, u(&s[class]["max_ns"]), "{class}");
    }
}

#[test]
fn a_single_workload_has_no_flows_table() {
    let s = run(&format!("{ONE_DIE}[workload]\nrequests = 10\n")).unwrap();
    assert!(s.get("flows").is_none());
    assert!(s["config"]["workload"].get("flows").is_none());
}

#[test]
fn bad_flow_keys_are_named() {
    let ok = "[[workload.flows]]\nrequests = 1\n";
    for (text, key) in [
        (
            format!("{ok}[[workload.flows]]\niops = -1.0\n"),
            "workload.flows[1].iops",
        ),
        (
            format!("{ok}[[workload.flows]]\nkind = \"trace\"\n"),
            "workload.flows[1].path",
        ),
        (
            format!("{ok}[[workload.flows]]\ntime_scale = 0.0\n"),
            "workload.flows[1].time_scale",
        ),
        (format!("[workload]\nrequests = 5\n{ok}"), "workload.requests"),
        ("[workload]\ntime_scale = 2.0\n".to_string(), "workload.time_scale"),
        (
            "[[workload.flows]]\n[[workload.flows.flows]]\nrequests = 1\n".to_string(),
            "workload.flows[0].flows",
        ),
    ] {
        let e = run(&format!("{ONE_DIE}{text}")).unwrap_err();
        assert!(e.starts_with(&format!("config key `{key}`")), "{text}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
