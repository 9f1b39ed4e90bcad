//! Content sources: the bytes (or directly the cell-state histogram) stored at a logical
//! page for a given version tag, and the `[content]` config section.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::hist::StateHist;
use super::mapping::{pack_cells, CellMapping, StateCounter};
use crate::engine::rng::{mix64, SimRng};
use crate::error::{NandError, Result};

/// Which content source fills the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// Uniformly random bytes, seeded per (seed, lpn, tag); expected histogram uniform.
    #[default]
    Random,
    /// Every byte equal to `byte`.
    Constant,
    /// Cells drawn from the target distribution `state_shares`.
    States,
    /// The bytes of a corpus of real files (`files`), concatenated and wrapped around.
    Files,
}

/// The `[content]` section: what data the pages hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ContentConfig {
    /// `random` | `constant` | `states` | `files`.
    pub source: SourceKind,
    /// The byte of the `constant` source (default 0xFF, the erased pattern).
    pub byte: u8,
    /// Target share of each cell state for the `states` source, indexed by bit pattern
    /// (MLC: '00', '01', '10', '11'); normalised.
    pub state_shares: Vec<f64>,
    /// Files of the `files` corpus, in order.
    pub files: Vec<String>,
    /// Cell-bit mapping (`adjacent`: consecutive bits of a byte, MSB first, as seed 000;
    /// `adjacent-lsb-first`).
    pub mapping: CellMapping,
}

impl Default for ContentConfig {
    fn default() -> Self {
        ContentConfig {
            source: SourceKind::Random,
            byte: 0xFF,
            state_shares: Vec::new(),
            files: Vec::new(),
            mapping: CellMapping::Adjacent,
        }
    }
}

impl ContentConfig {
    /// Checks the section for a device with `bits_per_cell` bits per cell.
    pub fn validate(&self, bits_per_cell: u8) -> Result<()> {
        let n = 1usize << bits_per_cell;
        match self.source {
            SourceKind::States => {
                if self.state_shares.len() != n
                    || self.state_shares.iter().any(|w| !(w.is_finite() && *w >= 0.0))
                    || self.state_shares.iter().sum::<f64>() <= 0.0
                {
                    return Err(NandError::config(
                        "content.state_shares",
                        format!("needs {n} non-negative shares (one per state, by bit pattern), not all zero"),
                    ));
                }
            }
            SourceKind::Files => {
                if self.files.is_empty() {
                    return Err(NandError::config(
                        "content.files",
                        "the `files` source needs at least one file",
                    ));
                }
            }
            SourceKind::Random | SourceKind::Constant => {}
        }
        Ok(())
    }
}

/// One stored page of the corpus: which file and offset it starts at.
#[derive(Debug, Clone)]
struct Corpus {
    paths: Vec<PathBuf>,
    /// Start offset of each file in the concatenation.
    starts: Vec<u64>,
    total: u64,
    /// Histogram of each corpus page.
    page_hists: Vec<StateHist>,
}

/// A content source built from a [`ContentConfig`].
#[derive(Debug, Clone)]
pub struct ContentSource {
    kind: SourceKind,
    seed: u64,
    page_bytes: usize,
    counter: StateCounter,
    mapping: CellMapping,
    byte: u8,
    target: Option<StateHist>,
    target_cdf: Vec<f64>,
    corpus: Option<Corpus>,
}

impl ContentSource {
    /// Builds the source for pages of `page_bytes` bytes and `bits_per_cell`-bit cells.
    /// The `files` source reads the corpus once here (streaming) to histogram its pages.
    pub fn new(cfg: &ContentConfig, bits_per_cell: u8, page_bytes: usize, seed: u64) -> Result<Self> {
        cfg.validate(bits_per_cell)?;
        if page_bytes == 0 {
            return Err(NandError::config("device.page_bytes", "must be > 0"));
        }
        let counter = StateCounter::new(bits_per_cell, cfg.mapping);
        let (target, target_cdf) = if cfg.source == SourceKind::States {
            let total: f64 = cfg.state_shares.iter().sum();
            let mut acc = 0.0;
            let cdf = cfg
                .state_shares
                .iter()
                .map(|w| {
                    acc += w / total;
                    acc
                })
                .collect();
            (Some(StateHist::from_weights(&cfg.state_shares)), cdf)
        } else {
            (None, Vec::new())
        };
        let corpus = if cfg.source == SourceKind::Files {
            Some(load_corpus(&cfg.files, page_bytes, &counter)?)
        } else {
            None
        };
        Ok(ContentSource {
            kind: cfg.source,
            seed,
            page_bytes,
            counter,
            mapping: cfg.mapping,
            byte: cfg.byte,
            target,
            target_cdf,
            corpus,
        })
    }

