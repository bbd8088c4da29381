//! The line and column of a byte offset in a Mermaid text, found by a binary
//! search over its line starts: the readers ask for the line of every statement
//! they keep, and counting newlines from the start each time made reading a
//! long text quadratic.

/// Where each line of a text starts.
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The 1-based line of byte offset `pos`.
    pub(crate) fn line(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos)
    }

    /// The 1-based line and column (in characters) of `pos` in `src`, the text
    /// these lines were made from; `pos` past the end is the end.
    pub(crate) fn line_col(&self, src: &str, pos: usize) -> (usize, usize) {
        let pos = pos.min(src.len());
        let line = self.line(pos);
        let start = self.starts[line - 1];
        let column = src.get(start..pos).map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::Lines;

    #[test]
    fn lines_and_columns_count_from_one() {
        let src = "ab\ncdé\n\nx";
        let lines = Lines::new(src);
        assert_eq!(lines.line_col(src, 0), (1, 1));
        assert_eq!(lines.line_col(src, 2), (1, 3));
        assert_eq!(lines.line_col(src, 3), (2, 1));
        assert_eq!(lines.line_col(src, 7), (2, 4));
        assert_eq!(lines.line_col(src, 8), (3, 1));
        assert_eq!(lines.line_col(src, 9), (4, 1));
        assert_eq!(lines.line_col(src, 99), (4, 2));
    }
}
