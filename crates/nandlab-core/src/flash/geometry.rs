//! Device geometry (channel → chip → die → plane → block → page) and address arithmetic.

use super::block::BlockState;
use super::cell::CellType;
use super::divisor::{Divisor32, Divisor64};
use super::page_map::{PageMap, PageMapSpec};
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// The `[device]` section of a config: organisation of the flash array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeviceConfig {
    /// Independent channel buses.
    pub channels: u32,
    /// Chips (ways / packages) on each channel.
    pub chips_per_channel: u32,
    /// Dies per chip.
    pub dies_per_chip: u32,
    /// Planes per die.
    pub planes_per_die: u32,
    /// Blocks per plane.
    pub blocks_per_plane: u32,
    /// Pages per block.
    pub pages_per_block: u32,
    /// User-data bytes per page.
    pub page_size_bytes: u32,
    /// Spare (OOB) bytes per page: where ECC parity and codec tags live.
    pub oob_bytes: u32,
    /// SLC, MLC, TLC or QLC.
    pub cell_type: CellType,
    /// Which page index is LSB/CSB/MSB and which pages share a wordline.
    pub page_map: PageMapSpec,
    /// Whether operations of the same kind on different planes of a die run together
    /// (multi-plane commands).
    pub multi_plane: bool,
    /// Whether a multi-plane program needs the same page address in every plane (ONFI's
    /// multi-plane addressing; MQSim's TSU checks it); off, any pages pair
    /// (`flash/backend.rs`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub multi_plane_equal_pages: bool,
}

impl Default for DeviceConfig {
    /// A small MLC device: 4 channels x 2 chips x 2 dies x 2 planes x 256 blocks x 128
    /// pages x 4 KiB = 4 GiB.
    fn default() -> Self {
        DeviceConfig {
            channels: 4,
            chips_per_channel: 2,
            dies_per_chip: 2,
            planes_per_die: 2,
            blocks_per_plane: 256,
            pages_per_block: 128,
            page_size_bytes: 4096,
            oob_bytes: 224,
            cell_type: CellType::Mlc,
            page_map: PageMapSpec::default(),
            multi_plane: true,
            multi_plane_equal_pages: false,
        }
    }
}

/// Memory the simulator's set-up tables take per block (bytes): the block's state, its
/// read count (`u32`), its OOB slot index (`u32`) and its entry in its plane's free-block
/// heap (`(P/E, block)`, two `u32`).
const TABLE_BYTES_PER_BLOCK: u64 = std::mem::size_of::<BlockState>() as u64 + 4 + 4 + 8;
/// Per plane: its location, its allocator (heap header, active blocks) and its die's
/// resource state, rounded up.
const TABLE_BYTES_PER_PLANE: u64 = 128;
/// Logical pages per slot of the mapping directory (one `u32` slot each).
const PAGES_PER_MAPPING_SLOT: u64 = 16;

/// Physical page address: a global block index and the page in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ppa {
    /// Global block index (plane-major: `plane * blocks_per_plane + block`).
    pub block: u32,
    /// Page within the block.
    pub page: u32,
}

/// Where a plane sits: its die, the die's channel, and its index within the die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneLoc {
    /// Global die index.
    pub die: u32,
    /// Global chip index.
    pub chip: u32,
    /// Channel of the die.
    pub channel: u32,
    /// Plane index within the die.
    pub plane_in_die: u32,
}

/// Validated geometry with derived sizes.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The config it came from.
    pub cfg: DeviceConfig,
    /// Shared-page map of every block.
    pub page_map: PageMap,
    /// Dies in the device.
    pub dies: u32,
    /// Planes in the device.
    pub planes: u32,
    /// Blocks in the device.
    pub blocks: u32,
    /// Pages in the device.
    pub pages: u64,
    /// Location of every plane (a table, so the hot path needs no divisions).
    pub plane_locs: Vec<PlaneLoc>,
    /// Division by blocks per plane and by pages per block (the hot path splits
    /// addresses on every page).
    blocks_per_plane_div: Divisor32,
    pages_per_block_div: Divisor64,
}

