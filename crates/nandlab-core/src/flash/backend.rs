//! Timed back-end resources (being written).
