//! A call's control line: the client may cancel a call while it runs (MCP's
//! `notifications/cancelled`) and may ask to hear how far it got (a
//! `progressToken`, answered with `notifications/progress`). The transport makes
//! one [`Control`] per call and puts it in the [`Caller`](crate::Caller); long
//! tools report their stages through it and stop at the next check once it is
//! cancelled: `batch` between operations, `render` and `export` between the
//! stages of a drawing, and every edit before its transaction commits, so a
//! cancelled call commits nothing.
//!
//! Limitations: a stage itself (one operation, one PNG encoding) is not
//! interrupted, and a call forwarded to the running application is not
//! cancelled there.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
}

impl Control {
    /// A control line whose progress goes to `listener`.
    pub fn with_progress(listener: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        Control {
            cancelled: Arc::default(),
            listener: Some(Arc::new(listener)),
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

    /// [`ToolError::Cancelled`] once the call was cancelled.
    pub(crate) fn check(&self) -> Result<(), ToolError> {
        if self.is_cancelled() {
            Err(ToolError::Cancelled)
        } else {
            Ok(())
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
}
