//! The cost of an XML document, bounded before any parser sees it. The XML
//! inkboard reads (draw.io files and pages, the diagram inside a draw.io SVG or
//! PNG, and every SVG image, which usvg parses) goes through roxmltree, which does
//! work that grows faster than its input in three places:
//!
//! - it expands the entities a document declares in its DTD: a few hundred bytes
//!   of nested `<!ENTITY>`, compressed in a draw.io page, grew to 6.6 GB and
//!   aborted the process;
//! - it compares each attribute of an element with the element's earlier ones,
//!   the square of their count: 250,000 attributes on one element took a minute;
//! - an element that declares a namespace copies every namespace in scope,
//!   comparing each with the others.
//!
//! [`check`] reads the text once, in time linear in its length, following
//! roxmltree's grammar (declaration, comments, processing instructions, the DTD
//! and its internal subset, CDATA, tags and their quoted values), and refuses a
//! document with an element of more than [`MAX_XML_ATTRIBUTES`](crate::limits::MAX_XML_ATTRIBUTES) attributes, more
//! than [`MAX_XML_NAMESPACES`](crate::limits::MAX_XML_NAMESPACES) namespace declarations in scope at an element, or
//! entities it does not take ([`Entities`]). Where the text breaks the grammar the
//! parser stops with an error at that place, doing no more work, so the check
//! stops there too: it agrees with the parser on everything the parser reads.

use std::collections::HashMap;

use crate::limits::{Limit, MAX_XML_ATTRIBUTES};
use crate::ModelError;

/// Which entity declarations a document may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entities {
    /// None at all: for formats whose writers never declare one (draw.io), so a
    /// declaration can only be an attack or damage.
    Refused,
    /// Declarations whose expansion, everywhere they are used, adds at most
    /// [`MAX_XML_ENTITY_BYTES`](crate::limits::MAX_XML_ENTITY_BYTES), none holding markup (a `<`) and none referring to
    /// itself: old Illustrator SVGs name their namespaces with a few of them.
    Bounded,
}

/// Why a document's entities are refused, as [`ModelError::XmlEntities`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityProblem {
    /// Any declaration, where [`Entities::Refused`].
    Declared,
    /// An entity whose text holds markup, which the parser would read as elements
    /// (with attributes the check never saw) every time it is used.
    Markup,
    /// Entities that refer to themselves, directly or through others.
    Loop,
}

impl EntityProblem {
    /// The words after "declares XML entities".
    pub(crate) fn words(self) -> &'static str {
        match self {
            EntityProblem::Declared => "(<!ENTITY …>), which are not read in this kind of file",
            EntityProblem::Markup => "that hold markup, which are not read",
            EntityProblem::Loop => "that refer to themselves, which are not read",
        }
    }
}

/// Refuses XML text whose parsing would cost more than its size says: an
/// element with more than [`MAX_XML_ATTRIBUTES`](crate::limits::MAX_XML_ATTRIBUTES) attributes, more than
/// [`MAX_XML_NAMESPACES`](crate::limits::MAX_XML_NAMESPACES) namespace declarations in scope at one element, or
/// entities that `entities` does not take. `what` names the document in the
/// message ("page 1", "the SVG image of image \"i3\"").
///
/// Linear in the text's length; it allocates only for entity declarations.
pub fn check(what: &str, text: &str, entities: Entities) -> Result<(), ModelError> {
    // Entities can only be declared by these bytes (roxmltree reads no other
    // spelling), so a document without them declares none, wherever they hide.
    let declares = find(text.as_bytes(), 0, b"<!ENTITY").is_some();
    if declares && entities == Entities::Refused {
        return Err(entity_error(what, EntityProblem::Declared));
    }
    let mut scan = Scan {
        b: text.as_bytes(),
        at: 0,
        declared: Vec::new(),
    };
    let content_start = scan.prolog();
    if declares {
        let declared = std::mem::take(&mut scan.declared);
        entity_growth(what, text.as_bytes(), content_start, &declared)?;
    }
    scan.at = content_start.unwrap_or(text.len());
    scan.content(what)
}

fn entity_error(what: &str, problem: EntityProblem) -> ModelError {
    ModelError::XmlEntities {
        what: what.to_string(),
        problem,
    }
}

