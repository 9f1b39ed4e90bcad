//! Hand-rolled field splitting and number parsing for trace lines.
//!
//! Everything works on byte slices borrowed from the reader's reused line buffer: no
//! allocation happens on the success path. A bad field becomes a [`FieldError`] naming the
//! field; the reader adds the file name and line number.

use std::fmt;

/// What is wrong with one field of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Name of the field, as the format's documentation spells it.
    pub field: &'static str,
    /// What is wrong with it.
    pub msg: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.msg)
    }
}

/// Result of parsing one field.
pub type FieldResult<T> = std::result::Result<T, FieldError>;

/// A field value for an error message: lossy UTF-8, control characters escaped (`\u{0}`),
/// at most 40 characters.
pub fn show(s: &[u8]) -> String {
    let text = String::from_utf8_lossy(s);
    let mut out = String::new();
    for c in text.chars().take(40) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

pub(crate) fn err(field: &'static str, msg: impl Into<String>) -> FieldError {
    FieldError { field, msg: msg.into() }
}

#[inline]
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r' || b == b'\n'
}

/// Strips spaces, tabs, CR and LF from both ends.
#[inline]
pub fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if is_space(*first) {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if is_space(*last) {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Splits a line into fields: on commas (each field trimmed) or on runs of blanks.
pub struct Fields<'a> {
    rest: &'a [u8],
    comma: bool,
    done: bool,
}

impl<'a> Fields<'a> {
    /// Comma-separated fields; blanks around each field are dropped.
    #[inline]
    pub fn csv(line: &'a [u8]) -> Self {
        Fields {
            rest: line,
            comma: true,
            done: false,
        }
    }

    /// Fields separated by one or more spaces or tabs.
    #[inline]
    pub fn blank(line: &'a [u8]) -> Self {
        Fields {
            rest: trim(line),
            comma: false,
            done: false,
        }
    }

    /// The next field, or `None` past the last one.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&'a [u8]> {
        if self.done {
            return None;
        }
        if self.comma {
            match self.rest.iter().position(|&b| b == b',') {
                Some(i) => {
                    let f = &self.rest[..i];
                    self.rest = &self.rest[i + 1..];
                    Some(trim(f))
                }
                None => {
                    self.done = true;
                    Some(trim(self.rest))
                }
            }
        } else {
            if self.rest.is_empty() {
                self.done = true;
                return None;
            }
            let end = self
                .rest
                .iter()
                .position(|&b| b == b' ' || b == b'\t')
                .unwrap_or(self.rest.len());
            let f = &self.rest[..end];
            let mut r = &self.rest[end..];
            while let [b' ' | b'\t', tail @ ..] = r {
                r = tail;
            }
            self.rest = r;
            Some(f)
        }
    }

    /// The next field, or an error saying the line has too few fields.
    #[inline]
    pub fn need(&mut self, field: &'static str) -> FieldResult<&'a [u8]> {
        self.next().ok_or_else(|| err(field, MISSING))
    }
}

/// The message of a field the line does not have.
pub const MISSING: &str = "missing (too few fields on the line)";

/// A non-negative decimal integer (`u64`); a sign, a fraction or an overflow is an error.
#[inline]
pub fn parse_u64(s: &[u8], field: &'static str) -> FieldResult<u64> {
    if s.is_empty() || s.len() > 20 {
        return Err(bad_int(s, field));
    }
    let mut v: u64 = 0;
    if s.len() < 20 {
        // At most 19 digits: cannot overflow.
        for &b in s {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return Err(bad_int(s, field));
            }
            v = v * 10 + u64::from(d);
        }
    } else {
        for &b in s {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return Err(bad_int(s, field));
            }
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| err(field, format!("`{}` is too large", show(s))))?;
        }
    }
    Ok(v)
}

#[cold]
fn bad_int(s: &[u8], field: &'static str) -> FieldError {
    if s.is_empty() {
        err(field, "empty, expected a non-negative integer")
    } else if s.first() == Some(&b'-') {
        err(field, format!("negative value `{}`", show(s)))
    } else if s.iter().all(u8::is_ascii_digit) {
        err(field, format!("`{}` is too large", show(s)))
    } else {
        err(field, format!("expected a non-negative integer, got `{}`", show(s)))
    }
}

