//! Unit tests of the reader's corners. The constructs one by one, through the real
//! tool, are the fixtures in `tests/mermaid/`.

use inkboard_core::{Color, Dash};

use super::*;

fn chart(text: &str) -> Flowchart {
    parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(c) => panic!("{text:?} parsed: {c:?}"),
        Err(e) => e.to_string(),
    }
}

fn labels(c: &Flowchart) -> Vec<&str> {
    c.nodes.iter().map(|n| n.label.as_str()).collect()
}

#[test]
fn chains_and_fans_make_every_link() {
    let c = chart("graph LR\nA --> B --> C\nA & B --> C & D");
    assert_eq!(c.direction, Direction::Right);
    assert_eq!(labels(&c), ["A", "B", "C", "D"]);
    let pairs: Vec<_> = c.edges.iter().map(|e| (e.from, e.to)).collect();
    use Endpoint::Node as N;
    assert_eq!(
        pairs,
        [
            (N(0), N(1)),
            (N(1), N(2)),
            (N(0), N(2)),
            (N(0), N(3)),
            (N(1), N(2)),
            (N(1), N(3))
        ]
    );
}

#[test]
fn links_of_every_kind() {
    let c = chart(
        "flowchart TD\nA-->B\nA---B\nA-.->B\nA==>B\nA--->B\nA-..->B\nA====>B\nA--xB\nA --o B\nA<-->B\nx--xB\nA~~~B\nA-- go -->B\nA-. maybe .->B\nA== sure ==>B\nA-->|\"yes\"|B\nA --ok--> B",
    );
    let got: Vec<_> = c
        .edges
        .iter()
        .map(|e| (e.stroke, e.start, e.end, e.label.as_str()))
        .collect();
    use Head::*;
    use Stroke::*;
    assert_eq!(
        got,
        [
            (Normal, None, Arrow, ""),
            (Normal, None, None, ""),
            (Dotted, None, Arrow, ""),
            (Thick, None, Arrow, ""),
            (Normal, None, Arrow, ""),
            (Dotted, None, Arrow, ""),
            (Thick, None, Arrow, ""),
            (Normal, None, Cross, ""),
            (Normal, None, Circle, ""),
            (Normal, Arrow, Arrow, ""),
            (Normal, None, Cross, ""),
            (Invisible, None, None, ""),
            (Normal, None, Arrow, "go"),
            (Dotted, None, Arrow, "maybe"),
            (Thick, None, Arrow, "sure"),
            (Normal, None, Arrow, "yes"),
            (Normal, None, Arrow, "ok"),
        ]
    );
    // `x--xB` is a node "x" with a cross at the end, the start marker only after a space.
    assert_eq!(labels(&c), ["A", "B", "x"]);
}

#[test]
fn shapes_and_labels() {
    let c = chart(
        "flowchart TD\na[rect] --> b(round) --> c([stadium]) --> d[[sub]] --> e[(db)]\nf((circle)) --> g(((double))) --> h>flag] --> i{rhombus} --> j{{hex}}\nk[/para/] --> l[\\alt\\] --> m[/trap\\] --> n[\\inv/]\no[\"text with (parens) and ]\"] --> p(\"a<br>b<br/>c<br />d\")\nq[/path] --> r[#quot;hi#quot; &amp; #35;1] --> s@{ shape: cyl, label: \"Store\" }",
    );
    let got: Vec<_> = c
        .nodes
        .iter()
        .map(|n| (n.shape, n.label.as_str()))
        .collect();
    use shapes::*;
    assert_eq!(
        got,
        [
            (&RECT, "rect"),
            (&ROUNDED, "round"),
            (&STADIUM, "stadium"),
            (&SUBROUTINE, "sub"),
            (&CYLINDER, "db"),
            (&CIRCLE, "circle"),
            (&DOUBLE_CIRCLE, "double"),
            (&ODD, "flag"),
            (&RHOMBUS, "rhombus"),
            (&HEXAGON, "hex"),
            (&LEAN_RIGHT, "para"),
            (&LEAN_LEFT, "alt"),
            (&TRAPEZOID, "trap"),
            (&INV_TRAPEZOID, "inv"),
            (&RECT, "text with (parens) and ]"),
            (&ROUNDED, "a\nb\nc\nd"),
            (&RECT, "/path"),
            (&RECT, "\"hi\" & #1"),
            (&CYLINDER, "Store"),
        ]
    );
}

