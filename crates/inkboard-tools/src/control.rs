//! A call's control line: the client may cancel a call while it runs (MCP's
//! `notifications/cancelled`) and may ask to hear how far it got (a
//! `progressToken`, answered with `notifications/progress`). The transport makes
//! one [`Control`] per call and puts it in the [`Caller`](crate::Caller); long
//! tools report their stages through it and stop at the next check once it is
//! cancelled: `batch` between operations, `render` and `export` between the
//! stages of a drawing, and every edit before its transaction commits, so a
//! cancelled call commits nothing.
//!
//! A drawing (`render`, `export`) also gets a deadline, [`DRAWING_DEADLINE`]: a
//! board that takes too long to draw stops with an error instead of holding its
//! caller (and a core) for good. The deadline and the cancellation reach inside
//! the renderer's stages too, as an `inkboard_render::Deadline`
//! ([`Control::deadline`]): fitting each text (each line wrapped), routing each
//! connector, drawing each item of a PNG and each page of a PDF check it. Each
//! stage's own work is bounded besides (text fitting is near-linear in the text;
//! routing, embedded SVG and problem lists have budgets), so the deadline is the
//! backstop, not the plan.
//!
//! Limitations: one call into usvg, resvg or krilla (parsing a piece of SVG,
//! drawing one item, writing one PDF page, encoding the PNG) and one edit
//! operation run to their end, and a call forwarded to the running application
//! is not cancelled there.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a drawing may take before it is stopped.
pub const DRAWING_DEADLINE: Duration = Duration::from_secs(60);

use crate::ToolError;

/// How far a call got: `done` of `total` steps, and what it is doing now.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: f64,
    pub total: Option<f64>,
    pub message: String,
}

type Listener = dyn Fn(Progress) + Send + Sync;

/// The control line of one call; cloning it shares the line.
#[derive(Clone, Default)]
pub struct Control {
    cancelled: Arc<AtomicBool>,
    listener: Option<Arc<Listener>>,
    /// When the call is stopped if it still runs, and the time it was given.
    deadline: Option<(Instant, Duration)>,
}

impl Control {
    /// A control line whose progress goes to `listener`.
    pub fn with_progress(listener: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        Control {
            cancelled: Arc::default(),
            listener: Some(Arc::new(listener)),
            deadline: None,
        }
    }

    /// This control line, also stopping the call `time` from now (or at the
    /// deadline it has, if sooner).
    pub fn within(&self, time: Duration) -> Control {
        let at = Instant::now() + time;
        let deadline = match self.deadline {
            Some((sooner, given)) if sooner <= at => (sooner, given),
            _ => (at, time),
        };
        Control {
            deadline: Some(deadline),
            ..self.clone()
        }
    }

    /// Asks the call to stop at its next check.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// A handle that can only cancel: it keeps no hold on the progress
    /// listener, so the listener ends with the call.
    pub fn canceller(&self) -> Canceller {
        Canceller(self.cancelled.clone())
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// [`ToolError::Cancelled`] once the call was cancelled, [`ToolError::TooLong`]
    /// once it is past its deadline.
    pub(crate) fn check(&self) -> Result<(), ToolError> {
        if self.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        match self.deadline {
            Some((at, given)) if Instant::now() >= at => Err(ToolError::TooLong(given.as_secs())),
            _ => Ok(()),
        }
    }

    /// The renderer's view of this line: it stops where this call would be stopped
    /// (cancelled, or past the deadline), checked inside the renderer's loops.
    pub fn deadline(&self) -> inkboard_render::Deadline {
        let d = match self.deadline {
            Some((at, _)) => inkboard_render::Deadline::at(at),
            None => inkboard_render::Deadline::none(),
        };
        d.or_cancelled_by(self.cancelled.clone())
    }

    /// The error of a call the renderer stopped: cancelled, or past its deadline.
    pub(crate) fn stopped(&self, why: inkboard_render::Stopped) -> ToolError {
        match why {
            inkboard_render::Stopped::Cancelled => ToolError::Cancelled,
            inkboard_render::Stopped::TimedOut => {
                ToolError::TooLong(self.deadline.map_or(0, |(_, given)| given.as_secs()))
            }
        }
    }

    /// A renderer's error as this call's: a stop as [`Control::stopped`] says,
    /// anything else as a failure to draw.
    pub(crate) fn drawing_failed(&self, e: inkboard_render::RenderError) -> ToolError {
        match e {
            inkboard_render::RenderError::Stopped(why) => self.stopped(why),
            e => ToolError::Io(e.to_string()),
        }
    }

    /// Tells the client how far the call got, if it asked, and checks for
    /// cancellation: a stage boundary is where both happen.
    pub(crate) fn stage(
        &self,
        done: usize,
        total: usize,
        message: impl FnOnce() -> String,
    ) -> Result<(), ToolError> {
        self.check()?;
        if let Some(listener) = &self.listener {
            listener(Progress {
                done: done as f64,
                total: Some(total as f64),
                message: message(),
            });
        }
        Ok(())
    }
}

/// Cancels one call (see [`Control::canceller`]).
#[derive(Clone, Debug)]
pub struct Canceller(Arc<AtomicBool>);

impl Canceller {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl fmt::Debug for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("cancelled", &self.is_cancelled())
            .field("progress", &self.listener.is_some())
            .field("deadline", &self.deadline.map(|(_, given)| given))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn stages_report_and_stop_once_cancelled() {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let h = heard.clone();
        let control = Control::with_progress(move |p| h.lock().unwrap().push(p.done));
        control.stage(1, 3, || "one".into()).unwrap();
        control.clone().cancel();
        assert!(matches!(
            control.stage(2, 3, || "two".into()),
            Err(ToolError::Cancelled)
        ));
        assert_eq!(*heard.lock().unwrap(), vec![1.0]);
    }

    #[test]
    fn a_deadline_stops_the_call_at_its_next_stage_and_only_gets_sooner() {
        let control = Control::default().within(Duration::from_secs(3600));
        assert!(control.stage(0, 2, || "first".into()).is_ok());
        let past = control.within(Duration::ZERO);
        assert!(matches!(
            past.stage(1, 2, || "second".into()),
            Err(ToolError::TooLong(0))
        ));
        // A later deadline does not lift a sooner one.
        let still = past.within(Duration::from_secs(3600));
        assert!(matches!(still.check(), Err(ToolError::TooLong(0))));
        assert!(
            control.check().is_ok(),
            "the first line keeps its own deadline"
        );
    }

    #[test]
    fn the_renderer_stops_where_the_call_would() {
        use inkboard_render::Stopped;
        let control = Control::default().within(Duration::from_secs(3600));
        let d = control.deadline();
        assert_eq!(d.check(), Ok(()));
        control.cancel();
        assert_eq!(d.check(), Err(Stopped::Cancelled), "the flag is shared");
        assert!(matches!(
            control.stopped(Stopped::Cancelled),
            ToolError::Cancelled
        ));
        let past = Control::default().within(Duration::ZERO);
        assert_eq!(past.deadline().check(), Err(Stopped::TimedOut));
        assert!(matches!(
            past.stopped(Stopped::TimedOut),
            ToolError::TooLong(0)
        ));
        // A line with no deadline never times out.
        assert_eq!(Control::default().deadline().check(), Ok(()));
    }
}
