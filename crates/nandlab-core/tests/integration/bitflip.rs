//! BitFlip (seed 000 §II-C, §III, Fig. 9, §III-D) as a codec and in the simulator.
//! Every expected value is worked out by hand from the paper or the models' definitions.

use nandlab_core::codec::{storage_overhead, BitFlip, Codec, CodecConfig, CodecKind, TagBits};
use nandlab_core::content::{cells_of_byte, CellMapping, StateCounter, StateHist};
use nandlab_core::host::{Op, Request};
use nandlab_core::reliability::{ErrorContext, ErrorModel, NominalModel, BITFLIP_MLC_WEIGHTS};
use nandlab_core::{SimConfig, Simulator};
use proptest::prelude::*;
use serde_json::Value;

const PAGE: usize = 4096;

fn codec(unit: usize, page: usize) -> BitFlip {
    BitFlip::new(unit, page, CellMapping::Adjacent).unwrap()
}

/// §II-C: "01 00 00 01" (the byte 'A' = 0x41 under MSB-first adjacent pairs; the paper
/// calls it 'a') is four error-prone cells; flipping gives "10 11 11 10" (0xBE).
#[test]
fn paper_character_is_flipped() {
    let b = codec(1, 1);
    let mut data = [0x41u8];
    assert_eq!(b.unit_counts(&data), [2, 2, 0, 0]);
    let tags = b.encode_in_place(&mut data);
    assert_eq!(tags.to_string(), "1");
    assert_eq!(data, [0xBE]);
    assert_eq!(
        cells_of_byte(data[0], 2, CellMapping::Adjacent),
        vec![0b10, 0b11, 0b11, 0b10]
    );
    b.decode_in_place(&mut data, &tags);
    assert_eq!(data, [0x41]);
    // 'a' itself (0x61 = 01 10 00 01): 3 of 4 cells error-prone, flipped to 10 01 11 10.
    let mut a = [b'a'];
    assert_eq!(b.encode_in_place(&mut a).to_string(), "1");
    assert_eq!(a, [0x9E]);
    // A tie (0xF1 = 11 11 00 01: two error-prone of four) is not an error-prone unit.
    let mut t = [0xF1u8];
    assert_eq!(b.encode_in_place(&mut t).to_string(), "0");
    assert_eq!(t, [0xF1]);
}

/// Fig. 9: a 4 KB chunk in eight 512 B units with tags "10101010" — "the 1st, the 3rd,
/// the 5th, and the 7th units" (1-based, i.e. units 0, 2, 4, 6 counted from 0) are
/// error-prone and flipped; the others are stored as they are.
#[test]
fn figure_9_tags_flip_units_1_3_5_7() {
    let b = codec(512, PAGE);
    assert_eq!(b.units_per_page(), 8);
    let mut data = figure_9_page();
    let original = data.clone();
    let tags = b.encode_in_place(&mut data);
    assert_eq!(tags.to_string(), "10101010");
    assert_eq!(tags, "10101010".parse::<TagBits>().unwrap());
    assert_eq!(tags.ones().collect::<Vec<_>>(), vec![0, 2, 4, 6]);
    // Compact OOB form: bit i = unit i (counted from 0).
    assert_eq!(tags.to_oob(), Some(0b0101_0101));
    for (i, (enc, orig)) in data.chunks(512).zip(original.chunks(512)).enumerate() {
        if i % 2 == 0 {
            assert!(enc.iter().all(|&x| x == 0xBE), "unit {} flipped", i + 1);
        } else {
            assert_eq!(enc, orig, "unit {} unchanged", i + 1);
        }
    }
    // Algorithm 2 with the tags read back from the OOB word.
    let oob = TagBits::from_oob(tags.to_oob().unwrap(), b.units_per_page()).unwrap();
    b.decode_in_place(&mut data, &oob);
    assert_eq!(data, original);
    // The encoded histogram: units 1,3,5,7 become 1024 × ('10','11','11','10') cells each
    // (2 × 512 of '10' and of '11'); units 2,6 are 1024 '10' + 1024 '11'; units 4,8 hold
    // 256 'A' (512 '00' + 512 '01') + 256 0xFF (1024 '11').
    let (counts, t2) = b.encoded_counts(&original);
    assert_eq!(t2, tags);
    assert_eq!(counts, [1024, 1024, 6 * 1024, 8 * 1024]);
    assert_eq!(counts.iter().sum::<u64>(), 4 * PAGE as u64);
    let (h, _) = b.encoded_hist(&original);
    assert_eq!(h, StateHist::from_counts(&counts));
    assert_eq!(
        h,
        StateCounter::new(2, CellMapping::Adjacent).hist(&{
            let mut d = original.clone();
            b.encode_in_place(&mut d);
            d
        })
    );
}

