//! The host queue's read-only view of placement: `Ftl::next_host_write` says where the next
//! host page goes (plane, page type, whether placement takes it), and the `feedback`
//! scheduler (seed 004's request feedback, Algorithm 1, Fig. 7) uses it to hold a critical
//! write back and send the next non-critical write into the page it would not take.

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::flash::Geometry;
use nandlab_core::flash::Ppa;
use nandlab_core::ftl::placement::{InterleaveGroup, MsbCritical, PlacementConfig};
use nandlab_core::ftl::{Ftl, FtlConfig};
use nandlab_core::host::scheduler::{self, DeviceView, Queued};
use nandlab_core::host::{CriticalConfig, Op, Request};
use nandlab_core::metrics::summary::SchedulerSummary;
use proptest::prelude::*;

use crate::common::{one_plane_device, tiny_device, two_channels};
use std::collections::VecDeque;

/// The tiny device (MLC, interleaved page map
/// L0 L1 M0 L2 M1 L3 M2 M3: pages 0, 1, 3, 5 are LSB).
fn ftl(fill: f64) -> Ftl {
    ftl_on(tiny_device(), PlacementConfig::default(), fill)
}

fn ftl_on(geo: Geometry, placement: PlacementConfig, fill: f64) -> Ftl {
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        placement,
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: fill,
        ..AgingConfig::default()
    };
    Ftl::new(&geo, &cfg, &aging, 1).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The view is exact: every write lands in the plane, on a page of the type, it said;
    /// the one exception is a plane whose GC runs for this write and still leaves it no
    /// room (pages to reclaim, but not a block's worth), which the write then skips. The
    /// saved cases in `tests/proptest-regressions/host_view.txt` are the two failures
    /// fixed in `next_host_write`: it named a plane GC could do nothing for (at write 1,184
    /// of the first), and it did not count the page the write unmaps (write 1,251).
    #[test]
    fn next_write_predicts_where_each_write_lands(lpns in prop::collection::vec(0..576u64, 1..1500)) {
        let mut f = ftl(0.9);
        let mut ops = Vec::new();
        let geo = f.geometry().clone();
        // P/E cycles of a plane's blocks: they grow when GC erases one there.
        let wear = |f: &Ftl, plane: u32| -> u64 {
            f.blocks[plane as usize * 24..][..24].iter().map(|b| u64::from(b.pe)).sum()
        };
        for (i, &l) in lpns.iter().enumerate() {
            let next = f.next_host_write(l, WriteAttrs::default());
            let worn = wear(&f, next.plane);
            let ppa = f.write(l, 1, 0, WriteAttrs::default(), i as i64, &mut ops).unwrap();
            if geo.split_block(ppa.block).0 != next.plane {
                let why = format!("write {i} left plane {} without running GC there", next.plane);
                prop_assert!(wear(&f, next.plane) > worn, "{}", why);
                continue;
            }
            prop_assert_eq!(geo.page_map.page_type(ppa.page), next.page_type);
        }
    }

    /// With host pages laid out by address (`interleave_group`), the view names the
    /// page's own plane, not the striping cursor's.
    #[test]
    fn next_write_follows_the_by_address_layout(lpns in prop::collection::vec(0..1000u64, 1..1500)) {
        let mut f = ftl_on(two_channels(4, 2), PlacementConfig::InterleaveGroup(InterleaveGroup { ways: 2 }), 0.9);
        let mut ops = Vec::new();
        let geo = f.geometry().clone();
        for (i, &l) in lpns.iter().enumerate() {
            let next = f.next_host_write(l, WriteAttrs::default());
            let ppa = f.write(l, 1, 0, WriteAttrs::default(), i as i64, &mut ops).unwrap();
            prop_assert_eq!(geo.split_block(ppa.block).0, next.plane);
            prop_assert_eq!(geo.page_map.page_type(ppa.page), next.page_type);
        }
    }
}

/// A plane that GC can do nothing for (no room in its host block, its free pool at the GC
/// threshold, every page valid) is skipped by the write, and the view says so: the
/// prediction names the plane the write lands in, not the striping cursor's. Overwriting
/// only pages that live outside plane 0 fills plane 0 with valid data alone, so it ends up
/// full and the later writes stripe over planes 1-3 only. (Found as an intermittent
/// failure of the property test above, whose saved cases replay it and a second one.)
#[test]
fn next_write_skips_a_plane_gc_can_do_nothing_for() {
    let mut f = ftl(1.0);
    let geo = f.geometry().clone();
    let plane_of = |f: &Ftl, lpn: u64| geo.plane_of_block(geo.ppa_of(f.mapping.get(lpn).unwrap()).block);
    let outside: Vec<u64> = (0..f.logical_pages()).filter(|&l| plane_of(&f, l) != 0).collect();
    let mut landed = Vec::new();
    for &l in &outside {
        write_as_predicted(&mut f, l, &mut landed);
    }
    // Plane 0 is full: two free blocks (the GC threshold) and not one invalid page.
    let blocks = &f.blocks[..24];
    assert_eq!(blocks.iter().filter(|b| b.written == 0).count(), 2);
    assert!(blocks.iter().all(|b| b.valid == b.written));
    // It took its share of the first stripes, then nothing.
    assert!(landed[..8].contains(&0));
    assert!(!landed[landed.len() - 100..].contains(&0));
    f.check_invariants().unwrap();
}

/// Writes host page `lpn`, checks it lands in the plane, on a page of the type, the view
/// said, and appends the plane to `landed`.
fn write_as_predicted(f: &mut Ftl, lpn: u64, landed: &mut Vec<u32>) {
    let next = f.next_host_write(lpn, WriteAttrs::default());
    let ppa = f.write(lpn, 1, 0, WriteAttrs::default(), 0, &mut Vec::new()).unwrap();
    let geo = f.geometry();
    let at = (geo.split_block(ppa.block).0, geo.page_map.page_type(ppa.page));
    assert_eq!(at, (next.plane, next.page_type), "write {}", landed.len());
    landed.push(at.0);
}

