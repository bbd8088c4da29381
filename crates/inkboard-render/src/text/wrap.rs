//! Where the lines of one paragraph end: a greedy wrap at Unicode (UAX #14) line-break
//! opportunities, a word that alone is too wide broken between graphemes, given a
//! test of whether a range of the paragraph fits on a line. Plain text
//! (`measure.rs`) and rich text (`rich.rs`) both wrap through [`wrap_ranges`].
//!
//! **Cost.** The test shapes the range it is asked about, so it costs time in
//! proportion to the range's length, and a search that asks about every break
//! in turn, each range from the line's start, is quadratic: a 25,000-character
//! word in a 300 px box was asked about whole for each of its hundreds of lines
//! (minutes). Here a line asks O(log n) questions, none about much more than
//! twice the line's length: the furthest fitting break is found by galloping
//! (1, 2, 4… breaks, then halving), a range far longer than what fitted so far is
//! first judged by a prefix of it (a prefix that does not fit means the range
//! does not: text only grows as it goes on), and a word broken between
//! graphemes is searched the same way. Each line also checks the [`Deadline`].
//!
//! The answer is the one a scan of every break would give as long as a longer
//! range is never narrower than a shorter one from the same start, which holds
//! for any text but pathological shaping (a later glyph kerned back past the
//! ones before it).

use std::ops::Range;

use unicode_linebreak::{linebreaks, BreakOpportunity};
use unicode_segmentation::UnicodeSegmentation;

use crate::deadline::{Deadline, Stopped};

/// Bytes of a range asked about whole before the first line has shown how long
/// lines are: a typical label is asked about in one go.
const FIRST_PROBE: usize = 64;

/// The lines of a greedy wrap of one paragraph (not empty, without explicit breaks),
/// as byte ranges without their trailing whitespace. `fits` tells whether a range of
/// `para` fits on a line; a word that alone does not is broken between graphemes
/// when `break_words` (never just before a punctuation mark that belongs to what
/// comes before it, unless the word is such marks from there on), else left whole.
/// Past `max_lines` lines it stops: the rest is not wanted.
pub(crate) fn wrap_ranges(
    para: &str,
    fits: impl Fn(Range<usize>) -> bool,
    break_words: bool,
    max_lines: usize,
    deadline: &Deadline,
) -> Result<Vec<Range<usize>>, Stopped> {
    // Byte offsets after which a line may end; the last one is `para.len()`.
    let breaks: Vec<usize> = linebreaks(para)
        .filter(|&(_, op)| matches!(op, BreakOpportunity::Allowed | BreakOpportunity::Mandatory))
        .map(|(i, _)| i)
        .collect();
    // Where the text before each break ends once its trailing whitespace is gone.
    let trimmed_ends = trimmed_ends(para, &breaks);
    let mut out = Vec::new();
    let mut probe = Probe {
        para,
        fits: &fits,
        start: 0,
        known: FIRST_PROBE,
    };
    let mut start = 0;
    let mut next_break = 0; // index into `breaks` of the first break after `start`
    while start < para.len() && out.len() < max_lines {
        deadline.check()?;
        while breaks[next_break] <= start {
            next_break += 1;
        }
        probe.start = start;
        // The furthest break opportunity whose line still fits.
        let last = last_true(next_break..breaks.len(), |k| {
            probe.fits_to(trimmed_ends[k].max(start))
        });
        let end = match last {
            Some(k) => breaks[k],
            // Not even the first word fits, and words stay whole: it gets the line.
            None if !break_words => breaks[next_break],
            None => {
                let word_end = trimmed_ends[next_break].max(start);
                match break_word(&probe, word_end) {
                    // Only whitespace is left before the break: it goes too.
                    end if end == word_end => breaks[next_break],
                    end => end,
                }
            }
        };
        let line = start..start + para[start..end].trim_end().len();
        // The next line is about as long: its questions start from this length.
        probe.known = (2 * line.len()).max(FIRST_PROBE);
        out.push(line);
        start = end;
    }
    Ok(out)
}

/// For each break, where the text before it ends without its trailing whitespace
/// (as `str::trim_end`): one pass over the paragraph.
fn trimmed_ends(para: &str, breaks: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(breaks.len());
    let mut chars = para.char_indices().peekable();
    let mut last_solid = 0;
    for &b in breaks {
        while let Some((i, c)) = chars.next_if(|&(i, _)| i < b) {
            if !c.is_whitespace() {
                last_solid = i + c.len_utf8();
            }
        }
        out.push(last_solid);
    }
    out
}

/// The questions of one line: does `para[start..end]` fit?
struct Probe<'a, F> {
    para: &'a str,
    fits: &'a F,
    start: usize,
    /// A length in bytes a range may have to be asked about whole; past it, a
    /// prefix of it is asked about first.
    known: usize,
}