/// §III-D: overhead 1/(8·x): 512 B → 1/4096 = 0.0244 % ("about 0.02 %"), 4 KB →
/// 1/32768 = 0.00305 % ("merely 0.003 %").
#[test]
fn storage_overhead_matches_section_3d() {
    assert_eq!(storage_overhead(512), 1.0 / 4096.0);
    assert_eq!(codec(512, PAGE).storage_overhead(), 1.0 / 4096.0);
    assert_eq!(format!("{:.4}", 100.0 * storage_overhead(512)), "0.0244");
    assert_eq!(format!("{:.2}", 100.0 * storage_overhead(512)), "0.02");
    assert_eq!(storage_overhead(4096), 1.0 / 32768.0);
    assert_eq!(format!("{:.5}", 100.0 * storage_overhead(4096)), "0.00305");
    assert_eq!(format!("{:.3}", 100.0 * storage_overhead(4096)), "0.003");
    // "Eight tag bits for each 4-KB data chunk" at 512 B units.
    assert_eq!(codec(512, PAGE).units_per_page(), 8);
}

#[test]
fn unit_size_must_divide_the_page() {
    // 64 B units: 64 tags, one more than the OOB word holds beside its "encoded" bit.
    for bad in [0, 3000, 1000, 64] {
        let e = BitFlip::new(bad, PAGE, CellMapping::Adjacent).unwrap_err().to_string();
        assert!(e.contains("codec.unit_bytes"), "{e}");
    }
    assert_eq!(
        BitFlip::new(128, PAGE, CellMapping::Adjacent).unwrap().units_per_page(),
        32
    );
    let e = SimConfig::from_toml_str("[codec]\nkind = \"bitflip\"\nunit_bytes = 3000\n")
        .and_then(Simulator::new)
        .err()
        .unwrap()
        .to_string();
    assert!(e.starts_with("config key `codec.unit_bytes`"), "{e}");
    let e = SimConfig::from_toml_str("[codec]\nunits = 8\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("config key `codec.units`"), "{e}");
    // BitFlip's error-prone states are MLC states: a TLC device is refused.
    let bf = CodecConfig {
        kind: CodecKind::Bitflip,
        ..CodecConfig::default()
    };
    let e = bf.validate(4096, 3).unwrap_err().to_string();
    assert!(e.starts_with("config key `codec.kind`"), "{e}");
    // No codec by default; the unit size is not checked then.
    let c = SimConfig::from_toml_str("[codec]\nunit_bytes = 3000\n").unwrap();
    assert!(!c.codec.enabled());
    assert!(!SimConfig::default().codec.enabled());
}

/// Unit sizes whose tags fit a 4 KiB page's OOB word (≥ 128 B: at most 32 units).
fn unit_sizes() -> impl Strategy<Value = usize> {
    prop::sample::select((7..=12).map(|k| 1usize << k).collect::<Vec<_>>())
}

/// Bytes biased towards error-prone or stable cells, so that both kinds of unit occur at
/// every unit size.
fn page_data() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), PAGE),
        prop::collection::vec(prop::sample::select(vec![0x00u8, 0x41, 0x15, 0xFF, 0xBE, 0x61]), PAGE),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Encode → decode is exact; after encoding no unit has more than 50 % error-prone
    /// cells; the encoded histogram is the histogram of the encoded bytes.
    #[test]
    fn round_trip_and_at_most_half_error_prone(unit in unit_sizes(), data in page_data(),
                                               lsb in any::<bool>()) {
        let mapping = if lsb { CellMapping::AdjacentLsbFirst } else { CellMapping::Adjacent };
        let b = BitFlip::new(unit, PAGE, mapping).unwrap();
        let mut enc = data.clone();
        let tags = b.encode_in_place(&mut enc);
        prop_assert_eq!(tags.len(), PAGE / unit);
        for (i, u) in enc.chunks(unit).enumerate() {
            let c = b.unit_counts(u);
            prop_assert!(2 * (c[0] + c[1]) <= 4 * unit as u64, "unit {} {:?}", i, c);
        }
        let counter = StateCounter::new(2, mapping);
        prop_assert_eq!(b.encoded_hist(&data), (counter.hist(&enc), tags.clone()));
        let mut dec = enc;
        b.decode_in_place(&mut dec, &tags);
        prop_assert_eq!(dec, data);
    }

    /// Through the codec trait: the OOB word stored at program time decodes the
    /// programmed bytes back to the data, and the read's histogram (from the stored
    /// word) is the histogram of the programmed bytes.
    #[test]
    fn encode_store_decode_round_trips(unit in unit_sizes(), data in page_data()) {
        let mut c = CodecConfig { kind: CodecKind::Bitflip, unit_bytes: unit as u32, ..CodecConfig::default() }
            .build(PAGE as u32, 2, CellMapping::Adjacent)
            .unwrap();
        let (oob, hist) = c.encode(&data);
        let mut programmed = data.clone();
        let tags = BitFlip::new(unit, PAGE, CellMapping::Adjacent).unwrap().encode_in_place(&mut programmed);
        prop_assert_eq!(oob, (1 << 63) | tags.to_oob().unwrap());
        let counter = StateCounter::new(2, CellMapping::Adjacent);
        prop_assert_eq!(hist, counter.hist(&programmed));
        prop_assert_eq!(c.stored_hist(&data, oob), hist);
        c.decode(&mut programmed, oob);
        prop_assert_eq!(programmed, data);
    }
}

