//! The editor's dark view and a dark export are one rule: `web/app.css` draws the
//! board in dark through the CSS filter that `inkboard_render::Theme::Dark`
//! computes for every colour of an export (`inkboard-render/src/theme.rs`). This
//! test holds the stylesheet to the renderer's filter, so a change to one without
//! the other fails here; `tests/browser/dark_export.test.mjs` checks that the
//! pixels Chromium shows and the colours the export writes agree.

use std::path::Path;

use inkboard_render::Theme;

#[test]
fn the_editor_draws_dark_with_the_renderers_filter() {
    let css = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/app.css"))
        .expect("web/app.css");
    let rule = format!(
        ":root[data-theme=\"dark\"] .board,\n:root[data-theme=\"dark\"] .text-editor {{ filter: {}; }}",
        Theme::Dark.css_filter()
    );
    assert!(
        css.contains(&rule),
        "web/app.css should draw the board in dark with the filter inkboard-render paints dark exports with:\n{rule}"
    );
}
