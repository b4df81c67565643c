//! Retry hints vendors put in error responses: the Rust port of the Go
//! package beside this file (retryhint.go), which stays the oracle
//! (FuzzRustAfter and FuzzRustText compare the two on arbitrary input).
//!
//! It reads the retry-after-ms and retry-after headers (seconds or an HTTP
//! date), x-should-retry, OpenAI's x-ratelimit-reset-* durations ("120ms",
//! "3.328s", "6m0s"), and "try again in 3.3s" phrases in message text.
//! Every wait is in nanoseconds within [0, MAX_WAIT].
//!
//! Identical results need Go's parsers, not Rust's: numbers are read as
//! strconv.ParseFloat reads them (hex floats, underscores, "Infinity",
//! range errors, and its slow path's handling of integer parts longer than
//! 800 digits), durations as time.ParseDuration, dates as time.Parse with
//! the IMF-fixdate layout, and a date's distance from now as Time.Sub
//! computes it (saturating, from Go's internal seconds).
//!
//! ```ignore
//! let h = [("Retry-After", "2.5")];
//! assert_eq!(retryhint::after(&h, now_secs, now_nanos), 2_500_000_000);
//! ```

/// MAX_WAIT bounds every hint, in nanoseconds (24 h): a vendor asking for
/// longer is treated as asking for MAX_WAIT.
pub const MAX_WAIT: u64 = 24 * 3600 * SECOND as u64;

const MILLISECOND: i64 = 1_000_000;
const SECOND: i64 = 1_000_000_000;

/// get returns the value of the header named name, compared as Go's
/// strings.EqualFold compares (Unicode simple folding, so "K" (U+212A)
/// matches k and "ſ" (U+017F) matches s), or an empty slice. An exact
/// match wins; otherwise the first header that folds to name.
pub fn get<'a, K: AsRef<[u8]>, V: AsRef<[u8]>>(h: &'a [(K, V)], name: &str) -> &'a [u8] {
    let name = name.as_bytes();
    if let Some((_, v)) = h.iter().find(|(k, _)| k.as_ref() == name) {
        return v.as_ref();
    }
    match h.iter().find(|(k, _)| equal_fold(k.as_ref(), name)) {
        Some((_, v)) => v.as_ref(),
        None => &[],
    }
}

/// after returns the wait, in nanoseconds, the headers ask for:
/// retry-after-ms first, then retry-after (delta seconds or an HTTP date,
/// relative to now, given as Unix seconds and nanoseconds; nanoseconds of
/// a second or more carry into the seconds as Go's time.Unix carries
/// them), then the largest of the x-ratelimit-reset-requests/tokens
/// durations. It returns 0 when there is no usable hint.
pub fn after<K: AsRef<[u8]>, V: AsRef<[u8]>>(h: &[(K, V)], now_secs: i64, now_nanos: u32) -> u64 {
    let v = get(h, "retry-after-ms");
    if !v.is_empty() {
        if let Some(ms) = parse_float(v) {
            if ms >= 0.0 {
                return scaled(ms, MILLISECOND);
            }
        }
    }
    let v = get(h, "retry-after");
    if !v.is_empty() {
        if let Some(s) = parse_float(v) {
            if s >= 0.0 {
                return scaled(s, SECOND);
            }
        }
        if let Some((sec, nsec)) = parse_http_date(v) {
            let now_secs = now_secs.wrapping_add((now_nanos / 1_000_000_000) as i64);
            let now_nsec = (now_nanos % 1_000_000_000) as i32;
            return clamp(sub(sec, nsec, now_secs.wrapping_add(UNIX_TO_INTERNAL), now_nsec));
        }
    }
    let mut best = 0;
    for k in ["x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"] {
        if let Some(d) = parse_duration(get(h, k)) {
            if d > best {
                best = d;
            }
        }
    }
    clamp(best)
}

/// should_retry returns the vendor's explicit x-should-retry verdict
/// ("true" or "false" in any case), or None.
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

/// from_message finds a "try again in 3.328s" style hint in a message and
/// returns its wait in nanoseconds, 0 for none. It matches as Go's
/// `(?i)(?:try again|retry) in ([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|seconds?)\b`
/// does (leftmost-first); the number is in milliseconds only when the
/// unit is exactly "ms", in seconds otherwise.
pub fn from_message(msg: &[u8]) -> u64 {
    for start in 0..msg.len() {
        let lead = match msg[start] | 0x20 {
            b't' => b"try again" as &[u8],
            b'r' => b"retry",
            _ => continue,
        };
        if let Some((num, unit)) = phrase_at(msg, start, lead) {
            return match parse_float(num) {
                Some(v) if unit == b"ms" => scaled(v, MILLISECOND),
                Some(v) => scaled(v, SECOND),
                None => 0,
            };
        }
    }
    0
}

/// duration parses a protobuf JSON duration such as "34.4s" (Gemini's
/// RetryInfo.retryDelay) into nanoseconds within [0, MAX_WAIT]; it
/// returns 0 when s is not one.
pub fn duration(s: &[u8]) -> u64 {
    match s.strip_suffix(b"s").and_then(parse_float) {
        Some(v) => scaled(v, SECOND),
        None => 0,
    }
}

