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
//!
//! A policy's config name is its type's in snake_case unless its entry names it
//! (`two_step::TwoStep = "two-step"`: names the config files already use). A family once
//! configured by name alone (`strategy = "progressive"`) reads that spelling too
//! ([`table_or_name`]) and writes it back for a policy without parameters ([`name_if_bare`]).

use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
     $($module:ident :: $policy:ident $(= $name:literal)?),* $(,)?) => {
        $crate::registry::policies!($(#[$doc])* $config, $trait, $tag, $default; $($module::$policy $(= $name)?),*);

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
     $($module:ident :: $policy:ident $(= $name:literal)?),* $(,)?) => {
        $crate::registry::policies!(list; $(#[$doc])* $config, $trait, $tag; $($module::$policy $(= $name)?),*);

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
     $($module:ident :: $policy:ident $(= $name:literal)?),* $(,)?) => {
        $(mod $module; pub use $module::$policy;)*

        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = $tag, rename_all = "snake_case")]
        pub enum $config {
            $($(#[serde(rename = $name)])? #[allow(missing_docs)] $policy($policy),)*
        }

        impl $crate::registry::Tagged for $config {
            const TAG: &'static str = $tag;
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
     $($module:ident :: $policy:ident $(= $name:literal)?),* $(,)?) => {
        $crate::registry::policies!(list; $(#[$doc])* $config, $trait, $tag; $($module::$policy $(= $name)?),*);

        impl Default for $config {
            fn default() -> Self {
                $config::$default($default {})
            }
        }
    };
}

pub(crate) use policies;

/// A registry's config enum: the key that names its policy.
pub trait Tagged {
    /// The tag (`"victim"`, `"policy"`).
    const TAG: &'static str;
}

/// Reads a registry's config as its table or as the policy's name alone (the family's
/// older spelling: `strategy = "progressive"`, `wear_leveling = "static"`), for
/// `#[serde(deserialize_with = "crate::registry::table_or_name")]`.
pub fn table_or_name<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Tagged,
{
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de> + Tagged> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a policy name or a table with `{}` and its parameters", T::TAG)
        }
        fn visit_str<E: de::Error>(self, name: &str) -> std::result::Result<T, E> {
            T::deserialize(MapDeserializer::new(std::iter::once((T::TAG, name))))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<T, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

/// Writes a registry's config as the policy's name alone when it has no parameters (the
/// spelling [`table_or_name`] reads, so results that echo the config keep their form), as
/// its table otherwise; for `#[serde(serialize_with = "crate::registry::name_if_bare")]`.
pub fn name_if_bare<T: Serialize, S: Serializer>(config: &T, s: S) -> std::result::Result<S::Ok, S::Error> {
    let value = serde_json::to_value(config).map_err(serde::ser::Error::custom)?;
    if let serde_json::Value::Object(table) = &value {
        if let (1, Some(name)) = (table.len(), table.values().next()) {
            return name.serialize(s);
        }
    }
    value.serialize(s)
}