/// A `u32` (device, disk, ASU, LUN or volume number).
#[inline]
pub fn parse_u32(s: &[u8], field: &'static str) -> FieldResult<u32> {
    let v = parse_u64(s, field)?;
    u32::try_from(v).map_err(|_| err(field, format!("`{}` is too large (max {})", show(s), u32::MAX)))
}

/// A size that must be positive.
#[inline]
pub fn parse_size(s: &[u8], field: &'static str) -> FieldResult<u64> {
    let v = parse_u64(s, field)?;
    if v == 0 {
        return Err(err(field, "size is 0 (a request must have at least one byte)"));
    }
    Ok(v)
}

/// `a * b`, or an error naming `field` on overflow.
#[inline]
pub fn mul(a: u64, b: u64, field: &'static str) -> FieldResult<u64> {
    a.checked_mul(b)
        .ok_or_else(|| err(field, format!("{a} × {b} overflows 64 bits")))
}

/// A non-negative time, integer or decimal (`12`, `0.551706`, `1.5e3`), in units of
/// `unit_ns` nanoseconds, returned in nanoseconds (fractions of a ns are truncated).
#[inline]
pub fn parse_time(s: &[u8], unit_ns: u64, field: &'static str) -> FieldResult<u64> {
    let mut i = 0;
    let mut int: u64 = 0;
    let mut digits = 0usize;
    while i < s.len() && s[i].is_ascii_digit() {
        int = match int.checked_mul(10).and_then(|v| v.checked_add(u64::from(s[i] - b'0'))) {
            Some(v) => v,
            None => return Err(err(field, format!("`{}` is too large", show(s)))),
        };
        i += 1;
        digits += 1;
    }
    let mut ns = int
        .checked_mul(unit_ns)
        .ok_or_else(|| err(field, format!("`{}` is too large for a time in ns", show(s))))?;
    if i < s.len() && s[i] == b'.' {
        i += 1;
        let mut frac: u64 = 0;
        let mut den: u64 = 1;
        while i < s.len() && s[i].is_ascii_digit() {
            if den < 1_000_000_000_000_000_000 {
                frac = frac * 10 + u64::from(s[i] - b'0');
                den *= 10;
            }
            i += 1;
            digits += 1;
        }
        let add = (u128::from(frac) * u128::from(unit_ns) / u128::from(den)) as u64;
        ns = ns
            .checked_add(add)
            .ok_or_else(|| err(field, format!("`{}` is too large for a time in ns", show(s))))?;
    }
    if i == s.len() && digits > 0 {
        return Ok(ns);
    }
    if i < s.len() && digits > 0 && (s[i] == b'e' || s[i] == b'E') {
        return parse_time_float(s, unit_ns, field);
    }
    Err(bad_time(s, field))
}

#[cold]
fn parse_time_float(s: &[u8], unit_ns: u64, field: &'static str) -> FieldResult<u64> {
    let v: f64 = std::str::from_utf8(s)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad_time(s, field))?;
    let ns = v * unit_ns as f64;
    if !ns.is_finite() || ns < 0.0 || ns >= u64::MAX as f64 {
        return Err(err(field, format!("`{}` is out of range for a time in ns", show(s))));
    }
    Ok(ns as u64)
}

#[cold]
fn bad_time(s: &[u8], field: &'static str) -> FieldError {
    if s.is_empty() {
        err(field, "empty, expected a non-negative time")
    } else if s.first() == Some(&b'-') {
        err(field, format!("negative time `{}`", show(s)))
    } else {
        err(field, format!("expected a non-negative number, got `{}`", show(s)))
    }
}