/// scaled converts v units to nanoseconds within [0, MAX_WAIT]; NaN is 0.
fn scaled(v: f64, unit: i64) -> u64 {
    if !(v > 0.0) {
        return 0;
    }
    if v >= MAX_WAIT as f64 / unit as f64 {
        return MAX_WAIT;
    }
    (v * unit as f64) as u64
}

fn clamp(d: i64) -> u64 {
    if d < 0 {
        0
    } else {
        (d as u64).min(MAX_WAIT)
    }
}

/// equal_fold reports whether s equals name (ASCII) under Unicode simple
/// case folding, as Go's strings.EqualFold(s, name) decides it: besides
/// ASCII case, only U+212A (Kelvin) folds to k and U+017F (ſ) to s (ı and
/// İ fold to no ASCII letter), and bytes that are not UTF-8 match nothing.
/// It is also how encoding/json matches an object key to a field's name
/// when no key matches exactly, so every JSON reader of the codec uses it.
pub fn equal_fold(s: &[u8], name: &[u8]) -> bool {
    let mut i = 0;
    for &c in name {
        let rest = s.get(i..).unwrap_or(&[]);
        let lower = c.to_ascii_lowercase();
        match rest.first() {
            Some(&b) if b == c || (c.is_ascii_alphabetic() && b.to_ascii_lowercase() == lower) => i += 1,
            _ if lower == b'k' && rest.starts_with(&[0xE2, 0x84, 0xAA]) => i += 3,
            _ if lower == b's' && rest.starts_with(&[0xC5, 0xBF]) => i += 2,
            _ => return false,
        }
    }
    i == s.len()
}

/// fold_lit matches lit (ASCII) at s[at..] with Go regexp's (?i) folding:
/// letters in either case, and s also as U+017F. It returns the end.
fn fold_lit(s: &[u8], at: usize, lit: &[u8]) -> Option<usize> {
    let mut i = at;
    for &c in lit {
        let b = *s.get(i)?;
        if b == c || (c.is_ascii_alphabetic() && b | 0x20 == c | 0x20) {
            i += 1;
        } else if c == b's' && s[i..].starts_with(&[0xC5, 0xBF]) {
            i += 2;
        } else {
            return None;
        }
    }
    Some(i)
}

/// phrase_at matches the hint phrase starting at s[at..] with lead as its
/// first word(s) and returns the number and the unit.
fn phrase_at<'a>(s: &'a [u8], at: usize, lead: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
    let num_start = fold_lit(s, fold_lit(s, at, lead)?, b" in ")?;
    let digits = |from: usize| from + s[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut end = digits(num_start);
    if end == num_start {
        return None;
    }
    if s.get(end) == Some(&b'.') && s.get(end + 1).map_or(false, |b| b.is_ascii_digit()) {
        end = digits(end + 1);
    }
    let num = &s[num_start..end];
    let unit_start = end
        + s[end..]
            .iter()
            .take_while(|&&b| matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
            .count();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for unit in [b"ms" as &[u8], b"s", b"sec", b"seconds", b"second"] {
        if let Some(u_end) = fold_lit(s, unit_start, unit) {
            // \b: ASCII word characters only; a rune before u_end that is
            // not ASCII (U+017F) is no word character.
            if word(s[u_end - 1]) != s.get(u_end).map_or(false, |&b| word(b)) {
                return Some((num, &s[unit_start..u_end]));
            }
        }
    }
    None
}

// ---- time.ParseDuration ----

/// parse_duration is Go's time.ParseDuration, in nanoseconds.
pub(crate) fn parse_duration(s: &[u8]) -> Option<i64> {
    let mut s = s;
    let mut neg = false;
    if let Some(&c) = s.first() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            s = &s[1..];
        }
    }
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return None;
        }
        let before = s.len();
        let (mut v, rest) = leading_int(s)?;
        s = rest;
        let pre = before != s.len();
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let before = s.len();
            let (x, sc, rest) = leading_fraction(s);
            f = x;
            scale = sc;
            s = rest;
            post = before != s.len();
        }
        if !pre && !post {
            return None;
        }
        let n = s.iter().take_while(|&&c| !(c == b'.' || c.is_ascii_digit())).count();
        if n == 0 {
            return None;
        }
        let unit: u64 = match &s[..n] {
            b"ns" => 1,
            // us, µs (U+00B5), μs (U+03BC)
            b"us" | b"\xC2\xB5s" | b"\xCE\xBCs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60 * 1_000_000_000,
            b"h" => 3600 * 1_000_000_000,
            _ => return None,
        };
        s = &s[n..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if f > 0 {
            v = v.wrapping_add((f as f64 * (unit as f64 / scale)) as u64);
            if v > LIMIT {
                return None;
            }
        }
        d = d.wrapping_add(v);
        if d > LIMIT {
            return None;
        }
    }
    if neg {
        return Some((d as i64).wrapping_neg());
    }
    if d > LIMIT - 1 {
        return None;
    }
    Some(d as i64)
}

