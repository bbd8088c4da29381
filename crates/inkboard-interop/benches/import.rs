//! Import benchmark (plain `std::time`, medians of repeated runs, as the other
//! crates' benches): a draw.io file of 500 objects (300 styled, labelled vertices
//! in a grid, some in containers, and 200 edges with labels and waypoints), once
//! as an uncompressed page and once compressed as draw.io saves it. The budget is
//! 50 ms for the compressed one.
//!
//! Run with `cargo bench -p inkboard-interop --bench import`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use base64::Engine as _;

/// An `<mxGraphModel>` with 300 vertices and 200 edges.
fn model() -> String {
    let mut xml =
        String::from("<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>");
    let styles = [
        "rounded=1;whiteSpace=wrap;html=1;fillColor=#dae8fc;strokeColor=#6c8ebf;",
        "ellipse;whiteSpace=wrap;html=1;fillColor=#d5e8d4;",
        "rhombus;whiteSpace=wrap;html=1;fontSize=14;",
        "shape=mxgraph.aws4.resourceIcon;resIcon=mxgraph.aws4.lambda;html=1;",
        "swimlane;whiteSpace=wrap;html=1;startSize=30;",
    ];
    for i in 0..300 {
        let (x, y) = ((i % 20) * 160, (i / 20) * 120);
        write!(
            xml,
            "<mxCell id=\"v{i}\" value=\"Step &lt;b&gt;{i}&lt;/b&gt;&lt;br&gt;does a thing\" style=\"{}\" vertex=\"1\" parent=\"1\"><mxGeometry x=\"{x}\" y=\"{y}\" width=\"120\" height=\"60\" as=\"geometry\"/></mxCell>",
            styles[i % styles.len()]
        )
        .unwrap();
    }
    for i in 0..200 {
        let (a, b) = (i, (i * 7 + 1) % 300);
        write!(
            xml,
            "<mxCell id=\"e{i}\" value=\"edge {i}\" style=\"edgeStyle=orthogonalEdgeStyle;html=1;endArrow=block;\" edge=\"1\" parent=\"1\" source=\"v{a}\" target=\"v{b}\"><mxGeometry relative=\"1\" as=\"geometry\"><Array as=\"points\"><mxPoint x=\"{}\" y=\"{}\"/></Array></mxGeometry></mxCell>",
            a * 3,
            b * 2
        )
        .unwrap();
    }
    xml.push_str("</root></mxGraphModel>");
    xml
}

/// The page compressed as draw.io does: base64 of raw deflate of the
/// URL-encoded XML.
fn compressed(model: &str) -> String {
    let encoded: String =
        percent_encoding::utf8_percent_encode(model, percent_encoding::NON_ALPHANUMERIC).collect();
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(encoded.as_bytes()).unwrap();
    let packed = base64::engine::general_purpose::STANDARD.encode(e.finish().unwrap());
    format!("<mxfile><diagram name=\"Big\">{packed}</diagram></mxfile>")
}

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let model = model();
    let plain = format!("<mxfile><diagram name=\"Big\">{model}</diagram></mxfile>");
    let packed = compressed(&model);
    let check = inkboard_interop::import(packed.as_bytes(), Some("big.drawio")).expect("imports");
    assert_eq!(check.board.object_count(), 500);
    for (what, file) in [("uncompressed", &plain), ("compressed", &packed)] {
        let t = median(
            || {
                std::hint::black_box(
                    inkboard_interop::import(file.as_bytes(), Some("big.drawio")).expect("imports"),
                );
            },
            31,
        );
        let ms = t.as_secs_f64() * 1000.0;
        let budget = if what == "compressed" {
            if ms <= 50.0 {
                " (budget 50 ms: ok)"
            } else {
                " (budget 50 ms: OVER)"
            }
        } else {
            ""
        };
        println!(
            "draw.io, 500 objects, {what} ({} KiB): {ms:.2} ms{budget}",
            file.len() / 1024
        );
    }
}