/// The Fig. 9 page: units 1, 3, 5, 7 (1-based) all 'A' (0x41 = 01 00 00 01: 100 %
/// error-prone), units 2 and 6 all 0xBE (10 11 11 10: none), units 4 and 8 'A' and 0xFF
/// alternating (exactly 50 %, a tie, kept).
fn figure_9_page() -> Vec<u8> {
    let mut data = vec![0u8; PAGE];
    for (i, unit) in data.chunks_mut(512).enumerate() {
        match i {
            0 | 2 | 4 | 6 => unit.fill(0x41),
            1 | 5 => unit.fill(0xBE),
            _ => unit
                .iter_mut()
                .enumerate()
                .for_each(|(k, x)| *x = if k % 2 == 0 { 0x41 } else { 0xFF }),
        }
    }
    data
}

fn bitflip_codec() -> Box<dyn Codec> {
    CodecConfig {
        kind: CodecKind::Bitflip,
        ..CodecConfig::default()
    }
    .build(PAGE as u32, 2, CellMapping::Adjacent)
    .unwrap()
}

/// Through the codec trait: the encoder stores tags "10101010" as the OOB word
/// 2^63 | 0x55; a read decodes from the stored word, whatever it holds. Hand counts per
/// unit of 512 B (2048 cells): 'A' = 1024 '00' + 1024 '01', 0xBE = 1024 '10' + 1024 '11',
/// a mixed unit = 512 '00' + 512 '01' + 1024 '11'; a flipped unit counts reversed.
#[test]
fn reads_decode_from_the_stored_oob_word() {
    let mut c = bitflip_codec();
    let data = figure_9_page();
    let (oob, hist) = c.encode(&data);
    assert_eq!(oob, (1 << 63) | 0x55);
    // Stored: units 1,3,5,7 flipped to 0xBE, so 6 units of '10'+'11' and the two mixed.
    let stored = StateHist::from_counts(&[1024, 1024, 6 * 1024, 8 * 1024]);
    assert_eq!(hist, stored);
    assert_eq!(c.stored_hist(&data, oob), stored);
    // The bytes as programmed decode (Algorithm 2) to the data written.
    let mut bytes = data.clone();
    flip_units(&mut bytes, &[0, 2, 4, 6]);
    c.decode(&mut bytes, oob);
    assert_eq!(bytes, data);
    // A stored word the encoder would not have chosen (only units 1 and 3 flipped,
    // 1-based): '00' = 2 · 1024 ('A' units 5, 7) + 2 · 512 (units 4, 8) = 3072, '01'
    // likewise, '10' = 4 · 1024 (units 1, 2, 3, 6), '11' = 4 · 1024 + 2 · 1024 = 6144.
    assert_eq!(
        c.stored_hist(&data, (1 << 63) | 0b101),
        StateHist::from_counts(&[3072, 3072, 4096, 6144])
    );
    // Word 0: no OOB kept (preconditioned data), so the encoder's choice.
    assert_eq!(c.stored_hist(&data, 0), stored);
    let summary = c.summary().unwrap();
    assert_eq!(summary.pages_encoded, 1);
    assert_eq!(summary.units_flipped, 4);
}