fn leading_int(s: &[u8]) -> Option<(u64, &[u8])> {
    let mut x: u64 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if x > (1 << 63) / 10 {
            return None;
        }
        x = x * 10 + (s[i] - b'0') as u64;
        if x > 1 << 63 {
            return None;
        }
        i += 1;
    }
    Some((x, &s[i..]))
}

fn leading_fraction(s: &[u8]) -> (u64, f64, &[u8]) {
    let (mut x, mut scale, mut overflow) = (0u64, 1f64, false);
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        let c = s[i];
        i += 1;
        if overflow {
            continue;
        }
        if x > ((1u64 << 63) - 1) / 10 {
            overflow = true;
            continue;
        }
        let y = x * 10 + (c - b'0') as u64;
        if y > 1 << 63 {
            overflow = true;
            continue;
        }
        x = y;
        scale *= 10.0;
    }
    (x, scale, &s[i..])
}

// ---- time.Parse("Mon, 02 Jan 2006 15:04:05 GMT", v) and Time.Sub ----

/// UNIX_TO_INTERNAL is Go's offset from Unix seconds to its internal
/// seconds since January 1 of year 1.
const UNIX_TO_INTERNAL: i64 = 62_135_596_800;

const DAY_NAMES: [&[u8]; 7] = [b"Sun", b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat"];
const MONTH_NAMES: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

/// parse_http_date parses v as Go's time.Parse parses it with the layout
/// "Mon, 02 Jan 2006 15:04:05 GMT" (any weekday name, a one-digit hour,
/// runs of spaces, a fractional second after the seconds) and returns Go's
/// internal seconds and the nanoseconds.
pub(crate) fn parse_http_date(v: &[u8]) -> Option<(i64, i32)> {
    let (_, s) = lookup(&DAY_NAMES, v)?;
    let s = skip(s, b", ")?;
    let (day, s) = getnum(s, true)?;
    let s = skip(s, b" ")?;
    let (month, s) = lookup(&MONTH_NAMES, s)?;
    let month = month + 1;
    let s = skip(s, b" ")?;
    if s.len() < 4 || !s.iter().take(4).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year = s[..4].iter().fold(0i64, |y, &b| y * 10 + (b - b'0') as i64);
    let s = skip(&s[4..], b" ")?;
    let (hour, s) = getnum(s, false)?;
    if hour >= 24 {
        return None;
    }
    let s = skip(s, b":")?;
    let (min, s) = getnum(s, true)?;
    if min >= 60 {
        return None;
    }
    let s = skip(s, b":")?;
    let (sec, mut s) = getnum(s, true)?;
    if sec >= 60 {
        return None;
    }
    let mut nsec = 0i64;
    if s.len() >= 2 && (s[0] == b'.' || s[0] == b',') && s[1].is_ascii_digit() {
        let n = 2 + s[2..].iter().take_while(|b| b.is_ascii_digit()).count();
        let used = n.min(10);
        nsec = s[1..used].iter().fold(0, |x, &b| x * 10 + (b - b'0') as i64);
        for _ in used..10 {
            nsec *= 10;
        }
        s = &s[n..];
    }
    let s = skip(s, b" GMT")?;
    if !s.is_empty() || day < 1 || day > days_in(month, year) {
        return None;
    }
    let unix = days_from_civil(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec;
    Some((unix + UNIX_TO_INTERNAL, nsec as i32))
}

/// lookup matches one of names (ASCII case ignored) at the start of s.
fn lookup<'a>(names: &[&[u8]], s: &'a [u8]) -> Option<(i64, &'a [u8])> {
    let i = names
        .iter()
        .position(|n| s.len() >= n.len() && s[..n.len()].eq_ignore_ascii_case(n))?;
    Some((i as i64, &s[names[i].len()..]))
}

/// skip removes prefix from s, a space in prefix matching a run of
/// spaces in s (at least one unless s is exhausted).
fn skip<'a>(mut s: &'a [u8], mut prefix: &[u8]) -> Option<&'a [u8]> {
    let cut = |x: &[u8]| x.iter().take_while(|&&b| b == b' ').count();
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if s.first().map_or(false, |&b| b != b' ') {
                return None;
            }
            prefix = &prefix[cut(prefix)..];
            s = &s[cut(s)..];
            continue;
        }
        if s.first() != Some(&p) {
            return None;
        }
        prefix = &prefix[1..];
        s = &s[1..];
    }
    Some(s)
}

/// getnum reads one or two digits (exactly two when fixed).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d = |i: usize| s.get(i).filter(|b| b.is_ascii_digit()).map(|&b| (b - b'0') as i64);
    let first = d(0)?;
    match d(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None if fixed => None,
        None => Some((first, &s[1..])),
    }
}