#[test]
fn subgraphs_claim_the_nodes_mentioned_inside() {
    let c = chart(
        "flowchart TB\n  c1-->a2\n  subgraph one\n    a1-->a2\n  end\n  subgraph two [The two]\n    direction LR\n    b1-->b2\n    subgraph inner[\"Inner\"]\n      b3\n    end\n    b2 --> b3\n  end\n  one --> two",
    );
    let subgraph_of: Vec<_> = c
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), n.subgraph))
        .collect();
    assert_eq!(
        subgraph_of,
        [
            ("c1", None),
            ("a2", Some(0)),
            ("a1", Some(0)),
            ("b1", Some(1)),
            ("b2", Some(1)),
            ("b3", Some(2)),
        ]
    );
    assert_eq!(c.subgraphs[1].title, "The two");
    assert_eq!(c.subgraphs[1].direction, Some(Direction::Right));
    assert_eq!(c.subgraphs[2].parent, Some(1));
    let last = c.edges.last().map(|e| (e.from, e.to));
    assert_eq!(last, Some((Endpoint::Subgraph(0), Endpoint::Subgraph(1))));
}

#[test]
fn classes_and_styles_fold_in_order() {
    let c = chart(
        "graph TD\nclassDef default fill:#eee\nclassDef hot fill:#f9f,stroke:#333,stroke-width:4px,color:#fff,stroke-dasharray: 5 5\nA:::hot --> B --> C\nclass C hot\nstyle B fill:lightblue,stroke:rgb(255,0,0)\nlinkStyle 1 stroke:#0f0,stroke-width:3px",
    );
    let hot = &c.nodes[0].style;
    assert_eq!(hot.fill, Color::parse("#ff99ff").ok());
    assert_eq!(hot.stroke, Color::parse("#333333").ok());
    assert_eq!(hot.stroke_width, Some(4.0));
    assert_eq!(hot.text_color, Color::parse("#ffffff").ok());
    assert_eq!(hot.dash, Some(Dash::Dashed));
    assert_eq!(c.nodes[1].style.fill, Color::parse("#add8e6").ok());
    assert_eq!(c.nodes[1].style.stroke, Color::parse("#ff0000").ok());
    assert_eq!(c.nodes[2].style.fill, Color::parse("#ff99ff").ok());
    assert!(c.edges[0].style.is_empty());
    assert_eq!(c.edges[1].style.stroke_width, Some(3.0));
}

#[test]
fn comments_separators_and_ignored_lines() {
    let c = chart(
        "---\ntitle: Demo\n---\n%%{init: {\"theme\": \"dark\"}}%%\ngraph TD; A-->B; %% a comment\n%% a line of comment\nclick A \"https://example.com\" \"tip\"\naccTitle: hello\nB-->C;",
    );
    assert_eq!(labels(&c), ["A", "B", "C"]);
    assert_eq!(c.edges.len(), 2);
}

#[test]
fn keywords_can_still_be_node_ids() {
    let c = chart("graph TD\nclass --> style\nEnd --> direction");
    assert_eq!(labels(&c), ["class", "style", "End", "direction"]);
}

