//! Fitting text costs work near-linear in the text (issue 29, finding 2: one 300×60
//! shape holding 25,000 `*` did not render in 120 s, `[` took 34 s, `a` 13 s, each
//! line of a long word measuring the whole rest of it again).
//!
//! Each case fits a text of n and 8n characters and counts the bytes shaped
//! (`text::shaped_bytes`: shaping is what fitting costs), so the test says the
//! same on every machine: from n to 8n the work may grow twice as much as n log n
//! does (about 10 times), and fails at the growth the old search had (quadratic:
//! 64 times; 20 and more on these texts). The cases whose cost is not shaping
//! (thousands of spans or list items, each asked about its neighbours) compare
//! the CPU time of the best of three runs instead, with the same slack.

use std::time::Duration;

use inkboard_render::fit::fit;
use inkboard_render::text::{shaped_bytes, Weight};

/// How much more work 8n characters may take than n: n log n is about 10 times
/// at these sizes, quadratic 64.
const MOST: f64 = 16.0;

/// Letters that repeat no line: a long text of a repeated word is mostly
/// measured once, which would hide the work a varied text costs.
fn letters(n: usize, seed: u64, alphabet: &[u8]) -> String {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            // xorshift64: enough variety, the same on every run.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

/// Bytes shaped to fit `text` at 16 px into a `w` × `h` box.
fn shaped(text: &str, w: f32, h: f32) -> u64 {
    let before = shaped_bytes();
    let fitted = fit(text, 16.0, Weight::Regular, w, h, true);
    assert!(!fitted.lines.is_empty());
    shaped_bytes() - before
}

/// Asserts that fitting `make(n)` into `w` × `h` shapes near-linear work in n.
fn near_linear(name: &str, n: usize, w: f32, h: f32, make: impl Fn(usize, u64) -> String) {
    let small = shaped(&make(n, 1), w, h);
    let large = shaped(&make(8 * n, 2), w, h);
    let ratio = large as f64 / small.max(1) as f64;
    eprintln!("{name}: {small} {large} {ratio:.2}");
    assert!(
        ratio < MOST,
        "{name}: {small} bytes shaped for {n} characters, {large} for {}: {ratio:.1} times",
        8 * n
    );
}

#[test]
fn a_long_word_in_a_small_box_is_measured_once() {
    // The shape: 300 × 60, one word with no break in it.
    let box_ = (300.0, 60.0);
    near_linear("letters", 3_000, box_.0, box_.1, |n, s| {
        letters(n, s, b"abcdefghijklmnopqrstuvwxyz")
    });
    // Marks that cling to what comes before them ("*", "?", ")"): no break is
    // wanted before one, and a run of them had every character on a line of its
    // own, each line measuring the rest.
    near_linear("marks", 3_000, box_.0, box_.1, |n, s| {
        letters(n, s, b"*?).,;:!")
    });
    // In a box tall enough, the word is broken into every line it needs.
    near_linear("letters, tall box", 3_000, 300.0, 1_000_000.0, |n, s| {
        letters(n, s, b"abcdefghijklmnopqrstuvwxyz")
    });
    near_linear("marks, tall box", 3_000, 300.0, 1_000_000.0, |n, s| {
        letters(n, s, b"*?).,;:!")
    });
    // Opening brackets: no break after one (UAX #14).
    near_linear("brackets", 3_000, box_.0, box_.1, |n, s| {
        letters(n, s, b"[({")
    });
}

#[test]
fn many_words_on_one_wide_line_are_measured_once() {
    // Every break of a line as wide as the page was measured from the line's
    // start: quadratic in the words of the line.
    near_linear("wide line", 2_000, 10_000_000.0, 60.0, |n, s| {
        letters(n, s, b"ab ")
    });
}

#[test]
fn wrapped_words_cost_their_length() {
    near_linear("paragraph", 3_000, 300.0, 60.0, |n, s| {
        letters(n, s, b"abcdefgh ")
    });
    near_linear("paragraph, tall box", 3_000, 300.0, 1_000_000.0, |n, s| {
        letters(n, s, b"abcdefgh ")
    });
    // A long word after short ones, again and again.
    near_linear("long words", 3_000, 300.0, 60.0, |n, s| {
        letters(n, s, b"abcdefghijklmnopqrstuvwxyz")
            .as_bytes()
            .chunks(500)
            .map(|w| format!("a b {}", String::from_utf8_lossy(w)))
            .collect::<Vec<_>>()
            .join(" ")
    });
}

/// The CPU time of the best of three fits of `text`. CPU time, not the wall
/// clock: on a busy machine other programs take turns with a long run more often
/// than with a short one.
fn best_of_3(text: &str) -> Duration {
    (0..3)
        .map(|i| {
            // A different box each time: the fit memo must not answer.
            let w = 300.0 + i as f32;
            let start = cpu_time();
            std::hint::black_box(fit(text, 16.0, Weight::Regular, w, 60.0, true));
            cpu_time().saturating_sub(start)
        })
        .min()
        .unwrap_or_default()
}

/// The CPU time this thread has used.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is handed.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    assert!(ok, "no CPU clock for this thread");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Asserts that fitting `make(n)` takes near-linear time in n, as [`MOST`] says.
fn near_linear_time(name: &str, n: usize, make: impl Fn(usize) -> String) {
    let small = best_of_3(&make(n));
    let large = best_of_3(&make(8 * n));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
    assert!(
        ratio < MOST,
        "{name}: {small:?} for {n}, {large:?} for {}: {ratio:.1} times",
        8 * n
    );
}

#[test]
fn rich_text_of_many_spans_and_items_fits_in_near_linear_time() {
    // Thousands of marked spans on one line: each range measured looked through
    // all of them.
    near_linear_time("spans", 500, |n| "*a* b ".repeat(n));
    // Thousands of list items: each looked through its whole list for its column.
    near_linear_time("items", 1_000, |n| "- x\n".repeat(n));
}
