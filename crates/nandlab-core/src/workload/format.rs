//! The block-trace formats and their time units: names, defaults, and the request a trace
//! line becomes. A line is parsed in `trace_line.rs`; a trace's format is detected in
//! `detect.rs`.

use crate::error::{NandError, Result};
use crate::host::request::Op;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A block-trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormat {
    /// Detect the format from the header / first lines (and the file extension on a tie).
    #[default]
    Auto,
    /// DiskSim / MQSim / SSDsim ASCII: `time dev lba size type [critical]` separated by
    /// blanks; time in ns, `lba` and `size` in 512 B sectors, type `1` = read, `0` = write;
    /// the optional `critical` is `1` for a request of critical data (file-system metadata,
    /// seed 004) and `0` (or absent) otherwise. Fields past the sixth are ignored.
    Disksim,
    /// MSR Cambridge CSV: `Timestamp,Hostname,Disk,Type,Offset,Size,ResponseTime`; timestamp
    /// in 100 ns ticks (Windows FILETIME), `Type` `Read`/`Write`, offset and size in bytes. A
    /// leading `index ` before the timestamp (`0 128166385295514663,hm,...`) is accepted.
    Msr,
    /// UMass / SPC CSV: `ASU,LBA,Size,Opcode,Timestamp[,...]`; LBA in 512 B sectors, size in
    /// bytes, opcode `R`/`W`, timestamp in seconds (decimal). Extra fields are ignored.
    Spc,
    /// SYSTOR'17 CSV: `Timestamp,Response,IOType,LUN,Offset,Size`; timestamp in seconds
    /// (decimal, epoch), IOType `R`/`W`, offset and size in bytes.
    Systor,
    /// libCacheSim CloudPhysics CSV: `version,time,op,size,lbn`; time in seconds, op a hex
    /// SCSI opcode (08/28/88 read, 0a/2a/8a write, 42 UNMAP = trim), size in bytes, lbn in
    /// 512 B sectors.
    Cloudphysics,
    /// Alibaba block traces (2020) CSV: `device_id,opcode,offset,length,timestamp`; opcode
    /// `R`/`W`, offset and length in bytes, timestamp in µs.
    Alibaba,
    /// Tencent CBS block traces (2018) CSV: `Timestamp,Offset,Size,IOType,VolumeID`;
    /// timestamp in seconds, offset and size in 512 B sectors, IOType `0` = read, `1` = write.
    Tencent,
}

/// Every concrete (non-`auto`) format, in detection priority order.
pub const CONCRETE_FORMATS: [TraceFormat; 7] = [
    TraceFormat::Disksim,
    TraceFormat::Msr,
    TraceFormat::Spc,
    TraceFormat::Systor,
    TraceFormat::Cloudphysics,
    TraceFormat::Alibaba,
    TraceFormat::Tencent,
];

impl TraceFormat {
    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Auto => "auto",
            TraceFormat::Disksim => "disksim",
            TraceFormat::Msr => "msr",
            TraceFormat::Spc => "spc",
            TraceFormat::Systor => "systor",
            TraceFormat::Cloudphysics => "cloudphysics",
            TraceFormat::Alibaba => "alibaba",
            TraceFormat::Tencent => "tencent",
        }
    }

    /// The unit the format's time field is in when no override is given.
    pub fn default_time_unit(self) -> TimeUnit {
        match self {
            TraceFormat::Auto | TraceFormat::Disksim => TimeUnit::Ns,
            TraceFormat::Msr => TimeUnit::Ticks100ns,
            TraceFormat::Spc | TraceFormat::Systor | TraceFormat::Cloudphysics | TraceFormat::Tencent => TimeUnit::S,
            TraceFormat::Alibaba => TimeUnit::Us,
        }
    }
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TraceFormat {
    type Err = NandError;
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "auto" {
            return Ok(TraceFormat::Auto);
        }
        CONCRETE_FORMATS.into_iter().find(|f| f.name() == lower).ok_or_else(|| {
            let names: Vec<&str> = std::iter::once("auto")
                .chain(CONCRETE_FORMATS.iter().map(|f| f.name()))
                .collect();
            NandError::Invalid(format!(
                "unknown trace format `{s}`; expected one of {}",
                names.join(", ")
            ))
        })
    }
}

/// The unit of a trace's time field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds (classic DiskSim traces).
    Ms,
    /// Seconds.
    S,
    /// 100 ns ticks (Windows FILETIME, MSR Cambridge).
    Ticks100ns,
}

impl TimeUnit {
    /// Nanoseconds per unit.
    pub fn ns(self) -> u64 {
        match self {
            TimeUnit::Ns => 1,
            TimeUnit::Us => 1_000,
            TimeUnit::Ms => 1_000_000,
            TimeUnit::S => 1_000_000_000,
            TimeUnit::Ticks100ns => 100,
        }
    }

    /// The name used in configs.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "us",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
            TimeUnit::Ticks100ns => "ticks100ns",
        }
    }
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TimeUnit {
    type Err = NandError;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ns" => Ok(TimeUnit::Ns),
            "us" | "µs" => Ok(TimeUnit::Us),
            "ms" => Ok(TimeUnit::Ms),
            "s" => Ok(TimeUnit::S),
            "ticks100ns" => Ok(TimeUnit::Ticks100ns),
            _ => Err(NandError::Invalid(format!(
                "unknown time unit `{s}`; expected one of ns, us, ms, s, ticks100ns"
            ))),
        }
    }
}

/// One parsed trace line, time not yet rebased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawRequest {
    /// Trace time in ns (absolute, as the trace gives it).
    pub time_ns: u64,
    /// Byte offset.
    pub offset_bytes: u64,
    /// Length in bytes (> 0).
    pub size_bytes: u64,
    /// Operation.
    pub op: Op,
    /// Device / disk / ASU / LUN / volume number (0 when the format has none).
    pub stream: u32,
    /// The line's critical flag (the DiskSim format's optional sixth column; false in every
    /// other format).
    pub critical: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in CONCRETE_FORMATS {
            assert_eq!(f.name().parse::<TraceFormat>().unwrap(), f);
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.name()));
        }
        assert!("csv".parse::<TraceFormat>().is_err());
        for u in [
            TimeUnit::Ns,
            TimeUnit::Us,
            TimeUnit::Ms,
            TimeUnit::S,
            TimeUnit::Ticks100ns,
        ] {
            assert_eq!(u.name().parse::<TimeUnit>().unwrap(), u);
            assert_eq!(serde_json::to_string(&u).unwrap(), format!("\"{}\"", u.name()));
        }
    }
}