impl<F: Fn(Range<usize>) -> bool> Probe<'_, F> {
    /// Whether `para[start..end]` fits. A range much longer than `known` is judged
    /// by prefixes growing fourfold: the first that does not fit answers no, so the
    /// question costs a few times the length that fits, not the range's.
    fn fits_to(&self, end: usize) -> bool {
        let mut room = self.known;
        while end - self.start > room {
            let mut cut = self.start + room;
            while !self.para.is_char_boundary(cut) {
                cut += 1;
            }
            if !(self.fits)(self.start..cut) {
                return false;
            }
            room = room.saturating_mul(4);
        }
        (self.fits)(self.start..end)
    }
}

/// Where the line starting inside a word too wide for a line ends: after as many
/// graphemes as fit (at least one), never just before a mark that clings to what
/// comes before it ("?", ")", "…"), unless the graphemes after the first already
/// start with one (a run of such marks, which has no better place to break).
/// `word_end` is the end of the word, its trailing whitespace left out.
fn break_word<F: Fn(Range<usize>) -> bool>(probe: &Probe<'_, F>, word_end: usize) -> usize {
    let start = probe.start;
    let word = &probe.para[start..word_end];
    // Grapheme ends, read only as far as the search asks.
    let mut graphemes = word.grapheme_indices(true).map(|(i, g)| (i, g.len()));
    let mut ends: Vec<usize> = Vec::new();
    // Whether the grapheme after each end clings to what comes before it.
    let mut glued: Vec<bool> = Vec::new();
    let mut read_to = |k: usize, ends: &mut Vec<usize>, glued: &mut Vec<bool>| {
        while ends.len() <= k {
            let Some((i, len)) = graphemes.next() else {
                return false;
            };
            if let Some(last) = glued.last_mut() {
                *last = word[i..].chars().next().is_some_and(clings_to_previous);
            }
            ends.push(start + i + len);
            glued.push(false);
        }
        true
    };
    if !read_to(0, &mut ends, &mut glued) {
        return word_end;
    }
    // The first grapheme always goes on the line; the search is over the others.
    let fitting = gallop(1, usize::MAX, |k| {
        read_to(k, &mut ends, &mut glued) && probe.fits_to(ends[k])
    });
    let Some(fitting) = fitting else {
        return ends[0];
    };
    // `glued[k]` is known for every end up to `fitting` once the one after it is
    // read; the word's own end is never glued.
    read_to(fitting + 1, &mut ends, &mut glued);
    if glued[0] {
        // Breaking after the first grapheme would start the next line with a mark
        // anyway: take all that fits.
        return ends[fitting];
    }
    (1..=fitting)
        .rev()
        .find(|&k| !glued[k])
        .map_or(ends[0], |k| ends[k])
}

/// The largest `k` in `range` for which `pred` holds, `pred` being true up to some
/// point and false after it, or `None` when it holds for none. Asks about the last
/// `k` first (most text fits on one line), then [`gallop`]s.
fn last_true(range: Range<usize>, mut pred: impl FnMut(usize) -> bool) -> Option<usize> {
    let last = range.end.checked_sub(1).filter(|&l| l >= range.start)?;
    if pred(last) {
        return Some(last);
    }
    gallop(range.start, last, pred)
}

/// The largest `k` from `first` up to (not including) `end` for which `pred` holds,
/// `pred` being true up to some point and false after it (and false at `end`, or
/// past the values there are), or `None` when it does not hold at `first`. Gallops
/// up from `first` (1, 2, 4… past it), then halves the gap: O(log n) questions,
/// none more than twice as far from `first` as the answer.
fn gallop(first: usize, end: usize, mut pred: impl FnMut(usize) -> bool) -> Option<usize> {
    if first >= end || !pred(first) {
        return None;
    }
    // `lo` holds, `hi` does not.
    let (mut lo, mut hi) = (first, end);
    let mut step = 1;
    while step < hi - lo {
        if pred(lo + step) {
            lo += step;
            step = step.saturating_mul(2);
        } else {
            hi = lo + step;
            break;
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// True for a punctuation mark that belongs to what comes before it (".", "?",
/// ")", "…"): a line never starts with one when a word is broken inside.
fn clings_to_previous(c: char) -> bool {
    !c.is_alphanumeric()
        && !c.is_whitespace()
        && !matches!(
            c,
            '(' | '['
                | '{'
                | '"'
                | '\''
                | '«'
                | '“'
                | '‘'
                | '¿'
                | '¡'
                | '#'
                | '@'
                | '$'
                | '€'
                | '£'
        )
}
