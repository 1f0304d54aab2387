//! An entry's lifecycle: the version it appeared in, its deprecation, its former names.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::source::Span;

/// `since:`, `deprecated:` and `aliases:` of a tool, prompt or resource, validated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lifecycle {
    /// The version it appeared in.
    pub since: Option<String>,
    /// Its deprecation, when it is on its way out.
    pub deprecated: Option<DeprecationDef>,
    /// Its former names (a resource's: former URIs), still answered, in manifest order.
    pub aliases: Vec<Alias>,
}

/// A deprecation.
#[derive(Debug, Clone)]
pub(crate) struct DeprecationDef {
    /// The version it was deprecated in.
    pub since: Option<String>,
    /// Why.
    pub reason: String,
    /// The entry of the same kind to use instead, active.
    pub replaced_by: Option<String>,
    /// The day after which it may be removed.
    pub remove_after: Option<Date>,
    /// Where `deprecated:` is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
    /// Where `remove_after:` is written, or the mapping.
    pub remove_after_span: Span,
}

/// A former name, answered as the entry's own.
#[derive(Debug, Clone)]
pub(crate) struct Alias {
    /// The name.
    pub name: String,
    /// The constant naming it in `names::` (tools only).
    pub constant: String,
    /// The day after which it may be removed.
    pub remove_after: Option<Date>,
    /// Where it is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
    /// Where `remove_after:` is written, or the name.
    pub remove_after_span: Span,
}

impl Lifecycle {
    /// The sentence a deprecated entry's published description ends with; `what` names the
    /// kind ("tool").
    pub(crate) fn sentence(&self, what: &str) -> Option<String> {
        let d = self.deprecated.as_ref()?;
        let mut s = format!("Deprecated: {}", end_sentence(&d.reason));
        if let Some(by) = &d.replaced_by {
            s.push_str(&format!(" Use the {what} `{by}` instead."));
        }
        if let Some(date) = d.remove_after {
            s.push_str(&format!(" It may be removed after {date}."));
        }
        Some(s)
    }

    /// `description`, then the deprecation sentence when there is one.
    pub(crate) fn describe(&self, description: String, what: &str) -> String {
        match self.sentence(what) {
            None => description,
            Some(s) if description.is_empty() => s,
            Some(s) => format!("{} {s}", end_sentence(&description)),
        }
    }

    /// The value published under [`LIFECYCLE_META_KEY`](mcp_contract_spec::LIFECYCLE_META_KEY),
    /// when `since:` or `deprecated:` is written.
    pub(crate) fn meta(&self) -> Option<Value> {
        if self.since.is_none() && self.deprecated.is_none() {
            return None;
        }
        let mut m = Map::new();
        let state = if self.deprecated.is_some() {
            "deprecated"
        } else {
            "active"
        };
        m.insert("state".into(), json!(state));
        if let Some(since) = &self.since {
            m.insert("since".into(), json!(since));
        }
        if let Some(d) = &self.deprecated {
            if let Some(since) = &d.since {
                m.insert("deprecatedSince".into(), json!(since));
            }
            m.insert("reason".into(), json!(d.reason));
            if let Some(by) = &d.replaced_by {
                m.insert("replacedBy".into(), json!(by));
            }
            if let Some(date) = d.remove_after {
                m.insert("removeAfter".into(), json!(date.to_string()));
            }
        }
        Some(Value::Object(m))
    }
}

/// `text` ending with a full stop, unless it ends a sentence already.
fn end_sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// A calendar day, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    /// The day `text` names, in the `YYYY-MM-DD` form (RFC 3339's `full-date`); `None` for
    /// any other text or a day the calendar lacks (`2027-02-30`).
    pub fn parse(text: &str) -> Option<Date> {
        // The calendar's rules are the `date` format's, as a parameter's value is checked.
        if !mcp_contract_spec::Format::Date.accepts(text) {
            return None;
        }
        Some(Date {
            year: text[..4].parse().ok()?,
            month: text[5..7].parse().ok()?,
            day: text[8..].parse().ok()?,
        })
    }

    /// Today in UTC, by the system clock.
    pub fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days((secs / 86_400) as i64)
    }

    /// The day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Date { year, month, day }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::Date;

    #[test]
    fn dates_are_calendar_days() {
        assert_eq!(Date::parse("2027-06-30").unwrap().to_string(), "2027-06-30");
        assert!(Date::parse("2028-02-29").is_some());
        for bad in [
            "2027-02-29",
            "2027-13-01",
            "2027-6-30",
            "30/06/2027",
            "2027-06-31",
            "+027-06-30",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        assert!(Date::parse("2027-01-01") < Date::parse("2027-01-02"));
    }

    #[test]
    fn days_since_the_epoch_are_civil_days() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_days(20_789).to_string(), "2026-12-02");
        assert_eq!(Date::from_days(11_016).to_string(), "2000-02-29");
    }
}