fn days_in(month: i64, year: i64) -> i64 {
    const DAYS: [i64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    if month == 2 && leap {
        29
    } else {
        DAYS[(month - 1) as usize]
    }
}

/// days_from_civil is the number of days from 1970-01-01 to the given
/// proleptic Gregorian date (year 0 to 9999 here).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Count years from March so February's leap day ends a year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12; // March is 0
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// sub is Go's Time.Sub for two times without monotonic readings, given
/// as internal seconds and nanoseconds: t - u in nanoseconds, saturated
/// at the int64 bounds exactly where Go's overflow check saturates.
fn sub(t_sec: i64, t_nsec: i32, u_sec: i64, u_nsec: i32) -> i64 {
    let d = t_sec
        .wrapping_sub(u_sec)
        .wrapping_mul(SECOND)
        .wrapping_add((t_nsec - u_nsec) as i64);
    // u.Add(d).Equal(t)
    let mut dsec = d / SECOND;
    let mut nsec = u_nsec + (d % SECOND) as i32;
    if nsec >= SECOND as i32 {
        dsec += 1;
        nsec -= SECOND as i32;
    } else if nsec < 0 {
        dsec -= 1;
        nsec += SECOND as i32;
    }
    let sum = u_sec.wrapping_add(dsec);
    let sec = if (sum > u_sec) == (dsec > 0) {
        sum
    } else if dsec > 0 {
        i64::MAX
    } else {
        -i64::MAX
    };
    if sec == t_sec && nsec == t_nsec {
        d
    } else if t_sec < u_sec || (t_sec == u_sec && t_nsec < u_nsec) {
        i64::MIN
    } else {
        i64::MAX
    }
}

// ---- strconv.ParseFloat(s, 64) ----

/// parse_float is Go's strconv.ParseFloat(s, 64) with a nil error: None
/// for a syntax error and for a value out of range.
pub(crate) fn parse_float(s: &[u8]) -> Option<f64> {
    if let Some((v, n)) = special(s) {
        return if n == s.len() { Some(v) } else { None };
    }
    let r = read_float(s)?;
    if r.n != s.len() {
        return None;
    }
    if r.hex {
        return atof_hex(r.mantissa, r.exp, r.neg, r.trunc);
    }
    if !r.trunc {
        if let Some(f) = atof64_exact(r.mantissa, r.exp, r.neg) {
            return Some(f);
        }
    }
    if let Some(f) = eisel_lemire(r.mantissa, r.exp, r.neg) {
        if !r.trunc {
            return Some(f);
        }
        if eisel_lemire(r.mantissa + 1, r.exp, r.neg) == Some(f) {
            return Some(f);
        }
    }
    slow_float(s)
}

/// special reads a possibly signed inf or infinity, or nan, at the start
/// of s (case ignored) and returns its value and length.
fn special(s: &[u8]) -> Option<(f64, usize)> {
    let (sign, rest) = match s.first()? {
        b'+' => (1.0, &s[1..]),
        b'-' => (-1.0, &s[1..]),
        b'i' | b'I' => (1.0, s),
        b'n' | b'N' => {
            return if common_prefix_fold(s, b"nan") == 3 {
                Some((f64::NAN, 3))
            } else {
                None
            };
        }
        _ => return None,
    };
    let mut n = common_prefix_fold(rest, b"infinity");
    if 3 < n && n < 8 {
        n = 3;
    }
    if n == 3 || n == 8 {
        Some((sign * f64::INFINITY, s.len() - rest.len() + n))
    } else {
        None
    }
}

fn common_prefix_fold(s: &[u8], prefix: &[u8]) -> usize {
    s.iter()
        .zip(prefix)
        .take_while(|(c, p)| c.to_ascii_lowercase() == **p)
        .count()
}

struct Float {
    mantissa: u64,
    exp: i64,
    neg: bool,
    trunc: bool,
    hex: bool,
    n: usize,
}

/// read_float reads a decimal or hexadecimal mantissa and exponent at the
/// start of s as Go's readFloat does (19 decimal or 16 hex digits kept,
/// exponent digits beyond 10000 ignored, underscores checked).
fn read_float(s: &[u8]) -> Option<Float> {
    let mut f = Float {
        mantissa: 0,
        exp: 0,
        neg: false,
        trunc: false,
        hex: false,
        n: 0,
    };
    let mut i = 0;
    let mut underscores = false;
    match s.first()? {
        b'+' => i += 1,
        b'-' => {
            i += 1;
            f.neg = true;
        }
        _ => {}
    }
    let mut base: u64 = 10;
    let mut max_mant_digits = 19;
    let mut exp_char = b'e';
    if i + 2 < s.len() && s[i] == b'0' && s[i + 1] | 0x20 == b'x' {
        base = 16;
        max_mant_digits = 16;
        i += 2;
        exp_char = b'p';
        f.hex = true;
    }
    let (mut sawdot, mut sawdigits) = (false, false);
    let (mut nd, mut nd_mant, mut dp) = (0i64, 0i64, 0i64);
    while i < s.len() {
        let c = s[i];
        let lc = c | 0x20;
        if c == b'_' {
            underscores = true;
        } else if c == b'.' {
            if sawdot {
                break;
            }
            sawdot = true;
            dp = nd;
        } else if c.is_ascii_digit() {
            sawdigits = true;
            if c == b'0' && nd == 0 {
                dp -= 1;
            } else {
                nd += 1;
                if nd_mant < max_mant_digits {
                    f.mantissa = f.mantissa * base + (c - b'0') as u64;
                    nd_mant += 1;
                } else if c != b'0' {
                    f.trunc = true;
                }
            }
        } else if base == 16 && (b'a'..=b'f').contains(&lc) {
            sawdigits = true;
            nd += 1;
            if nd_mant < max_mant_digits {
                f.mantissa = f.mantissa * 16 + (lc - b'a' + 10) as u64;
                nd_mant += 1;
            } else {
                f.trunc = true;
            }
        } else {
            break;
        }
        i += 1;
    }
    if !sawdigits {
        return None;
    }
    if !sawdot {
        dp = nd;
    }
    if base == 16 {
        dp *= 4;
        nd_mant *= 4;
    }
    if i < s.len() && s[i] | 0x20 == exp_char {
        let (e, next) = read_exp(s, i + 1)?;
        underscores |= s[i..next].contains(&b'_');
        i = next;
        dp += e;
    } else if base == 16 {
        return None;
    }
    if f.mantissa != 0 {
        f.exp = dp - nd_mant;
    }
    if underscores && !underscore_ok(&s[..i]) {
        return None;
    }
    f.n = i;
    Some(f)
}

/// read_exp reads an exponent's optional sign and digits (underscores
/// allowed between them, checked by the caller) from s[i..]; a value past
/// 10000 stops growing, as in Go.
fn read_exp(s: &[u8], mut i: usize) -> Option<(i64, usize)> {
    let mut esign = 1;
    match *s.get(i)? {
        b'+' => i += 1,
        b'-' => {
            i += 1;
            esign = -1;
        }
        _ => {}
    }
    if !s.get(i)?.is_ascii_digit() {
        return None;
    }
    let mut e: i64 = 0;
    while i < s.len() && (s[i].is_ascii_digit() || s[i] == b'_') {
        if s[i] != b'_' && e < 10000 {
            e = e * 10 + (s[i] - b'0') as i64;
        }
        i += 1;
    }
    Some((e * esign, i))
}

/// underscore_ok reports whether the underscores in s are digit
/// separators: each between digits or after a base prefix.
fn underscore_ok(s: &[u8]) -> bool {
    // saw: b'^' start, b'0' digit or prefix, b'_' underscore, b'!' other.
    let mut saw = b'^';
    let mut s = s;
    if !s.is_empty() && (s[0] == b'-' || s[0] == b'+') {
        s = &s[1..];
    }
    let mut i = 0;
    let mut hex = false;
    if s.len() >= 2 && s[0] == b'0' && matches!(s[1] | 0x20, b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = s[1] | 0x20 == b'x';
    }
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c.is_ascii_digit() || (hex && (b'a'..=b'f').contains(&(c | 0x20))) {
            saw = b'0';
            continue;
        }
        if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
            continue;
        }
        if saw == b'_' {
            return false;
        }
        saw = b'!';
    }
    saw != b'_'
}

