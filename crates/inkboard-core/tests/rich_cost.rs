//! Rich text is read, and turned into the editor's HTML and back, in time linear in
//! the text (issue 29, finding 6: a batch of 20 texts of 100,000 `[` took 57 s, and
//! 1.6 MB of `[` or `<` sent to the editor's `/api/rich` over 30 s, each character
//! looking ahead through all the rest).
//!
//! Each case times a text of n and 8n characters, best of five, and fails when
//! the time grows more than 24 times (linear is 8, quadratic 64): ratios, not
//! times, so a slow or busy machine passes and a quadratic parser does not.

use std::time::Duration;

use inkboard_core::rich::{html, parse};

/// How much CPU time `work` takes. Not the wall clock: on a busy machine other
/// programs take turns with a long run more often than with a short one, which
/// stretched wall-clock ratios several times.
fn time(work: impl Fn()) -> Duration {
    let start = cpu_time();
    work();
    cpu_time().saturating_sub(start)
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

/// Asserts that `work` on `make(n)` and `make(8n)` grows about linearly: the best
/// of five timings of each, taken in turns, so that a machine busy for a moment
/// slows both alike.
fn linear(name: &str, n: usize, make: impl Fn(usize) -> String, work: impl Fn(&str)) {
    let (small, large) = (make(n), make(8 * n));
    let (mut t1, mut t4) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        t1 = t1.min(time(|| work(&small)));
        t4 = t4.min(time(|| work(&large)));
    }
    let ratio = t4.as_secs_f64() / t1.as_secs_f64().max(1e-6);
    assert!(
        ratio < 24.0,
        "{name}: {t1:?} for {} bytes, {t4:?} for {}: {ratio:.1} times",
        small.len(),
        large.len()
    );
}

fn read(s: &str) {
    std::hint::black_box(parse(s));
}

#[test]
fn markdown_is_read_in_linear_time() {
    let n = 25_000;
    // Each `[` looked for its `]` through the rest of the line.
    linear("[", n, |n| "[".repeat(n), read);
    // Each link looked for its `)`, and through its address for white space.
    linear("[a](x ", n, |n| "[a](x ".repeat(n / 6), read);
    linear("[a](", n, |n| "[a](".repeat(n / 4), read);
    // Each run of backticks looked for a closing run of its length.
    linear(
        "`",
        n,
        |n| {
            (1..)
                .map(|k| "`".repeat(k % 40 + 1) + "a")
                .take(n / 20)
                .collect()
        },
        read,
    );
    // Each closer looked back through every run before it for an opener.
    linear("a*", n, |n| "a* ".repeat(n / 3), read);
    // Pairs nested thousands deep each marked everything inside them.
    linear(
        "nested",
        n,
        |n| format!("{}x{}", "*a ".repeat(n / 6), " a*".repeat(n / 6)),
        read,
    );
    linear("~~", n, |n| "~~a ".repeat(n / 4), read);
}

#[test]
fn the_editors_html_is_written_and_read_in_linear_time() {
    let n = 25_000;
    let to = |s: &str| drop(std::hint::black_box(html::to_html(s)));
    let from = |s: &str| drop(std::hint::black_box(html::from_html(s, "")));
    linear("to_html [", n, |n| "[".repeat(n), to);
    linear("to_html lines", n, |n| "*a* [b](c)\n".repeat(n / 11), to);
    // Each `<` looked for its `>` through the rest.
    linear("from_html <", n, |n| "<".repeat(n), from);
    linear("from_html [", n, |n| "[".repeat(n), from);
    // Elements nested thousands deep, each closing tag looked through them all.
    linear(
        "from_html deep",
        n,
        |n| format!("{}{}x", "<b>".repeat(n / 8), "</i>".repeat(n / 8)),
        from,
    );
    // A long link target compared and copied for every character of its text.
    linear(
        "from_html href",
        n,
        |n| {
            format!(
                "<a href=\"http://x/{}\">{}</a>",
                "a".repeat(n / 2),
                "t".repeat(n / 2)
            )
        },
        from,
    );
    // Each line written looked for among all the lines it was edited from.
    linear(
        "from_html lines",
        n,
        |n| "<div>a</div>".repeat(n / 12),
        |s| {
            let before = "b\n".repeat(s.len() / 12);
            drop(std::hint::black_box(html::from_html(s, &before)));
        },
    );
}
