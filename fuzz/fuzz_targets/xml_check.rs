//! `xml_check`: any text through `inkboard_core::xml::check`, the linear reading
//! that bounds what roxmltree may be given, against roxmltree itself: when the
//! check passes and roxmltree parses the text, no element may hold more
//! attributes or namespaces in scope than the check allows, and the text the
//! parser made (text nodes and attribute values) may exceed the input by
//! nothing where entities are refused, by at most the entity limit where they
//! are bounded. The
//! first byte picks the rule (even: refused, as for draw.io; odd: bounded, as
//! for SVG images). A disagreement is a way past the bounds.

#![no_main]

use inkboard_core::limits::{MAX_XML_ATTRIBUTES, MAX_XML_ENTITY_BYTES, MAX_XML_NAMESPACES};
use inkboard_core::xml::{check, Entities};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let entities = if mode % 2 == 0 {
        Entities::Refused
    } else {
        Entities::Bounded
    };
    if check("fuzz", text, entities).is_err() {
        return;
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: 1_000_000,
        ..roxmltree::ParsingOptions::default()
    };
    let Ok(doc) = roxmltree::Document::parse_with_options(text, options) else {
        return;
    };
    let mut made = 0usize;
    for node in doc.descendants() {
        if node.is_element() {
            assert!(node.attributes().len() <= MAX_XML_ATTRIBUTES);
            // The `xml` prefix is always in scope.
            assert!(node.namespaces().len() <= MAX_XML_NAMESPACES + 1);
            made += node.attributes().map(|a| a.value().len()).sum::<usize>();
        } else if node.is_text() {
            made += node.text().map_or(0, str::len);
        }
    }
    // Without entities every text and value is read from its own stretch of
    // the input, never longer than it (a character reference is shorter than
    // its character): more means an entity was expanded where they are refused.
    let bound = match entities {
        Entities::Refused => text.len(),
        Entities::Bounded => text.len() + MAX_XML_ENTITY_BYTES as usize,
    };
    assert!(
        made <= bound,
        "{made} bytes made from {} of text ({entities:?})",
        text.len()
    );
});
