//! Formatting file times as RFC 3339 timestamps, without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` as an RFC 3339 timestamp in UTC to the second, such as `2024-05-01T12:34:56Z`.
///
/// `None` for a time outside the years 0000 to 9999, which RFC 3339 cannot write.
pub(crate) fn rfc3339_utc(time: SystemTime) -> Option<String> {
    // Whole seconds since the epoch, rounded down (towards the past) for times before it.
    let seconds: i64 = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).ok()?,
        Err(before) => {
            let before = before.duration();
            let whole = i64::try_from(before.as_secs()).ok()?;
            let partial = i64::from(before.subsec_nanos() > 0);
            whole.checked_add(partial)?.checked_neg()?
        }
    };
    let days = seconds.div_euclid(86_400);
    let second_of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return None;
    }
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second_of_day / 3600,
        second_of_day % 3600 / 60,
        second_of_day % 60
    ))
}

/// The proleptic Gregorian date `days` days after 1970-01-01, as (year, month, day).
///
/// Howard Hinnant's `civil_from_days`: count in 400-year eras of 146097 days, each of which
/// repeats the calendar exactly, with years starting on 1 March so the leap day comes last.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let shifted = days + 719_468; // Days from 0000-03-01 to 1970-01-01.
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097); // 0..=146096
    // 0..=399, correcting for the leap days of 4-, 100- and 400-year cycles.
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    // 0..=365, counting from 1 March.
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // 0..=11
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(seconds: i64) -> Option<String> {
        let offset = Duration::from_secs(seconds.unsigned_abs());
        let time = if seconds >= 0 {
            UNIX_EPOCH + offset
        } else {
            UNIX_EPOCH - offset
        };
        rfc3339_utc(time)
    }

    #[test]
    fn known_instants_format_exactly() {
        assert_eq!(at(0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(
            at(951_782_400).as_deref(),
            Some("2000-02-29T00:00:00Z"),
            "a leap day"
        );
        assert_eq!(at(1_700_000_000).as_deref(), Some("2023-11-14T22:13:20Z"));
        assert_eq!(at(4_102_444_799).as_deref(), Some("2099-12-31T23:59:59Z"));
        assert_eq!(at(-1).as_deref(), Some("1969-12-31T23:59:59Z"));
        assert_eq!(at(-62_135_596_800).as_deref(), Some("0001-01-01T00:00:00Z"));
    }

    #[test]
    fn fractions_round_towards_the_past() {
        let just_after = UNIX_EPOCH + Duration::from_millis(1_999);
        assert_eq!(
            rfc3339_utc(just_after).as_deref(),
            Some("1970-01-01T00:00:01Z")
        );
        let just_before = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(
            rfc3339_utc(just_before).as_deref(),
            Some("1969-12-31T23:59:59Z")
        );
    }

    #[test]
    fn years_past_9999_have_no_rfc3339_form() {
        assert_eq!(at(253_402_300_800), None, "10000-01-01");
        assert_eq!(at(253_402_300_799).as_deref(), Some("9999-12-31T23:59:59Z"));
    }
}
