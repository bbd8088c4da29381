//! The importers' parsers run in time near-linear in their input: each case is
//! imported at sizes n, 2n and 4n, and the best of several timings at 4n may be
//! at most twice what n log n predicts from the best at n (a quadratic parser
//! takes 16 times as long; the bound is about 9). Timings of the three sizes are
//! taken in turn, so a machine busy with other work slows all of them alike.
//!
//! Each case is a shape that was quadratic: an HTML label of `<` without a `>`
//! (a million took 99 s), a label of tags opening and closing different marks,
//! many attributes, and Excalidraw groups nested in a chain built from the top.
//! (One element of many attributes, a minute for 250,000, is refused after
//! reading one past the limit: `bounds.rs` counts that work exactly.)

use std::time::{Duration, Instant};

use inkboard_core::limits::MAX_XML_ATTRIBUTES;

/// How many timings of each size; the best counts.
const RUNS: usize = 7;

fn model(cells: &str) -> String {
    format!("<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>{cells}</root></mxGraphModel>")
}

fn html_shape(label: &str) -> String {
    model(&format!("<mxCell id=\"2\" parent=\"1\" vertex=\"1\" style=\"html=1\" value=\"{label}\"><mxGeometry width=\"300\" height=\"60\" as=\"geometry\"/></mxCell>"))
}

/// Fails when importing `make(4n)` takes more than twice the n log n
/// prediction from `make(n)`.
fn near_linear(case: &str, n: usize, make: impl Fn(usize) -> String) {
    let inputs: Vec<String> = [n, 2 * n, 4 * n].into_iter().map(&make).collect();
    let mut best = [Duration::MAX; 3];
    for _ in 0..RUNS {
        for (input, best) in inputs.iter().zip(&mut best) {
            let start = Instant::now();
            // Some cases end over a limit of the board (the text limit): the
            // parsing is done by then, and is what is timed.
            let _ = inkboard_interop::import(input.as_bytes(), None);
            *best = (*best).min(start.elapsed());
        }
    }
    let nlogn = |m: f64| m * m.ln();
    let predicted = nlogn(4.0 * n as f64) / nlogn(n as f64);
    let ratio = best[2].as_secs_f64() / best[0].as_secs_f64().max(1e-9);
    eprintln!(
        "scaling {case}: n={n} {:?}, 2n {:?}, 4n {:?}: 4n/n = {ratio:.2} (n log n: {predicted:.2})",
        best[0], best[1], best[2]
    );
    assert!(
        ratio <= 2.0 * predicted,
        "{case}: 4n took {ratio:.1} times as long as n, where n log n predicts {predicted:.1}"
    );
}

#[test]
fn an_html_label_of_lone_brackets_is_read_in_near_linear_time() {
    near_linear("'<' without '>'", 100_000, |n| {
        html_shape(&"&lt;".repeat(n))
    });
}

#[test]
fn a_label_of_many_marks_is_read_in_near_linear_time() {
    // Bold opened n times, italic n times, then bold closed n times: each
    // closing tag looked for its opening past all the italics.
    near_linear("marks", 4_000, |n| {
        html_shape(&format!(
            "{}{}{}x",
            "&lt;b&gt;".repeat(n),
            "&lt;i&gt;".repeat(n),
            "&lt;/b&gt;".repeat(n)
        ))
    });
}

#[test]
fn attributes_over_many_elements_are_read_in_near_linear_time() {
    // n attributes over elements at the limit: the parser compares each with
    // its element's earlier ones, the square of the element's count, which the
    // limit keeps a constant.
    near_linear("attributes of many elements", 400_000, |n| {
        let per = MAX_XML_ATTRIBUTES;
        let cells: String = (0..n / per)
            .map(|c| {
                let attrs: String = (0..per).map(|i| format!(" a{i}=\"\"")).collect();
                format!("<mxCell id=\"c{c}\" parent=\"1\"{attrs}/>")
            })
            .collect();
        model(&cells)
    });
}

#[test]
fn groups_nested_from_the_top_are_read_in_near_linear_time() {
    // Element i's innermost group is g(i+1), inside g(i): each new link hangs a
    // group under the bottom of the chain so far, and checking that it makes no
    // cycle walked the chain to its top.
    near_linear("nested groups", 1_000, |n| {
        let elements: Vec<String> = (0..n)
            .map(|i| {
                format!("{{\"id\":\"e{i}\",\"type\":\"rectangle\",\"x\":0,\"y\":0,\"width\":9,\"height\":9,\"groupIds\":[\"g{}\",\"g{i}\"]}}", i + 1)
            })
            .collect();
        format!(
            "{{\"type\":\"excalidraw\",\"elements\":[{}]}}",
            elements.join(",")
        )
    });
}