/// One plane of 6 blocks (pages L0 L1 M0 L2 M1 L3 M2 M3) with MSB allocation; writes of
/// 8 KiB pages, logical pages 0-9 critical.
fn one_plane() -> (Ftl, CriticalConfig) {
    let geo = one_plane_device();
    let cfg = FtlConfig {
        overprovisioning: 0.5,
        placement: PlacementConfig::MsbCritical(MsbCritical {}),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: 0.0,
        ..AgingConfig::default()
    };
    let critical = CriticalConfig {
        lpn_ranges: vec![[0, 9]],
        ..Default::default()
    };
    (Ftl::new(&geo, &cfg, &aging, 1).unwrap(), critical)
}

/// Drains `queue` through the `feedback` scheduler into `f` (one request at a time, as a
/// device of queue depth 1 takes them); returns (logical page, physical page) in service
/// order and the scheduler's summary.
fn serve(f: &mut Ftl, critical: &CriticalConfig, lpns: &[u64]) -> (Vec<(u64, u32)>, SchedulerSummary) {
    let mut sched = scheduler::by_name("feedback").unwrap();
    let mut queue: VecDeque<Queued> = lpns
        .iter()
        .enumerate()
        .map(|(id, &l)| Queued {
            id: id as u64,
            req: Request::new(0, l * 8192, 8192, Op::Write, 0),
        })
        .collect();
    let mut ops = Vec::new();
    let mut served = Vec::new();
    while !queue.is_empty() {
        let i = sched.pick(&queue, 0, &DeviceView::new(f, critical));
        let q = queue.remove(i).unwrap();
        let lpn = q.req.offset_bytes / 8192;
        let attrs = WriteAttrs::new(0, critical.contains(lpn));
        let ppa = f.write(lpn, 1, 0, attrs, 0, &mut ops).unwrap();
        served.push((lpn, ppa.page));
    }
    (served, sched.summary().unwrap())
}

/// Fig. 7: W0 critical, W1-W4 not. W0 is held off LSB page 0 (W1 takes it) and LSB page 1
/// (W2 takes it), then takes MSB page 2; W3 and W4 follow on pages 3 and 4. Two feedback
/// operations, no page skipped.
#[test]
fn feedback_puts_the_critical_write_on_msb_and_fills_lsb_pages_with_the_next_writes() {
    let (mut f, critical) = one_plane();
    let (served, summary) = serve(&mut f, &critical, &[0, 21, 22, 23, 24]);
    assert_eq!(served, vec![(21, 0), (22, 1), (0, 2), (23, 3), (24, 4)]);
    assert_eq!(summary.feedbacks, 2);
    assert_eq!(summary.critical_writes_unfed, 0);
    assert_eq!(f.stats.skipped_pages, 0);
    f.check_invariants().unwrap();
}

/// Only critical writes waiting: the first goes at once and placement skips LSB pages 0 and
/// 1 (exactly the pages before MSB page 2); the second finds LSB page 3 next, held by
/// nothing, skips it to MSB page 4. A read at the head is served first, as it came.
#[test]
fn with_no_plain_write_waiting_the_critical_write_skips_exactly_the_pages_between() {
    let (mut f, critical) = one_plane();
    let (served, summary) = serve(&mut f, &critical, &[0, 1]);
    assert_eq!(served, vec![(0, 2), (1, 4)]);
    assert_eq!(summary.feedbacks, 0);
    assert_eq!(summary.critical_writes_unfed, 2);
    assert_eq!(f.stats.skipped_pages, 3);
    let block = f.geometry().ppa_of(f.mapping.get(0).unwrap()).block;
    for page in [0, 1, 3] {
        assert!(!f.is_valid(Ppa { block, page }));
    }
    f.check_invariants().unwrap();
    let mut sched = scheduler::by_name("feedback").unwrap();
    let queue: VecDeque<Queued> = [
        Queued {
            id: 0,
            req: Request::new(0, 0, 8192, Op::Read, 0),
        },
        Queued {
            id: 1,
            req: Request::new(0, 5 * 8192, 8192, Op::Write, 0),
        },
    ]
    .into();
    assert_eq!(sched.pick(&queue, 0, &DeviceView::new(&f, &critical)), 0);
}

/// `read_first` takes the oldest waiting read, else the oldest request; `fifo` always the
/// oldest. Only `read_first` says it reorders (so a replay that never queues rejects it).
#[test]
fn read_first_takes_reads_first_in_arrival_order_and_fifo_the_oldest() {
    let (f, critical) = one_plane();
    let view = DeviceView::new(&f, &critical);
    let op = |i: u64| if i.is_multiple_of(2) { Op::Write } else { Op::Read };
    // Waiting: W0 R1 W2 R3.
    let mut queue: VecDeque<Queued> = (0..4)
        .map(|id| Queued {
            id,
            req: Request::new(0, (20 + id) * 8192, 8192, op(id), 0),
        })
        .collect();
    let mut fifo = scheduler::by_name("fifo").unwrap();
    let mut read_first = scheduler::by_name("read_first").unwrap();
    assert!(!fifo.reorders() && read_first.reorders());
    let mut order = Vec::new();
    while !queue.is_empty() {
        assert_eq!(fifo.pick(&queue, 0, &view), 0);
        let i = read_first.pick(&queue, 0, &view);
        order.push(queue.remove(i).unwrap().id);
    }
    assert_eq!(order, vec![1, 3, 0, 2]);
    assert!(fifo.summary().is_none() && read_first.summary().is_none());
}
