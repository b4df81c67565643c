//! Retry hints vendors put in error responses, as waits in nanoseconds.
//!
//! Contract: every wait is a `u64` of nanoseconds within `[0, MAX_WAIT]`
//! (24 h); a longer request is MAX_WAIT, and anything unparsable, negative
//! or non-finite is "no hint", 0. Nothing panics or overflows: numbers of
//! any length saturate, then clamp. The grammar (ASCII but for µ):
//!
//! - number: `\d+(\.\d+)?`: no sign, exponent, leading or trailing `.`,
//!   `_` or spaces; read exactly (fraction digits past the 18th ignored),
//!   truncated to whole nanoseconds.
//! - duration: `(number unit)+`, unit one of `ns us µs μs ms s m h`
//!   (case-sensitive), e.g. "120ms", "3.328s", "6m0s", "1m30.5s".
//! - HTTP date: IMF-fixdate only (RFC 9110 §5.6.7), exactly
//!   `Sun, 06 Nov 1994 08:49:37 GMT` with names in any ASCII case, a real
//!   calendar day and time (second < 60); the weekday is not checked
//!   against the date. RFC 850 and asctime dates are not dates.
//! - header names: an exact match wins, else the first that is equal
//!   ignoring ASCII case; an absent header is empty.
//!
//! [`after`] takes the first usable of: `retry-after-ms` (a number of
//! milliseconds); `retry-after` as a number of seconds, or as an HTTP date
//! measured from the response's own `Date` header (the sandbox clock is
//! fake): a date at or before Date is 0, and without a parsable Date the
//! date is unusable; the larger of the `x-ratelimit-reset-requests` and
//! `x-ratelimit-reset-tokens` durations.
//!
//! [`from_message`] finds the first `try again in ` or `retry in ` (single
//! spaces, ASCII case ignored) followed by a duration, or by a number, optional ASCII
//! whitespace and `ms`, `s`, `sec`, `second` or `seconds` (case ignored),
//! then by no ASCII letter, digit or `_`.

/// MAX_WAIT bounds every hint, in nanoseconds (24 h).
pub const MAX_WAIT: u64 = 24 * 3600 * SEC;

const US: u64 = 1_000;
const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

/// UNITS are the duration units and their nanoseconds, longest name first
/// where one is a prefix of another ("ms" before "m").
const UNITS: [(&str, u64); 8] =
    [("ns", 1), ("us", US), ("µs", US), ("μs", US), ("ms", MS), ("s", SEC), ("m", 60 * SEC), ("h", 3600 * SEC)];

/// WORDS are the units a message may give after a number and optional
/// whitespace (ASCII case ignored).
const WORDS: [(&str, u64); 5] = [("ms", MS), ("s", SEC), ("sec", SEC), ("second", SEC), ("seconds", SEC)];

/// get returns the value of the header named name, or an empty slice.
pub fn get<'a, K: AsRef<[u8]>, V: AsRef<[u8]>>(h: &'a [(K, V)], name: &str) -> &'a [u8] {
    let name = name.as_bytes();
    let exact = h.iter().find(|(k, _)| k.as_ref() == name);
    match exact.or_else(|| h.iter().find(|(k, _)| equal_fold(k.as_ref(), name))) {
        Some((_, v)) => v.as_ref(),
        None => &[],
    }
}

