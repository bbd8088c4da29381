//! A page of state shapes as a Mermaid `stateDiagram-v2`, for `export` to
//! `.mmd`: the other direction of [`parse`](super::parse), which reads it back
//! into the same states, composite states and transitions.
//!
//! A page is a state diagram when it holds an end (`geom: "end_state"`) or a
//! start (an ellipse without text filled with a dark colour). Each shape is
//! then a state: a start or an end is `[*]` in its composite state, a diamond
//! without text a `<<choice>>`, a dark bar without text a `<<fork>>` (a
//! `<<join>>` when more lines come in than go out), anything else a state
//! named by its text (`state "Long text" as s1` when the text is no Mermaid
//! name). Frames are composite states, nested as they lie inside one another;
//! an untitled frame inside another is a concurrency region, the regions
//! written apart by `--`. Connectors between them are transitions with their
//! text as the label, written in the innermost composite state holding both
//! ends (where `[*]` means that composite's start or end). A sticky note beside
//! a state (level with it, within 200 px) is a note on its left or right.
//!
//! The diagram's `direction` is the way its transitions run on the page (the
//! sum of their steps), written when it is not down.
//!
//! Limitations: positions, sizes, styles and composite states' own directions
//! are left out, and so is a connector with a free end; a label loses its line
//! breaks.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use inkboard_core::{Board, End, Geom, Kind, Object, ObjectId, PageId, Rect, Shape};

/// True when page `page` holds an end state or a start: it is exported as a
/// state diagram.
pub fn is_state_page(board: &Board, page: PageId) -> bool {
    board.page(page).is_some_and(|p| {
        p.objects.iter().any(|o| match &o.kind {
            Kind::Shape(s) => s.geom == Geom::EndState || is_start(s),
            _ => false,
        })
    })
}

/// An ellipse without text filled dark: a state diagram's start.
fn is_start(s: &Shape) -> bool {
    s.geom == Geom::Ellipse && s.text.trim().is_empty() && dark(s)
}

fn dark(s: &Shape) -> bool {
    s.style.fill.is_some_and(|c| {
        let [r, g, b, a] = c.rgba();
        a > 127 && (u32::from(r) + u32::from(g) + u32::from(b)) < 3 * 80
    })
}

/// What a shape is in the diagram.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Start,
    End,
    Choice,
    Bar,
    Plain,
    Frame,
    Note,
}

fn role(s: &Shape) -> Role {
    let empty = s.text.trim().is_empty();
    match s.geom {
        Geom::Frame => Role::Frame,
        Geom::Note => Role::Note,
        Geom::EndState => Role::End,
        _ if is_start(s) => Role::Start,
        Geom::Diamond if empty => Role::Choice,
        Geom::Rect | Geom::Rounded if empty && dark(s) => Role::Bar,
        _ => Role::Plain,
    }
}

struct Item<'a> {
    object: &'a Object,
    bounds: Rect,
    role: Role,
    text: String,
    /// The innermost frame holding it (an index into the items).
    parent: Option<usize>,
}

