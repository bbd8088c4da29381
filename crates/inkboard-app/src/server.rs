//! Running the application: open the board, listen on loopback, publish the
//! discovery file, serve until Ctrl+C or SIGTERM, then save what is unsaved (or
//! keep it in a recovery copy, printing where) and withdraw the discovery file.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use inkboard_tools::{AppInfo, Engine};

use crate::auth::Gate;
use crate::boards::Boards;
use crate::browser_secrets::BrowserSecrets;
use crate::http::{guard, routes, security_headers, token_only, MAX_BODY};
use crate::{AppState, ViewCache};

/// How to run.
pub struct Options {
    /// The board file to open (absolute); `None` opens a new, unsaved board.
    pub file: Option<PathBuf>,
    /// The port; 0 takes the one of the last launch if it is free (so that open
    /// tabs find the application again), else any free one.
    pub port: u16,
}

/// What a running application tells whoever started it.
pub struct Running {
    /// The address to open in a browser, with a one-time code that signs it in.
    pub url: String,
    pub port: u16,
}

/// Why the application could not start.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Listen { port: u16, source: std::io::Error },
    #[error(transparent)]
    Open(#[from] inkboard_tools::ToolError),
    #[error("cannot write the discovery file: {0}")]
    Discovery(std::io::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Runs the application until it is asked to stop. `mount` adds routes that need
/// the engine (the binary mounts MCP over HTTP at `/mcp`); every route is behind
/// the same guard, and mounted routes, being for tools, take the token only.
/// `ready` is called once the server listens.
pub async fn serve(
    options: Options,
    mount: impl FnOnce(Arc<Engine>) -> Router,
    ready: impl FnOnce(&Running),
) -> Result<(), AppError> {
    let mut secrets = BrowserSecrets::load_or_make()?;
    let listener = listen(options.port, secrets.port).await?;
    let port = listener.local_addr()?.port();
    secrets.remember_port(port);
    // Listen for signals before anyone can learn of this process, so a stop
    // right after start still cleans up.
    let stop = stop_signal()?;

    let boards = Boards::new();
    match &options.file {
        Some(path) => {
            boards.open_file(path)?;
        }
        None => {
            boards.open_untitled();
        }
    }
    let engine = Arc::new(Engine::hosted(boards.clone()));
    let app = Arc::new(AppState {
        boards: boards.clone(),
        engine: engine.clone(),
        gate: Gate::new(port, &secrets)?,
        cache: Arc::new(ViewCache::default()),
    });

    // The first window will ask for the first page: draw it now, while the browser
    // starts, so that a large board shows sooner.
    let warm = app.clone();
    std::thread::Builder::new()
        .name("first-draw".into())
        .spawn(move || {
            let key = warm.boards.displayed();
            if let Some(entry) = warm.boards.entry(key) {
                // Drawn from a copy: the board's lock is not held while a large
                // page is drawn (edits, saves and a stop would wait for it).
                let board = entry.cell.lock().board.clone();
                if let Some(page) = board.pages().first() {
                    warm.cache.view(key, page.id, &board);
                }
            }
        })?;

    let info = AppInfo {
        pid: std::process::id(),
        port,
        token: app.gate.token.get(),
        paths: boards.paths(),
    };
    inkboard_tools::publish(&info).map_err(AppError::Discovery)?;
    let republish = {
        let app = app.clone();
        move |paths| {
            let info = AppInfo {
                paths,
                token: app.gate.token.get(),
                ..info.clone()
            };
            if let Err(e) = inkboard_tools::publish(&info) {
                tracing::warn!("cannot update the discovery file: {e}");
            }
        }
    };
    boards.on_files_changed(republish.clone());
    boards.watch_files();
    // A rotated token (`inkboard token rotate`) takes over within a second.
    let (watched, listed) = (app.clone(), boards.clone());
    std::thread::Builder::new()
        .name("token".into())
        .spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if watched.gate.token.refresh() {
                republish(listed.paths());
            }
        })?;
    let saver = boards.clone();
    std::thread::Builder::new()
        .name("autosave".into())
        .spawn(move || saver.autosave_forever())?;

    let router = router(app.clone(), mount(engine));

    let code = app.gate.new_code()?;
    ready(&Running {
        url: format!("http://127.0.0.1:{port}/?code={code}"),
        port,
    });
    // On a stop, windows are told to close (their sockets would keep the server
    // waiting), and whatever still hangs on (an HTTP MCP stream, a download being
    // drawn) gets a moment: the process must end within a second of SIGTERM,
    // whatever it is doing, with the unsaved work written first.
    let stopping = Arc::new(tokio::sync::Notify::new());
    let (closer, notify) = (boards.clone(), stopping.clone());
    let stop = async move {
        stop.await;
        closer.closing();
        notify.notify_one();
    };
    let served = axum::serve(listener, router).with_graceful_shutdown(stop);
    let served = tokio::select! {
        served = served => served,
        _ = async {
            stopping.notified().await;
            tokio::time::sleep(STOP_GRACE).await;
        } => Ok(()),
    };
    // Printed whatever the log level: the person must learn where unsaved
    // changes went.
    for line in boards.finish() {
        eprintln!("{line}");
    }
    inkboard_tools::withdraw();
    served.map_err(AppError::Io)
}

/// Every route of the application behind its guard, with `mounted` (the
/// binary's `/mcp`) for tools only, the security headers on every answer and
/// the body cap: what [`serve`] serves, and what the `http` fuzz target drives
/// in-process.
pub fn router(app: Arc<AppState>, mounted: Router) -> Router {
    routes(app.clone())
        .merge(mounted.route_layer(axum::middleware::from_fn(token_only)))
        .layer(axum::middleware::from_fn_with_state(app, guard))
        .layer(axum::middleware::map_response(security_headers))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// How long connections still open get after a stop signal before the server
/// stops waiting for them.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// Listens on loopback at `port`; for 0, at `last` (the last launch's) if it is
/// free, else at any free port.
async fn listen(port: u16, last: u16) -> Result<tokio::net::TcpListener, AppError> {
    let bind =
        |port: u16| tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    if port == 0 && last != 0 {
        if let Ok(listener) = bind(last).await {
            return Ok(listener);
        }
    }
    bind(port)
        .await
        .map_err(|source| AppError::Listen { port, source })
}

/// A future that resolves on Ctrl+C or SIGTERM; the handlers are installed now.
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut term = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = term.recv() => {}
        }
    })
}
