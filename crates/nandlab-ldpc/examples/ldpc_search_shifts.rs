//! Prints the shift table drawn by `search_shifts` for the rate-8/9 code.
use nandlab_ldpc::code::{search_shifts, QcCode, RATE_8_9_SEARCH_SEED, RATE_8_9_Z};

fn main() {
    let tries: usize = std::env::args().nth(1).map_or(2000, |s| s.parse().unwrap());
    let t = search_shifts(4, 36, RATE_8_9_Z, RATE_8_9_SEARCH_SEED, tries).expect("search failed");
    let code = QcCode::from_full_shifts(RATE_8_9_Z, &t).unwrap();
    eprintln!("4-cycles {} 6-cycles {}", code.four_cycles(), code.six_cycles());
    println!("[");
    for r in &t {
        let s: Vec<String> = r.iter().map(|x| x.to_string()).collect();
        println!("    [{}],", s.join(", "));
    }
    println!("]");
}