/// XML's white space.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first `pat` in `b` at or after `from`.
fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    let mut at = from;
    while at + pat.len() <= b.len() {
        let first = b[at..].iter().position(|&c| c == pat[0])?;
        at += first;
        if b[at..].starts_with(pat) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// An entity declaration: its name and its literal text (external entities,
/// which the parser is never given a way to read, have none and are skipped).
struct Declared<'a> {
    name: &'a [u8],
    value: &'a [u8],
}

/// The reader: the text and where it is.
struct Scan<'a> {
    b: &'a [u8],
    at: usize,
    declared: Vec<Declared<'a>>,
}

impl<'a> Scan<'a> {
    fn rest(&self) -> &'a [u8] {
        &self.b[self.at.min(self.b.len())..]
    }

    fn starts(&self, pat: &[u8]) -> bool {
        self.rest().starts_with(pat)
    }

    fn byte(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn skip_spaces(&mut self) {
        while self.byte().is_some_and(is_space) {
            self.at += 1;
        }
    }

    /// Moves past the next `pat`; false (and at the end) when there is none.
    fn past(&mut self, pat: &[u8]) -> bool {
        match find(self.b, self.at, pat) {
            Some(i) => {
                self.at = i + pat.len();
                true
            }
            None => {
                self.at = self.b.len();
                false
            }
        }
    }

    /// Moves past a quoted literal starting here, which may not hold a `<` when
    /// `no_lt` (attribute values); false where the parser would stop.
    fn quoted(&mut self, no_lt: bool) -> Option<&'a [u8]> {
        let quote = self.byte().filter(|c| matches!(c, b'"' | b'\''))?;
        let start = self.at + 1;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == quote || (no_lt && c == b'<'))?;
        if self.b[start + len] != quote {
            return None;
        }
        self.at = start + len + 1;
        Some(&self.b[start..start + len])
    }

    /// Moves past a name (up to white space or one of `stops`) and answers it.
    fn name(&mut self, stops: &[u8]) -> &'a [u8] {
        let start = self.at;
        while self
            .byte()
            .is_some_and(|c| !is_space(c) && !stops.contains(&c))
        {
            self.at += 1;
        }
        &self.b[start..self.at]
    }

    /// Reads the prolog (the XML declaration, comments and processing
    /// instructions, the DTD), noting entity declarations; answers where the
    /// content starts, or `None` where the parser would stop before it.
    fn prolog(&mut self) -> Option<usize> {
        if self.starts(b"\xEF\xBB\xBF") {
            self.at += 3;
        }
        if self.starts(b"<?xml ") {
            // Its pseudo-attributes are quoted and may hold "?>"; a `<` anywhere
            // in it is an error.
            self.at += 5;
            loop {
                match self.byte()? {
                    b'"' | b'\'' => {
                        self.quoted(true)?;
                    }
                    b'?' if self.starts(b"?>") => {
                        self.at += 2;
                        break;
                    }
                    b'<' => return None,
                    _ => self.at += 1,
                }
            }
        }
        self.misc();
        if self.starts(b"<!DOCTYPE") {
            self.doctype()?;
            self.misc();
        }
        Some(self.at)
    }

    /// White space, comments and processing instructions.
    fn misc(&mut self) {
        loop {
            self.skip_spaces();
            if self.starts(b"<!--") {
                self.past(b"-->");
            } else if self.starts(b"<?") {
                self.past(b"?>");
            } else {
                return;
            }
        }
    }

    /// `<!DOCTYPE name ExternalID? [internal subset]? >`, as roxmltree reads it.
    fn doctype(&mut self) -> Option<()> {
        self.at += b"<!DOCTYPE".len();
        self.skip_spaces();
        self.name(b"[>");
        self.skip_spaces();
        self.external_id()?;
        self.skip_spaces();
        match self.byte()? {
            b'>' => {
                self.at += 1;
                return Some(());
            }
            b'[' => self.at += 1,
            _ => return None,
        }
        loop {
            self.skip_spaces();
            if self.starts(b"<!ENTITY") {
                self.entity_decl()?;
            } else if self.starts(b"<!--") {
                self.past(b"-->").then_some(())?;
            } else if self.starts(b"<?") {
                self.past(b"?>").then_some(())?;
            } else if self.starts(b"]") {
                self.at += 1;
                self.skip_spaces();
                return (self.byte()? == b'>').then(|| self.at += 1);
            } else if self.starts(b"<!ELEMENT")
                || self.starts(b"<!ATTLIST")
                || self.starts(b"<!NOTATION")
            {
                // Read to the next `>`, quotes or not, as the parser does.
                self.past(b">").then_some(())?;
            } else {
                return None;
            }
        }
    }

    /// `SYSTEM "uri"` or `PUBLIC "id" "uri"`, if there; its literals may hold
    /// anything but their quote.
    fn external_id(&mut self) -> Option<()> {
        let public = self.starts(b"PUBLIC");
        if public || self.starts(b"SYSTEM") {
            self.at += 6;
            self.skip_spaces();
            self.quoted(false)?;
            if public {
                self.skip_spaces();
                self.quoted(false)?;
            }
        }
        Some(())
    }

    /// `<!ENTITY %? name "value">` or `<!ENTITY name ExternalID ...>`.
    fn entity_decl(&mut self) -> Option<()> {
        self.at += b"<!ENTITY".len();
        self.skip_spaces();
        if self.byte() == Some(b'%') {
            self.at += 1;
            self.skip_spaces();
        }
        let name = self.name(b"\"'>");
        self.skip_spaces();
        match self.byte()? {
            b'"' | b'\'' => {
                let value = self.quoted(false)?;
                self.declared.push(Declared { name, value });
            }
            _ => self.external_id()?,
        }
        // Anything left before `>` (NDATA, or damage the parser refuses).
        self.past(b">").then_some(())
    }

    /// The root element and what follows it: every tag's attributes counted,
    /// and the namespace declarations in scope.
    fn content(&mut self, what: &str) -> Result<(), ModelError> {
        // Namespace declarations by the open elements that made some: (depth,
        // count). At most MAX_XML_NAMESPACES entries, whatever the nesting.
        let mut scopes: Vec<(usize, usize)> = Vec::new();
        let mut in_scope = 0usize;
        let mut depth = 0usize;
        while let Some(lt) = find(self.b, self.at, b"<") {
            self.at = lt;
            if self.starts(b"<!--") {
                self.past(b"-->");
            } else if self.starts(b"<![CDATA[") {
                self.past(b"]]>");
            } else if self.starts(b"<!") {
                // No other markup is allowed here: the parser stops.
                return Ok(());
            } else if self.starts(b"<?") {
                self.past(b"?>");
            } else if self.starts(b"</") {
                self.past(b">");
                depth = depth.saturating_sub(1);
                while scopes.last().is_some_and(|&(d, _)| d > depth) {
                    in_scope -= scopes.pop().map_or(0, |(_, n)| n);
                }
            } else {
                let Some((attributes, namespaces, open)) = self.start_tag() else {
                    return Ok(());
                };
                if attributes > MAX_XML_ATTRIBUTES {
                    // The limit's unit says "on one element".
                    return Limit::XmlAttributes.check(|| what.to_owned(), attributes as u64);
                }
                let around = in_scope + namespaces;
                Limit::XmlNamespaces.check(|| what.to_owned(), around as u64)?;
                if open {
                    depth += 1;
                    if namespaces > 0 {
                        scopes.push((depth, namespaces));
                        in_scope = around;
                    }
                }
            }
        }
        Ok(())
    }

    /// A start tag from its `<`: (attributes, namespace declarations among them,
    /// whether it opens an element); `None` where the parser would stop.
    fn start_tag(&mut self) -> Option<(usize, usize, bool)> {
        self.at += 1;
        if self.name(b"/>").is_empty() {
            return None;
        }
        let (mut attributes, mut namespaces) = (0, 0);
        loop {
            self.skip_spaces();
            match self.byte()? {
                b'>' => {
                    self.at += 1;
                    return Some((attributes, namespaces, true));
                }
                b'/' => {
                    self.at += 1;
                    return (self.byte()? == b'>').then(|| {
                        self.at += 1;
                        (attributes, namespaces, false)
                    });
                }
                _ => {
                    let name = self.name(b"=/>");
                    if name.is_empty() {
                        return None;
                    }
                    self.skip_spaces();
                    if self.byte()? != b'=' {
                        return None;
                    }
                    self.at += 1;
                    self.skip_spaces();
                    self.quoted(true)?;
                    attributes += 1;
                    if name == b"xmlns" || name.starts_with(b"xmlns:") {
                        namespaces += 1;
                    }
                    // Stop counting early: the caller refuses past the limit.
                    if attributes > MAX_XML_ATTRIBUTES {
                        return Some((attributes, namespaces, false));
                    }
                }
            }
        }
    }
}