/// `page` of `board` as a Mermaid state diagram.
pub fn to_state(board: &Board, page: PageId) -> String {
    let mut out = String::from("stateDiagram-v2\n");
    let Some(page) = board.page(page) else {
        return out;
    };
    let mut items: Vec<Item> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some(Item {
                object: o,
                bounds: s.bounds,
                role: role(s),
                text: o.shown_text().unwrap_or_default().trim().to_string(),
                parent: None,
            }),
            _ => None,
        })
        .collect();
    // The innermost frame around each item: the smallest that holds it whole
    // (of two frames with the same box, the first holds the second).
    for i in 0..items.len() {
        items[i].parent = (0..items.len())
            .filter(|&j| {
                let (f, r) = (&items[j], &items[i]);
                j != i
                    && f.role == Role::Frame
                    && f.bounds.contains(&r.bounds)
                    && (f.bounds != r.bounds || j < i)
            })
            .min_by(|&a, &b| {
                let area = |k: usize| items[k].bounds.w * items[k].bounds.h;
                area(a).total_cmp(&area(b))
            });
    }
    let index: HashMap<&ObjectId, usize> = items
        .iter()
        .enumerate()
        .map(|(i, it)| (&it.object.id, i))
        .collect();
    let region = |i: usize| {
        let it = &items[i];
        it.role == Role::Frame && it.text.is_empty() && it.parent.is_some()
    };
    // Transitions, with the number in and out of each item.
    let mut ins = vec![0usize; items.len()];
    let mut outs = vec![0usize; items.len()];
    let mut links: Vec<(usize, usize, String)> = Vec::new();
    for o in &page.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
            continue;
        };
        let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) else {
            continue;
        };
        let usable = |k: usize| items[k].role != Role::Note && !region(k);
        if usable(a) && usable(b) {
            outs[a] += 1;
            ins[b] += 1;
            links.push((
                a,
                b,
                c.text.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
    }
    // Names: a state's text when Mermaid reads it as a name, else one made up.
    let mut taken: HashSet<String> = HashSet::new();
    let mut names: Vec<String> = vec![String::new(); items.len()];
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (i, it) in items.iter().enumerate() {
        let stem = match it.role {
            Role::Start | Role::End => {
                names[i] = "[*]".into();
                continue;
            }
            Role::Note => continue,
            Role::Frame if region(i) => continue,
            Role::Choice => "choice",
            Role::Bar if ins[i] > outs[i] => "join",
            Role::Bar => "fork",
            Role::Frame => "composite",
            Role::Plain => "state",
        };
        let plain = matches!(it.role, Role::Plain | Role::Frame);
        let name = if plain && is_name(&it.text) && !taken.contains(&it.text) {
            it.text.clone()
        } else {
            loop {
                let n = counts.entry(stem).or_insert(0);
                *n += 1;
                let name = format!("{stem}{n}");
                if !taken.contains(&name) {
                    break name;
                }
            }
        };
        taken.insert(name.clone());
        names[i] = name;
    }
    if let Some(d) = direction(&items, &links) {
        let _ = writeln!(out, "  direction {d}");
    }
    let mut w = Writer {
        items: &items,
        names: &names,
        ins: &ins,
        outs: &outs,
        links: &links,
        notes: notes_beside(&items),
        region: &region,
        out: &mut out,
    };
    w.scope(None, 1);
    out
}

/// The way the transitions run on the page, when it is not down (Mermaid's
/// default): the sum of their steps between shapes' centres, across or up.
fn direction(items: &[Item], links: &[(usize, usize, String)]) -> Option<&'static str> {
    let (mut dx, mut dy) = (0.0, 0.0);
    for &(a, b, _) in links {
        if items[a].role == Role::Frame || items[b].role == Role::Frame {
            continue;
        }
        let (p, q) = (items[a].bounds.center(), items[b].bounds.center());
        dx += q.x - p.x;
        dy += q.y - p.y;
    }
    if f64::abs(dx) > f64::abs(dy) {
        Some(if dx > 0.0 { "LR" } else { "RL" })
    } else if dy < 0.0 {
        Some("BT")
    } else {
        None
    }
}

/// Each note's state (an index into the items) and side (`true`: left of it).
fn notes_beside(items: &[Item]) -> Vec<(usize, usize, bool)> {
    let mut found = Vec::new();
    for (n, note) in items.iter().enumerate() {
        if note.role != Role::Note {
            continue;
        }
        let c = note.bounds.center();
        let best = items
            .iter()
            .enumerate()
            .filter(|(_, it)| {
                matches!(it.role, Role::Plain | Role::Frame)
                    && it.parent == note.parent
                    && c.y >= it.bounds.y
                    && c.y <= it.bounds.bottom()
            })
            .map(|(i, it)| {
                let gap = if c.x < it.bounds.center().x {
                    it.bounds.x - note.bounds.right()
                } else {
                    note.bounds.x - it.bounds.right()
                };
                (i, gap, c.x < it.bounds.center().x)
            })
            .filter(|(_, gap, _)| (-1.0..=200.0).contains(gap))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, _, left)) = best {
            found.push((n, i, left));
        }
    }
    found
}

