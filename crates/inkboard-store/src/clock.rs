//! Time as the store keeps it: milliseconds since the Unix epoch, the same integer
//! in SQLite and PostgreSQL, read from a [`Clock`] that tests can hold still and
//! move by hand (a link's expiry is tested without waiting fifteen minutes).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment, in milliseconds since 1970-01-01T00:00:00Z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

impl Time {
    /// This moment plus `d` (saturating: a length of time is checked before it
    /// gets here, so saturation only guards arithmetic).
    pub fn plus(self, d: Duration) -> Time {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        Time(self.0.saturating_add(ms))
    }

    pub fn to_system_time(self) -> SystemTime {
        if self.0 >= 0 {
            UNIX_EPOCH + Duration::from_millis(self.0.unsigned_abs())
        } else {
            UNIX_EPOCH - Duration::from_millis(self.0.unsigned_abs())
        }
    }
}

/// Where the store reads the time: the system clock, or a hand-moved one.
#[derive(Clone, Debug, Default)]
pub enum Clock {
    #[default]
    System,
    /// A clock that stands still until [`Clock::advance`] moves it (for tests).
    Manual(Arc<AtomicI64>),
}

impl Clock {
    /// A hand-moved clock starting at `start`.
    pub fn manual(start: Time) -> Clock {
        Clock::Manual(Arc::new(AtomicI64::new(start.0)))
    }

    pub fn now(&self) -> Time {
        match self {
            Clock::System => {
                let since = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default();
                Time(i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
            }
            Clock::Manual(now) => Time(now.load(Ordering::SeqCst)),
        }
    }

    /// Moves a manual clock forward; the system clock is not moved.
    pub fn advance(&self, d: Duration) {
        if let Clock::Manual(now) = self {
            let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
            now.fetch_add(ms, Ordering::SeqCst);
        }
    }
}