const MANT_BITS: u32 = 52;
const BIAS: i64 = -1023;

/// atof_hex rounds a hex mantissa (trunc: non-zero bits were dropped) and
/// binary exponent to a float64, half to even; None when out of range.
fn atof_hex(mut mantissa: u64, mut exp: i64, neg: bool, trunc: bool) -> Option<f64> {
    let max_exp = (1 << 11) + BIAS - 2;
    let min_exp = BIAS + 1;
    exp += MANT_BITS as i64;
    while mantissa != 0 && mantissa >> (MANT_BITS + 2) == 0 {
        mantissa <<= 1;
        exp -= 1;
    }
    if trunc {
        mantissa |= 1;
    }
    while mantissa >> (1 + MANT_BITS + 2) != 0 {
        mantissa = mantissa >> 1 | mantissa & 1;
        exp += 1;
    }
    while mantissa > 1 && exp < min_exp - 2 {
        mantissa = mantissa >> 1 | mantissa & 1;
        exp += 1;
    }
    let mut round = mantissa & 3;
    mantissa >>= 2;
    round |= mantissa & 1;
    exp += 2;
    if round == 3 {
        mantissa += 1;
        if mantissa == 1 << (1 + MANT_BITS) {
            mantissa >>= 1;
            exp += 1;
        }
    }
    if mantissa >> MANT_BITS == 0 {
        exp = BIAS;
    }
    if exp > max_exp {
        return None;
    }
    let mut bits = mantissa & ((1 << MANT_BITS) - 1);
    bits |= (((exp - BIAS) & ((1 << 11) - 1)) as u64) << MANT_BITS;
    if neg {
        bits |= 1 << 63;
    }
    Some(f64::from_bits(bits))
}

const POW10_EXACT: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// atof64_exact converts mantissa·10^exp in float64 arithmetic when that
/// is exact (Go's atof64exact).
fn atof64_exact(mantissa: u64, mut exp: i64, neg: bool) -> Option<f64> {
    if mantissa >> MANT_BITS != 0 {
        return None;
    }
    let mut f = mantissa as f64;
    if neg {
        f = -f;
    }
    if exp == 0 {
        return Some(f);
    }
    if exp > 0 && exp <= 15 + 22 {
        if exp > 22 {
            f *= POW10_EXACT[(exp - 22) as usize];
            exp = 22;
        }
        if f > 1e15 || f < -1e15 {
            return None;
        }
        return Some(f * POW10_EXACT[exp as usize]);
    }
    if exp < 0 && exp >= -22 {
        return Some(f / POW10_EXACT[(-exp) as usize]);
    }
    None
}