impl Geometry {
    /// Checks a device config and derives the geometry.
    pub fn new(cfg: &DeviceConfig) -> Result<Self> {
        let fields = [
            ("channels", cfg.channels),
            ("chips_per_channel", cfg.chips_per_channel),
            ("dies_per_chip", cfg.dies_per_chip),
            ("planes_per_die", cfg.planes_per_die),
            ("blocks_per_plane", cfg.blocks_per_plane),
            ("pages_per_block", cfg.pages_per_block),
            ("page_size_bytes", cfg.page_size_bytes),
        ];
        for (name, v) in fields {
            if v == 0 {
                return Err(NandError::config(format!("device.{name}"), "must be at least 1"));
            }
        }
        if cfg.pages_per_block > u32::from(u16::MAX) {
            return Err(NandError::config(
                "device.pages_per_block",
                format!("{} is more than the 65,535 a block can hold", cfg.pages_per_block),
            ));
        }
        if !cfg.page_size_bytes.is_multiple_of(512) {
            return Err(NandError::config(
                "device.page_size_bytes",
                format!("{} is not a multiple of 512", cfg.page_size_bytes),
            ));
        }
        let dies = u64::from(cfg.channels) * u64::from(cfg.chips_per_channel) * u64::from(cfg.dies_per_chip);
        let planes = dies * u64::from(cfg.planes_per_die);
        let blocks = planes * u64::from(cfg.blocks_per_plane);
        if blocks > u64::from(u32::MAX) {
            return Err(NandError::config(
                largest_count(cfg, false),
                format!("{blocks} blocks exceed the supported 2^32"),
            ));
        }
        // A spare area beyond the page itself is no NAND page (parts carry 1/32 to 1/8).
        if cfg.oob_bytes > cfg.page_size_bytes {
            return Err(NandError::config(
                "device.oob_bytes",
                format!(
                    "{} spare bytes is more than the page's {} data bytes",
                    cfg.oob_bytes, cfg.page_size_bytes
                ),
            ));
        }
        let pages = blocks * u64::from(cfg.pages_per_block);
        check_memory(
            setup_bytes(planes, blocks, pages),
            physical_memory_bytes(),
            blocks,
            cfg.pages_per_block,
            largest_count(cfg, true),
        )?;
        let page_map = PageMap::build(&cfg.page_map, cfg.cell_type, cfg.pages_per_block)?;
        let mut g = Geometry {
            cfg: cfg.clone(),
            page_map,
            dies: dies as u32,
            planes: planes as u32,
            blocks: blocks as u32,
            pages,
            plane_locs: Vec::new(),
            blocks_per_plane_div: Divisor32::new(cfg.blocks_per_plane),
            pages_per_block_div: Divisor64::new(u64::from(cfg.pages_per_block)),
        };
        g.plane_locs = (0..g.planes)
            .map(|p| {
                let die = g.die_of_plane(p);
                PlaneLoc {
                    die,
                    chip: die / cfg.dies_per_chip,
                    channel: g.channel_of_die(die),
                    plane_in_die: p % cfg.planes_per_die,
                }
            })
            .collect();
        Ok(g)
    }

    /// Physical capacity in bytes.
    pub fn capacity_bytes(&self) -> u64 {
        self.pages * u64::from(self.cfg.page_size_bytes)
    }

    /// Plane index of a global block.
    #[inline]
    pub fn plane_of_block(&self, block: u32) -> u32 {
        self.blocks_per_plane_div.div_rem(block).0
    }

    /// `(plane, index within the plane)` of a global block.
    #[inline]
    pub fn split_block(&self, block: u32) -> (u32, u32) {
        self.blocks_per_plane_div.div_rem(block)
    }

    /// Block and page of a global physical page number.
    #[inline]
    pub fn ppa_of(&self, ppn: u64) -> Ppa {
        let (block, page) = self.pages_per_block_div.div_rem(ppn);
        Ppa {
            block: block as u32,
            page: page as u32,
        }
    }

    /// Die index of a plane (dies are numbered channel-major: die = ((ch*chips)+chip)*dies+d).
    #[inline]
    pub fn die_of_plane(&self, plane: u32) -> u32 {
        plane / self.cfg.planes_per_die
    }

    /// Channel of a die.
    #[inline]
    pub fn channel_of_die(&self, die: u32) -> u32 {
        die / (self.cfg.chips_per_channel * self.cfg.dies_per_chip)
    }

    /// Location of the plane holding global block `block`.
    #[inline]
    pub fn loc_of_block(&self, block: u32) -> PlaneLoc {
        self.plane_locs[self.plane_of_block(block) as usize]
    }

    /// The plane at `plane`'s position (die and plane within its chip) on global chip
    /// `chip` (planes are chip-major, so a chip's planes are consecutive).
    #[inline]
    pub fn same_plane_on_chip(&self, plane: u32, chip: u32) -> u32 {
        let per_chip = self.cfg.dies_per_chip * self.cfg.planes_per_die;
        chip * per_chip + plane % per_chip
    }

