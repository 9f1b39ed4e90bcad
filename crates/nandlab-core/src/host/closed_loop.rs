//! Closed-loop replay (`host.replay = "closed"`): the host keeps exactly N requests
//! outstanding — issued and not yet completed — and issues the next request of the stream
//! the moment one completes, as IOMeter's "# of outstanding I/Os" does. Trace timestamps
//! are ignored (a request's arrival is the time it is issued; no think time).
//!
//! N is `host.outstanding`, or `host.queue_depth` when that is 0 (the older form: every
//! outstanding request at the device). The device holds at most `host.queue_depth` of
//! them (0 = all); the others wait in the host queue, where `host.scheduler` picks the
//! next one, so a reordering scheduler needs N above the device's depth.

use super::config::{HostConfig, ReplayMode};
use crate::error::{NandError, Result};

/// Requests kept outstanding in closed-loop replay.
pub fn outstanding(host: &HostConfig) -> u32 {
    match host.outstanding {
        0 => host.queue_depth,
        n => n,
    }
}

/// Checks the replay keys against each other and the scheduler (`reorders`: whether it may
/// pick another request than the oldest), given the device's depth (`device_depth`, from
/// `host.queue_depth` and the interface; 0 = unbounded).
pub fn validate(host: &HostConfig, device_depth: u32, reorders: bool) -> Result<()> {
    if host.replay == ReplayMode::Open {
        if host.outstanding > 0 {
            return Err(NandError::config(
                "host.outstanding",
                "only used with host.replay = \"closed\" (open-loop replay issues requests at their arrival times)",
            ));
        }
        if reorders && device_depth == 0 {
            return Err(NandError::config(
                "host.scheduler",
                format!(
                    "`{}` reorders the host queue, but with host.queue_depth = 0 every request goes to the device \
                     on arrival and nothing waits to be reordered (set host.queue_depth >= 1, or scheduler = \"fifo\")",
                    host.scheduler
                ),
            ));
        }
        return Ok(());
    }
    let n = outstanding(host);
    if n == 0 {
        return Err(NandError::config(
            "host.outstanding",
            "closed-loop replay needs at least 1 outstanding request (set host.outstanding or host.queue_depth)",
        ));
    }
    if reorders && (device_depth == 0 || n <= device_depth) {
        return Err(NandError::config(
            "host.scheduler",
            format!(
                "`{}` reorders the host queue, but closed-loop replay with {n} outstanding request(s) and a device \
                 depth of {} keeps them all at the device, so none waits to be reordered (set host.outstanding above \
                 host.queue_depth, or scheduler = \"fifo\")",
                host.scheduler,
                if device_depth == 0 {
                    "unbounded".to_string()
                } else {
                    device_depth.to_string()
                },
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(outstanding: u32, queue_depth: u32) -> HostConfig {
        HostConfig {
            replay: ReplayMode::Closed,
            outstanding,
            queue_depth,
            ..HostConfig::default()
        }
    }

    #[test]
    fn outstanding_defaults_to_the_queue_depth() {
        assert_eq!(outstanding(&host(0, 4)), 4);
        assert_eq!(outstanding(&host(6, 1)), 6);
    }

    #[test]
    fn bad_combinations_name_the_key() {
        let e = validate(&host(0, 0), 0, false).unwrap_err().to_string();
        assert!(e.contains("host.outstanding"), "{e}");
        // A reordering scheduler with every outstanding request at the device.
        let e = validate(&host(4, 4), 4, true).unwrap_err().to_string();
        assert!(e.contains("host.scheduler"), "{e}");
        assert!(validate(&host(5, 1), 1, true).is_ok());
        let open = HostConfig {
            outstanding: 3,
            ..HostConfig::default()
        };
        let e = validate(&open, 0, false).unwrap_err().to_string();
        assert!(e.contains("host.outstanding"), "{e}");
    }
}