// POW10_MIN, POW10_MAX and POW10 (the 128-bit mantissas of 10^e),
// generated by TestPow10Table.
include!("pow10tab.rs");

/// eisel_lemire converts man·10^exp10 with the Eisel-Lemire algorithm as
/// Go's eiselLemire64 does, None where it cannot decide (Go then falls
/// back to its slow path).
fn eisel_lemire(mut man: u64, exp10: i64, neg: bool) -> Option<f64> {
    if man == 0 {
        return Some(if neg { -0.0 } else { 0.0 });
    }
    if exp10 < POW10_MIN || exp10 > POW10_MAX {
        return None;
    }
    let (pow_hi, pow_lo) = POW10[(exp10 - POW10_MIN) as usize];
    // floor(exp10 · log2(10)) + 1, as Go's 1 + mulLog2_10(exp10).
    let exp2 = 1 + ((exp10 * 108_853) >> 15);
    let clz = man.leading_zeros();
    man <<= clz;
    let mut ret_exp2 = ((exp2 + 63 - BIAS) as u64).wrapping_sub(clz as u64);
    let mul = |a: u64, b: u64| {
        let p = a as u128 * b as u128;
        ((p >> 64) as u64, p as u64)
    };
    let (mut x_hi, mut x_lo) = mul(man, pow_hi);
    if x_hi & 0x1FF == 0x1FF && x_lo.wrapping_add(man) < man {
        let (y_hi, y_lo) = mul(man, pow_lo);
        let mut merged_hi = x_hi;
        let merged_lo = x_lo.wrapping_add(y_hi);
        if merged_lo < x_lo {
            merged_hi += 1;
        }
        if merged_hi & 0x1FF == 0x1FF
            && merged_lo.wrapping_add(1) == 0
            && y_lo.wrapping_add(man) < man
        {
            return None;
        }
        x_hi = merged_hi;
        x_lo = merged_lo;
    }
    let msb = x_hi >> 63;
    let mut ret_mantissa = x_hi >> (msb + 9);
    ret_exp2 = ret_exp2.wrapping_sub(1 ^ msb);
    if x_lo == 0 && x_hi & 0x1FF == 0 && ret_mantissa & 3 == 1 {
        return None;
    }
    ret_mantissa += ret_mantissa & 1;
    ret_mantissa >>= 1;
    if ret_mantissa >> 53 > 0 {
        ret_mantissa >>= 1;
        ret_exp2 = ret_exp2.wrapping_add(1);
    }
    if ret_exp2.wrapping_sub(1) >= 0x7FF - 1 {
        return None;
    }
    let mut bits = ret_exp2 << MANT_BITS | ret_mantissa & ((1 << MANT_BITS) - 1);
    if neg {
        bits |= 1 << 63;
    }
    Some(f64::from_bits(bits))
}

