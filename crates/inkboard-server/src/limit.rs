//! Rate limits on failed sign-ins and token checks, so a secret cannot be
//! guessed at speed (it could not be anyway: 256 random bits) and, more to the
//! point, so a flood of bad tokens cannot keep the database busy.
//!
//! Each key (a client's IP address, or a presented token's first characters) has
//! a bucket of [`BURST`] failures that refills at one per [`REFILL`]; a key whose
//! bucket is empty is refused (429) before its secret is looked at. Successes
//! cost nothing. The buckets are kept in memory per process: with several
//! `serve` processes behind a load balancer, each counts on its own, so the
//! allowance is that many times larger, which is still far from a guess.
//! Behind the reverse proxy a public URL implies, a client's address is the one
//! the proxy adds to `X-Forwarded-For` ([`crate::guard::client_key`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures a key may make in a row.
pub const BURST: f64 = 10.0;
/// One more failure allowed after each of these.
pub const REFILL: Duration = Duration::from_secs(6);
/// Buckets kept before the full ones are forgotten.
const MAX_KEYS: usize = 100_000;

/// Made-up session cookies a key may send in a row: more than bad tokens, as a
/// browser keeps sending a cookie whose session ended (its page asks again and
/// again until its person signs in anew); a flood still gets one a second.
pub const COOKIE_BURST: f64 = 100.0;
/// One more made-up cookie allowed after each of these.
pub const COOKIE_REFILL: Duration = Duration::from_secs(1);

/// The failure buckets of one process.
pub struct Limiter {
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
    burst: f64,
    refill: Duration,
}

impl Default for Limiter {
    /// The limiter of sign-ins and tokens: [`BURST`] failures, one more each [`REFILL`].
    fn default() -> Limiter {
        Limiter::new(BURST, REFILL)
    }
}

impl Limiter {
    /// A limiter of `burst` failures in a row, one more after each `refill`.
    pub fn new(burst: f64, refill: Duration) -> Limiter {
        Limiter {
            buckets: Mutex::default(),
            burst,
            refill,
        }
    }

    /// The limiter of made-up session cookies ([`COOKIE_BURST`], [`COOKIE_REFILL`]).
    pub fn cookies() -> Limiter {
        Limiter::new(COOKIE_BURST, COOKIE_REFILL)
    }

    fn level(&self, key: &str, now: Instant, take: bool) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > MAX_KEYS {
            let (burst, refill) = (self.burst, self.refill.as_secs_f64());
            let full = |(level, at): &(f64, Instant)| {
                level + now.duration_since(*at).as_secs_f64() / refill >= burst
            };
            buckets.retain(|_, b| !full(b));
            // A flood of keys that all failed lately: keep the newer half, so
            // the map stays bounded and the next pass is MAX_KEYS / 2 failures
            // away (a pass on every call would make each one a scan).
            if buckets.len() > MAX_KEYS / 2 {
                let mut times: Vec<Instant> = buckets.values().map(|(_, at)| *at).collect();
                let middle = times.len() / 2;
                let (_, &mut cut, _) = times.select_nth_unstable(middle);
                buckets.retain(|_, (_, at)| *at > cut);
            }
        }
        let (level, at) = buckets.get(key).copied().unwrap_or((self.burst, now));
        let level = (level + now.duration_since(at).as_secs_f64() / self.refill.as_secs_f64())
            .min(self.burst);
        if take {
            buckets.insert(key.to_string(), ((level - 1.0).max(0.0), now));
        }
        level >= 1.0
    }

    /// Whether every one of `keys` may try now.
    pub fn allows(&self, keys: &[&str]) -> bool {
        let now = Instant::now();
        keys.iter().all(|k| self.level(k, now, false))
    }

    /// Counts a failure against every one of `keys`.
    pub fn failed(&self, keys: &[&str]) {
        let now = Instant::now();
        for k in keys {
            self.level(k, now, true);
        }
    }
}

/// The key of a presented token: its kind and first 12 characters, enough to
/// tell tokens apart, too few to be one.
pub fn token_key(token: &str) -> String {
    let head: String = token.chars().take(12).collect();
    format!("token:{head}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_refused_after_its_burst_and_others_are_not() {
        let limiter = Limiter::default();
        for _ in 0..BURST as usize {
            assert!(limiter.allows(&["ip:1"]));
            limiter.failed(&["ip:1"]);
        }
        assert!(!limiter.allows(&["ip:1"]));
        assert!(!limiter.allows(&["ip:2", "ip:1"]));
        assert!(limiter.allows(&["ip:2"]));
    }

    #[test]
    fn a_flood_of_new_keys_keeps_the_buckets_bounded() {
        let limiter = Limiter::default();
        for k in 0..MAX_KEYS + 10 {
            limiter.failed(&[&format!("ip:{k}")]);
        }
        let kept = limiter.buckets.lock().unwrap().len();
        assert!(kept <= MAX_KEYS / 2 + 10, "{kept} buckets");
    }
}
