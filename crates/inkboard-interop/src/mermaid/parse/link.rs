//! Links at the cursor: every stroke (`-->`, `---`, `-.->`, `==>`, `~~~`), of
//! any length, with its heads (`<`, `>`, `o`, `x`) and its text (`|text|` or
//! `-- text -->`).

use super::*;

impl<'a> Parser<'a> {
    /// A link at the cursor (`-->`, `-- text -->`, `-.->|text|`...), or `None`
    /// (cursor unmoved) when there is none.
    pub(super) fn link(&mut self) -> Result<Option<Link>> {
        let start = self.pos;
        let body = |s: &str| s.starts_with("--") || s.starts_with("-.") || s.starts_with("==");
        // A mark at the start (`<-->`, `x--x`) is one character before the body.
        let rest = self.rest();
        let start_head = match rest.chars().next() {
            Some('<') => Some(Head::Arrow),
            Some(c @ ('x' | 'o')) => head_mark(c),
            _ => None,
        }
        .filter(|_| body(&rest[1..]));
        if start_head.is_some() {
            self.pos += 1;
        }
        let start_head = start_head.unwrap_or(Head::None);
        let parsed = match (self.peek(), self.peek_nth(1)) {
            (Some('-'), Some('.')) => self.dotted_link()?,
            (Some('-'), _) => self.run_link('-', Stroke::Normal)?,
            (Some('='), _) => self.run_link('=', Stroke::Thick)?,
            (Some('~'), _) => {
                let run = self.take_while(|c| c == '~');
                (run.len() >= 3).then(|| (Stroke::Invisible, Head::None, String::new()))
            }
            _ => None,
        };
        let Some((stroke, end, mut label)) = parsed else {
            self.pos = start;
            return Ok(None);
        };
        let token = self.src[start..self.pos].to_string();
        let save = self.pos;
        self.skip_spaces();
        if self.eat("|") {
            let label_at = self.pos;
            let line = self.line_from(label_at);
            // A quoted text may hold a '|' of its own.
            let quoted = line.trim_start().starts_with('"');
            let close = match line.find('"').filter(|_| quoted) {
                Some(q) => line[q + 1..]
                    .find('"')
                    .and_then(|e| line[q + 2 + e..].find('|').map(|b| q + 2 + e + b)),
                None => None,
            };
            match close.or_else(|| line.find('|')) {
                Some(i) => {
                    label = clean_label(unquote(&self.rest()[..i]));
                    self.pos += i + 1;
                }
                None => {
                    return Err(self.error(
                        format!("'|' to close the text of link '{token}'"),
                        label_at + line.len(),
                    ))
                }
            }
        } else {
            self.pos = save;
        }
        Ok(Some(Link {
            token,
            stroke,
            start: start_head,
            end,
            label,
        }))
    }

    /// A link of `-` or `=` runs: `-->`, `---`, `--o`, `==>`, `===`, or the text
    /// form `-- text -->` / `== text ==>`.
    pub(super) fn run_link(
        &mut self,
        dash: char,
        stroke: Stroke,
    ) -> Result<Option<(Stroke, Head, String)>> {
        let run = self.take_while(|c| c == dash).chars().count();
        if run < 2 {
            return Ok(None);
        }
        match self.peek().and_then(head_mark) {
            Some(head) => {
                // `--o B` is a circle end; `--ok--> B` is the text "ok".
                let glued = head != Head::Arrow && self.peek_nth(1).is_some_and(is_word_char);
                let texted = run == 2 && glued && self.close_run(self.pos, dash).is_some();
                if !texted {
                    self.bump();
                    return Ok(Some((stroke, head, String::new())));
                }
            }
            None if run >= 3 => return Ok(Some((stroke, Head::None, String::new()))),
            None => {}
        }
        // `-- text -->`: the text runs to the closing run of the same kind.
        let from = self.pos;
        match self.close_run(from, dash) {
            Some((text_end, end, head)) => {
                let label = clean_label(unquote(&self.src[from..text_end]));
                self.pos = end;
                Ok(Some((stroke, head, label)))
            }
            None => {
                let pair: String = [dash, dash].iter().collect();
                let line = self.line_from(from);
                let text = line.trim();
                let expected = if text.is_empty() {
                    format!("'{pair}>' or '{pair}{dash}' after '{pair}'")
                } else {
                    format!("'{pair}>' or '{pair}{dash}' to end the link text '{text}' started by '{pair}'")
                };
                Err(self.error(expected, from + line.len()))
            }
        }
    }

    /// The end of a link text started by `--` (or `==`): the first run of two or
    /// more followed by `>`, `x` or `o`, or of three or more. Gives (where the
    /// text ends, where the link ends, the head).
    pub(super) fn close_run(&self, from: usize, dash: char) -> Option<(usize, usize, Head)> {
        let line = self.line_from(from);
        let mut i = 0;
        while i < line.len() {
            let run = line[i..].chars().take_while(|c| *c == dash).count();
            if run >= 2 {
                let end = from + i + run;
                match line[i + run..].chars().next().and_then(head_mark) {
                    Some(head) => return Some((from + i, end + 1, head)),
                    None if run >= 3 => return Some((from + i, end, Head::None)),
                    None => {}
                }
                i += run;
            } else {
                i += line[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
        None
    }

    /// A dotted link: `-.-`, `-.->`, `-..->`, or `-. text .->`.
    pub(super) fn dotted_link(&mut self) -> Result<Option<(Stroke, Head, String)>> {
        self.bump();
        let dots = self.take_while(|c| c == '.').len();
        if self.eat("-") {
            return Ok(Some((Stroke::Dotted, self.head(), String::new())));
        }
        if dots > 1 {
            return Ok(None);
        }
        // `-. text .->`: the text runs to `.-` (more dots allowed).
        let from = self.pos;
        let line = self.line_from(from);
        match line.find(".-") {
            Some(i) => {
                let text_end = from + line[..i].trim_end_matches('.').len();
                let label = clean_label(unquote(&self.src[from..text_end]));
                self.pos = from + i + 2;
                Ok(Some((Stroke::Dotted, self.head(), label)))
            }
            None => {
                let text = line.trim();
                let expected = if text.is_empty() {
                    "'.->' or '.-' after '-.'".to_string()
                } else {
                    format!("'.->' or '.-' to end the link text '{text}' started by '-.'")
                };
                Err(self.error(expected, from + line.len()))
            }
        }
    }

    /// The mark ending a link at the cursor, if there is one.
    pub(super) fn head(&mut self) -> Head {
        let Some(head) = self.peek().and_then(head_mark) else {
            return Head::None;
        };
        self.bump();
        head
    }
}
