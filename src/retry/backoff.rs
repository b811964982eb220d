//! `Backoff`: exponential delays between attempts, capped, with jitter.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// Exponential backoff: after failed attempt `n` (1-based) the delay is
/// `base * factor^(n-1)`, capped at `cap`, then shortened by jitter: times
/// `1 - jitter * u` with `u` uniform in `[0, 1)`. A jitter of 0 gives exact
/// delays; 1 gives "full jitter" (anywhere from 0 to the delay).
///
/// The default: base 100 ms, factor 2, cap 10 s, jitter 0.5.
///
/// ```
/// use std::time::Duration;
/// use toolresult::retry::Backoff;
///
/// let backoff = Backoff::exponential(Duration::from_millis(100), 2.0, Duration::from_secs(1))?;
/// assert_eq!(backoff.delay(1), Duration::from_millis(100));
/// assert_eq!(backoff.delay(3), Duration::from_millis(400));
/// assert_eq!(backoff.delay(10), Duration::from_secs(1)); // capped
///
/// let jittered = backoff.with_jitter(0.5)?;
/// let d = jittered.jittered(3, 0.5);
/// assert_eq!(d, Duration::from_millis(300)); // 400 ms * (1 - 0.5 * 0.5)
/// # Ok::<(), toolresult::retry::BackoffError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    base: Duration,
    factor: f64,
    cap: Duration,
    jitter: f64,
}

/// A backoff that cannot work, with the value that was wrong.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BackoffError {
    /// The factor was below 1, infinite or not a number.
    #[error("the backoff factor must be a finite number of at least 1, got {factor}")]
    Factor {
        /// The factor given.
        factor: f64,
    },
    /// The jitter was outside `[0, 1]` or not a number.
    #[error("the backoff jitter must be between 0 and 1, got {jitter}")]
    Jitter {
        /// The jitter given.
        jitter: f64,
    },
    /// The cap was below the base delay.
    #[error("the backoff cap {cap:?} is below its base delay {base:?}")]
    Cap {
        /// The base delay given.
        base: Duration,
        /// The cap given.
        cap: Duration,
    },
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            base: Duration::from_millis(100),
            factor: 2.0,
            cap: Duration::from_secs(10),
            jitter: 0.5,
        }
    }
}

impl Backoff {
    /// An exponential backoff with no jitter.
    ///
    /// # Errors
    /// [`BackoffError::Factor`] for a factor below 1 or not finite;
    /// [`BackoffError::Cap`] for a cap below the base.
    pub fn exponential(base: Duration, factor: f64, cap: Duration) -> Result<Self, BackoffError> {
        if !factor.is_finite() || factor < 1.0 {
            return Err(BackoffError::Factor { factor });
        }
        if cap < base {
            return Err(BackoffError::Cap { base, cap });
        }
        Ok(Self {
            base,
            factor,
            cap,
            jitter: 0.0,
        })
    }

    /// The same delay after every attempt, with no jitter.
    #[must_use]
    pub fn constant(delay: Duration) -> Self {
        Self {
            base: delay,
            factor: 1.0,
            cap: delay,
            jitter: 0.0,
        }
    }

    /// No delay at all: retry at once.
    #[must_use]
    pub fn none() -> Self {
        Self::constant(Duration::ZERO)
    }

    /// The same backoff with this jitter, in `[0, 1]`.
    ///
    /// # Errors
    /// [`BackoffError::Jitter`] for a jitter outside `[0, 1]`.
    pub fn with_jitter(mut self, jitter: f64) -> Result<Self, BackoffError> {
        if !(0.0..=1.0).contains(&jitter) {
            return Err(BackoffError::Jitter { jitter });
        }
        self.jitter = jitter;
        Ok(self)
    }

    /// The delay after the first failed attempt.
    #[must_use]
    pub fn base(&self) -> Duration {
        self.base
    }

    /// The growth factor per attempt.
    #[must_use]
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// The longest delay the backoff gives.
    #[must_use]
    pub fn cap(&self) -> Duration {
        self.cap
    }

    /// The jitter, in `[0, 1]`.
    #[must_use]
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// The delay after failed attempt `attempt` (1-based; 0 reads as 1),
    /// before jitter: `base * factor^(attempt-1)`, capped.
    #[must_use]
    pub fn delay(&self, attempt: u32) -> Duration {
        if self.base.is_zero() {
            return Duration::ZERO;
        }
        let exponent = i32::try_from(attempt.saturating_sub(1)).unwrap_or(i32::MAX);
        let secs = self.base.as_secs_f64() * self.factor.powi(exponent);
        Duration::try_from_secs_f64(secs).map_or(self.cap, |d| d.min(self.cap))
    }

    /// The delay after `attempt` with jitter drawn as `unit` (in `[0, 1)`;
    /// values outside are clamped): `delay(attempt) * (1 - jitter * unit)`.
    #[must_use]
    pub fn jittered(&self, attempt: u32, unit: f64) -> Duration {
        let delay = self.delay(attempt);
        let unit = if unit.is_nan() {
            0.0
        } else {
            unit.clamp(0.0, 1.0)
        };
        let scale = 1.0 - self.jitter * unit;
        Duration::try_from_secs_f64(delay.as_secs_f64() * scale).map_or(delay, |d| d.min(delay))
    }
}

/// The jitter draw for an attempt: from a fixed seed, SplitMix64 of the seed
/// and the attempt (the same every time); with no seed, fresh entropy from
/// the standard library's randomly keyed hasher.
pub(crate) fn jitter_unit(seed: Option<u64>, attempt: u32) -> f64 {
    let bits = match seed {
        Some(seed) => splitmix64(seed ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        None => {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u32(attempt);
            hasher.finish()
        }
    };
    // The top 53 bits as a fraction in [0, 1).
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// One step of SplitMix64: a small, well-mixed, deterministic generator.
fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
