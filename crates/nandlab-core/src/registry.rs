//! The registry macro shared by every policy family (FTL victims, placement, relocation
//! order, refresh targets; program/erase time models): one file per policy, and a list
//! `module::Type` from which the config enum is generated. A policy's name in the config
//! (`[ftl.gc] victim = "..."`) is its type name in snake_case; its parameters are the fields
//! of its type, written beside the tag (unknown ones are errors naming the key).

/// `policies!(Config, Trait, "tag", Default; module::Type, ...)` declares the modules, a
/// `Config` enum tagged by `tag` with one variant per policy, `Config::policy()` returning
/// the configured policy as `&dyn Trait`, and `Default` for the named variant.
macro_rules! policies {
    ($(#[$doc:meta])* $config:ident, $trait:ident, $tag:literal, $default:ident;
     $($module:ident :: $policy:ident),* $(,)?) => {
        $(mod $module; pub use $module::$policy;)*

        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = $tag, rename_all = "snake_case")]
        pub enum $config {
            $(#[allow(missing_docs)] $policy($policy),)*
        }

        impl $config {
            /// The configured policy.
            pub fn policy(&self) -> &dyn $trait {
                match self {
                    $($config::$policy(p) => p,)*
                }
            }
        }

        impl Default for $config {
            fn default() -> Self {
                $config::$default($default {})
            }
        }
    };
}

pub(crate) use policies;
