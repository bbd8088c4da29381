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

/// The failure buckets of one process.
#[derive(Default)]
pub struct Limiter {
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    fn level(&self, key: &str, now: Instant, take: bool) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > MAX_KEYS {
            let full = |(level, at): &(f64, Instant)| {
                level + now.duration_since(*at).as_secs_f64() / REFILL.as_secs_f64() >= BURST
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
        let (level, at) = buckets.get(key).copied().unwrap_or((BURST, now));
        let level =
            (level + now.duration_since(at).as_secs_f64() / REFILL.as_secs_f64()).min(BURST);
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
