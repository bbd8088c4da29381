//! Where a window's person is on a team server's board: the `here` message of
//! the live protocol (`docs/live-protocol.md`, "Presence"), read into a [`Here`]
//! whose numbers are finite and bounded and whose selection is capped, before
//! the server (`inkboard-server`'s presence) passes it on to everyone else on
//! the board. The application (`inkboard open`) has one person and ignores it.

use serde::Serialize;

/// The most ids of a selection passed on: an outline per object for the others
/// to see is plenty past this, and a note stays far below PostgreSQL's 8000-byte
/// `NOTIFY` limit (100 ids of at most 24 characters, quoted: about 2.7 KB).
pub const MAX_SELECTION: usize = 100;
/// The longest object id kept (the model's are a letter and digits).
pub const MAX_ID_CHARS: usize = 24;
/// The largest coordinate kept, either way: far past any board's extent.
pub const MAX_COORD: f64 = 1e7;
/// The highest page number kept.
pub const MAX_PAGE: u64 = 10_000;

/// A window's presence, checked: where its pointer is on the board (`None` when
/// it is off the canvas), what it has selected, the board rectangle it shows
/// (`[x, y, w, h]`, for others to follow) and on which page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Here {
    pub page: u32,
    pub cursor: Option<[f64; 2]>,
    pub sel: Vec<String>,
    pub view: Option<[f64; 4]>,
}

impl Here {
    /// Keeps what can be shown of what a client sent: a coordinate that is not
    /// finite or is out of bounds drops the cursor (or the view), ids that are
    /// not an object's are left out and the selection is cut to
    /// [`MAX_SELECTION`]. Never fails: a hostile message shows less, nothing
    /// more.
    pub fn new(
        page: Option<u64>,
        cursor: Option<[f64; 2]>,
        sel: Option<Vec<String>>,
        view: Option<[f64; 4]>,
    ) -> Here {
        let fine = |v: &f64| v.is_finite() && v.abs() <= MAX_COORD;
        let page = page.unwrap_or(1).clamp(1, MAX_PAGE);
        Here {
            page: u32::try_from(page).unwrap_or(1),
            cursor: cursor.filter(|c| c.iter().all(fine)),
            sel: sel
                .unwrap_or_default()
                .into_iter()
                .filter(|id| is_object_id(id))
                .take(MAX_SELECTION)
                .collect(),
            view: view.filter(|v| v.iter().all(fine) && v[2] > 0.0 && v[3] > 0.0),
        }
    }
}

/// Whether `id` can name an object: a few ASCII letters and digits.
fn is_object_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_ID_CHARS && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cannot_be_shown_is_left_out() {
        let many: Vec<String> = (0..500).map(|i| format!("s{i}")).collect();
        let here = Here::new(
            Some(0),
            Some([f64::NAN, 3.0]),
            Some(
                ["s1", "<b>", "", &"s".repeat(25)]
                    .iter()
                    .map(|s| s.to_string())
                    .chain(many)
                    .collect(),
            ),
            Some([0.0, 0.0, -5.0, 10.0]),
        );
        assert_eq!(here.page, 1);
        assert_eq!(here.cursor, None);
        assert_eq!(here.view, None);
        assert_eq!(here.sel.len(), MAX_SELECTION);
        assert_eq!(here.sel[..2], ["s1".to_string(), "s0".to_string()]);
        let here = Here::new(
            Some(u64::MAX),
            Some([1.5, -2e7]),
            None,
            Some([-10.0, 20.0, 800.0, 600.0]),
        );
        assert_eq!(here.page as u64, MAX_PAGE);
        assert_eq!(here.cursor, None);
        assert_eq!(here.view, Some([-10.0, 20.0, 800.0, 600.0]));
        assert_eq!(
            Here::new(Some(2), Some([1.5, 2.5]), None, None).cursor,
            Some([1.5, 2.5])
        );
    }
}