    /// Page size in bytes.
    pub fn page_bytes(&self) -> usize {
        self.page_bytes
    }

    /// The corpus page that version `tag` of `lpn` holds: `(lpn + tag) mod pages`.
    fn corpus_page(&self, c: &Corpus, lpn: u64, tag: u64) -> usize {
        (lpn.wrapping_add(tag) % c.page_hists.len() as u64) as usize
    }

    fn rng(&self, lpn: u64, tag: u64) -> SimRng {
        let k = mix64(self.seed ^ mix64(lpn ^ mix64(tag.wrapping_add(0x5EED))));
        SimRng::seed_from_u64(k)
    }

    /// Cell-state histogram of version `tag` of `lpn`, without materialising bytes where
    /// the source allows: `random` gives the expected (uniform) histogram, `constant`
    /// and `states` their exact ones, `files` the precomputed corpus page.
    pub fn page_hist(&self, lpn: u64, tag: u64) -> StateHist {
        match self.kind {
            SourceKind::Random => StateHist::uniform(self.counter.n_states()),
            SourceKind::Constant => self.counter.hist(&[self.byte]),
            SourceKind::States => self.target.expect("states source has a target"),
            SourceKind::Files => {
                let c = self.corpus.as_ref().expect("files source has a corpus");
                c.page_hists[self.corpus_page(c, lpn, tag)]
            }
        }
    }

    /// Writes the bytes of version `tag` of `lpn` into `out` (length = page size).
    pub fn page_data(&self, lpn: u64, tag: u64, out: &mut [u8]) -> Result<()> {
        match self.kind {
            SourceKind::Random => {
                let mut rng = self.rng(lpn, tag);
                rng.fill(out);
            }
            SourceKind::Constant => out.fill(self.byte),
            SourceKind::States => {
                let mut rng = self.rng(lpn, tag);
                let bits = self.counter.bits() as usize;
                let cells: Vec<u8> = (0..(out.len() * 8).div_ceil(bits))
                    .map(|_| {
                        let u: f64 = rng.random();
                        self.target_cdf
                            .iter()
                            .position(|&c| u < c)
                            .unwrap_or(self.target_cdf.len() - 1) as u8
                    })
                    .collect();
                let packed = pack_cells(&cells, self.counter.bits(), self.mapping);
                out.copy_from_slice(&packed[..out.len()]);
            }
            SourceKind::Files => {
                let c = self.corpus.as_ref().expect("files source has a corpus");
                let start = self.corpus_page(c, lpn, tag) as u64 * self.page_bytes as u64;
                read_wrapped(c, start, out)?;
            }
        }
        Ok(())
    }
}

fn load_corpus(files: &[String], page_bytes: usize, counter: &StateCounter) -> Result<Corpus> {
    let mut paths = Vec::new();
    let mut starts = Vec::new();
    let mut total = 0u64;
    for f in files {
        let len = std::fs::metadata(f).map_err(|e| NandError::io(f, e))?.len();
        paths.push(PathBuf::from(f));
        starts.push(total);
        total += len;
    }
    if total == 0 {
        return Err(NandError::config("content.files", "the corpus is empty"));
    }
    let corpus_pages = total.div_ceil(page_bytes as u64) as usize;
    let mut c = Corpus {
        paths,
        starts,
        total,
        page_hists: Vec::with_capacity(corpus_pages),
    };
    // Stream the concatenation page by page (the last page wraps to the start).
    let mut buf = vec![0u8; page_bytes];
    let mut reader = ChainReader::new(&c)?;
    for p in 0..corpus_pages {
        let got = reader.read_full(&mut buf)?;
        if got < page_bytes {
            read_wrapped(&c, 0, &mut buf[got..])?;
        }
        let _ = p;
        c.page_hists.push(counter.hist(&buf));
    }
    Ok(c)
}

/// Sequential reader over the concatenated corpus.
struct ChainReader {
    paths: Vec<PathBuf>,
    idx: usize,
    cur: Option<File>,
}

impl ChainReader {
    fn new(c: &Corpus) -> Result<Self> {
        Ok(ChainReader {
            paths: c.paths.clone(),
            idx: 0,
            cur: None,
        })
    }

    fn read_full(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut got = 0;
        while got < buf.len() && self.idx < self.paths.len() {
            if self.cur.is_none() {
                let p = &self.paths[self.idx];
                self.cur = Some(File::open(p).map_err(|e| NandError::io(p.display(), e))?);
            }
            let n = self
                .cur
                .as_mut()
                .unwrap()
                .read(&mut buf[got..])
                .map_err(|e| NandError::io(self.paths[self.idx].display(), e))?;
            if n == 0 {
                self.cur = None;
                self.idx += 1;
            }
            got += n;
        }
        Ok(got)
    }
}

