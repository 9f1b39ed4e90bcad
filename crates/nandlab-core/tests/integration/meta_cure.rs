//! Meta-Cure (`[ftl.placement] policy = "meta_cure"`, seed 004's baseline [17]): a critical
//! host write programs a backup copy on the next plane; an overwrite or trim invalidates
//! both copies; GC keeps the backup map right; a read whose primary is uncorrectable reads
//! the backup once and is lost only when the backup fails too. Page map of every device
//! here (MLC, interleaved): L0 L1 M0 L2 M1 L3 M2 M3 — pages 0, 1, 3, 5 are LSB.

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::flash::{Geometry, Ppa};
use nandlab_core::ftl::placement::{MetaCure, PlacementConfig};
use nandlab_core::ftl::{Ftl, FtlConfig};
use nandlab_core::host::{Op, Request};
use serde_json::{json, Value};

use crate::common::{one_plane_device, tiny_device};

const CRIT: WriteAttrs = WriteAttrs(1 << 31);
const PLAIN: WriteAttrs = WriteAttrs(0);

fn meta_cure(geo: &Geometry, op: f64) -> nandlab_core::Result<Ftl> {
    let cfg = FtlConfig {
        overprovisioning: op,
        placement: PlacementConfig::MetaCure(MetaCure {}),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: 0.0,
        ..AgingConfig::default()
    };
    Ftl::new(geo, &cfg, &aging, 1)
}

fn primary(f: &Ftl, lpn: u64) -> Ppa {
    f.geometry().ppa_of(f.mapping.get(lpn).expect("mapped"))
}

fn plane(f: &Ftl, ppa: Ppa) -> u32 {
    f.geometry().split_block(ppa.block).0
}

/// (pages programmed, pages valid) over the device.
fn pages(f: &Ftl) -> (u32, u32) {
    f.blocks
        .iter()
        .fold((0, 0), |(w, v), b| (w + u32::from(b.written), v + u32::from(b.valid)))
}

#[test]
fn a_critical_write_programs_two_pages_on_neighbouring_planes() {
    let geo = tiny_device(); // 4 planes
    let mut f = meta_cure(&geo, 0.25).unwrap();
    let mut ops = Vec::new();
    f.write(5, 1, 0, PLAIN, 0, &mut ops).unwrap();
    assert_eq!(pages(&f), (1, 1));
    assert_eq!(f.backup_of(5), None);
    f.write(6, 2, 0, CRIT, 0, &mut ops).unwrap();
    assert_eq!(pages(&f), (3, 3));
    let (p, b) = (primary(&f, 6), f.backup_of(6).expect("a backup"));
    assert_eq!(plane(&f, b), (plane(&f, p) + 1) % 4);
    let m = f.page_meta(b).unwrap();
    assert_eq!((m.lpn, m.tag, m.attrs), (6, 2, CRIT.as_backup()));
    assert_eq!((f.stats().host_programs, f.stats().backup_programs), (2, 1));
    assert!(ops.is_empty());
    f.check_invariants().unwrap();
}

#[test]
fn overwrite_and_trim_invalidate_both_copies() {
    let geo = tiny_device();
    let mut f = meta_cure(&geo, 0.25).unwrap();
    let mut ops = Vec::new();
    f.write(6, 1, 0, CRIT, 0, &mut ops).unwrap();
    let old = (primary(&f, 6), f.backup_of(6).unwrap());
    f.write(6, 2, 0, CRIT, 1, &mut ops).unwrap();
    // Four pages programmed, the new pair valid, the old pair not.
    assert_eq!(pages(&f), (4, 2));
    assert!(!f.is_valid(old.0) && !f.is_valid(old.1));
    assert!(f.is_valid(f.backup_of(6).unwrap()));
    f.check_invariants().unwrap();
    // Overwritten as a plain page: its old backup goes.
    f.write(6, 3, 0, PLAIN, 2, &mut ops).unwrap();
    assert_eq!((pages(&f), f.backup_of(6)), ((5, 1), None));
    f.write(7, 4, 0, CRIT, 3, &mut ops).unwrap();
    f.trim(7);
    assert_eq!((pages(&f), f.backup_of(7)), ((7, 1), None));
    f.check_invariants().unwrap();
}

