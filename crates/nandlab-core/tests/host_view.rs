//! The host queue's read-only view of placement: `Ftl::next_host_write` says where the next
//! host page goes (plane, page type, whether placement takes it), and a scheduler can use it to hold a write back and
//! send another first (seed 004's request feedback; the paper's policy comes later).

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::ftl::{Ftl, FtlConfig};
use nandlab_core::host::scheduler::{DeviceView, HostScheduler, Queued};
use nandlab_core::host::{Op, Request};
use proptest::prelude::*;

mod common;
use common::tiny_device;
use std::collections::VecDeque;

/// The tiny device (MLC, interleaved page map
/// L0 L1 M0 L2 M1 L3 M2 M3: pages 0, 1, 3, 5 are LSB).
fn ftl(fill: f64) -> Ftl {
    let geo = tiny_device();
    let cfg = FtlConfig {
        overprovisioning: 0.25,
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

    /// The view is exact: every write lands in the plane, on a page of the type, it said.
    #[test]
    fn next_write_predicts_where_each_write_lands(lpns in prop::collection::vec(0..576u64, 1..1500)) {
        let mut f = ftl(0.9);
        let mut ops = Vec::new();
        let geo = f.geometry().clone();
        for (i, &l) in lpns.iter().enumerate() {
            let next = f.next_host_write(WriteAttrs::default());
            let ppa = f.write(l, 1, 0, WriteAttrs::default(), i as i64, &mut ops).unwrap();
            prop_assert_eq!(geo.split_block(ppa.block).0, next.plane);
            prop_assert_eq!(geo.page_map.page_type(ppa.page), next.page_type);
        }
    }
}

/// A hand-written feedback rule for the test: hold a critical write while the next free
/// page is an LSB page, and send the first non-critical write instead.
struct HoldCriticalOffLsb {
    critical_below: u64,
}

impl HostScheduler for HoldCriticalOffLsb {
    fn pick(&mut self, waiting: &VecDeque<Queued>, _now_ns: u64, device: &DeviceView<'_>) -> usize {
        let critical = |q: &Queued| q.req.offset_bytes / 4096 < self.critical_below;
        if device.next_write(WriteAttrs::default()).page_type == 0 && critical(&waiting[0]) {
            return waiting.iter().position(|q| !critical(q)).unwrap_or(0);
        }
        0
    }
}

#[test]
fn a_critical_write_is_held_off_an_lsb_page_and_the_next_write_takes_it() {
    let mut f = ftl(0.5);
    let mut ops = Vec::new();
    let write = |id: u64, lpn: u64| Queued {
        id,
        req: Request::new(0, lpn * 4096, 4096, Op::Write, 0),
    };
    // Queue: a critical write (lpn 3 < 10) first, then a non-critical one (lpn 500).
    let mut queue: VecDeque<Queued> = [write(0, 3), write(1, 500)].into();
    let mut sched = HoldCriticalOffLsb { critical_below: 10 };
    let next = f.next_host_write(WriteAttrs::default());
    // A fresh active block: the next page is page 0, an LSB page.
    assert_eq!(next.page_type, 0);
    let i = sched.pick(&queue, 0, &DeviceView::new(&f));
    assert_eq!(i, 1, "the critical write is held");
    let q = queue.remove(i).unwrap();
    let ppa = f
        .write(q.req.offset_bytes / 4096, 1, 0, WriteAttrs::default(), 0, &mut ops)
        .unwrap();
    // The non-critical write took that LSB page.
    assert_eq!((ppa.page, f.geometry().page_map.page_type(ppa.page)), (0, 0));
    assert_eq!(f.geometry().split_block(ppa.block).0, next.plane);
}