/// equal_fold reports whether a and b are equal ignoring ASCII case.
pub fn equal_fold(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// after returns the wait the headers ask for, 0 for none (see the module
/// documentation for the precedence).
pub fn after<K: AsRef<[u8]>, V: AsRef<[u8]>>(h: &[(K, V)]) -> u64 {
    if let Some(ns) = decimal(get(h, "retry-after-ms"), MS) {
        return ns;
    }
    let v = get(h, "retry-after");
    if let Some(ns) = decimal(v, SEC) {
        return ns;
    }
    if let (Some(at), Some(date)) = (http_date(v), http_date(get(h, "date"))) {
        return (at - date).clamp(0, (MAX_WAIT / SEC) as i64) as u64 * SEC;
    }
    duration(get(h, "x-ratelimit-reset-requests")).max(duration(get(h, "x-ratelimit-reset-tokens")))
}

/// should_retry returns the x-should-retry verdict ("true" or "false" in
/// any ASCII case), or None.
pub fn should_retry<K: AsRef<[u8]>, V: AsRef<[u8]>>(h: &[(K, V)]) -> Option<bool> {
    let v = get(h, "x-should-retry");
    if v.eq_ignore_ascii_case(b"true") {
        Some(true)
    } else if v.eq_ignore_ascii_case(b"false") {
        Some(false)
    } else {
        None
    }
}

/// from_message returns the wait a "try again in 3.328s" phrase in msg asks
/// for, 0 for none.
pub fn from_message(msg: &[u8]) -> u64 {
    (0..msg.len()).find_map(|i| phrase(&msg[i..])).unwrap_or(0)
}

/// duration reads s as a whole duration ("1m30.5s", Gemini's "34.4s"), 0
/// when it is not one.
pub fn duration(s: &[u8]) -> u64 {
    match components(s) {
        Some((ns, [])) => ns,
        _ => 0,
    }
}

/// phrase reads a message hint at the very start of s.
fn phrase(s: &[u8]) -> Option<u64> {
    let s = ["try again in ", "retry in "].iter().find_map(|p| {
        let p = p.as_bytes();
        s.get(..p.len()).filter(|head| head.eq_ignore_ascii_case(p)).map(|_| &s[p.len()..])
    })?;
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    if let Some((ns, rest)) = components(s) {
        if !rest.first().map_or(false, word) {
            return Some(ns);
        }
    }
    let (int, frac, rest) = number(s)?;
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let unit = &rest[..rest.iter().take_while(|b| word(b)).count()];
    let (_, unit) = WORDS.iter().find(|(w, _)| unit.eq_ignore_ascii_case(w.as_bytes()))?;
    Some(times(int, frac, *unit).min(MAX_WAIT))
}

/// components reads as many `number unit` pairs as start s and returns their
/// sum (clamped) and the rest, or None when not even one does.
fn components(mut s: &[u8]) -> Option<(u64, &[u8])> {
    let mut total = None;
    while let Some((int, frac, rest)) = number(s) {
        let (name, unit) = match UNITS.iter().find(|(n, _)| rest.starts_with(n.as_bytes())) {
            Some(&u) => u,
            None => break,
        };
        total = Some(times(int, frac, unit).saturating_add(total.unwrap_or(0)));
        s = &rest[name.len()..];
    }
    total.map(|ns| (ns.min(MAX_WAIT), s))
}

/// decimal reads s as a whole number of units, in nanoseconds within
/// [0, MAX_WAIT].
fn decimal(s: &[u8], unit: u64) -> Option<u64> {
    match number(s)? {
        (int, frac, []) => Some(times(int, frac, unit).min(MAX_WAIT)),
        _ => None,
    }
}

/// number splits `\d+(\.\d+)?` off the start of s: the integer digits, the
/// fraction digits (maybe none) and the rest.
fn number(s: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let (int, rest) = s.split_at(digits(s));
    let (frac, rest) = match rest {
        [b'.', tail @ ..] if digits(tail) > 0 => tail.split_at(digits(tail)),
        _ => (&[][..], rest),
    };
    (!int.is_empty()).then(|| (int, frac, rest))
}

/// times is int.frac units in nanoseconds, truncated, saturating at u64::MAX.
fn times(int: &[u8], frac: &[u8], unit: u64) -> u64 {
    let whole = int.iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add(u64::from(d - b'0')));
    let (f, scale) = frac.iter().take(18).fold((0u128, 1u128), |(f, s), &d| (f * 10 + u128::from(d - b'0'), s * 10));
    // f < scale, so the fraction's nanoseconds are below unit and fit.
    whole.saturating_mul(unit).saturating_add((f * u128::from(unit) / scale) as u64)
}