/// slow_float is Go's slow path: s read into an 800-digit decimal (digits
/// past 800 only set a truncation flag, and the decimal point of an
/// integer part longer than 800 digits is placed after digit 800, as Go's
/// decimal.set places it) and rounded to the nearest float64. The
/// rounding itself is Rust's (correct, as Go's is) on that decimal, with
/// a trailing 1 digit standing for the truncated non-zero digits.
fn slow_float(s: &[u8]) -> Option<f64> {
    const DIGITS: usize = 800;
    let mut d: Vec<u8> = Vec::new();
    let (mut neg, mut trunc) = (false, false);
    let mut dp: i64 = 0;
    let mut i = 0;
    match s.first()? {
        b'+' => i += 1,
        b'-' => {
            i += 1;
            neg = true;
        }
        _ => {}
    }
    let (mut sawdot, mut sawdigits) = (false, false);
    while i < s.len() {
        let c = s[i];
        if c == b'_' {
        } else if c == b'.' {
            if sawdot {
                return None;
            }
            sawdot = true;
            dp = d.len() as i64;
        } else if c.is_ascii_digit() {
            sawdigits = true;
            if c == b'0' && d.is_empty() {
                dp -= 1;
            } else if d.len() < DIGITS {
                d.push(c);
            } else if c != b'0' {
                trunc = true;
            }
        } else {
            break;
        }
        i += 1;
    }
    if !sawdigits {
        return None;
    }
    if !sawdot {
        dp = d.len() as i64;
    }
    if i < s.len() && s[i] | 0x20 == b'e' {
        let (e, next) = read_exp(s, i + 1)?;
        i = next;
        dp += e;
    }
    if i != s.len() {
        return None;
    }
    let zero = if neg { -0.0 } else { 0.0 };
    if d.is_empty() {
        return Some(zero);
    }
    if dp > 310 {
        return None;
    }
    if dp < -330 {
        return Some(zero);
    }
    let mut text = Vec::with_capacity(d.len() + 16);
    text.extend_from_slice(if neg { b"-0." } else { b"0." });
    text.extend_from_slice(&d);
    if trunc {
        text.push(b'1');
    }
    // dp is within [-330, 310] here.
    text.extend_from_slice(if dp < 0 { b"e-" } else { b"e" });
    let e = dp.unsigned_abs();
    for div in [100, 10, 1] {
        if e >= div || div == 1 {
            text.push(b'0' + (e / div % 10) as u8);
        }
    }
    let f: f64 = std::str::from_utf8(&text).ok()?.parse().ok()?;
    if f.is_infinite() {
        None
    } else {
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW_SECS: i64 = 1_767_323_045; // 2026-01-02 03:04:05 UTC
    const MS: u64 = 1_000_000;
    const S: u64 = 1_000_000_000;

    #[test]
    fn after_table() {
        let cases: Vec<(&str, Vec<(&str, &str)>, u64)> = vec![
            ("none", vec![], 0),
            ("ms first", vec![("retry-after-ms", "250"), ("retry-after", "9")], 250 * MS),
            ("seconds", vec![("Retry-After", "2.5")], 2500 * MS),
            ("http date", vec![("retry-after", "Fri, 02 Jan 2026 03:05:05 GMT")], 60 * S),
            ("http date in the past", vec![("retry-after", "Fri, 02 Jan 2026 03:00:00 GMT")], 0),
            ("garbage", vec![("retry-after", "soon")], 0),
            ("negative ms ignored", vec![("retry-after-ms", "-5")], 0),
            ("huge seconds clamp", vec![("retry-after", "1e300")], MAX_WAIT),
            ("out of range is no number", vec![("retry-after", "1e400")], 0),
            ("infinite ms clamp", vec![("retry-after-ms", "+Inf")], MAX_WAIT),
            ("NaN is no hint", vec![("retry-after-ms", "NaN")], 0),
            ("NaN ms falls through", vec![("retry-after-ms", "nan"), ("retry-after", "3")], 3 * S),
            ("far future date clamps", vec![("retry-after", "Fri, 02 Jan 2099 03:05:05 GMT")], MAX_WAIT),
            (
                "ratelimit reset durations: the longer wins",
                vec![("x-ratelimit-reset-requests", "120ms"), ("x-ratelimit-reset-tokens", "3.328s")],
                3328 * MS,
            ),
            ("reset duration 6m0s", vec![("x-ratelimit-reset-tokens", "6m0s")], 360 * S),
            ("hex float seconds", vec![("retry-after", "0x1p2")], 4 * S),
            ("underscores", vec![("retry-after-ms", "1_000")], S),
            ("kelvin sign folds to k", vec![("x-ratelimit-reset-to\u{212a}ens", "2s")], 2 * S),
            ("long s folds to s", vec![("retry-after-m\u{17f}", "7")], 7 * MS),
            ("exact name wins", vec![("RETRY-AFTER", "1"), ("retry-after", "2")], 2 * S),
            (
                "lower-case date, spaces, one-digit hour, fraction",
                vec![("retry-after", "fri,  02 jan 2026 3:05:05.5 GMT")],
                60 * S + 500 * MS,
            ),
            ("30 February is no date", vec![("retry-after", "Mon, 30 Feb 2026 03:05:05 GMT")], 0),
            ("zone must be GMT", vec![("retry-after", "Fri, 02 Jan 2026 03:05:05 UTC")], 0),
        ];
        for (name, h, want) in cases {
            assert_eq!(after(&h, NOW_SECS, 0), want, "{}", name);
        }
    }

    #[test]
    fn now_at_the_int64_edges_saturates() {
        let h = [("retry-after", "Fri, 02 Jan 2026 03:05:05 GMT")];
        assert_eq!(after(&h, i64::MIN, 0), MAX_WAIT);
        assert_eq!(after(&h, 1 << 62, 0), 0);
        // Go's time.Unix adds the offset to year 1 with wrapping, so the
        // largest Unix seconds become an instant far in the past.
        assert_eq!(after(&h, i64::MAX, 999_999_999), MAX_WAIT);
        assert_eq!(after(&h, NOW_SECS - 1, 2_000_000_000), 59 * S);
        assert_eq!(sub(0, 0, i64::MIN, 0), i64::MAX);
        assert_eq!(sub(i64::MIN, 0, 0, 1), i64::MIN);
        assert_eq!(sub(5, 1, 3, 2), 2 * SECOND - 1);
    }

    #[test]
    fn hints() {
        assert_eq!(should_retry(&[("X-Should-Retry", "False")]), Some(false));
        assert_eq!(should_retry(&[("x-should-retry", "TRUE")]), Some(true));
        assert_eq!(should_retry(&[("x-should-retry", "maybe")]), None);
        assert_eq!(should_retry::<&str, &str>(&[]), None);
        let msgs: [(&str, u64); 10] = [
            ("Please try again in 3.328s.", 3328 * MS),
            ("Please try again in 20ms.", 20 * MS),
            ("retry in 2 seconds", 2 * S),
            ("RETRY IN 4 SEC", 4 * S),
            ("try again in 5 MS", 5000 * MS),
            ("try again in 5 secondsx, retry in 1s", S),
            ("try again in 7\u{17f}x", 7 * S),
            ("try again in 1e3s", 0),
            ("no hint here", 0),
            ("try again in 99999999999999999999999s", MAX_WAIT),
        ];
        for (msg, want) in msgs {
            assert_eq!(from_message(msg.as_bytes()), want, "{:?}", msg);
        }
        let durations: [(&str, u64); 6] = [
            ("34.4s", 34_400 * MS),
            ("0s", 0),
            ("-1s", 0),
            ("34", 0),
            ("1e30s", MAX_WAIT),
            ("Infs", MAX_WAIT),
        ];
        for (s, want) in durations {
            assert_eq!(duration(s.as_bytes()), want, "{:?}", s);
        }
    }

    #[test]
    fn parse_float_follows_go() {
        let ok: [(&str, f64); 14] = [
            ("1_000", 1000.0),
            ("0x_1p4", 16.0),
            ("1e1_0", 1e10),
            ("0x1.8p1", 3.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("+.5e-3", 0.0005),
            ("-infinity", f64::NEG_INFINITY),
            ("1e-400", 0.0),
            ("4.9e-324", 5e-324),
            ("2.5e-324", 5e-324),
            ("0.1", 0.1),
            ("1.0000000000000001110223", 1.0),
            ("1.00000000000000011102231", 1.0000000000000002),
        ];
        for (s, want) in ok {
            assert_eq!(parse_float(s.as_bytes()), Some(want), "{:?}", s);
        }
        for s in ["_1", "1__0", ".", "+nan", "Infin", "0x", "0x1", "1e", "1e+", "0b1", "1.5e400", "0x1p2000", ""] {
            assert_eq!(parse_float(s.as_bytes()), None, "{:?}", s);
        }
        assert!(parse_float(b"nan").map_or(false, f64::is_nan));
        // Go's slow path places the point of an integer part longer than
        // 800 digits after digit 800.
        let long = format!("10000000000000001110223{}e-900", "0".repeat(900 - 22));
        assert_eq!(parse_float(long.as_bytes()), Some(1e-101));
        // So is 10^900 * 10^-900: Eisel-Lemire cannot decide that one.
        let exact = format!("1{}e-900", "0".repeat(900));
        assert_eq!(parse_float(exact.as_bytes()), Some(1e-101));
        // Below 800 digits the same value is read right.
        let short = format!("1{}e-700", "0".repeat(700));
        assert_eq!(parse_float(short.as_bytes()), Some(1.0));
    }

    #[test]
    fn parse_duration_follows_go() {
        let cases: [(&str, Option<i64>); 12] = [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("1.5h", Some(5_400 * SECOND)),
            ("1h2m3s4ms5us6ns", Some(3_723_004_005_006)),
            ("3\u{b5}s", Some(3_000)),
            ("3\u{3bc}s", Some(3_000)),
            (".5s", Some(SECOND / 2)),
            ("-9223372036854775808ns", Some(i64::MIN)),
            ("9223372036854775808ns", None),
            ("1", None),
            (".s", None),
            ("1x", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_duration(s.as_bytes()), want, "{:?}", s);
        }
    }

    #[test]
    fn http_date_seconds() {
        assert_eq!(
            parse_http_date(b"Fri, 02 Jan 0000 03:05:05 GMT"),
            Some((-62_167_121_695 + UNIX_TO_INTERNAL, 0))
        );
        assert_eq!(
            parse_http_date(b"Wed, 29 Feb 2024 00:00:00.123456789999 GMT"),
            Some((1_709_164_800 + UNIX_TO_INTERNAL, 123_456_789))
        );
        assert_eq!(parse_http_date(b"Fri,02 Jan 2026 03:05:05 GMT"), None);
        assert_eq!(parse_http_date(b"Thu, 29 Feb 2100 00:00:00 GMT"), None);
    }

    #[test]
    fn pow10_table_spans_its_range() {
        assert_eq!(POW10.len() as i64, POW10_MAX - POW10_MIN + 1);
        // 10^0 is 2^127 scaled: the high bit alone.
        assert_eq!(POW10[(0 - POW10_MIN) as usize], (1 << 63, 0));
        assert!(POW10.iter().all(|(hi, _)| hi >> 63 == 1));
    }

    #[test]
    fn equal_fold_is_strings_equal_fold() {
        let cases: &[(&str, &str, bool)] = &[
            ("type", "type", true),
            ("tYpE", "TYPE", true),
            ("QUOTAID", "quotaId", true),
            ("me\u{17f}sage", "message", true),
            ("\u{212a}ey", "Key", true),
            ("\u{212a}", "K", true),
            ("t\u{131}pe", "TYPE", false),
            ("request_\u{130}d", "request_id", false),
            ("types", "type", false),
            ("typ", "type", false),
            ("typ\u{c9}", "type", false),
            ("@TYPE", "@type", true),
            ("_", "-", false),
            ("", "", true),
        ];
        for (s, name, want) in cases {
            assert_eq!(equal_fold(s.as_bytes(), name.as_bytes()), *want, "{:?} {:?}", s, name);
        }
        assert!(!equal_fold(b"typ\xff", b"type"));
    }
}
