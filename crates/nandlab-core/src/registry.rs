//! The registry macro shared by every policy family (FTL victims, placement, relocation
//! order, refresh targets; program/erase time models): one file per policy, and a list
//! `module::Type` from which the config enum is generated. A policy's name in the config
//! (`[ftl.gc] victim = "..."`) is its type name in snake_case; its parameters are the fields
//! of its type, written beside the tag (unknown ones are errors naming the key).
//!
//! A family whose policies may keep state is declared `built;`: its config then also
//! builds each policy's run-time instance from a `BuildCtx` (the policy's own seed
//! stream, its plane, the geometry; `flash::BuildCtx`, which the family's module
//! imports). A policy that keeps state returns a fresh instance
//! from its trait's `build(ctx)`; one that keeps none (the trait's default, `None`) runs
//! as a copy of its parameters.

/// `policies!(Config, Trait, "tag", Default; module::Type, ...)` declares the modules, a
/// `Config` enum tagged by `tag` with one variant per policy, `Config::policy()` returning
/// the configured policy as `&dyn Trait`, and `Default` for the named variant.
///
/// `policies!(list; Config, Trait, "tag"; ...)` is the same without a default: for a
/// family configured as a list (`[[reliability.terms]]`); with a line
/// `dispatch fn method(&mut self, arg: Type) -> Out;` after the tag it also gives
/// `Config::method`, calling the trait's method on the policy without a virtual call.
///
/// `policies!(built; Config, Trait, ...)` adds `Config::build(ctx) -> Box<dyn Trait>`:
/// the trait has `fn build(&self, ctx: &BuildCtx) -> Option<Box<dyn Trait>>` (default
/// `None`: the policy is its own instance) and its methods may take `&mut self`.
macro_rules! policies {
    (built; $(#[$doc:meta])* $config:ident, $trait:ident, $tag:literal, $default:ident;
     $($module:ident :: $policy:ident),* $(,)?) => {
        $crate::registry::policies!($(#[$doc])* $config, $trait, $tag, $default; $($module::$policy),*);

        impl $config {
            /// The configured policy's run-time instance for `ctx`: what a stateful
            /// policy's `build` returns, or a copy of a stateless one.
            pub fn build(&self, ctx: &BuildCtx) -> Box<dyn $trait> {
                match self {
                    $($config::$policy(p) => p.build(ctx).unwrap_or_else(|| Box::new(p.clone())),)*
                }
            }
        }
    };
    (list; $(#[$doc:meta])* $config:ident, $trait:ident, $tag:literal;
     dispatch fn $method:ident(&mut self, $arg:ident: $argty:ty) -> $ret:ty;
     $($module:ident :: $policy:ident),* $(,)?) => {
        $crate::registry::policies!(list; $(#[$doc])* $config, $trait, $tag; $($module::$policy),*);

        impl $config {
            /// The trait's method on the configured policy, dispatched statically (a hot
            /// call: no virtual call per policy).
            #[inline]
            pub fn $method(&mut self, $arg: $argty) -> $ret {
                match self {
                    $($config::$policy(p) => p.$method($arg),)*
                }
            }
        }
    };
    (list; $(#[$doc:meta])* $config:ident, $trait:ident, $tag:literal;
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
    };
    ($(#[$doc:meta])* $config:ident, $trait:ident, $tag:literal, $default:ident;
     $($module:ident :: $policy:ident),* $(,)?) => {
        $crate::registry::policies!(list; $(#[$doc])* $config, $trait, $tag; $($module::$policy),*);

        impl Default for $config {
            fn default() -> Self {
                $config::$default($default {})
            }
        }
    };
}

pub(crate) use policies;