/// Inverts every bit of the 512 B units `units` (0-based).
fn flip_units(bytes: &mut [u8], units: &[usize]) {
    for &u in units {
        bytes[u * 512..(u + 1) * 512].iter_mut().for_each(|b| *b = !*b);
    }
}

/// `none` stores data as written: nothing in the OOB word, the data's own states.
#[test]
fn the_none_codec_stores_data_as_written() {
    let mut c = CodecConfig::default()
        .build(PAGE as u32, 2, CellMapping::Adjacent)
        .unwrap();
    let data = figure_9_page();
    let (oob, hist) = c.encode(&data);
    assert_eq!(oob, 0);
    // '00' = 4 · 1024 ('A' units) + 2 · 512 (mixed units) = 5120, '01' likewise,
    // '10' = 2 · 1024 (0xBE units), '11' = 2 · 1024 + 2 · 1024 (mixed units) = 4096.
    assert_eq!(hist, StateHist::from_counts(&[5120, 5120, 2048, 4096]));
    assert!(!c.transforms());
    assert!(c.summary().is_none());
    let mut bytes = data.clone();
    c.decode(&mut bytes, oob);
    assert_eq!(bytes, data);
}

fn sim(codec_toml: &str, content_toml: &str, reqs: Vec<Request>) -> (Vec<(u64, u64)>, Value) {
    let text = format!(
        r#"
[aging]
fill_fraction = 1.0
[reliability]
model = "nominal"
nominal_rber = 4e-3
error_draw = "expected"
[ecc]
scheme = "ldpc"
{content_toml}
{codec_toml}
"#
    );
    let cfg = SimConfig::from_toml_str(&text).unwrap();
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    (out.requests.unwrap().latencies_by_arrival(), out.summary.to_json())
}

fn req(t: u64, lpn: u64, op: Op) -> Request {
    Request::new(t, lpn * PAGE as u64, PAGE as u64, op, 0)
}

const BITFLIP: &str = "[codec]\nkind = \"bitflip\"\n";
const ZEROS: &str = "[content]\nsource = \"constant\"\nbyte = 0\n";