#[test]
fn gc_moves_backups_and_keeps_the_map() {
    // Overwrite 40 logical pages (every other one critical) 30 times on a 768-page device:
    // GC runs many times; each critical page keeps one valid backup, on another plane.
    let geo = tiny_device();
    let mut f = meta_cure(&geo, 0.25).unwrap();
    let mut ops = Vec::new();
    let mut tag = 0;
    for round in 0..30 {
        for lpn in 0..40u64 {
            tag += 1;
            let attrs = if lpn % 2 == 0 { CRIT } else { PLAIN };
            f.write(lpn * 7 % 200, tag, 0, attrs, round, &mut ops).unwrap();
        }
    }
    assert!(f.stats().gc_erases > 0, "GC ran");
    f.check_invariants().unwrap();
    for lpn in 0..40u64 {
        let l = lpn * 7 % 200;
        let backup = f.backup_of(l);
        assert_eq!(backup.is_some(), lpn % 2 == 0, "lpn {l}");
        if let Some(b) = backup {
            assert_eq!(f.page_meta(b).unwrap().tag, f.page_meta(primary(&f, l)).unwrap().tag);
        }
    }
    // Valid pages: 40 primaries and 20 backups.
    assert_eq!(pages(&f).1, 60);
}

#[test]
fn a_one_plane_device_is_a_config_error() {
    let err = meta_cure(&one_plane_device(), 0.25)
        .err()
        .expect("rejected")
        .to_string();
    assert!(
        err.contains("ftl.placement.policy") && err.contains("one plane"),
        "{err}"
    );
}

// --- The read path, on 1 channel x 1 die x 2 planes x 8 blocks x 8 pages of 4 KiB. ---

/// Read time of one page on an idle device: t_R 50 µs, 4 KiB at 200 MB/s = 20.48 µs, no
/// decode or command time.
const READ_NS: u64 = 50_000 + 20_480;

fn sim(policy: &str, nominal_rber: f64, scale: [f64; 2]) -> (Vec<u64>, Value) {
    let text = format!(
        r#"
[device]
channels = 1
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = 8
pages_per_block = 8
page_size_bytes = 4096
[timing]
read_latency_ns = [50_000]
bus_rate_mb_s = 200.0
command_latency_ns = 0
decode_latency_ns = 0
[ftl]
overprovisioning = 0.25
[ftl.placement]
policy = "{policy}"
[host.critical]
lpn_ranges = [[0, 3]]
[aging]
fill_fraction = 0.0
[reliability]
model = "nominal"
nominal_rber = {nominal_rber}
page_type_scale = [{}, {}]
error_draw = "expected"
[ecc]
scheme = "bch"
codeword_data_bytes = 1024
codeword_parity_bytes = 56
t = 4
"#,
        scale[0], scale[1]
    );
    let req = |ms: u64, lpn: u64, op: Op| Request::new(ms * 1_000_000, lpn * 4096, 4096, op, 0);
    // Writes alternate planes 0, 1, 0, 1: plain pages 10 (plane 0 page 0), 11 (plane 1 page
    // 0), 12 (plane 0 page 1); critical page 0 on plane 1 page 1 (LSB), its backup on plane
    // 0 page 2 (MSB). Then one read of page 0 on an idle device.
    let reqs = vec![
        req(0, 10, Op::Write),
        req(10, 11, Op::Write),
        req(20, 12, Op::Write),
        req(30, 0, Op::Write),
        req(50, 0, Op::Read),
    ];
    crate::common::replay(&text, reqs)
}

