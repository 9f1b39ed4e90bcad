//! What is stored: cell-state histograms of page data, the cell-bit mapping, content
//! sources (random, constant, target states, real files) and the `states` file analysis.

pub mod hist;
pub mod mapping;
pub mod source;
pub mod states;

pub use hist::{StateHist, ERROR_PRONE_MLC_MASK, MAX_STATES, SHARE_SCALE};
pub use mapping::{cells_of_byte, pack_cells, state_name, CellMapping, StateCounter};
pub use source::{ContentConfig, ContentSource, SourceKind};
pub use states::{analyse_file, analyse_files, analyse_reader, FileStates};
