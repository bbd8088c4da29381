//! What keeps a layout's cost in sight while it runs: the caller's stop check
//! (a cancelled call, a deadline passed), asked between the phases and inside
//! the long loops, a count of the work done, which the budgets of the long
//! loops and the scaling tests read, and how many searches a budget cut short.
//!
//! A stop is sticky: once the check has said stop, every later question is
//! answered "stop" without asking again, each phase cuts its work short (keeping
//! a valid, if plainer, answer), and [`crate::layout_until`] then answers
//! [`crate::LayoutError::Stopped`] instead of the layout.

use std::cell::Cell;

/// How many questions pass between two calls of the caller's check: the check
/// may read the clock, and the loops ask after every step.
const ASK_EVERY: u32 = 64;

/// The stop check of one layout and the work counted so far.
pub(crate) struct Watch<'a> {
    stop: &'a dyn Fn() -> bool,
    stopped: Cell<bool>,
    asked: Cell<u32>,
    work: Cell<u64>,
    cut_short: Cell<u32>,
}

impl<'a> Watch<'a> {
    /// A watch asking `stop` whether to give up.
    pub fn new(stop: &'a dyn Fn() -> bool) -> Self {
        Watch {
            stop,
            stopped: Cell::new(false),
            asked: Cell::new(0),
            work: Cell::new(0),
            cut_short: Cell::new(0),
        }
    }

    /// Whether to stop: the caller's check is asked every [`ASK_EVERY`] calls
    /// (and on the first).
    pub fn stopped(&self) -> bool {
        if self.stopped.get() {
            return true;
        }
        let asked = self.asked.get();
        self.asked.set(asked.wrapping_add(1));
        if asked.is_multiple_of(ASK_EVERY) && (self.stop)() {
            self.stopped.set(true);
        }
        self.stopped.get()
    }

    /// Whether to stop, asking the caller's check now: between phases.
    pub fn stopped_now(&self) -> bool {
        if !self.stopped.get() && (self.stop)() {
            self.stopped.set(true);
        }
        self.stopped.get()
    }

    /// Whether the check has said stop, without asking it again.
    pub fn has_stopped(&self) -> bool {
        self.stopped.get()
    }

    /// Counts `units` of work (a node or an edge visited).
    pub fn add_work(&self, units: u64) {
        self.work.set(self.work.get().saturating_add(units));
    }

    /// The work counted so far.
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    /// Notes that a search kept what it had found when its budget ran out.
    pub fn note_cut_short(&self) {
        self.cut_short.set(self.cut_short.get() + 1);
    }

    /// How many searches their budgets cut short so far.
    #[cfg(test)]
    pub fn cut_short(&self) -> u32 {
        self.cut_short.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_is_sticky_and_the_check_is_asked_sparingly() {
        let calls = Cell::new(0);
        let check = || {
            calls.set(calls.get() + 1);
            calls.get() >= 2
        };
        let watch = Watch::new(&check);
        assert!(!watch.stopped());
        for _ in 1..ASK_EVERY {
            assert!(!watch.stopped());
        }
        assert_eq!(calls.get(), 1, "asked once in {ASK_EVERY} questions");
        assert!(watch.stopped(), "the second ask says stop");
        assert!(watch.stopped() && watch.stopped_now());
        assert_eq!(calls.get(), 2, "never asked again once stopped");
    }
}
