//! What an object carries besides its geometry and style: a [`Link`] to follow
//! (a web or mail address, drawn as an SVG `<a>` and a PDF link, opened by the
//! editor's Ctrl+click) and a [`Flip`] (a shape's or image's drawing mirrored in
//! its box, for outlines that are not symmetric).

use crate::{echo, ModelError};

/// The longest link kept, in bytes: longer than any address a person types,
/// short enough that a board of linked shapes stays small.
pub const MAX_LINK: usize = 2048;

/// An address an object links to, safe to follow: `http:`, `https:` or `mailto:`
/// ([`crate::rich::safe_url`], the rule rich text's links follow); a bare domain
/// (`example.com/x`) is kept as `https:`. A `javascript:` or `file:` address is
/// never a `Link`, so no output can be made to run or open one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Link(String);

impl Link {
    /// The link `text` names, checked and normalised as the type says.
    pub fn parse(text: &str) -> Result<Link, ModelError> {
        if text.len() > MAX_LINK {
            return Err(ModelError::BadLink {
                link: echo::echo(text).into_owned(),
                why: "longer than 2048 bytes: give a shorter address",
            });
        }
        crate::rich::safe_url(text)
            // A space or a line break would end the address where it is shown
            // or pasted: such a link is mistyped; a character that reorders or
            // hides text (an RTL override) would show another address than the
            // one followed.
            .filter(|url| !url.chars().any(|c| c.is_whitespace() || echo::garbles(c)))
            .map(|url| Link(lower_scheme(url)))
            .ok_or_else(|| ModelError::BadLink {
                link: echo::echo(text).into_owned(),
                why: "not a web or mail address: give an http:, https: or mailto: one, or a domain",
            })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `url` with its scheme (`HTTPS:` in `HTTPS://x`) in lower case, as files keep it.
fn lower_scheme(mut url: String) -> String {
    if let Some(colon) = url.find(':') {
        url[..colon].make_ascii_lowercase();
    }
    url
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A mirrored drawing: `x` mirrors it left to right (about the vertical line
/// through its box's centre), `y` top to bottom; both, half a turn. The box stays
/// where it is, and the text stays readable: only the outline (and an image's
/// pixels) are mirrored, before the object's rotation turns the whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flip {
    pub x: bool,
    pub y: bool,
}

impl Flip {
    /// No mirroring.
    pub const NONE: Flip = Flip { x: false, y: false };

    /// True when nothing is mirrored.
    pub fn is_none(self) -> bool {
        self == Flip::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_and_mail_addresses_are_links() {
        let ok = |t: &str| Link::parse(t).map(|l| l.0);
        assert_eq!(
            ok("https://example.com/a").unwrap(),
            "https://example.com/a"
        );
        assert_eq!(ok("HTTP://Example.com").unwrap(), "http://Example.com");
        assert_eq!(ok(" example.com/x ").unwrap(), "https://example.com/x");
        assert_eq!(ok("mailto:a@b.c").unwrap(), "mailto:a@b.c");
        for bad in [
            "\u{202e}txt.exe",
            "https://a\u{200b}b.c",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,x",
            "nothing",
            "",
        ] {
            assert!(Link::parse(bad).is_err(), "{bad}");
        }
        assert!(Link::parse(&format!("https://a.b/{}", "x".repeat(MAX_LINK))).is_err());
    }
}
