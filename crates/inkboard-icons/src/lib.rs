//! The icons a shape can show: a curated part of Lucide (`SOURCES.md`), each a name,
//! a few tags and one SVG path in a 24×24 box, stroked as Lucide strokes it.
//!
//! The table is `data/lucide.tsv`, made by `scripts/icons.mjs` and compiled in; it is
//! read once, on first use. [`Icon`] is a name from it, so a model holding one cannot
//! hold an icon nobody can draw; [`Icon::parse`] turns a client's word into one or an
//! [`UnknownIcon`] that says which names were most likely meant (by spelling and by
//! tag: `postgres` finds `database`). The renderer draws [`Icon::path`]; the editor's
//! picker lists [`all`]. Knows nothing of the model, files or drawing.

use std::fmt;
use std::sync::OnceLock;

/// The side of the square every icon's path is drawn in, in its own units.
pub const VIEW: f32 = 24.0;

/// The stroke width the paths are drawn with, in [`VIEW`] units (Lucide's).
pub const STROKE_WIDTH: f32 = 2.0;

/// The most names an [`UnknownIcon`] suggests.
const MAX_SUGGESTIONS: usize = 5;

/// The table as compiled in: a header line (source and version), then one line per
/// name: name, the name whose drawing it shows (itself but for aliases), tags, path.
const TABLE: &str = include_str!("../data/lucide.tsv");

/// One name of the set.
struct Entry {
    name: &'static str,
    /// The icon it draws: its own name, or for an alias the icon's.
    draws: &'static str,
    tags: Vec<&'static str>,
    path: &'static str,
}

struct Set {
    source: &'static str,
    version: &'static str,
    /// Sorted by name (the file is), so a name is found by binary search.
    entries: Vec<Entry>,
}

fn set() -> &'static Set {
    static SET: OnceLock<Set> = OnceLock::new();
    SET.get_or_init(|| {
        let mut lines = TABLE.lines();
        let (source, version) = lines
            .next()
            .and_then(|l| l.split_once('\t'))
            .unwrap_or(("lucide-static", ""));
        let mut entries: Vec<Entry> = lines
            .filter_map(|line| {
                let mut cols = line.split('\t');
                let name = cols.next()?;
                Some(Entry {
                    name,
                    draws: cols.next()?,
                    tags: cols.next()?.split(',').filter(|t| !t.is_empty()).collect(),
                    path: cols.next().unwrap_or(""),
                })
            })
            .collect();
        // An alias shows its icon's drawing; the file keeps the path once.
        for i in 0..entries.len() {
            if entries[i].path.is_empty() {
                let draws = entries[i].draws;
                if let Ok(at) = entries.binary_search_by(|e| e.name.cmp(draws)) {
                    entries[i].path = entries[at].path;
                }
            }
        }
        Set {
            source,
            version,
            entries,
        }
    })
}

/// A name from the icon set. Small and `Copy`: an index into the compiled table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Icon(u16);

impl Icon {
    /// The icon named `word`, read as a person may write it: any case, spaces or
    /// underscores for hyphens (`"Hard drive"` is `hard-drive`).
    pub fn parse(word: &str) -> Result<Icon, UnknownIcon> {
        let key = normalise(word);
        set()
            .entries
            .binary_search_by(|e| e.name.cmp(key.as_str()))
            .map(|at| Icon(at as u16))
            .map_err(|_| UnknownIcon {
                given: word.chars().take(60).collect(),
                nearest: suggest(&key),
            })
    }

    fn entry(self) -> &'static Entry {
        &set().entries[usize::from(self.0)]
    }

    /// Its name, as files and tools write it.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// Its drawing: SVG path data in a [`VIEW`]-sided square, to be stroked
    /// [`STROKE_WIDTH`] wide with round caps and joins and never filled.
    pub fn path(self) -> &'static str {
        self.entry().path
    }

    /// The words that find it besides its name.
    pub fn tags(self) -> &'static [&'static str] {
        &self.entry().tags
    }

    /// For an alias (`queue`), the Lucide icon it shows (`columns-4`); else its name.
    pub fn draws(self) -> &'static str {
        self.entry().draws
    }
}

impl fmt::Debug for Icon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Icon({})", self.name())
    }
}

impl fmt::Display for Icon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every name of the set, aliases included, in name order.
pub fn all() -> impl Iterator<Item = Icon> {
    (0..set().entries.len()).map(|i| Icon(i as u16))
}

/// Where the set comes from and its version: `("lucide-static", "1.87.0")`.
pub fn source() -> (&'static str, &'static str) {
    (set().source, set().version)
}

