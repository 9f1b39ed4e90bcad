//! Why a page is programmed: the host wrote it, or the FTL moved it (GC, wear leveling, read
//! refresh, a hot page leaving an unreliable chip). Placement sees it, and the flash work it
//! causes is counted under it.

/// Why a page is programmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A host write.
    Host,
    /// Moved by garbage collection.
    Gc,
    /// Moved by static wear leveling.
    WearLeveling,
    /// Moved by read refresh.
    Refresh,
    /// Moved to a reliable chip because it is read often (`hot_reliable` placement).
    HotRead,
}
