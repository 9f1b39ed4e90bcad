//! One error type for every user mistake: each variant renders as one line that names the
//! file and line, or the config key, so front ends can print it without a backtrace.

use std::fmt::Display;

/// An error a user can act on (bad input, bad config, unreadable file).
#[derive(Debug, thiserror::Error)]
pub enum NandError {
    /// A malformed line in an input file.
    #[error("{file}:{line}: {msg}")]
    Parse {
        /// File the line came from.
        file: String,
        /// 1-based line number.
        line: u64,
        /// What is wrong with it.
        msg: String,
    },
    /// A config value that is unknown, ill-typed or impossible.
    #[error("config key `{key}`: {msg}")]
    Config {
        /// Dotted key path, e.g. `device.pages_per_block`.
        key: String,
        /// What is wrong with it.
        msg: String,
    },
    /// A file that cannot be opened, read or written.
    #[error("{path}: {msg}")]
    Io {
        /// The path involved.
        path: String,
        /// The operating-system message.
        msg: String,
    },
    /// Any other input that the simulator cannot accept.
    #[error("{0}")]
    Invalid(String),
}

/// Result type of the crate.
pub type Result<T> = std::result::Result<T, NandError>;

impl NandError {
    /// A config error on `key`.
    pub fn config(key: impl Into<String>, msg: impl Display) -> Self {
        NandError::Config {
            key: key.into(),
            msg: msg.to_string(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Display, err: impl Display) -> Self {
        NandError::Io {
            path: path.to_string(),
            msg: err.to_string(),
        }
    }

    /// A parse error at `file:line`.
    pub fn parse(file: impl Display, line: u64, msg: impl Display) -> Self {
        NandError::Parse {
            file: file.to_string(),
            line,
            msg: msg.to_string(),
        }
    }
}
