//! When a drawing must stop: a [`Deadline`] in time, a cancellation flag, or both,
//! handed to the entry points that can run long ([`resolve_within`],
//! [`fit_within`], [`to_png_within`], [`to_pdf_within`]) and checked inside their
//! long loops: each text fitted (each layout the fit rule tries, each line it
//! wraps), each connector routed, each SVG piece parsed, each item drawn and each
//! PDF page. A drawing past its deadline, or cancelled, stops there with [`Stopped`]
//! instead of finishing work nobody waits for.
//!
//! Every stage's work is bounded besides (text fitting is near-linear in the text,
//! routing has a work budget, embedded SVG a price), so the deadline is the
//! backstop. What it cannot reach: one call into usvg, resvg or krilla (parsing a
//! piece of SVG, drawing one band, writing one PDF page) runs to its end.
//!
//! [`resolve_within`]: crate::resolve_within
//! [`fit_within`]: crate::text::fit::fit_within
//! [`to_png_within`]: crate::to_png_within
//! [`to_pdf_within`]: crate::to_pdf_within

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a drawing must stop. The default never stops.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
    cancelled: Option<Arc<AtomicBool>>,
    /// Checks left before it stops: how tests show, without timing anything,
    /// that a loop checks it inside.
    #[cfg(test)]
    checks_left: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

/// Why a drawing stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// It ran past its [`Deadline`].
    #[error("the drawing ran past its deadline")]
    TimedOut,
    /// Its cancellation flag was raised.
    #[error("the drawing was cancelled")]
    Cancelled,
}

impl Deadline {
    /// A deadline that never comes: the drawing runs to its end.
    pub fn none() -> Self {
        Deadline::default()
    }

    /// Stops at `at`.
    pub fn at(at: Instant) -> Self {
        Deadline {
            at: Some(at),
            ..Deadline::default()
        }
    }

    /// Stops at the check after `n` checks.
    #[cfg(test)]
    pub(crate) fn after_checks(n: usize) -> Self {
        Deadline {
            checks_left: Some(Arc::new(n.into())),
            ..Deadline::default()
        }
    }

    /// Stops `time` from now.
    pub fn after(time: Duration) -> Self {
        Deadline::at(Instant::now() + time)
    }

    /// This deadline, also stopping once `flag` is raised (set to `true`).
    pub fn or_cancelled_by(self, flag: Arc<AtomicBool>) -> Self {
        Deadline {
            cancelled: Some(flag),
            ..self
        }
    }

    /// `Err` once the flag is raised or the time has come. Costs a clock read
    /// (some 25 ns) when there is a time: callers check once per line, text or
    /// connector, never per glyph.
    pub fn check(&self) -> Result<(), Stopped> {
        #[cfg(test)]
        if let Some(left) = &self.checks_left {
            let was = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
            if was.is_err() {
                return Err(Stopped::TimedOut);
            }
        }
        if self
            .cancelled
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Stopped::Cancelled);
        }
        match self.at {
            Some(at) if Instant::now() >= at => Err(Stopped::TimedOut),
            _ => Ok(()),
        }
    }
}

/// The value of work run under [`Deadline::none`], which is never stopped: the
/// entry points that take no deadline are these.
pub(crate) fn unstoppable<T>(r: Result<T, Stopped>) -> T {
    r.expect("work under Deadline::none() is never stopped")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_when_the_time_comes_or_the_flag_is_raised() {
        assert_eq!(Deadline::none().check(), Ok(()));
        assert_eq!(Deadline::after(Duration::from_secs(3600)).check(), Ok(()));
        assert_eq!(Deadline::at(Instant::now()).check(), Err(Stopped::TimedOut));
        let flag = Arc::new(AtomicBool::new(false));
        let d = Deadline::none().or_cancelled_by(flag.clone());
        assert_eq!(d.check(), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(d.check(), Err(Stopped::Cancelled));
    }
}
