//! Nodes at the cursor: a node or a group of them (`A & B`), each with its
//! shape and label (`A[Label]`, `A((Label))`, `A@{ shape: ..., label: ... }`),
//! found again when mentioned before or made when new.

use super::*;

impl<'a> Parser<'a> {
    /// `A` or `A & B & C`.
    pub(super) fn node_group(&mut self, after: Option<&str>) -> Result<Vec<usize>> {
        let mut nodes = vec![self.node(after)?];
        loop {
            let save = self.pos;
            self.skip_spaces();
            if self.eat("&") {
                self.skip_spaces();
                nodes.push(self.node(Some("&"))?);
            } else {
                self.pos = save;
                return Ok(nodes);
            }
        }
    }

    /// One node reference: an id with an optional shape and label, `:::class`es and
    /// `@{...}` data.
    pub(super) fn node(&mut self, after: Option<&str>) -> Result<usize> {
        let at = self.pos;
        let id = self.take_id();
        if id.is_empty() {
            let expected = match after {
                Some(token) => format!("a node id after '{token}'"),
                None => "a node id, or a statement such as 'subgraph', 'end', 'classDef', 'class' or 'style'".into(),
            };
            return Err(self.error(expected, at));
        }
        let node = self.mention(id, at)?;
        // `A [text]` is read like `A[text]`.
        let save = self.pos;
        self.skip_spaces();
        if !(self.pos == save || self.rest().starts_with(['[', '(', '{'])) {
            self.pos = save;
        }
        if let Some((shape, label)) = self.shape_label(id)? {
            let line = self.line_col(at).0;
            let n = &mut self.nodes[node];
            n.shape = shape;
            n.line = line;
            n.label = Some(label);
            n.explicit = true;
        } else {
            self.pos = save;
        }
        while self.eat(":::") {
            let class_at = self.pos;
            let class = self.take_while(|c| is_word_char(c) || c == '-');
            if class.is_empty() {
                return Err(self.error("a class name after ':::'", class_at));
            }
            self.nodes[node].classes.push(class.to_string());
        }
        if self.rest().starts_with("@{") {
            self.shape_data(node)?;
        }
        Ok(node)
    }

    /// The node with this id, made on first mention (a rectangle labelled with its
    /// id until something says more).
    pub(super) fn mention(&mut self, id: &str, at: usize) -> Result<usize> {
        let node = match self.index.get(id) {
            Some(&n) => n,
            None => {
                if self.nodes.len() >= MAX_NODES {
                    let (line, column) = self.line_col(at);
                    return Err(MermaidError::TooBig {
                        line,
                        column,
                        what: "nodes",
                        limit: MAX_NODES,
                    });
                }
                let line = self.line_col(at).0;
                self.nodes.push(RawNode {
                    id: id.to_string(),
                    label: None,
                    shape: &shapes::RECT,
                    line,
                    explicit: false,
                    classes: Vec::new(),
                    subgraph: None,
                });
                self.index.insert(id.to_string(), self.nodes.len() - 1);
                self.nodes.len() - 1
            }
        };
        if let Some(open) = self.open.last_mut() {
            if !open.mentioned.contains(&node) {
                open.mentioned.push(node);
            }
        }
        Ok(node)
    }

    /// A shape and label right at the cursor (`[text]`, `((text))`...), if any.
    pub(super) fn shape_label(&mut self, id: &str) -> Result<Option<(NodeShape, String)>> {
        let mut last_failure = None;
        for (opener, closers) in OPENERS {
            if !self.rest().starts_with(opener) {
                continue;
            }
            let from = self.pos + opener.len();
            let single = matches!(*opener, "[" | "(" | "{").then(|| {
                let open = opener.chars().next().unwrap_or('[');
                let close = closers[0].0.chars().next().unwrap_or(']');
                (open, close)
            });
            match self.find_label(from, closers, single) {
                Ok((shape, label, end)) => {
                    self.pos = end;
                    return Ok(Some((shape, rich_label(label))));
                }
                Err(stop) => last_failure = Some((closers[0].0, stop)),
            }
        }
        match last_failure {
            Some((closer, stop)) => Err(self.error(
                format!("'{closer}' to close the label of node '{id}'"),
                stop,
            )),
            None => Ok(None),
        }
    }

    /// The label from `from` up to one of `closers`: a quoted string (which may
    /// hold anything, brackets and line breaks included) or plain text on the
    /// line. `single` pairs the bracket of one-character openers, so `(a (b))` is
    /// one label. The error is where the search stopped.
    pub(super) fn find_label(
        &self,
        from: usize,
        closers: &[(&str, NodeShape)],
        single: Option<(char, char)>,
    ) -> std::result::Result<(NodeShape, &'a str, usize), usize> {
        let text = &self.src[from..];
        let trimmed = text.trim_start_matches([' ', '\t']);
        if let Some(quoted) = trimmed.strip_prefix('"') {
            if let Some(q) = quoted.find('"') {
                let after = quoted[q + 1..].trim_start_matches([' ', '\t']);
                for (closer, shape) in closers {
                    if after.starts_with(closer) {
                        let end = self.src.len() - after.len() + closer.len();
                        return Ok((*shape, &quoted[..q], end));
                    }
                }
            }
        }
        let mut depth = 0usize;
        for (i, c) in text.char_indices() {
            if c == '\n' {
                return Err(from + i);
            }
            if let Some((open, close)) = single {
                if c == close && depth > 0 {
                    depth -= 1;
                    continue;
                }
                if c == open {
                    depth += 1;
                    continue;
                }
            }
            for (closer, shape) in closers {
                if text[i..].starts_with(closer) {
                    return Ok((*shape, &text[..i], from + i + closer.len()));
                }
            }
        }
        Err(self.src.len())
    }

    /// `@{ shape: ..., label: "..." }` (Mermaid 11).
    pub(super) fn shape_data(&mut self, node: usize) -> Result<()> {
        let at = self.pos;
        self.pos += 2;
        let start = self.pos;
        let mut quoted = false;
        loop {
            match self.peek() {
                None => {
                    let id = &self.nodes[node].id;
                    return Err(self.error(
                        format!("'}}' to close the shape data of node '{id}'"),
                        self.pos,
                    ));
                }
                Some('"') => quoted = !quoted,
                Some('}') if !quoted => break,
                _ => {}
            }
            self.bump();
        }
        let body = &self.src[start..self.pos];
        self.bump();
        for part in split_outside_quotes(body) {
            let Some((key, value)) = part.split_once(':') else {
                if part.trim().is_empty() {
                    continue;
                }
                return Err(self.error("'key: value' pairs like 'shape: rounded'", at));
            };
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            let line = self.line_col(at).0;
            match key.trim() {
                "shape" => {
                    let shape = shapes::named(value).unwrap_or_else(|| {
                        let message = format!(
                            "unknown shape '{}' drawn as a rectangle",
                            value.chars().take(40).collect::<String>()
                        );
                        self.note(NoteKind::Shape, at, message);
                        &shapes::RECT
                    });
                    let n = &mut self.nodes[node];
                    n.shape = shape;
                    n.line = line;
                    n.explicit = true;
                }
                "label" => {
                    let n = &mut self.nodes[node];
                    n.label = Some(rich_label(value));
                    n.explicit = true;
                }
                key => {
                    let key: String = key.chars().take(40).collect();
                    let message =
                        format!("'{key}' in '@{{ }}' left out: only shape and label are read");
                    self.note(NoteKind::ShapeData, at, message);
                }
            }
        }
        Ok(())
    }
}