struct Writer<'a, 'b> {
    items: &'a [Item<'a>],
    names: &'a [String],
    ins: &'a [usize],
    outs: &'a [usize],
    links: &'a [(usize, usize, String)],
    notes: Vec<(usize, usize, bool)>,
    region: &'a dyn Fn(usize) -> bool,
    out: &'b mut String,
}

impl Writer<'_, '_> {
    /// The frames around item `i`, innermost first.
    fn chain(&self, i: usize) -> Vec<usize> {
        std::iter::successors(self.items[i].parent, |&f| self.items[f].parent).collect()
    }

    /// The innermost frame holding both `a` and `b`.
    fn common(&self, a: usize, b: usize) -> Option<usize> {
        let around_b = self.chain(b);
        // A link to or from a frame is written beside the frame, not in it.
        self.chain(a).into_iter().find(|f| around_b.contains(f))
    }

    /// Writes the contents of `scope` (a frame, or the page) at `depth`.
    fn scope(&mut self, scope: Option<usize>, depth: usize) {
        let pad = "  ".repeat(depth);
        let kids: Vec<usize> = (0..self.items.len())
            .filter(|&i| self.items[i].parent == scope)
            .collect();
        for &i in &kids {
            let it = &self.items[i];
            let name = &self.names[i];
            match it.role {
                Role::Choice => {
                    let _ = writeln!(self.out, "{pad}state {name} <<choice>>");
                }
                Role::Bar => {
                    let kind = if self.ins[i] > self.outs[i] {
                        "join"
                    } else {
                        "fork"
                    };
                    let _ = writeln!(self.out, "{pad}state {name} <<{kind}>>");
                }
                Role::Plain if *name == it.text => {
                    let _ = writeln!(self.out, "{pad}{name}");
                }
                Role::Plain => {
                    let _ = writeln!(self.out, "{pad}state {} as {name}", quoted(&it.text));
                }
                Role::Frame if !(self.region)(i) => {
                    let head = if *name == it.text {
                        format!("state {name} {{")
                    } else {
                        format!("state {} as {name} {{", quoted(&it.text))
                    };
                    let _ = writeln!(self.out, "{pad}{head}");
                    self.scope(Some(i), depth + 1);
                    let _ = writeln!(self.out, "{pad}}}");
                }
                _ => {}
            }
        }
        // Concurrency regions, apart by `--`.
        let regions: Vec<usize> = kids.iter().copied().filter(|&i| (self.region)(i)).collect();
        for (k, &r) in regions.iter().enumerate() {
            if k > 0 {
                let _ = writeln!(self.out, "{pad}--");
            }
            self.scope(Some(r), depth);
        }
        for &(a, b, ref label) in self.links {
            if self.common(a, b) != scope {
                continue;
            }
            let (a, b) = (&self.names[a], &self.names[b]);
            let label = label.replace(['"', ':'], " ");
            let label = label.trim();
            if label.is_empty() {
                let _ = writeln!(self.out, "{pad}{a} --> {b}");
            } else {
                let _ = writeln!(self.out, "{pad}{a} --> {b} : {label}");
            }
        }
        for &(n, i, left) in &self.notes {
            if self.items[i].parent != scope {
                continue;
            }
            let side = if left { "left" } else { "right" };
            let _ = writeln!(self.out, "{pad}note {side} of {}", self.names[i]);
            for line in self.items[n].text.lines() {
                let _ = writeln!(self.out, "{pad}  {}", line.trim());
            }
            let _ = writeln!(self.out, "{pad}end note");
        }
    }
}

/// True for what Mermaid reads as a state's name unquoted.
fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_alphabetic)
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A long name in double quotes, line breaks as `<br>`, quotes as `#quot;`.
fn quoted(text: &str) -> String {
    let body: Vec<String> = text
        .lines()
        .map(|l| l.trim().replace('"', "#quot;"))
        .collect();
    format!("\"{}\"", body.join("<br>"))
}