#[test]
fn a_failed_primary_reads_the_backup_once_and_the_read_is_correctable() {
    // LSB pages at RBER 0.01 (86 expected errors per 8640-bit codeword, t = 4) fail; MSB
    // pages at 0 decode.
    let (lat, s) = sim("meta_cure", 0.01, [1.0, 0.0]);
    let c = &s["critical"];
    assert_eq!(s["flash"]["page_programs"], json!(5));
    assert_eq!(c["backup_programs"], json!(1));
    assert_eq!(c["reads_by_page_type"], json!([1, 0]));
    assert_eq!(c["backed_up_reads_by_page_types"], json!([[0, 1], [0, 0]]));
    assert_eq!(c["backup_reads"], json!(1));
    assert_eq!(c["backup_uncorrectable_reads"], json!(0));
    assert_eq!(c["uncorrectable_reads"], json!(0));
    // The backup is sensed and moved after the primary's read ends.
    assert_eq!(lat[4], 2 * READ_NS);
}

#[test]
fn a_correctable_primary_never_reads_the_backup() {
    let (lat, s) = sim("meta_cure", 1e-9, [1.0, 1.0]);
    assert_eq!(s["critical"]["backup_reads"], json!(0));
    assert_eq!(s["critical"]["uncorrectable_reads"], json!(0));
    assert_eq!(lat[4], READ_NS);
}

#[test]
fn a_read_is_lost_only_when_both_copies_fail() {
    let (lat, s) = sim("meta_cure", 0.01, [1.0, 1.0]);
    let c = &s["critical"];
    assert_eq!(c["backup_reads"], json!(1));
    assert_eq!(c["backup_uncorrectable_reads"], json!(1));
    assert_eq!(c["uncorrectable_reads"], json!(1));
    assert_eq!(lat[4], 2 * READ_NS);
    // Without Meta-Cure the same read is lost at once, and nothing was copied.
    let (lat, s) = sim("by_cause", 0.01, [1.0, 0.0]);
    assert_eq!(s["flash"]["page_programs"], json!(4));
    assert_eq!(s["critical"]["uncorrectable_reads"], json!(1));
    assert!(s["critical"].get("backup_reads").is_none());
    assert_eq!(lat[4], READ_NS);
}

/// A preconditioned device (4 planes, the first half of the 576 logical pages filled) whose
/// lpns 0-7 are critical starts with a backup of each on the plane after its primary's:
/// two per plane, on pages 0 and 1 of a fresh block, content tag 0 like the fill, the
/// primaries flagged critical in place; the run's backup count stays 0.
#[test]
fn preconditioned_critical_pages_start_with_their_backups() {
    let geo = tiny_device();
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        placement: PlacementConfig::MetaCure(MetaCure {}),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: 0.5,
        ..AgingConfig::default()
    };
    let mut f = Ftl::new(&geo, &cfg, &aging, 1).unwrap();
    let home: Vec<Ppa> = (0..8).map(|l| primary(&f, l)).collect();
    f.classify_fill(&nandlab_core::host::CriticalConfig {
        lpn_ranges: vec![[0, 7]],
        ..Default::default()
    })
    .unwrap();
    let mut per_plane = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for l in 0..8u64 {
        let p = primary(&f, l);
        assert_eq!(p, home[l as usize], "the primary stays at home");
        assert!(f.page_meta(p).unwrap().attrs.critical());
        let b = f.backup_of(l).expect("a backup");
        assert_eq!(plane(&f, b), (plane(&f, p) + 1) % 4);
        let m = f.page_meta(b).unwrap();
        assert_eq!((m.lpn, m.tag, m.attrs), (l, 0, CRIT.as_backup()));
        per_plane[plane(&f, b) as usize].push(b.page);
    }
    assert!(per_plane.iter().all(|pages| pages == &[0, 1]), "{per_plane:?}");
    assert!(f.backup_of(8).is_none());
    assert_eq!(f.stats().backup_programs, 0);
    f.check_invariants().unwrap();
}
