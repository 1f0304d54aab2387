//! The `format`s a manifest may name, checked as the `jsonschema` crate (without its `idna`
//! feature, as the workspace builds it for the tests) checks them: dates and times by RFC 3339, addresses by
//! the standard library, e-mail by [`email_address`], URIs and IRIs by [`fluent_uri`]. Two
//! differ on purpose: `idn-email` and `idn-hostname` accept any string, as that build does,
//! and `regex` is a pattern [`regex_lite`] compiles (the engine `pattern` runs on); and a
//! `hostname`'s `xn--` labels are read as written, not decoded.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::Format;

impl Format {
    /// Whether `s` is one.
    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::DateTime => date_time(s),
            Format::Date => date(s),
            Format::Time => time(s),
            Format::Duration => duration(s),
            Format::Email => email(s),
            Format::IdnEmail | Format::IdnHostname => true,
            Format::Hostname => hostname(s),
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => fluent_uri::Uri::parse(s).is_ok(),
            Format::UriReference => fluent_uri::UriRef::parse(s).is_ok(),
            Format::Iri => fluent_uri::Iri::parse(s).is_ok(),
            Format::IriReference => fluent_uri::IriRef::parse(s).is_ok(),
            Format::Uuid => uuid(s),
            Format::UriTemplate => uri_template(s),
            Format::JsonPointer => s.is_empty() || s.strip_prefix('/').is_some_and(tokens),
            Format::RelativeJsonPointer => relative_pointer(s),
            Format::Regex => crate::pattern::compile(s).is_ok(),
        }
    }
}

/// Two ASCII digits as a number.
fn digits(b: &[u8]) -> Option<u16> {
    b.iter().try_fold(0u16, |n, d| {
        d.is_ascii_digit().then(|| n * 10 + u16::from(d - b'0'))
    })
}

/// `YYYY-MM-DD`, a day the month has.
fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..]))
    else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `HH:MM:SS[.fraction]` and `Z` or `±HH:MM`; a leap second only at 23:59:60 UTC.
fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let leap_second_at =
        |utc_minutes: i32| second != 60 || utc_minutes.rem_euclid(24 * 60) == 23 * 60 + 59;
    let local = i32::from(hour) * 60 + i32::from(minute);
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len() && leap_second_at(local),
        Some(sign @ (b'+' | b'-')) => {
            let offset = &b[i + 1..];
            if offset.len() != 5 || offset[2] != b':' {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(&offset[..2]), digits(&offset[3..])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let offset = i32::from(oh) * 60 + i32::from(om);
            let utc = if *sign == b'+' {
                local - offset
            } else {
                local + offset
            };
            leap_second_at(utc)
        }
        _ => false,
    }
}

/// A date, `T` (either case), a time.
fn date_time(s: &str) -> bool {
    match s.bytes().position(|b| b == b'T' || b == b't') {
        Some(t) => date(&s[..t]) && time(&s[t + 1..]),
        None => false,
    }
}

/// An RFC 3339 duration: `P`, then weeks alone, or date units in order (`Y`, `M`, `D`, no
/// gaps between `Y` and `D`), then `T` and time units in order (no gap between `H` and `S`).
fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    // Each part as its units in order, each a number then a letter.
    let units = |part: &str, letters: &[u8]| -> Option<Vec<usize>> {
        let b = part.as_bytes();
        let mut seen = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let unit = letters.iter().position(|l| Some(l) == b.get(i))?;
            if i == start || seen.last().is_some_and(|&last| last >= unit) {
                return None;
            }
            seen.push(unit);
            i += 1;
        }
        Some(seen)
    };
    let Some(date_units) = units(date_part, b"YMWD") else {
        return false;
    };
    let weeks = date_units.contains(&2);
    if weeks && date_units.len() > 1 {
        return false;
    }
    if date_units.contains(&0) && date_units.contains(&3) && !date_units.contains(&1) {
        return false;
    }
    match time_part {
        None => !date_units.is_empty(),
        Some(_) if weeks => false,
        Some(t) => match units(t, b"HMS") {
            Some(time_units) if !time_units.is_empty() => {
                !(time_units.contains(&0) && time_units.contains(&2) && !time_units.contains(&1))
            }
            _ => false,
        },
    }
}

/// An address `email_address` parses, its local part ASCII, its domain a hostname or a
/// bracketed IPv4 or `IPv6:` address.
fn email(s: &str) -> bool {
    // RFC 5321 allows an empty quoted local part, which `email_address` refuses.
    if let Some(domain) = s.strip_prefix("\"\"@") {
        return email(&format!("\"a\"@{domain}"));
    }
    let Ok(address) = s.parse::<email_address::EmailAddress>() else {
        return false;
    };
    if !address.local_part().is_ascii() {
        return false;
    }
    let domain = address.domain();
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
                literal[5..].parse::<Ipv6Addr>().is_ok()
            }
            _ => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => hostname(domain),
    }
}

/// Dot-separated labels of letters, digits and hyphens, 1 to 63 characters each, not
/// starting or ending with a hyphen, 253 in all; `--` in third and fourth place only after
/// `xn`.
fn hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && !(b.len() >= 4 && &b[2..4] == b"--" && &b[..2] != b"xn")
    })
}

/// Eight, four, four, four and twelve hex digits, joined by hyphens.
fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// JSON pointer tokens after the first `/`: `~` only as `~0` or `~1`.
fn tokens(s: &str) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

/// A number (no leading zero), then nothing, `#`, or a JSON pointer.
fn relative_pointer(s: &str) -> bool {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (number, rest) = s.split_at(end);
    if number.is_empty() || (number.len() > 1 && number.starts_with('0')) {
        return false;
    }
    rest.is_empty() || rest == "#" || rest.strip_prefix('/').is_some_and(tokens)
}

/// An RFC 6570 (level 4) template: literals and `{expressions}`.
fn uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let pct =
        |i: usize| i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit();
    while i < b.len() {
        match b[i] {
            b'{' => {
                i += 1;
                if b.get(i).is_some_and(|c| b"+#./;?&=,!@|".contains(c)) {
                    i += 1;
                }
                loop {
                    // A varname: varchars, single dots between them.
                    let mut chars = 0;
                    loop {
                        match b.get(i) {
                            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => i += 1,
                            Some(b'%') if pct(i) => i += 3,
                            Some(b'.') if chars > 0 => {
                                i += 1;
                                chars = 0;
                                continue;
                            }
                            _ => break,
                        }
                        chars += 1;
                    }
                    if chars == 0 {
                        return false;
                    }
                    match b.get(i) {
                        Some(b':') => {
                            i += 1;
                            let start = i;
                            while i - start < 4 && b.get(i).is_some_and(u8::is_ascii_digit) {
                                i += 1;
                            }
                            if i == start || b[start] == b'0' {
                                return false;
                            }
                        }
                        Some(b'*') => i += 1,
                        _ => {}
                    }
                    match b.get(i) {
                        Some(b',') => i += 1,
                        Some(b'}') => {
                            i += 1;
                            break;
                        }
                        _ => return false,
                    }
                }
            }
            b'%' if pct(i) => i += 3,
            0x00..=0x20 | b'"' | b'<' | b'>' | b'%' | b'\\' | b'^' | b'`' | b'|' | b'}' | 0x7F => {
                return false;
            }
            _ => i += 1,
        }
    }
    true
}