/// All-zero data: every cell '00'. The nominal model gives state s the error probability
/// rber · 4 · w_s / Σw with w = (0.46, 0.44, 0.05, 0.05), Σw = 1: an all-'00' page has
/// 4 · 0.46 · 4e-3 = 7.36e-3. BitFlip flips every unit to all-'11': 4 · 0.05 · 4e-3 = 8e-4.
#[test]
fn bitflip_lowers_the_rber_of_all_zero_pages() {
    let mut reqs: Vec<Request> = (0..4).map(|l| req(l * 1_000_000, l, Op::Write)).collect();
    reqs.extend((0..4).map(|l| req(10_000_000 + l * 1_000_000, l, Op::Read)));
    // A page written before the run (preconditioned), stored encoded as well.
    reqs.push(req(20_000_000, 100, Op::Read));

    let (_, plain) = sim("", ZEROS, reqs.clone());
    assert!((plain["reliability"]["rber_mean"].as_f64().unwrap() - 7.36e-3).abs() < 1e-15);
    assert!(plain.get("codec").is_none());

    let (_, s) = sim(BITFLIP, ZEROS, reqs);
    let all_11 = NominalModel::new(4e-3, &BITFLIP_MLC_WEIGHTS, vec![1.0]).page_rber(&ErrorContext {
        hist: Some(&StateHist::single(4, 0b11)),
        ..Default::default()
    });
    assert!((all_11 - 8e-4).abs() < 1e-15);
    let r = &s["reliability"];
    assert_eq!(r["page_reads"], 5);
    assert!((r["rber_mean"].as_f64().unwrap() - all_11).abs() < 1e-15, "{r}");
    assert!((r["rber_max"].as_f64().unwrap() - all_11).abs() < 1e-15, "{r}");
    let c = &s["codec"];
    assert_eq!(c["kind"], "bitflip");
    assert_eq!(c["unit_bytes"], 512);
    assert_eq!(c["units_per_page"], 8);
    assert_eq!(c["storage_overhead"], 1.0 / 4096.0);
    assert_eq!(c["pages_encoded"], 4);
    assert_eq!(c["units_encoded"], 32);
    assert_eq!(c["units_flipped"], 32);
    assert_eq!(c["flipped_unit_share"], 1.0);
}

/// Data already stable (0xFF: all '11') are never flipped and keep their RBER.
#[test]
fn stable_data_are_left_alone() {
    let reqs = vec![req(0, 0, Op::Write), req(5_000_000, 0, Op::Read)];
    let ones = "[content]\nsource = \"constant\"\nbyte = 255\n";
    let (_, s) = sim(BITFLIP, ones, reqs);
    assert_eq!(s["codec"]["units_flipped"], 0);
    assert_eq!(s["codec"]["flipped_unit_share"], 0.0);
    assert!((s["reliability"]["rber_mean"].as_f64().unwrap() - 8e-4).abs() < 1e-15);
}

/// Random bytes: a 512 B unit has 2048 cells, error-prone ones ~ Binomial(2048, 1/2); it
/// is flipped when more than 1024 are, with probability (1 − C(2048,1024)/2^2048)/2 ≈
/// (1 − 0.0176)/2 ≈ 0.491. 64 pages = 512 units: sd of the share ≈ 0.022. Every stored
/// unit then has at most half its cells error-prone: E|X − 1024| ≈ 22.6·√(2/π) ≈ 18 cells
/// leaves an error-prone share ≈ 0.4912, so the mean RBER is ≈ 4e-3 · 4 · (0.45 · 0.4912
/// + 0.05 · 0.5088) ≈ 3.94e-3, below the nominal 4e-3 of uniform data.
#[test]
fn random_data_flip_about_half_the_units() {
    let mut reqs: Vec<Request> = (0..64).map(|l| req(l * 1_000_000, l, Op::Write)).collect();
    reqs.extend((0..64).map(|l| req(100_000_000 + l * 1_000_000, l, Op::Read)));
    let (_, s) = sim(BITFLIP, "", reqs);
    let share = s["codec"]["flipped_unit_share"].as_f64().unwrap();
    assert!((share - 0.491).abs() < 0.1, "{share}");
    let rber = s["reliability"]["rber_mean"].as_f64().unwrap();
    assert!(rber < 3.98e-3 && rber > 3.9e-3, "{rber}");
}

/// The encoder adds units_per_page × encode_ns_per_unit = 8 × 20 ns = 160 ns to a host
/// page write on an idle device (the program starts that much later).
#[test]
fn encoding_delays_the_program() {
    let reqs = vec![req(0, 0, Op::Write)];
    let (plain, _) = sim("", ZEROS, reqs.clone());
    let (coded, _) = sim(BITFLIP, ZEROS, reqs.clone());
    assert_eq!(coded[0].1, plain[0].1 + 160);
    let (slow, _) = sim(
        "[codec]\nkind = \"bitflip\"\nencode_ns_per_unit = 1000\nunit_bytes = 1024\n",
        ZEROS,
        reqs,
    );
    assert_eq!(slow[0].1, plain[0].1 + 4 * 1000);
}