/// Reads `out.len()` bytes of the corpus from offset `start`, wrapping at the end.
fn read_wrapped(c: &Corpus, start: u64, out: &mut [u8]) -> Result<()> {
    let mut pos = start % c.total;
    let mut filled = 0;
    while filled < out.len() {
        let fi = c.starts.partition_point(|&s| s <= pos) - 1;
        let file_end = c.starts.get(fi + 1).copied().unwrap_or(c.total);
        let n = ((file_end - pos) as usize).min(out.len() - filled);
        if n > 0 {
            let p = &c.paths[fi];
            let mut f = File::open(p).map_err(|e| NandError::io(p.display(), e))?;
            f.seek(SeekFrom::Start(pos - c.starts[fi]))
                .map_err(|e| NandError::io(p.display(), e))?;
            f.read_exact(&mut out[filled..filled + n])
                .map_err(|e| NandError::io(p.display(), e))?;
        }
        filled += n;
        pos = (pos + n as u64) % c.total;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(kind: SourceKind) -> ContentConfig {
        ContentConfig {
            source: kind,
            ..ContentConfig::default()
        }
    }

    #[test]
    fn random_is_seeded_and_near_uniform() {
        let s = ContentSource::new(&cfg(SourceKind::Random), 2, 4096, 7).unwrap();
        let mut a = vec![0u8; 4096];
        let mut b = vec![0u8; 4096];
        s.page_data(3, 1, &mut a).unwrap();
        s.page_data(3, 1, &mut b).unwrap();
        assert_eq!(a, b);
        s.page_data(3, 2, &mut b).unwrap();
        assert_ne!(a, b);
        let h = StateCounter::new(2, CellMapping::Adjacent).hist(&a);
        for st in 0..4 {
            // 16384 cells: sd of a share ≈ 0.0034.
            assert!((h.share(st) - 0.25).abs() < 0.02);
        }
        assert_eq!(s.page_hist(3, 1), StateHist::uniform(4));
    }

    #[test]
    fn constant_and_states_hists_are_exact() {
        let mut c = cfg(SourceKind::Constant);
        c.byte = 0x41;
        let s = ContentSource::new(&c, 2, 512, 1).unwrap();
        assert_eq!(s.page_hist(0, 0).share(0b00), 0.5);
        let mut c = cfg(SourceKind::States);
        c.state_shares = vec![0.4, 0.3, 0.2, 0.1];
        let s = ContentSource::new(&c, 2, 8192, 1).unwrap();
        let h = s.page_hist(0, 0);
        assert!((h.share(0) - 0.4).abs() < 1e-4);
        let mut buf = vec![0u8; 8192];
        s.page_data(5, 0, &mut buf).unwrap();
        let got = StateCounter::new(2, CellMapping::Adjacent).hist(&buf);
        assert!(
            (got.share(0) - 0.4).abs() < 0.02 && (got.share(3) - 0.1).abs() < 0.02,
            "{got:?}"
        );
        c.state_shares = vec![1.0];
        assert!(ContentSource::new(&c, 2, 8192, 1)
            .unwrap_err()
            .to_string()
            .contains("content.state_shares"));
    }

    #[test]
    fn files_wrap_around() {
        let dir = std::env::temp_dir().join(format!("nandlab-content-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f1 = dir.join("a.bin");
        let f2 = dir.join("b.bin");
        std::fs::write(&f1, [0x00u8; 6]).unwrap();
        std::fs::write(&f2, [0xFFu8; 4]).unwrap();
        let mut c = cfg(SourceKind::Files);
        c.files = vec![f1.display().to_string(), f2.display().to_string()];
        let s = ContentSource::new(&c, 2, 4, 0).unwrap();
        // Corpus = 00×6 FF×4 (10 B) → pages [00 00 00 00], [00 00 FF FF], [FF FF | 00 00 wrapped].
        let mut buf = [0u8; 4];
        s.page_data(1, 0, &mut buf).unwrap();
        assert_eq!(buf, [0, 0, 0xFF, 0xFF]);
        s.page_data(2, 0, &mut buf).unwrap();
        assert_eq!(buf, [0xFF, 0xFF, 0, 0]);
        assert_eq!(s.page_hist(0, 0).share(0b00), 1.0);
        assert_eq!(s.page_hist(1, 0).share(0b11), 0.5);
        assert_eq!(s.page_hist(2, 0).share(0b11), 0.5);
        // lpn 3 wraps to corpus page 0; tag shifts by one page.
        assert_eq!(s.page_hist(3, 0), s.page_hist(0, 0));
        assert_eq!(s.page_hist(0, 1), s.page_hist(1, 0));
        std::fs::remove_dir_all(&dir).ok();
    }
}