    /// Plane index from (channel, chip, die, plane) coordinates.
    #[inline]
    pub fn plane_index(&self, channel: u32, chip: u32, die: u32, plane: u32) -> u32 {
        ((channel * self.cfg.chips_per_channel + chip) * self.cfg.dies_per_chip + die) * self.cfg.planes_per_die + plane
    }
}

/// Bytes of the tables the simulator allocates when it builds a device of `planes`,
/// `blocks` and `pages` (before any request: pages a workload writes add their OOB
/// records and mapping entries as they go).
pub fn setup_bytes(planes: u64, blocks: u64, pages: u64) -> u64 {
    planes * TABLE_BYTES_PER_PLANE + blocks * TABLE_BYTES_PER_BLOCK + pages.div_ceil(PAGES_PER_MAPPING_SLOT) * 4
}

/// Refuses a device whose tables need more than `available` bytes (`None`: unknown), or
/// more than the allocator will reserve, naming `key` ([`largest_count`]). The
/// reservation is released at once: it only asks whether that much can be had, so a
/// device that cannot be built is an error here instead of an abort when its tables are
/// allocated.
fn check_memory(need: u64, available: Option<u64>, blocks: u64, pages_per_block: u32, key: &str) -> Result<()> {
    const GB: f64 = 1e9;
    let refuse = |limit: String| {
        NandError::config(
            key,
            format!(
                "the device ({blocks} blocks of {pages_per_block} pages) needs about {:.1} GB of memory for its tables, more than {limit}",
                need as f64 / GB
            ),
        )
    };
    if let Some(avail) = available.filter(|&a| need > a) {
        return Err(refuse(format!("the {:.1} GB this machine has", avail as f64 / GB)));
    }
    let fits = usize::try_from(need)
        .ok()
        .is_some_and(|n| Vec::<u8>::new().try_reserve_exact(n).is_ok());
    if !fits {
        return Err(refuse("the memory allocator will reserve".to_string()));
    }
    Ok(())
}

/// The key of the device count furthest above its default (by ratio): the one a device too
/// large to build is blamed on (`channels = 1_000_000`, not `blocks_per_plane`). With
/// `pages`, pages per block counts too (memory); without, only the block-count factors.
fn largest_count(cfg: &DeviceConfig, pages: bool) -> &'static str {
    let d = DeviceConfig::default();
    let mut counts = vec![
        ("device.channels", cfg.channels, d.channels),
        ("device.chips_per_channel", cfg.chips_per_channel, d.chips_per_channel),
        ("device.dies_per_chip", cfg.dies_per_chip, d.dies_per_chip),
        ("device.planes_per_die", cfg.planes_per_die, d.planes_per_die),
        ("device.blocks_per_plane", cfg.blocks_per_plane, d.blocks_per_plane),
    ];
    if pages {
        counts.push(("device.pages_per_block", cfg.pages_per_block, d.pages_per_block));
    }
    counts
        .into_iter()
        .max_by(|a, b| (f64::from(a.1) / f64::from(a.2)).total_cmp(&(f64::from(b.1) / f64::from(b.2))))
        .map_or("device", |c| c.0)
}