#[test]
fn errors_say_where_and_what() {
    assert_eq!(
        error("flowchart TD\n  A --> }"),
        "line 2, column 9: expected a node id after '-->', found '}'"
    );
    assert_eq!(
        error("sequenceDiagram\nA->>B: hi"),
        "line 1, column 1: only Mermaid flowcharts, sequence, ER, state and class diagrams can be imported (a first line like 'flowchart TD', 'sequenceDiagram', 'erDiagram', 'stateDiagram-v2' or 'classDiagram'), found 'sequenceDiagram'"
    );
    assert_eq!(
        error("graph XY\nA-->B"),
        "line 1, column 7: expected a direction (TD, TB, LR, RL or BT) after 'graph', found 'XY'"
    );
    assert_eq!(
        error("graph TD\nA[oops --> B"),
        "line 2, column 13: expected ']' to close the label of node 'A', found the end of the text"
    );
    assert_eq!(
        error("graph TD\nsubgraph one\nA\n"),
        "line 3, column 2: expected 'end' to close subgraph 'one' (opened on line 2), found the end of the text"
    );
    assert_eq!(
        error("graph TD\nA -- B\nC"),
        "line 2, column 7: expected '-->' or '---' to end the link text 'B' started by '--', found the end of the line"
    );
    assert_eq!(
        error("graph TD\nA B"),
        "line 2, column 3: expected a link like '-->', '&' or the end of the line after node 'A', found 'B'"
    );
    assert_eq!(
        error("graph TD\nsubgraph s\n  direction XY\nend"),
        "line 3, column 13: expected a direction (TD, TB, LR, RL or BT) after 'direction', found 'XY'"
    );
    assert_eq!(
        error("graph TD\nclassDef hot\nA"),
        "line 2, column 13: expected styles like 'fill:#f9f,stroke:#333' after 'classDef hot', found the end of the line"
    );
    assert_eq!(
        error("graph TD\nA\nstyle A ;"),
        "line 3, column 9: expected styles like 'fill:#f9f,stroke:#333' after 'style A', found ';'"
    );
    assert_eq!(
        error("graph TD\nA-->B\nlinkStyle first stroke:red"),
        "line 3, column 11: expected link numbers (from 0) like '0,2', or 'default', after 'linkStyle', found 'first'"
    );
    assert_eq!(error("  \n%% nothing\n"), MermaidError::Empty.to_string());
}

#[test]
fn no_text_makes_it_panic() {
    // Every prefix of a text using every construct, and every single-character
    // change of it, parses or fails cleanly.
    let text = "---\ntitle: t\n---\nflowchart LR\n  A[\"q (x)\"] -->|l| B(r) -- t --> C([s]) -.-> D[(c)] ==> E((o))\n  subgraph s1 [T]\n  direction TB\n  F{d} --o G{{h}} --x H[/p/] <--> I[\\p\\] ~~~ J>a] & K@{ shape: cyl, label: \"k\" }\n  end\n  classDef c fill:#f9f,stroke:rgb(1,2,3);\n  class A c\n  A:::c --> B\n  style B fill:#abc\n  linkStyle 0 stroke:red\n  click A \"u\"\n  %% c\n  L[a<br/>b #quot; &amp;] -. m .-> M";
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for &(i, _) in &chars {
        let _ = parse(&text[..i]);
        for c in [
            '-', '[', ']', '(', ')', '{', '}', '"', '|', '\n', ';', '>', '<', '&', ':', '.', '=',
            'x', 'é',
        ] {
            let mut changed = text.to_string();
            changed.insert(i, c);
            let _ = parse(&changed);
            let mut removed = text.to_string();
            removed.remove(i);
            let _ = parse(&removed);
        }
    }
}

#[test]
fn quoted_link_text_may_hold_a_bar() {
    let c = chart("graph LR\nA -->|\"a|b\"| B");
    assert_eq!(c.edges[0].label, "a|b");
    assert_eq!(labels(&c), ["A", "B"]);
}

#[test]
fn markdown_strings_keep_their_text_and_marks() {
    let c = chart("graph LR\nA[\"`**Bold** and *it*`\"] -->|\"`**on** edge`\"| B[a*b*c]");
    // A node's markdown string is rich text; other labels show as written.
    assert_eq!(labels(&c), ["**Bold** and *it*", "a\\*b\\*c"]);
    // A link's text is plain: the marks go, the text stays.
    assert_eq!(c.edges[0].label, "on edge");
}
