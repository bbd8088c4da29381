//! `inkboard open`: runs the application (the editor in the browser, and live
//! editing for agents), or, if one is already running, asks it to open the board.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use inkboard_format::FileKind;
use inkboard_tools::Engine;
use serde_json::json;

use crate::forward::HttpForward;

/// Opens `file` (a new board without it) in the application.
pub fn run(file: Option<PathBuf>, port: u16, no_browser: bool) -> anyhow::Result<ExitCode> {
    let file = match file {
        Some(file) => Some(board_file(&file)?),
        None => None,
    };
    tell_of_recovery(file.as_deref());
    if let Some(app) = inkboard_tools::other_app() {
        let url = HttpForward::new()
            .open(&app, file.as_deref())
            .map_err(anyhow::Error::msg)?;
        println!("{url}");
        if !no_browser {
            open_browser(&url);
        }
        eprintln!(
            "inkboard: opened in the application already running (pid {})",
            app.pid
        );
        return Ok(ExitCode::SUCCESS);
    }
    crate::mcp::init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let served = runtime.block_on(inkboard_app::serve(
        inkboard_app::Options { file, port },
        crate::mcp::http_routes,
        |running| {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = writeln!(out, "{}", running.url);
            let _ = out.flush();
            eprintln!(
                "inkboard: serving on 127.0.0.1:{} (Ctrl+C to stop)",
                running.port
            );
            if !no_browser {
                open_browser(&running.url);
            }
        },
    ));
    // The unsaved work is written by now; a drawing still running on a blocking
    // thread must not keep the process alive (the runtime would wait for it).
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    served?;
    Ok(ExitCode::SUCCESS)
}

/// The board file to open, made absolute and, if it is a symbolic link, followed
/// (as the tools follow it, so that their calls on either name find this board);
/// a new, empty board is created there (by `create_board`, as `inkboard new`
/// does) if the file does not exist yet. A draw.io or Excalidraw file, or a
/// picture, must exist: the application imports it into a board that is saved
/// only where the person says.
fn board_file(file: &Path) -> anyhow::Result<PathBuf> {
    if inkboard_app::imported::is_diagram(file) {
        let file =
            std::path::absolute(file).with_context(|| format!("cannot use {}", file.display()))?;
        anyhow::ensure!(
            file.is_file(),
            "cannot open {}: no such file",
            file.display()
        );
        eprintln!(
            "inkboard: {} is imported into a new board; nothing is written until you save it (the editor offers {})",
            file.display(),
            inkboard_app::imported::beside(&file).display()
        );
        return Ok(file);
    }
    FileKind::from_path(file)?;
    let file =
        std::path::absolute(file).with_context(|| format!("cannot use {}", file.display()))?;
    let file = inkboard_format::follow_links(&file);
    if !file.exists() {
        Engine::new()
            .call("create_board", json!({"path": file}))
            .with_context(|| format!("cannot create {}", file.display()))?;
    }
    Ok(file)
}

/// Tells the person on the terminal of unsaved changes an earlier session kept
/// for `file` (the editor offers them too), or, without a file, of kept boards
/// that never had one.
fn tell_of_recovery(file: Option<&Path>) {
    use inkboard_app::recovery;
    match file {
        Some(file) if inkboard_app::imported::is_diagram(file) => {}
        Some(file) => {
            let on_disk = inkboard_format::file::load(file).ok().map(|l| l.board);
            for kept in recovery::pending(file, on_disk.as_ref()) {
                eprintln!(
                    "inkboard: unsaved changes to {} from an earlier session (kept {}) are in {}; the editor offers to restore them",
                    file.display(),
                    kept.saved,
                    kept.copy.display()
                );
            }
        }
        None => {
            for kept in recovery::all().into_iter().filter(|r| r.file.is_none()) {
                eprintln!(
                    "inkboard: an unsaved board from an earlier session (kept {}) is in {}; open it with `inkboard open {}`",
                    kept.saved,
                    kept.copy.display(),
                    kept.copy.display()
                );
            }
        }
    }
}

/// The sign-in pages' names in the runtime folder: `open-PID-N.html`.
const PAGE_PREFIX: &str = "open-";

/// Opens `url` (with its one-time code) in the default browser, if there is one;
/// says so if not.
///
/// The URL is never put on a command line: any local user can read every
/// process's arguments (`/proc/PID/cmdline`, `ps`) and could redeem the code
/// before the browser does. The browser is given instead the path of a page in
/// the private runtime folder (0600, in a 0700 folder: only this user can read
/// it) that forwards to the URL. Pages older than ten minutes are removed when
/// a new one is written; their codes are used or worthless by then.
fn open_browser(url: &str) {
    inkboard_tools::remove_old(PAGE_PREFIX, std::time::Duration::from_secs(600));
    static PAGES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = PAGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("{PAGE_PREFIX}{}-{n}.html", std::process::id());
    let page = match inkboard_tools::write_private(&name, sign_in_page(url).as_bytes()) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("inkboard: cannot write the sign-in page ({e}): open {url} in your browser");
            return;
        }
    };
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(&page)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        eprintln!("inkboard: open {url} in your browser");
    }
}

/// A page that sends the browser on to `url` at once, replacing itself in the
/// history; a link in case scripts and refreshes are off. `url` is ours (an
/// address, a port and hex digits), so it needs no escaping, but is escaped anyway.
fn sign_in_page(url: &str) -> String {
    let url = url
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><meta name=\"referrer\" content=\"no-referrer\">\
         <meta http-equiv=\"refresh\" content=\"0; url={url}\"><title>inkboard</title></head>\
         <body><p><a href=\"{url}\">Open inkboard</a></p>\
         <script>location.replace(document.querySelector('a').href)</script></body></html>\n"
    )
}
