//! Where settings are read from: the process environment, or a fixed set of values (tests and
//! embedding), so every default is written once, in the code that reads the setting.

use std::str::FromStr;
use std::time::Duration;

/// A source of `N8V_*` values. An unset or blank variable is absent (its default applies).
pub struct Env {
    lookup: Lookup,
}

type Lookup = Box<dyn Fn(&str) -> Option<String>>;

impl Env {
    /// The process environment.
    pub fn process() -> Self {
        Self {
            lookup: Box::new(|name| std::env::var(name).ok()),
        }
    }

    /// Exactly these values, nothing from the environment: every other setting is its default.
    pub fn of(pairs: &[(&str, &str)]) -> Self {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Self {
            lookup: Box::new(move |name| {
                pairs
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
            }),
        }
    }

    /// The value of `name`, when set and not blank.
    pub fn var(&self, name: &str) -> Option<String> {
        (self.lookup)(name).filter(|v| !v.trim().is_empty())
    }

    /// The value of `name`, else `default`.
    pub fn text(&self, name: &str, default: &str) -> String {
        self.var(name).unwrap_or_else(|| default.to_owned())
    }

    /// `name` parsed, else `default`; a value that does not parse stops start-up, naming it.
    pub fn parse<T: FromStr>(&self, name: &str, default: T) -> anyhow::Result<T>
    where
        T::Err: std::fmt::Display,
    {
        match self.var(name) {
            None => Ok(default),
            Some(raw) => raw
                .trim()
                .parse()
                .map_err(|e| anyhow::anyhow!("{name}={raw:?} is not valid: {e}")),
        }
    }

    /// `name` as a whole number of `unit`s (at least `min` of them), else `default` of them.
    pub fn duration(
        &self,
        name: &str,
        unit: Duration,
        default: u64,
        min: u64,
    ) -> anyhow::Result<Duration> {
        let count: u64 = self.parse(name, default)?.max(min);
        Ok(unit.saturating_mul(u32::try_from(count).unwrap_or(u32::MAX)))
    }

    /// `name` as a whole number of days, hours or minutes (`unit`: `chrono::Duration::try_days`
    /// and the like), else `default` of them; one too large to be a time span is refused.
    pub fn span(
        &self,
        name: &str,
        unit: fn(i64) -> Option<chrono::Duration>,
        default: i64,
    ) -> anyhow::Result<chrono::Duration> {
        let count = self.parse(name, default)?;
        unit(count).ok_or_else(|| anyhow::anyhow!("{name}={count} is too large"))
    }
}

/// A second, a minute, an hour and a day, as [`Env::duration`] units.
pub const SECOND: Duration = Duration::from_secs(1);
pub const MINUTE: Duration = Duration::from_secs(60);
pub const HOUR: Duration = Duration::from_secs(3600);
pub const DAY: Duration = Duration::from_secs(86_400);
