//! NVMe over PCIe (MQSim's link model at its defaults: 4 lanes x 1 GB/s, 128-byte TLP
//! payloads with 28 bytes of overhead), hand-computed on the default idle device (4 KiB
//! pages over a 200 MB/s bus: 20,480 ns; t_R 41 µs LSB; t_PROG 121 µs LSB; BCH decode 8 µs).

use nandlab_core::host::{Op, Request};

use crate::common;

const NVME: &str = "[host.interface]\nprotocol = \"nvme\"\n";
/// Doorbell (4 + 28 B) 8 ns + submission entry (64 + 28 B) 23 ns.
const SUBMIT: u64 = 8 + 23;
/// Completion entry (16 + 28 B): 11 ns.
const COMPLETE: u64 = 11;

fn latency(cfg_text: &str, r: Request) -> u64 {
    common::replay(cfg_text, vec![r]).0[0]
}

fn req(op: Op, size_bytes: u64) -> Request {
    Request::new(0, 0, size_bytes, op, 0)
}

#[test]
fn a_64_kib_read_returns_its_data_over_the_link() {
    let filled = "[aging]\nfill_fraction = 1.0\n[ecc]\nscheme = \"bch\"\n";
    let flash = latency(filled, req(Op::Read, 65_536));
    // Data: 512 TLPs x (128 + 28) B = 79,872 B over 4 lanes at 1 GB/s = 19,968 ns.
    let with_link = latency(&format!("{filled}{NVME}"), req(Op::Read, 65_536));
    assert_eq!(with_link, SUBMIT + flash + 19_968 + COMPLETE);
}

#[test]
fn a_4_kib_write_crosses_the_link_before_its_program() {
    // Data: 32 TLPs x 156 B / 4 lanes = 1,248 ns; then the bus and an LSB program.
    assert_eq!(
        latency(NVME, req(Op::Write, 4096)),
        SUBMIT + 1_248 + 20_480 + 121_000 + COMPLETE
    );
}

/// SATA as MQSim models it: the NVMe messages over the same link, plus its host bus
/// adapter's 400 µs (`SATA_Processing_Delay` of MQSim's ssdconfig.xml) for the command
/// and for the completion.
const SATA: &str = "[host.interface]\nprotocol = \"sata\"\n";
const HBA: u64 = 400_000;

#[test]
fn a_64_kib_read_over_sata() {
    let filled = "[aging]\nfill_fraction = 1.0\n[ecc]\nscheme = \"bch\"\n";
    let flash = latency(filled, req(Op::Read, 65_536));
    let with_link = latency(&format!("{filled}{SATA}"), req(Op::Read, 65_536));
    assert_eq!(with_link, HBA + SUBMIT + flash + 19_968 + COMPLETE + HBA);
}

#[test]
fn a_4_kib_write_over_sata() {
    assert_eq!(
        latency(SATA, req(Op::Write, 4096)),
        HBA + SUBMIT + 1_248 + 20_480 + 121_000 + COMPLETE + HBA
    );
}
