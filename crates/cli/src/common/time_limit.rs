//! The `--time-limit SECS|none` value shared by the commands that search.

use std::time::Duration;

/// A `--time-limit` value: seconds, or none.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimeLimit(pub(crate) Option<Duration>);

/// Parses `--time-limit`: a number of seconds (0 or more, `inf` meaning none) or `none`.
pub(crate) fn parse_time_limit(text: &str) -> Result<TimeLimit, String> {
    if text == "none" {
        return Ok(TimeLimit(None));
    }
    match text.parse::<f64>() {
        Ok(s) if s.is_infinite() && s > 0.0 => Ok(TimeLimit(None)),
        Ok(s) if s >= 0.0 => Ok(TimeLimit(Duration::try_from_secs_f64(s).ok())),
        _ => Err("expected a number of seconds (0 or more) or `none`".to_owned()),
    }
}

/// The deadline `seconds` from now of a `--time-limit SECONDS` option (a number, 0 or
/// more; beyond 10^9 s, 31 years, it is as good as none).
///
/// # Errors
/// A usage error (exit code 2) for a negative or NaN number.
pub(crate) fn deadline_after(seconds: f64) -> Result<Option<std::time::Instant>, super::CliError> {
    if seconds.is_nan() || seconds < 0.0 {
        return Err(super::CliError::Usage(format!(
            "--time-limit {seconds}: not a number of seconds"
        )));
    }
    Ok(std::time::Instant::now().checked_add(Duration::from_secs_f64(seconds.min(1e9))))
}
