//! Requests per caller: a `governor` rate limiter keyed by the verified subject, or by the
//! client's address when there is none.
//!
//! **One limiter per process, not shared through the state store.** The limit protects what
//! is per process too (its request slots, its CPU, its share of the handler's resources), and
//! a shared count would cost a store round trip on every request, including those that need
//! no state, which would then fail whenever the store is away. The price: with `N` instances
//! behind a load balancer spreading one caller's requests, that caller may send up to `N`
//! times the limit (and `N` bursts at once) in all. A deployer who wants a total `T` sets
//! `T / N` per instance, or keeps each caller on one instance.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::Clock as _;
use governor::{DefaultKeyedRateLimiter, Quota};

/// How often the limiter forgets the callers back at their full burst.
const PRUNE_EVERY: Duration = Duration::from_secs(1);

/// A rate limit per caller, for [`Host::rate_limit`](crate::http::Host::rate_limit):
/// `requests` every `per`, and a burst of as many at once unless [`RateLimit::burst`] says
/// otherwise. A request past it is answered `429 Too Many Requests` with `Retry-After`.
///
/// ```ignore
/// Host::groups(server).rate_limit(RateLimit::new(120, Duration::from_secs(60)).burst(20))
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    requests: u32,
    per: Duration,
    burst: Option<u32>,
}

impl RateLimit {
    /// `requests` every `per`, replenished evenly (one every `per / requests`).
    pub fn new(requests: u32, per: Duration) -> Self {
        RateLimit {
            requests,
            per,
            burst: None,
        }
    }

    /// The requests a caller may send at once after being idle; `requests` by default.
    pub fn burst(mut self, burst: u32) -> Self {
        self.burst = Some(burst);
        self
    }

    fn quota(&self) -> Result<Quota, String> {
        let refused = || {
            format!(
                "the rate limit of {} requests per {:?} (burst {:?}) allows nothing",
                self.requests, self.per, self.burst
            )
        };
        let requests = NonZeroU32::new(self.requests).ok_or_else(refused)?;
        let burst = NonZeroU32::new(self.burst.unwrap_or(self.requests)).ok_or_else(refused)?;
        let quota = Quota::with_period(self.per / requests.get()).ok_or_else(refused)?;
        Ok(quota.allow_burst(burst))
    }
}

/// Who a request is counted against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Caller {
    /// The verified principal's subject.
    Subject(String),
    /// The client address; an IPv6 one by its /64, which one machine usually has whole.
    Address(IpAddr),
    /// A router served without connection information (`Host::into_router` served by hand
    /// without `into_make_service_with_connect_info`): every such caller shares one limit.
    Unknown,
}

impl Caller {
    pub(crate) fn address(ip: Option<IpAddr>) -> Caller {
        match ip.map(|ip| ip.to_canonical()) {
            Some(IpAddr::V6(v6)) => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                Caller::Address(IpAddr::V6(prefix.into()))
            }
            Some(v4) => Caller::Address(v4),
            None => Caller::Unknown,
        }
    }
}

/// The limiter of one host.
///
/// Its memory is bounded by pruning: at most once a second, every caller whose state is back
/// to a fresh one (a full burst available) is forgotten, so it holds the callers seen within
/// the last burst's replenishing time (`burst × per / requests`) and no more.
pub(crate) struct Limiter {
    limiter: DefaultKeyedRateLimiter<Caller>,
    pruned: Mutex<Instant>,
}

impl Limiter {
    pub(crate) fn new(limit: &RateLimit) -> Result<Self, String> {
        Ok(Limiter {
            limiter: DefaultKeyedRateLimiter::hashmap(limit.quota()?),
            pruned: Mutex::new(Instant::now()),
        })
    }

    /// Counts a request of `caller`: `Err(wait)` when it is past the limit, where `wait` is
    /// how long until one more would be allowed.
    pub(crate) fn check(&self, caller: &Caller) -> Result<(), Duration> {
        self.prune();
        self.limiter
            .check_key(caller)
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }

    fn prune(&self) {
        let mut pruned = self.pruned.lock().unwrap_or_else(|e| e.into_inner());
        if pruned.elapsed() >= PRUNE_EVERY {
            *pruned = Instant::now();
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.limiter.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_past_its_burst_waits_and_others_do_not() {
        let limiter = Limiter::new(&RateLimit::new(2, Duration::from_secs(60))).expect("a limit");
        let one = Caller::Subject("one".into());
        assert_eq!(limiter.check(&one), Ok(()));
        assert_eq!(limiter.check(&one), Ok(()));
        let wait = limiter.check(&one).expect_err("past the burst");
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert_eq!(limiter.check(&Caller::Subject("two".into())), Ok(()));
    }

    #[test]
    fn callers_back_at_a_full_burst_are_forgotten() {
        let limiter = Limiter::new(&RateLimit::new(1000, Duration::from_secs(1))).expect("a limit");
        for i in 0..100u8 {
            limiter
                .check(&Caller::address(Some([10, 0, 0, i].into())))
                .expect("within the limit");
        }
        assert_eq!(limiter.len(), 100);
        std::thread::sleep(Duration::from_millis(1100));
        limiter.check(&Caller::Unknown).expect("within the limit");
        assert_eq!(limiter.len(), 1, "only the caller just seen is kept");
    }

    #[test]
    fn an_ipv6_caller_is_its_64_prefix() {
        let a = Caller::address(Some("2001:db8:1:2:aaaa::1".parse().expect("an address")));
        let b = Caller::address(Some("2001:db8:1:2:bbbb::2".parse().expect("an address")));
        let c = Caller::address(Some("2001:db8:1:3::1".parse().expect("an address")));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mapped = Caller::address(Some("::ffff:10.0.0.1".parse().expect("an address")));
        assert_eq!(mapped, Caller::address(Some([10, 0, 0, 1].into())));
    }

    #[test]
    fn a_limit_of_nothing_is_refused() {
        assert!(Limiter::new(&RateLimit::new(0, Duration::from_secs(1))).is_err());
        assert!(Limiter::new(&RateLimit::new(1, Duration::from_secs(1)).burst(0)).is_err());
        assert!(Limiter::new(&RateLimit::new(10, Duration::ZERO)).is_err());
    }
}
