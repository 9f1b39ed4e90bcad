//! The timeline's rows as columns, and their names.

/// One column of timeline rows.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// Counts and times.
    U64(Vec<u64>),
    /// Rates, means and shares; NaN where the window has nothing to average.
    F64(Vec<f64>),
}

/// Rows of the timeline (a batch, or all of it), one column per metric.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimelineColumns {
    /// The columns by name: [`COLUMNS`], then those of [`Extras`].
    pub columns: Vec<(String, Column)>,
}

/// Names of the columns, in order, and whether they are floats. Ops are read, write.
/// `*_p50_ns` etc.: of the requests completed in the window (nearest rank); rates are per
/// second of simulated time; MB are 10^6 bytes.
pub const COLUMNS: [(&str, bool); 32] = [
    ("start_ns", false),
    ("reads", false),
    ("writes", false),
    ("trims", false),
    ("read_iops", true),
    ("write_iops", true),
    ("read_mb_s", true),
    ("write_mb_s", true),
    ("read_p50_ns", true),
    ("read_p99_ns", true),
    ("read_max_ns", true),
    ("write_p50_ns", true),
    ("write_p99_ns", true),
    ("write_max_ns", true),
    ("queue_depth", true),
    ("gc_page_moves", false),
    ("gc_erases", false),
    ("wl_page_moves", false),
    ("wl_erases", false),
    ("refresh_page_moves", false),
    ("refresh_erases", false),
    ("hot_page_moves", false),
    ("hot_erases", false),
    ("free_blocks_min", false),
    ("judged_reads", false),
    ("rber_mean", true),
    ("level_mean", true),
    ("retries", false),
    ("uncorrectable", false),
    ("die_util", true),
    ("channel_util", true),
    ("window_ns", false),
];

/// Columns of each flow (`workload.flows`), named `flow{i}_` and these: its requests
/// completed in the window, their MB/s and latency p99.
pub const FLOW_COLUMNS: [(&str, bool); 7] = [
    ("reads", false),
    ("writes", false),
    ("trims", false),
    ("read_mb_s", true),
    ("write_mb_s", true),
    ("read_p99_ns", true),
    ("write_p99_ns", true),
];

/// Columns of the DRAM data cache (`[cache]`): host page reads and writes that hit or
/// missed in the window, and the share that hit (NaN without any).
pub const CACHE_COLUMNS: [(&str, bool); 6] = [
    ("cache_read_hits", false),
    ("cache_read_misses", false),
    ("cache_read_hit_rate", true),
    ("cache_write_hits", false),
    ("cache_write_misses", false),
    ("cache_write_hit_rate", true),
];

/// Columns of the cached mapping table (`[ftl.mapping_cache]`), as [`CACHE_COLUMNS`].
pub const MAPPING_COLUMNS: [(&str, bool); 3] = [
    ("mapping_hits", false),
    ("mapping_misses", false),
    ("mapping_hit_rate", true),
];

/// The columns a run's timeline has beyond [`COLUMNS`]: those of each flow, and of each
/// cache that is on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extras {
    /// Flows (`workload.flows`; 0: none).
    pub flows: usize,
    /// The DRAM data cache is on.
    pub cache: bool,
    /// The mapping table is cached.
    pub mapping_cache: bool,
}

impl Extras {
    /// Names of every column of the timeline, in order, and whether they are floats.
    pub fn layout(&self) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = COLUMNS.iter().map(|&(n, f)| (n.to_string(), f)).collect();
        for i in 0..self.flows {
            out.extend(FLOW_COLUMNS.iter().map(|&(n, f)| (format!("flow{i}_{n}"), f)));
        }
        let named = |cols: &[(&str, bool)]| cols.iter().map(|&(n, f)| (n.to_string(), f)).collect::<Vec<_>>();
        if self.cache {
            out.extend(named(&CACHE_COLUMNS));
        }
        if self.mapping_cache {
            out.extend(named(&MAPPING_COLUMNS));
        }
        out
    }
}

/// A row being added to [`TimelineColumns`] (see [`TimelineColumns::row`]).
pub(super) struct RowPush<'a> {
    cols: std::slice::IterMut<'a, (String, Column)>,
}

impl RowPush<'_> {
    /// The next column's value, a count.
    #[inline]
    pub fn u(&mut self, v: u64) {
        match self.cols.next() {
            Some((_, Column::U64(c))) => c.push(v),
            other => unreachable!("a count for column {:?}", other.map(|(n, _)| n)),
        }
    }

    /// The next column's value, a float.
    #[inline]
    pub fn f(&mut self, v: f64) {
        match self.cols.next() {
            Some((_, Column::F64(c))) => c.push(v),
            other => unreachable!("a float for column {:?}", other.map(|(n, _)| n)),
        }
    }

    /// Every column got its value.
    pub fn done(self) {
        debug_assert!(self.cols.len() == 0, "a row short of its columns");
    }
}

impl TimelineColumns {
    /// No rows, with the columns of `layout`, each with room for `rows` (a batch's
    /// columns then never grow by copying).
    pub(super) fn empty(layout: &[(String, bool)], rows: usize) -> Self {
        TimelineColumns {
            columns: layout
                .iter()
                .map(|(name, float)| {
                    let col = if *float {
                        Column::F64(Vec::with_capacity(rows))
                    } else {
                        Column::U64(Vec::with_capacity(rows))
                    };
                    (name.clone(), col)
                })
                .collect(),
        }
    }

    /// A row to add: its values pushed in column order, each straight into its column.
    pub(super) fn row(&mut self) -> RowPush<'_> {
        RowPush {
            cols: self.columns.iter_mut(),
        }
    }

    pub(super) fn append(&mut self, other: TimelineColumns) {
        for ((_, a), (_, b)) in self.columns.iter_mut().zip(other.columns) {
            match (a, b) {
                (Column::U64(a), Column::U64(b)) => a.extend(b),
                (Column::F64(a), Column::F64(b)) => a.extend(b),
                _ => unreachable!("batches share the column types"),
            }
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        match &self.columns.first() {
            Some((_, Column::U64(c))) => c.len(),
            Some((_, Column::F64(c))) => c.len(),
            None => 0,
        }
    }

    /// True when no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column `name` as integers (`None`: no such integer column).
    pub fn u64s(&self, name: &str) -> Option<&[u64]> {
        self.columns.iter().find_map(|(n, c)| match c {
            Column::U64(v) if *n == name => Some(v.as_slice()),
            _ => None,
        })
    }

    /// The column `name` as floats (`None`: no such float column).
    pub fn f64s(&self, name: &str) -> Option<&[f64]> {
        self.columns.iter().find_map(|(n, c)| match c {
            Column::F64(v) if *n == name => Some(v.as_slice()),
            _ => None,
        })
    }
}
