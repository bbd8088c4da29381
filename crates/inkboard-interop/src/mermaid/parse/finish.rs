//! Resolution, once the text is read: ids that name a subgraph become links to
//! it, classes and `style` lines fold into one style per node, `linkStyle` lines
//! reach their links, and a subgraph left open is an error.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn finish(mut self) -> Result<Flowchart> {
        if let Some(open) = self.open.last() {
            // At the end of the last thing written, not after trailing blank lines.
            let (line, column) = self.line_col(self.src.trim_end().len());
            return Err(MermaidError::Unclosed {
                line,
                column,
                subgraph: self.subgraphs[open.subgraph].id.clone(),
                opened: open.line,
            });
        }
        let mut subgraph_ids: HashMap<&str, usize> = HashMap::new();
        for (i, s) in self.subgraphs.iter().enumerate() {
            subgraph_ids.entry(s.id.as_str()).or_insert(i);
        }
        let default = self.classes.get("default").cloned().unwrap_or_default();
        let mut subgraphs = self.subgraphs.clone();
        let mut nodes = Vec::new();
        let mut ends = Vec::with_capacity(self.nodes.len());
        let mut node_index: HashMap<&str, usize> = HashMap::new();
        for raw in &self.nodes {
            if !raw.explicit {
                if let Some(&s) = subgraph_ids.get(raw.id.as_str()) {
                    ends.push(Endpoint::Subgraph(s));
                    continue;
                }
            }
            let mut style = default.clone();
            for class in &raw.classes {
                if let Some(c) = self.classes.get(class) {
                    style.merge(c);
                }
            }
            node_index.insert(&raw.id, nodes.len());
            ends.push(Endpoint::Node(nodes.len()));
            nodes.push(Node {
                id: raw.id.clone(),
                label: raw
                    .label
                    .clone()
                    .unwrap_or_else(|| inkboard_core::rich::escape(&raw.id)),
                shape: raw.shape,
                line: raw.line,
                style,
                subgraph: raw.subgraph,
            });
        }
        // `class` lines, then `style` lines, reach nodes first, then subgraphs.
        let classed = self
            .class_lines
            .iter()
            .filter_map(|(id, class)| Some((id, self.classes.get(class)?)));
        let styled = self.style_lines.iter().map(|(id, style)| (id, style));
        for (id, style) in classed.chain(styled) {
            if let Some(&n) = node_index.get(id.as_str()) {
                nodes[n].style.merge(style);
            } else if let Some(&s) = subgraph_ids.get(id.as_str()) {
                subgraphs[s].style.merge(style);
            }
        }
        let mut edges: Vec<Edge> = self
            .edges
            .iter()
            .map(|e| Edge {
                from: ends[e.from],
                to: ends[e.to],
                label: e.link.label.clone(),
                stroke: e.link.stroke,
                start: e.link.start,
                end: e.link.end,
                style: Style::default(),
                line: e.line,
            })
            .collect();
        // `linkStyle default` is what links have unless their own line says more,
        // wherever it comes.
        for (_, style, _) in self.link_styles.iter().filter(|(n, ..)| n.is_none()) {
            edges.iter_mut().for_each(|e| e.style.merge(style));
        }
        let mut notes = std::mem::take(&mut self.notes);
        for (numbers, style, line) in &self.link_styles {
            for &n in numbers.iter().flatten() {
                match edges.get_mut(n) {
                    Some(e) => e.style.merge(style),
                    None => notes.push(Note {
                        kind: NoteKind::LinkStyle,
                        line: *line,
                        message: format!(
                            "'linkStyle {n}' left out: there are {} links, counted from 0",
                            edges.len()
                        ),
                    }),
                }
            }
        }
        notes.sort_by_key(|n| n.line);
        Ok(Flowchart {
            direction: self.direction,
            nodes,
            edges,
            subgraphs,
            notes,
        })
    }
}