/// A word that names no icon, with the names most likely meant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown icon \"{given}\"{}: use an icon name such as database, server, cloud, user, lock, queue, file, mail, phone, browser (the list is in docs/tools.md)",
    did_you_mean(.nearest)
)]
pub struct UnknownIcon {
    /// What was given (its first 60 characters).
    pub given: String,
    /// The nearest names, best first; empty when nothing is near.
    pub nearest: Vec<&'static str>,
}

fn did_you_mean(nearest: &[&str]) -> String {
    match nearest {
        [] => String::new(),
        [one] => format!(" (did you mean \"{one}\"?)"),
        many => format!(
            " (did you mean {}?)",
            many.iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `word` as names are written: trimmed, lower case, hyphens between words.
fn normalise(word: &str) -> String {
    word.trim()
        .chars()
        .map(|c| match c {
            ' ' | '_' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The names `key` most likely meant, best first: names tagged with it (an alias
/// or a name equal to its icon first), then names a letter or two away, then
/// names holding it as one of their words.
fn suggest(key: &str) -> Vec<&'static str> {
    let entries = &set().entries;
    let mut out: Vec<&'static str> = Vec::new();
    let push = |name: &'static str, out: &mut Vec<&'static str>| {
        if out.len() < MAX_SUGGESTIONS && !out.contains(&name) {
            out.push(name);
        }
    };
    if key.is_empty() || key.len() > 60 {
        return out;
    }
    // Shorter names first among the tagged: `database` before `database-backup`.
    let mut tagged: Vec<&Entry> = entries.iter().filter(|e| e.tags.contains(&key)).collect();
    tagged.sort_by_key(|e| (e.name.len(), e.name));
    for e in tagged {
        push(e.name, &mut out);
        // Then the diagram word for it, if the set has one (`queue` for
        // `columns-4`): it says what the drawing means.
        for alias in entries
            .iter()
            .filter(|a| a.draws == e.name && a.name != e.name)
        {
            push(alias.name, &mut out);
        }
    }
    // As for colour names: a guess keeps most of what was written.
    let most = (1 + key.len() / 4).min(3);
    let mut near: Vec<(usize, &Entry)> = entries
        .iter()
        .map(|e| (strsim::osa_distance(key, e.name), e))
        .filter(|(d, _)| *d <= most)
        .collect();
    near.sort_by_key(|(d, e)| (*d, e.name.len(), e.name));
    for (_, e) in near {
        push(e.name, &mut out);
    }
    let mut holding: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.name.split('-').any(|w| w == key))
        .collect();
    holding.sort_by_key(|e| (e.name.len(), e.name));
    for e in holding {
        push(e.name, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_covers_what_diagrams_need() {
        assert!(all().count() >= 300);
        for name in [
            "database",
            "server",
            "cloud",
            "user",
            "users",
            "lock",
            "queue",
            "file",
            "mail",
            "phone",
            "smartphone",
            "browser",
            "app-window",
            "laptop",
            "monitor",
            "device",
        ] {
            let icon = Icon::parse(name).expect(name);
            assert!(!icon.path().is_empty(), "{name} has no drawing");
        }
        assert_eq!(source().0, "lucide-static");
    }

    #[test]
    fn names_are_read_as_people_write_them() {
        assert_eq!(
            Icon::parse(" Hard Drive ").map(Icon::name),
            Ok("hard-drive")
        );
        assert_eq!(Icon::parse("QUEUE").map(Icon::draws), Ok("columns-4"));
        assert_eq!(
            Icon::parse("queue").map(Icon::path),
            Icon::parse("columns-4").map(Icon::path)
        );
    }

    #[test]
    fn an_unknown_name_suggests_by_tag_and_by_spelling() {
        let e = Icon::parse("postgres").unwrap_err();
        assert_eq!(e.nearest.first(), Some(&"database"));
        assert!(e.to_string().contains("did you mean \"database\""), "{e}");
        assert_eq!(Icon::parse("databse").unwrap_err().nearest[0], "database");
        assert_eq!(
            Icon::parse("kafka").unwrap_err().nearest[..2],
            ["columns-4", "queue"]
        );
        assert!(Icon::parse("qqqqqqqqqqq").unwrap_err().nearest.is_empty());
        assert!(Icon::parse("").is_err());
    }

    #[test]
    fn every_name_is_sorted_once_and_draws() {
        let names: Vec<_> = all().map(Icon::name).collect();
        assert!(
            names.windows(2).all(|w| w[0] < w[1]),
            "the table is not sorted"
        );
        for icon in all() {
            // A leading `m` is absolute, as SVG reads a path's first move.
            assert!(icon.path().starts_with(['M', 'm']), "{icon} has no path");
        }
    }
}