/// A hexadecimal byte such as a SCSI opcode (`28`, `2a`, `0x2A`).
#[inline]
pub fn parse_hex_u8(s: &[u8], field: &'static str) -> FieldResult<u8> {
    let digits = match s {
        [b'0', b'x' | b'X', rest @ ..] => rest,
        _ => s,
    };
    if digits.is_empty() || digits.len() > 2 {
        return Err(err(
            field,
            format!("expected a hex opcode such as 28 or 2a, got `{}`", show(s)),
        ));
    }
    let mut v: u8 = 0;
    for &b in digits {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => {
                return Err(err(
                    field,
                    format!("expected a hex opcode such as 28 or 2a, got `{}`", show(s)),
                ))
            }
        };
        v = v * 16 + d;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_values_escape_control_characters_and_stop_at_40() {
        assert_eq!(show(b"a\0b\x01"), "a\\u{0}b\\u{1}");
        assert_eq!(show(&[b'x'; 41]), format!("{}…", "x".repeat(40)));
    }

    #[test]
    fn splits_fields() {
        let mut f = Fields::blank(b"  1  2\t3 ");
        assert_eq!(f.next(), Some(&b"1"[..]));
        assert_eq!(f.next(), Some(&b"2"[..]));
        assert_eq!(f.next(), Some(&b"3"[..]));
        assert_eq!(f.next(), None);
        let mut f = Fields::csv(b"a, b ,,c");
        assert_eq!(f.next(), Some(&b"a"[..]));
        assert_eq!(f.next(), Some(&b"b"[..]));
        assert_eq!(f.next(), Some(&b""[..]));
        assert_eq!(f.next(), Some(&b"c"[..]));
        assert_eq!(f.next(), None);
        assert!(f.need("x").unwrap_err().to_string().contains("field `x`"));
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u64(b"0", "f"), Ok(0));
        assert_eq!(parse_u64(b"18446744073709551615", "f"), Ok(u64::MAX));
        assert!(parse_u64(b"18446744073709551616", "f")
            .unwrap_err()
            .msg
            .contains("too large"));
        assert!(parse_u64(b"-5", "f").unwrap_err().msg.contains("negative"));
        assert!(parse_u64(b"5x", "f").is_err());
        assert!(parse_u64(b"", "f").is_err());
        assert!(parse_size(b"0", "size").unwrap_err().msg.contains("size is 0"));
        assert_eq!(parse_u32(b"4294967295", "d"), Ok(u32::MAX));
        assert!(parse_u32(b"4294967296", "d").is_err());
    }

    #[test]
    fn times() {
        // 0.551706 s = 551,706,000 ns exactly.
        assert_eq!(parse_time(b"0.551706", 1_000_000_000, "t"), Ok(551_706_000));
        assert_eq!(parse_time(b"12", 100, "t"), Ok(1200));
        assert_eq!(parse_time(b"1.5", 1_000_000, "t"), Ok(1_500_000));
        assert_eq!(parse_time(b"3.", 1_000, "t"), Ok(3_000));
        assert_eq!(parse_time(b".25", 1_000, "t"), Ok(250));
        assert_eq!(parse_time(b"1.5e3", 1_000_000_000, "t"), Ok(1_500_000_000_000));
        // 1487300000.000000123 s (an epoch time) keeps its last nanoseconds.
        assert_eq!(
            parse_time(b"1487300000.000000123", 1_000_000_000, "t"),
            Ok(1_487_300_000_000_000_123)
        );
        assert!(parse_time(b"-1", 1, "t").unwrap_err().msg.contains("negative"));
        assert!(parse_time(b".", 1, "t").is_err());
        assert!(parse_time(b"1e", 1, "t").is_err());
        assert!(parse_time(b"abc", 1, "t").is_err());
        assert!(parse_time(b"99999999999999999999", 1, "t").is_err());
    }

    #[test]
    fn hex() {
        assert_eq!(parse_hex_u8(b"28", "op"), Ok(0x28));
        assert_eq!(parse_hex_u8(b"2a", "op"), Ok(0x2a));
        assert_eq!(parse_hex_u8(b"0x2A", "op"), Ok(0x2a));
        assert!(parse_hex_u8(b"2g", "op").is_err());
        assert!(parse_hex_u8(b"123", "op").is_err());
    }
}
