//! The editor as another server serves it (the team server, `inkboard-server`):
//! its page, pointed at that server's board routes, its files, the rich-text
//! route and a window's WebSocket at a [`Desk`]. The application serves the
//! same through `http.rs`; this module hands the pieces out, so the editor and
//! its protocol are written once.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::DefaultBodyLimit;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use crate::desk::Desk;
use crate::http::{asset, rich, versioned_asset, MAX_BODY, MAX_RICH_BODY};

/// The editor's files (`/assets/NAME`, `/assets/VERSION/NAME`), the same for
/// everyone: mount them behind the server's own guard.
pub fn files<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/assets/{name}", get(asset))
        // A file in a subfolder of `web/` is named by its path from there, as
        // in the application (`http::router`).
        .route("/assets/{version}/{*name}", get(versioned_asset))
}

/// `/api/rich`, the text editor's rich text, its body held to
/// [`MAX_RICH_BODY`]. It holds nothing of a board but is work done on request,
/// so mount it where only signed-in people reach it (the application's is
/// behind the page key).
pub fn rich_text<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route(
        "/api/rich",
        post(rich).layer(DefaultBodyLimit::max(MAX_RICH_BODY)),
    )
}

/// The editor's page, its board routes (the WebSocket `BASE` + `ws`, downloads
/// `BASE` + `export`) under `base` (ending in `/`), with `links` (address, words)
/// beside the board's title. The words are escaped; addresses must be the
/// server's own paths.
pub fn page(base: &str, links: &[(&str, &str)]) -> String {
    let index = crate::http::assets()
        .find(|(name, _)| *name == "index.html")
        .map_or("", |(_, text)| text);
    let meta = format!(
        "<meta name=\"inkboard-base\" content=\"{}\">\n</head>",
        escape(base)
    );
    let mut html = index.replacen("</head>", &meta, 1);
    let anchor = "data-testid=\"board-title\">inkboard</span>";
    let mut extra = String::new();
    for (href, words) in links {
        extra.push_str(&format!(
            "<a class=\"server-link\" href=\"{}\">{}</a>",
            escape(href),
            escape(words)
        ));
    }
    html = html.replacen(anchor, &format!("{anchor}{extra}"), 1);
    html
}

/// Upgrades to a window's WebSocket on `desk` (the live protocol).
pub fn window(upgrade: WebSocketUpgrade, desk: Arc<dyn Desk>) -> Response {
    // The page offers `inkboard` (and, in the application, its key) as
    // subprotocols; a browser requires the answer to name one it offered.
    upgrade
        .protocols(["inkboard"])
        .max_message_size(MAX_BODY)
        .max_frame_size(MAX_BODY)
        .on_upgrade(move |socket| crate::ws::serve(socket, desk))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_its_base_and_links() {
        let html = page("/b/abc/", &[("/", "Your <boards>")]);
        assert!(html.contains("<meta name=\"inkboard-base\" content=\"/b/abc/\">"));
        assert!(html.contains("<a class=\"server-link\" href=\"/\">Your &lt;boards&gt;</a>"));
        assert!(html.contains("/assets/"), "the editor's own files");
    }
}