/// Refuses declared entities that hold markup, refer to themselves, or would
/// add more than [`MAX_XML_ENTITY_BYTES`](crate::limits::MAX_XML_ENTITY_BYTES) where the content (from
/// `content_start`) uses them. Every reference in the content is counted, even
/// one in a comment: a bound, not the parser's exact count.
fn entity_growth(
    what: &str,
    b: &[u8],
    content_start: Option<usize>,
    declared: &[Declared],
) -> Result<(), ModelError> {
    // The parser takes the first declaration of a name.
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    for (i, d) in declared.iter().enumerate() {
        if d.value.contains(&b'<') {
            return Err(entity_error(what, EntityProblem::Markup));
        }
        index.entry(d.name).or_insert(i);
    }
    let refs: Vec<Vec<usize>> = declared
        .iter()
        .map(|d| {
            references(d.value)
                .filter_map(|n| index.get(n).copied())
                .collect()
        })
        .collect();
    // Each entity's size expanded, depth first without recursion (a chain of
    // entities may be as long as the text allows).
    const OPEN: u64 = u64::MAX;
    let mut size: Vec<Option<u64>> = vec![None; declared.len()];
    for root in 0..declared.len() {
        if size[root].is_some() {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        size[root] = Some(OPEN);
        while let Some(&mut (e, ref mut next)) = stack.last_mut() {
            if let Some(&r) = refs[e].get(*next) {
                *next += 1;
                match size[r] {
                    Some(OPEN) => return Err(entity_error(what, EntityProblem::Loop)),
                    Some(_) => {}
                    None => {
                        size[r] = Some(OPEN);
                        stack.push((r, 0));
                    }
                }
                continue;
            }
            let total = refs[e]
                .iter()
                .fold(declared[e].value.len() as u64, |t, &r| {
                    t.saturating_add(size[r].unwrap_or(0))
                })
                // Kept below OPEN, which marks an entity being sized.
                .min(OPEN - 1);
            size[e] = Some(total);
            stack.pop();
        }
    }
    let Some(start) = content_start else {
        return Ok(());
    };
    let grown = references(&b[start..])
        .filter_map(|n| index.get(n))
        .fold(0u64, |t, &i| t.saturating_add(size[i].unwrap_or(0)));
    Limit::XmlEntityBytes.check(|| what.to_string(), grown)
}

/// The names of the entity references (`&name;`) in `b`; character references
/// (`&#…;`) are not entities.
fn references(b: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let amp = at + b.get(at..)?.iter().position(|&c| c == b'&')?;
        let name_start = amp + 1;
        let len = b[name_start..]
            .iter()
            .position(|&c| c == b';' || c == b'&' || c == b'<' || is_space(c))
            .unwrap_or(b.len() - name_start);
        at = name_start + len;
        let name = &b[name_start..at];
        if b.get(at) == Some(&b';') && !name.is_empty() && name[0] != b'#' {
            return Some(name);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str, e: Entities) -> bool {
        check("it", text, e).is_ok()
    }

    #[test]
    fn ordinary_documents_pass() {
        for text in [
            "<a/>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"x\"><g a=\"1\" b='2'>t &amp; &#60; u</g><!-- <x> --><![CDATA[<y>]]></svg>",
            "<mxfile><diagram name=\"p\">7ZxNb5tAEIZ/jY+V+DAxHBvHaS6VKuXQ</diagram></mxfile>",
        ] {
            assert!(ok(text, Entities::Refused), "{text}");
        }
    }

    #[test]
    fn entities_are_refused_or_bounded() {
        let nested = format!(
            "<!DOCTYPE m [<!ENTITY a \"{}\"><!ENTITY b \"{}\">]><m v=\"{}\"/>",
            "A".repeat(10_000),
            "&a;".repeat(250),
            "&b;".repeat(2_600)
        );
        assert!(matches!(
            check("page 1", &nested, Entities::Refused),
            Err(ModelError::XmlEntities {
                problem: EntityProblem::Declared,
                ..
            })
        ));
        let Err(ModelError::TooLarge { limit, got, .. }) =
            check("page 1", &nested, Entities::Bounded)
        else {
            panic!("the expansion is over the limit");
        };
        assert_eq!(limit, Limit::XmlEntityBytes);
        assert!(got > 6_000_000_000, "{got}");
        // Illustrator's namespace names are taken.
        let illustrator = "<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\" [\n\t<!ENTITY ns_svg \"http://www.w3.org/2000/svg\">\n\t<!ENTITY ns_xlink \"http://www.w3.org/1999/xlink\">\n]><svg xmlns=\"&ns_svg;\" xmlns:xlink=\"&ns_xlink;\"/>";
        assert!(ok(illustrator, Entities::Bounded));
        assert!(!ok(illustrator, Entities::Refused));
        let looped = "<!DOCTYPE m [<!ENTITY a \"&b;\"><!ENTITY b \"x&a;\">]><m>&a;</m>";
        assert!(matches!(
            check("it", looped, Entities::Bounded),
            Err(ModelError::XmlEntities {
                problem: EntityProblem::Loop,
                ..
            })
        ));
        let markup = "<!DOCTYPE m [<!ENTITY a \"<b x=''/>\">]><m>&a;</m>";
        assert!(matches!(
            check("it", markup, Entities::Bounded),
            Err(ModelError::XmlEntities {
                problem: EntityProblem::Markup,
                ..
            })
        ));
        // A long chain is sized without recursion.
        let chain: String = (0..100_000)
            .map(|i| format!("<!ENTITY e{i} \"&e{};\">", i + 1))
            .collect();
        let chain = format!("<!DOCTYPE m [{chain}<!ENTITY e100000 \"x\">]><m>&e0;</m>");
        assert!(ok(&chain, Entities::Bounded));
    }

    #[test]
    fn attributes_and_namespaces_are_counted() {
        let tag = |n: usize, prefix: &str| {
            let attrs: String = (0..n).map(|i| format!(" {prefix}{i}=\"\"")).collect();
            format!("<m{attrs}/>")
        };
        assert!(ok(&tag(MAX_XML_ATTRIBUTES, "a"), Entities::Refused));
        let Err(ModelError::TooLarge { limit, .. }) =
            check("it", &tag(MAX_XML_ATTRIBUTES + 1, "a"), Entities::Refused)
        else {
            panic!("over the attribute limit");
        };
        assert_eq!(limit, Limit::XmlAttributes);
        // Namespaces add up along the nesting, and leave with their element.
        let open = |n: usize| {
            let attrs: String = (0..n).map(|i| format!(" xmlns:p{i}=\"u\"")).collect();
            format!("<g{attrs}>")
        };
        let half = crate::limits::MAX_XML_NAMESPACES / 2;
        let siblings = format!("<r>{}</g>{}</g></r>", open(half), open(half + 1));
        assert!(ok(&siblings, Entities::Refused));
        let nested = format!("<r>{}{}</g></g></r>", open(half), open(half + 1));
        assert!(matches!(
            check("it", &nested, Entities::Refused),
            Err(ModelError::TooLarge {
                limit: Limit::XmlNamespaces,
                ..
            })
        ));
    }

    #[test]
    fn what_hides_markup_from_a_naive_reader_is_still_read() {
        let many = format!(
            "<svg{}/>",
            (0..MAX_XML_ATTRIBUTES + 1)
                .map(|i| format!(" a{i}=\"\""))
                .collect::<String>()
        );
        // Each of these is well-formed for the parser: "?>" in the declaration's
        // quotes ends nothing, "<!--" in the DOCTYPE's literals starts no comment,
        // nor does "-->" in an attribute value end one.
        for text in [
            format!("<?xml version=\"1.0\" encoding=\"?>\"?>{many}"),
            format!("<!DOCTYPE svg PUBLIC \"<!--\" \"]>\">{many}<!-- -->"),
            format!("<!DOCTYPE svg [<!-- ]> -->]>{many}"),
            format!("<r a=\"-->\"><!-- x -->{many}</r>"),
        ] {
            assert!(!ok(&text, Entities::Refused), "{text}");
        }
    }
}