/// http_date reads an IMF-fixdate as Unix seconds.
fn http_date(s: &[u8]) -> Option<i64> {
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let shape = b"www, 00 mmm 0000 00:00:00 GMT";
    let fits = |(&b, &t): (&u8, &u8)| matches!(t, b'w' | b'm') || b == t || (t == b'0' && b.is_ascii_digit());
    if s.len() != shape.len() || !s.iter().zip(shape).all(fits) {
        return None;
    }
    let name = |names: &[&str], at: usize| names.iter().position(|n| s[at..at + 3].eq_ignore_ascii_case(n.as_bytes()));
    name(&DAYS, 0)?;
    let month = name(&MONTHS, 8)? as i64 + 1;
    let num = |at: usize, len: usize| s[at..at + len].iter().fold(0, |n, &b| n * 10 + i64::from(b - b'0'));
    let (day, year, hour, min, sec) = (num(5, 2), num(12, 4), num(17, 2), num(20, 2), num(23, 2));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = [31, 28 + i64::from(leap), 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize - 1];
    if day < 1 || day > month_days || hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    // days_from_civil (H. Hinnant): years counted from March, so that
    // February's leap day ends one.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Some(days * 86_400 + hour * 3600 + min * 60 + sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DATE is a Date header; AT, as a retry-after, is one minute later.
    const DATE: &str = "Fri, 02 Jan 2026 03:04:05 GMT";
    const AT: &str = "Fri, 02 Jan 2026 03:05:05 GMT";
    const RA: &str = "retry-after";
    const RESET: &str = "x-ratelimit-reset-tokens";

    #[test]
    fn after_table() {
        let cases: &[(&str, &[(&str, &str)], u64)] = &[
            ("none", &[], 0),
            ("ms first", &[("retry-after-ms", "250"), (RA, "9")], 250 * MS),
            ("zero ms is a hint", &[("retry-after-ms", "0"), (RA, "9")], 0),
            ("seconds", &[("Retry-After", "2.5")], 2500 * MS),
            ("http date", &[(RA, AT), ("Date", DATE)], 60 * SEC),
            ("http date, names in any case", &[(RA, "fri, 02 JAN 2026 03:05:05 GMT"), ("date", DATE)], 60 * SEC),
            ("http date without Date is ignored", &[(RA, AT)], 0),
            ("http date without Date falls through", &[(RA, AT), (RESET, "2s")], 2 * SEC),
            ("http date, garbage Date", &[(RA, AT), ("date", "now")], 0),
            ("http date in the past", &[(RA, DATE), ("date", AT)], 0),
            ("past date does not fall through", &[(RA, DATE), ("date", DATE), (RESET, "2s")], 0),
            ("far future date clamps", &[(RA, "Fri, 02 Jan 2099 03:05:05 GMT"), ("date", DATE)], MAX_WAIT),
            ("leap day", &[(RA, "Wed, 01 Mar 2000 00:00:00 GMT"), ("date", "Tue, 29 Feb 2000 23:59:59 GMT")], SEC),
            ("new year", &[(RA, "Thu, 01 Jan 1970 00:00:00 GMT"), ("date", "Wed, 31 Dec 1969 23:59:58 GMT")], 2 * SEC),
            ("30 February is no date", &[(RA, "Mon, 30 Feb 2026 03:05:05 GMT"), ("date", DATE)], 0),
            ("1900 is no leap year", &[(RA, "Thu, 29 Feb 1900 03:05:05 GMT"), ("date", DATE)], 0),
            ("hour 24 is no time", &[(RA, "Fri, 02 Jan 2026 24:00:00 GMT"), ("date", DATE)], 0),
            ("zone must be GMT", &[(RA, "Fri, 02 Jan 2026 03:05:05 UTC"), ("date", DATE)], 0),
            ("one-digit day is obsolete", &[(RA, "Fri, 2 Jan 2026 03:05:05 GMT"), ("date", DATE)], 0),
            ("RFC 850 date", &[(RA, "Friday, 02-Jan-26 03:05:05 GMT"), ("date", DATE)], 0),
            ("asctime date", &[(RA, "Fri Jan  2 03:05:05 2026"), ("date", DATE)], 0),
            ("garbage", &[(RA, "soon")], 0),
            ("empty", &[(RA, ""), ("retry-after-ms", "")], 0),
            ("negative ms falls through", &[("retry-after-ms", "-5"), (RA, "3")], 3 * SEC),
            ("exponent is garbage", &[(RA, "1e300")], 0),
            ("non-finite is garbage", &[("retry-after-ms", "+Inf"), (RA, "NaN")], 0),
            ("overflow-sized seconds clamp", &[(RA, "99999999999999999999999")], MAX_WAIT),
            ("just under MAX_WAIT", &[(RA, "86399.999999999")], MAX_WAIT - 1),
            ("MAX_WAIT exactly", &[(RA, "86400")], MAX_WAIT),
            ("past MAX_WAIT clamps", &[("retry-after-ms", "86400000.000001")], MAX_WAIT),
            ("reset: the longer wins", &[("x-ratelimit-reset-requests", "120ms"), (RESET, "3.328s")], 3328 * MS),
            ("reset duration 6m0s", &[("X-RateLimit-Reset-Tokens", "6m0s")], 360 * SEC),
            ("bad reset duration is ignored", &[("x-ratelimit-reset-requests", "5"), (RESET, "1s")], SEC),
            ("retry-after beats reset", &[(RA, "1"), (RESET, "9s")], SEC),
            ("exact name wins", &[("RETRY-AFTER", "1"), (RA, "2")], 2 * SEC),
            ("first case-insensitive match", &[("RETRY-AFTER", "1"), ("Retry-After", "2")], SEC),
            ("only ASCII folds", &[("retry-after-m\u{17f}", "7")], 0),
        ];
        for (name, h, want) in cases {
            assert_eq!(after(h), *want, "after: {}", name);
        }
    }

    #[test]
    fn duration_table() {
        let cases: &[(&str, &str, u64)] = &[
            ("milliseconds", "120ms", 120 * MS),
            ("fractional seconds", "3.328s", 3328 * MS),
            ("minutes and seconds", "6m0s", 360 * SEC),
            ("fractional compound", "1m30.5s", 90_500 * MS),
            ("Gemini retryDelay", "34.4s", 34_400 * MS),
            ("every unit", "1h2m3s4ms5us6µs7ns", 3_723_004_011_007),
            ("Greek mu", "3μs", 3_000),
            ("hours clamp", "25h", MAX_WAIT),
            ("overflow-sized clamps", "99999999999999999999999h1s", MAX_WAIT),
            ("sub-nanosecond truncates", "0.9ns", 0),
            ("long fraction", "1.0000000000000000000000001s", SEC),
            ("zero", "0s", 0),
            ("no unit", "34", 0),
            ("negative", "-1s", 0),
            ("leading dot", ".5s", 0),
            ("exponent", "1e30s", 0),
            ("upper-case unit", "1S", 0),
            ("trailing garbage", "1s!", 0),
            ("dangling number", "1m30", 0),
            ("empty", "", 0),
        ];
        for (name, s, want) in cases {
            assert_eq!(duration(s.as_bytes()), *want, "duration: {}", name);
        }
    }

    #[test]
    fn from_message_table() {
        let cases: &[(&str, &str, u64)] = &[
            ("seconds with a full stop", "Please try again in 3.328s.", 3328 * MS),
            ("milliseconds", "Please try again in 20ms.", 20 * MS),
            ("compound duration", "Please try again in 1m30.5s.", 90_500 * MS),
            ("retry in, word unit", "retry in 2 seconds", 2 * SEC),
            ("case ignored", "RETRY IN 4 SEC", 4 * SEC),
            ("upper-case ms", "try again in 5 MS", 5 * MS),
            ("singular second", "Try again in 1 second, please", SEC),
            ("first complete phrase", "try again in 5 secondsx, retry in 1s", SEC),
            ("unit must end the word", "try again in 7sx", 0),
            ("exponent", "try again in 1e3s", 0),
            ("tab is not the phrase's space", "retry in\t2s", 0),
            ("whitespace before a word unit", "retry in 2\t\n s", 2 * SEC),
            ("overflow-sized clamps", "try again in 99999999999999999999999s", MAX_WAIT),
            ("negative", "try again in -3s", 0),
            ("no phrase", "no hint here", 0),
            ("phrase without number", "please try again in a moment", 0),
            ("empty", "", 0),
        ];
        for (name, msg, want) in cases {
            assert_eq!(from_message(msg.as_bytes()), *want, "from_message: {}", name);
        }
    }

    #[test]
    fn header_table() {
        let cases: &[(&str, &[(&str, &str)], Option<bool>)] = &[
            ("False any case", &[("X-Should-Retry", "False")], Some(false)),
            ("TRUE", &[("x-should-retry", "TRUE")], Some(true)),
            ("maybe", &[("x-should-retry", "maybe")], None),
            ("absent", &[], None),
            ("exact match wins", &[("X-SHOULD-RETRY", "true"), ("x-should-retry", "false")], Some(false)),
        ];
        for (name, h, want) in cases {
            assert_eq!(should_retry(h), *want, "should_retry: {}", name);
        }
        let folds: &[(&str, &str, &str, bool)] = &[
            ("same", "type", "type", true),
            ("mixed case", "Retry-After", "RETRY-after", true),
            ("kelvin sign is not k", "\u{212a}", "k", false),
            ("prefix", "typ", "type", false),
            ("empty", "", "", true),
        ];
        for (name, a, b, want) in folds {
            assert_eq!(equal_fold(a.as_bytes(), b.as_bytes()), *want, "equal_fold: {}", name);
        }
        assert_eq!(get(&[("A", "1"), ("a", "2")], "a"), b"2", "get: exact match wins");
        assert_eq!(get(&[("b", "1")], "a"), b"", "get: absent is empty");
        assert_eq!(http_date(b"Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777), "http_date: RFC 9110 example");
        assert_eq!(http_date(b"Fri, 31 Dec 9999 23:59:59 GMT"), Some(253_402_300_799), "http_date: year 9999");
    }
}
