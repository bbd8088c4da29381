//! What an object carries besides its geometry and style: a [`Link`] to follow
//! (a web or mail address, drawn as an SVG `<a>` and a PDF link, opened by the
//! editor's Ctrl+click), a [`Flip`] (a shape's or image's drawing mirrored in
//! its box, for outlines that are not symmetric) and an [`IconName`] (the icon a
//! shape shows, by name: the set itself is `inkboard-icons`').

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

/// The longest icon name kept, in bytes: the set's longest is under 30.
pub const MAX_ICON_NAME: usize = 64;

/// The name of the icon a shape shows, as files and tools write it: lower-case
/// ASCII letters and digits in words joined by single hyphens (`hard-drive`),
/// at most [`MAX_ICON_NAME`] bytes. The model checks only the spelling, not that
/// the set has it: a file from a newer version naming an icon this one lacks
/// keeps the name (and draws nothing), so no data is lost. The tools check the
/// name against the set (`inkboard_icons::Icon::parse`) before making one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IconName(Box<str>);

impl IconName {
    /// `name` if it is spelled as an icon name is.
    pub fn parse(name: &str) -> Result<IconName, ModelError> {
        let words_ok = !name.is_empty()
            && name.len() <= MAX_ICON_NAME
            && name.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        if words_ok {
            Ok(IconName(name.into()))
        } else {
            Err(ModelError::BadIconName(echo::echo(name).into_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for IconName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icon_names_are_lower_case_words_joined_by_hyphens() {
        for good in ["database", "hard-drive", "columns-4", "a"] {
            assert_eq!(IconName::parse(good).unwrap().as_str(), good);
        }
        for bad in [
            "",
            "Database",
            "hard drive",
            "-x",
            "x-",
            "a--b",
            "ü",
            "x\u{202e}",
        ] {
            assert!(IconName::parse(bad).is_err(), "{bad}");
        }
        assert!(IconName::parse(&"a".repeat(MAX_ICON_NAME + 1)).is_err());
    }

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
