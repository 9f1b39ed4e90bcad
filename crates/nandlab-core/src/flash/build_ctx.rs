//! What a policy's run-time instance is built with (`registry::policies!(built; ...)`).
//! Here beside the geometry it carries, so that the registry, which flash's own policy
//! families use, does not depend on flash.

use super::Geometry;
use crate::engine::rng::{component, mix64, stream_rng, SimRng};

/// What a policy's run-time instance is built with, beside its parameters: where it sits in
/// the config, the run seed, the plane it serves and the geometry.
#[derive(Clone, Copy)]
pub struct BuildCtx<'a> {
    /// Where the policy's parameters sit (`ftl.gc`): errors name keys under it, and its
    /// seed stream is told apart from other policies' by it.
    pub table: &'a str,
    /// The run seed.
    pub seed: u64,
    /// The plane the instance serves (`None`: one instance for the device).
    pub plane: Option<u32>,
    /// The device.
    pub geometry: &'a Geometry,
}

impl BuildCtx<'_> {
    /// The policy's own random stream: from the run seed, its table and its plane, so its
    /// draws never shift another policy's, another plane's, or the error draws.
    pub fn rng(&self) -> SimRng {
        let table = self.table.bytes().fold(0, |h, b| mix64(h ^ u64::from(b)));
        let plane = self.plane.map_or(u64::MAX, u64::from);
        stream_rng(self.seed, component::POLICIES ^ mix64(table ^ mix64(plane)))
    }
}
