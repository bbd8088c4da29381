//! Shared by the corpus and error tests: the golden-file check (`UPDATE_EXPECT=1`
//! rewrites the expected file) and a readable summary of an imported board.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inkboard_core::{End, Kind, Style};
use inkboard_interop::Imported;

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Compares `actual` with the file at `path`, or rewrites it under `UPDATE_EXPECT=1`.
pub fn expect(path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).expect("write expected file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (run with UPDATE_EXPECT=1 to accept):\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

/// A number as the summary shows it: at most two decimals, no trailing zeros.
fn n(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn quoted(text: &str) -> String {
    format!("{text:?}")
}

fn style(s: &Style) -> String {
    let mut parts = Vec::new();
    if let Some(c) = s.fill {
        parts.push(format!("fill {c}"));
    }
    if let Some(c) = s.stroke {
        parts.push(format!("stroke {c}"));
    }
    if let Some(w) = s.stroke_width {
        parts.push(format!("width {}", n(w)));
    }
    if let Some(d) = s.dash {
        parts.push(format!("{d}"));
    }
    if let Some(f) = s.font_size {
        parts.push(format!("font {}", n(f)));
    }
    if let Some(c) = s.text_color {
        parts.push(format!("text {c}"));
    }
    if let Some(a) = s.align {
        parts.push(format!("align {a}"));
    }
    if let Some(v) = s.valign {
        parts.push(format!("valign {v}"));
    }
    if let Some(o) = s.opacity {
        parts.push(format!("opacity {}", n(o)));
    }
    if let Some(r) = s.roughness {
        parts.push(format!("rough {}", n(r)));
    }
    if let Some(f) = s.fill_style {
        parts.push(f.to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", parts.join(", "))
    }
}

fn end(e: &End) -> String {
    match e {
        End::Object(id) => id.to_string(),
        End::Point(p) => format!("({},{})", n(p.x), n(p.y)),
    }
}

/// The summary: format, then per page the counts (objects by type, texts,
/// connections) and one line per object, then what was lost.
pub fn summary(imported: &Imported) -> String {
    let mut out = String::new();
    let board = &imported.board;
    writeln!(out, "format: {}", imported.format).unwrap();
    writeln!(out, "title: {}", quoted(board.title())).unwrap();
    for (i, page) in board.pages().iter().enumerate() {
        let count = |f: fn(&Kind) -> bool| page.objects.iter().filter(|o| f(&o.kind)).count();
        let texts = page
            .objects
            .iter()
            .filter(|o| o.text().is_some_and(|t| !t.is_empty()))
            .count();
        let (mut bound, mut free) = (0, 0);
        for o in &page.objects {
            if let Kind::Connector(c) = &o.kind {
                for e in [&c.from, &c.to] {
                    match e {
                        End::Object(_) => bound += 1,
                        End::Point(_) => free += 1,
                    }
                }
            }
        }
        writeln!(
            out,
            "\npage {} {}: {} objects ({} shapes, {} connectors, {} images, {} ink, {} groups), {} texts, {} connector ends bound and {} free",
            i + 1,
            quoted(&page.name),
            page.objects.len(),
            count(|k| matches!(k, Kind::Shape(_))),
            count(|k| matches!(k, Kind::Connector(_))),
            count(|k| matches!(k, Kind::Image(_))),
            count(|k| matches!(k, Kind::Ink(_))),
            count(|k| matches!(k, Kind::Group(_))),
            texts,
            bound,
            free,
        )
        .unwrap();
        for o in &page.objects {
            let line = match &o.kind {
                Kind::Shape(s) => format!(
                    "{} {} {},{} {}x{} {}{}",
                    o.id,
                    s.geom,
                    n(s.bounds.x),
                    n(s.bounds.y),
                    n(s.bounds.w),
                    n(s.bounds.h),
                    quoted(&s.text),
                    style(&s.style)
                ),
                Kind::Connector(c) => format!(
                    "{} {} -> {} {} {}/{} {}{}{}",
                    o.id,
                    end(&c.from),
                    end(&c.to),
                    c.route,
                    c.start_arrow,
                    c.end_arrow,
                    quoted(&c.text),
                    style(&c.style),
                    bends(c.waypoints(), c.label_at())
                ),
                Kind::Image(im) => format!(
                    "{} image {} {},{} {}x{} {} bytes",
                    o.id,
                    im.format,
                    n(im.bounds.x),
                    n(im.bounds.y),
                    n(im.bounds.w),
                    n(im.bounds.h),
                    im.data.len()
                ),
                Kind::Ink(k) => format!(
                    "{} ink {} points from {}{}",
                    o.id,
                    k.points.len(),
                    k.points
                        .first()
                        .map(|p| format!("({},{})", n(p.x), n(p.y)))
                        .unwrap_or_default(),
                    style(&k.style)
                ),
                Kind::Group(g) => format!(
                    "{} group [{}]",
                    o.id,
                    g.members
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            writeln!(out, "  {line}").unwrap();
        }
    }
    writeln!(out, "\nlost:").unwrap();
    if imported.lost.is_empty() {
        writeln!(out, "  nothing").unwrap();
    }
    for l in &imported.lost {
        writeln!(out, "  {l}").unwrap();
    }
    out
}

/// A connector's waypoints and label place, when it has them: ` via x,y x,y`,
/// ` label at 0.25`.
fn bends(waypoints: &[inkboard_core::Point], label_at: Option<f64>) -> String {
    let n = |v: f64| (v * 100.0).round() / 100.0;
    let mut out = String::new();
    if !waypoints.is_empty() {
        out.push_str(" via");
        for p in waypoints {
            out.push_str(&format!(" {},{}", n(p.x), n(p.y)));
        }
    }
    if let Some(at) = label_at {
        out.push_str(&format!(" label at {}", n(at)));
    }
    out
}