/// Physical memory of the machine (bytes), where the system says.
fn physical_memory_bytes() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && page_size > 0 {
            return Some((pages as u64).saturating_mul(page_size as u64));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_memory_estimate_by_hand() {
        // The default device: 32 planes x 256 blocks = 8192 blocks of 128 pages = 1,048,576
        // pages. 32 x 128 B + 8192 x (12 + 4 + 4 + 8) B + 1,048,576 / 16 x 4 B
        // = 4,096 + 229,376 + 262,144 = 495,616 B.
        assert_eq!(std::mem::size_of::<BlockState>(), 12);
        assert_eq!(setup_bytes(32, 8192, 1 << 20), 495_616);
        assert!(check_memory(495_616, Some(1 << 30), 8192, 128, "device").is_ok());
    }

    #[test]
    fn a_device_too_large_for_memory_is_refused_with_its_key() {
        // 4 x 2 x 2 x 2 planes x 130,000,000 blocks: under 2^32 blocks, but
        // 4.16e9 x 28 B + 532.48e9 pages / 16 x 4 B = 116.48 GB + 133.12 GB = 249.6 GB.
        let blocks = 32 * 130_000_000u64;
        let need = setup_bytes(32, blocks, blocks * 128);
        assert_eq!(need, 32 * 128 + 116_480_000_000 + 133_120_000_000);
        let e = check_memory(need, Some(16_000_000_000), blocks, 128, "device.blocks_per_plane")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "config key `device.blocks_per_plane`: the device (4160000000 blocks of 128 pages) \
             needs about 249.6 GB of memory for its tables, more than the 16.0 GB this machine has"
        );
        // Whatever this machine has, the config is refused, not aborted on.
        let cfg = DeviceConfig {
            blocks_per_plane: 130_000_000,
            ..DeviceConfig::default()
        };
        let e = Geometry::new(&cfg).unwrap_err().to_string();
        assert!(e.starts_with("config key `device.blocks_per_plane`: "), "{e}");
        assert!(e.contains("249.6 GB"), "{e}");
        // The count far above its default is named, whichever it is (two million channels:
        // 1.6e7 planes x 256 blocks = 4.096e9 blocks, about 248 GB of tables, more than any
        // machine here).
        let cfg = DeviceConfig {
            channels: 2_000_000,
            ..DeviceConfig::default()
        };
        let e = Geometry::new(&cfg).unwrap_err().to_string();
        assert!(
            e.starts_with("config key `device.channels`: the device (4096000000 blocks"),
            "{e}"
        );
        // A spare area larger than the page is refused (it used to be accepted unread).
        let cfg = DeviceConfig {
            oob_bytes: u32::MAX,
            ..DeviceConfig::default()
        };
        let e = Geometry::new(&cfg).unwrap_err().to_string();
        assert_eq!(
            e,
            "config key `device.oob_bytes`: 4294967295 spare bytes is more than the page's 4096 data bytes"
        );
        let cfg = DeviceConfig {
            oob_bytes: 4096,
            ..DeviceConfig::default()
        };
        assert!(Geometry::new(&cfg).is_ok());
        let cfg = DeviceConfig {
            dies_per_chip: 1 << 20,
            blocks_per_plane: 1 << 12,
            ..DeviceConfig::default()
        };
        let e = Geometry::new(&cfg).unwrap_err().to_string();
        assert!(e.starts_with("config key `device.dies_per_chip`: "), "{e}");
        assert!(e.ends_with("blocks exceed the supported 2^32"), "{e}");
        // More than any allocator reserves: refused even when the machine's size is unknown.
        let e = check_memory(u64::MAX, None, 1, 1, "device").unwrap_err().to_string();
        assert!(e.ends_with("more than the memory allocator will reserve"), "{e}");
    }

    #[test]
    fn sizes_and_coordinates() {
        // 000 Table III: 18 ch x 4 chips x 2 dies x 2 planes x 4096 blocks x 64 pages x 4 KiB
        // = 288 GiB (the paper's "288 GB").
        let cfg = DeviceConfig {
            channels: 18,
            chips_per_channel: 4,
            dies_per_chip: 2,
            planes_per_die: 2,
            blocks_per_plane: 4096,
            pages_per_block: 64,
            ..DeviceConfig::default()
        };
        let g = Geometry::new(&cfg).unwrap();
        assert_eq!(g.capacity_bytes(), 288 * (1u64 << 30));
        assert_eq!(g.planes, 18 * 4 * 2 * 2);
        let p = g.plane_index(3, 1, 1, 0);
        assert_eq!(p, ((3 * 4 + 1) * 2 + 1) * 2);
        assert_eq!(g.channel_of_die(g.die_of_plane(p)), 3);
    }

    #[test]
    fn impossible_geometry_names_the_key() {
        let cfg = DeviceConfig {
            planes_per_die: 0,
            ..DeviceConfig::default()
        };
        let e = Geometry::new(&cfg).unwrap_err().to_string();
        assert!(e.contains("device.planes_per_die"), "{e}");
        let cfg = DeviceConfig {
            page_size_bytes: 1000,
            ..DeviceConfig::default()
        };
        assert!(Geometry::new(&cfg).unwrap_err().to_string().contains("page_size_bytes"));
        // Page counts per block are 16-bit.
        let cfg = DeviceConfig {
            pages_per_block: 65_536,
            ..DeviceConfig::default()
        };
        assert!(Geometry::new(&cfg).unwrap_err().to_string().contains("pages_per_block"));
    }

    #[test]
    fn addresses_split_by_multiply_and_shift() {
        // 3 blocks per plane and 6 pages per block are not powers of two.
        let cfg = DeviceConfig {
            blocks_per_plane: 3,
            pages_per_block: 6,
            ..DeviceConfig::default()
        };
        let g = Geometry::new(&cfg).unwrap();
        assert_eq!(g.split_block(7), (2, 1));
        assert_eq!(g.ppa_of(6 * 7 + 5), Ppa { block: 7, page: 5 });
        assert_eq!(g.loc_of_block(7), g.plane_locs[2]);
    }
}
