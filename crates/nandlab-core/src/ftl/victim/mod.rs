//! Garbage-collection victim selection: which full block of a plane GC empties next. One
//! file per policy; the `victims!` list at the bottom is the registry: a policy's name in
//! `[ftl.gc] victim = "..."` is its type name in snake_case, and its parameters are the
//! fields of its type, written beside `victim` (unknown ones are errors naming the key).

use super::plane_view::PlaneView;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A victim-selection policy.
pub trait VictimPolicy {
    /// Checks the policy's parameters; `table` is where they sit in the config (`ftl.gc`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Index into `plane.blocks` of the block to empty, among [`PlaneView::reclaimable`];
    /// `None` when no block would free a page.
    fn select(&self, plane: &PlaneView) -> Option<usize>;
}

macro_rules! victims {
    ($($module:ident :: $policy:ident),* $(,)?) => {
        $(mod $module; pub use $module::$policy;)*

        /// `[ftl.gc]`: the victim policy by name, with its own parameters beside it.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "victim", rename_all = "snake_case")]
        pub enum VictimConfig {
            $(#[allow(missing_docs)] $policy($policy),)*
        }

        impl VictimConfig {
            /// The configured policy.
            pub fn policy(&self) -> &dyn VictimPolicy {
                match self {
                    $(VictimConfig::$policy(p) => p,)*
                }
            }
        }
    };
}

victims! {
    greedy::Greedy,
    cost_benefit::CostBenefit,
    weighted::Weighted,
    fifo::Fifo,
}

impl Default for VictimConfig {
    fn default() -> Self {
        VictimConfig::Greedy(Greedy {})
    }
}
