//! Wear leveling beyond what allocation does (the free pool already opens the least-worn
//! block first): after each GC, a policy may name a block of the plane whose data should
//! move so that the block re-enters the free pool. `[ftl.wear_leveling] policy = "..."`
//! picks it by name, its parameters beside `policy`.

mod none;
mod static_leveling;

use super::plane_view::PlaneView;
use crate::error::Result;
pub use none::NoLeveling;
use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
pub use static_leveling::StaticLeveling;

/// A wear-leveling policy.
pub trait WearLeveler {
    /// Checks the policy's parameters; `table` is where they sit (`ftl.wear_leveling`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Index into `plane.blocks` of a full block to empty now, if any.
    fn select(&self, plane: &PlaneView) -> Option<usize>;
}

/// `[ftl.wear_leveling]`: the policy by name, with its own parameters beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "snake_case")]
pub enum WearLevelingConfig {
    /// No wear leveling.
    None(NoLeveling),
    /// Static wear leveling.
    Static(StaticLeveling),
}

impl Default for WearLevelingConfig {
    fn default() -> Self {
        WearLevelingConfig::None(NoLeveling {})
    }
}

impl WearLevelingConfig {
    /// The configured policy.
    pub fn policy(&self) -> &dyn WearLeveler {
        match self {
            WearLevelingConfig::None(p) => p,
            WearLevelingConfig::Static(p) => p,
        }
    }

    /// Whether any leveling runs (lets the FTL skip building a plane view after each GC).
    pub fn is_none(&self) -> bool {
        matches!(self, WearLevelingConfig::None(_))
    }
}

/// Reads `[ftl.wear_leveling]` as a table, or in its old spelling, the policy's name alone
/// (`wear_leveling = "static"`, with `wear_leveling_threshold` beside it).
pub fn table_or_name<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<WearLevelingConfig, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = WearLevelingConfig;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a table such as { policy = \"static\", threshold_pe = 100 } or a policy name")
        }
        fn visit_str<E: de::Error>(self, name: &str) -> std::result::Result<Self::Value, E> {
            WearLevelingConfig::deserialize(MapDeserializer::new(std::iter::once(("policy", name))))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
            WearLevelingConfig::deserialize(MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_any(V)
}
