//! `inkboard serve`: the team server. Opens the store (SQLite in the data folder,
//! or PostgreSQL with `--database`), runs its migrations, listens, prints its
//! address on stdout (and on stderr where its boards are, as `inkboard admin`
//! is to be pointed at them), and serves people (`inkboard_server::pages`), agents
//! (`/mcp`, `served_mcp.rs`) and push/pull until SIGTERM or Ctrl+C.
//!
//! SQLite's notifications stay in one process, so a second `serve` on the same
//! data folder is refused: a lock (`flock`) on `serve.lock` in the folder, held
//! for the process's life and released by the system however it ends.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};
use inkboard_store::{Location, Options, Store};

/// What `serve` and `admin` are told of where the boards are.
pub struct Where {
    pub data: Option<PathBuf>,
    pub database: Option<String>,
}

impl Where {
    /// The store's location: PostgreSQL when `--database` is given, else the
    /// SQLite file in the data folder (default: the per-user data folder).
    pub fn location(&self) -> anyhow::Result<Location> {
        if let Some(url) = &self.database {
            return Location::parse(url).map_err(anyhow::Error::msg);
        }
        Ok(Location::in_data_dir(&self.data_dir()?))
    }

    pub fn data_dir(&self) -> anyhow::Result<PathBuf> {
        match &self.data {
            Some(dir) => Ok(std::path::absolute(dir)?),
            None => default_data_dir().context(
                "there is no per-user data folder: pass --data DIR, or set HOME or XDG_DATA_HOME",
            ),
        }
    }

    /// Where the boards are, as `serve` tells it: the `admin` flag that reaches
    /// them (the data folder, or PostgreSQL with the password left out).
    pub fn told(&self) -> anyhow::Result<String> {
        Ok(match &self.database {
            Some(_) => {
                "boards in PostgreSQL (inkboard admin --database URL, the URL given here)".into()
            }
            None => format!(
                "boards in {} (SQLite; administer with: inkboard admin --data {} COMMAND)",
                self.data_dir()?.display(),
                shell_word(&self.data_dir()?.display().to_string())
            ),
        })
    }

    pub fn open(&self) -> anyhow::Result<Store> {
        let location = self.location()?;
        if let Location::Sqlite(path) = &location {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot make the data folder {}", dir.display()))?;
            }
        }
        Store::open(&location, Options::default())
            .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))
    }
}

/// `text` as one word of a POSIX shell: as is when it is plain, else quoted.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%=".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `$XDG_DATA_HOME/inkboard`, else `~/.local/share/inkboard`.
pub fn default_data_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    Some(
        env("XDG_DATA_HOME")
            .or_else(|| Some(env("HOME")?.join(".local/share")))?
            .join("inkboard"),
    )
}

/// Holds the data folder for this process (see the module docs).
fn lock_data_dir(dir: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot make the data folder {}", dir.display()))?;
    let path = dir.join("serve.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    // SAFETY: flock on a descriptor this function owns; no memory is shared.
    let got = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if got != 0 {
        bail!(
            "another `inkboard serve` is already serving the boards in {}: SQLite keeps its notifications in one process, so one folder has one server (stop the other, or share a PostgreSQL database between processes with --database)",
            dir.display()
        );
    }
    Ok(file)
}

pub fn run(place: Where, listen: String, public_url: Option<String>) -> anyhow::Result<ExitCode> {
    crate::mcp::init_logging();
    let _held_dir = match &place.database {
        None => Some(lock_data_dir(&place.data_dir()?)?),
        Some(_) => None,
    };
    let listen: SocketAddr = listen
        .parse()
        .with_context(|| format!("--listen {listen}: give an address and port, such as 127.0.0.1:8080 (port 0 picks a free one)"))?;
    // Checked before anything is opened: refusing to serve in clear text on a
    // public address is the first answer.
    inkboard_server::Config::new(listen, public_url.as_deref())?;
    let kept = place.told()?;
    let store = place.open()?;
    // Before the runtime: the store's PostgreSQL client is synchronous and runs
    // a runtime of its own, which must not start inside another (the listener
    // of the store's events connects here).
    let held = inkboard_server::Held::new(store).map_err(|e| anyhow::anyhow!("{e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let ours = held.clone();
    runtime.block_on(async move {
        let socket = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("cannot listen on {listen}"))?;
        let bound = socket.local_addr()?;
        let config = inkboard_server::Config::new(bound, public_url.as_deref())?;
        let shared = Arc::new(inkboard_server::Shared {
            held: held.clone(),
            config,
            limiter: Default::default(),
            cookie_limiter: inkboard_server::limit::Limiter::cookies(),
            windows: Default::default(),
        });
        let url = shared.config.base_url();
        let app = inkboard_server::router(shared, crate::served_mcp::http_routes(held));
        {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = writeln!(out, "{url}");
            let _ = out.flush();
        }
        eprintln!("inkboard: serving on {bound} (agents: {url}/mcp with a token; Ctrl+C to stop)");
        // What `inkboard admin` needs to reach the same boards, ready to copy.
        eprintln!("inkboard: {kept}");
        axum::serve(
            socket,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(stopped())
        .await?;
        anyhow::Ok(())
    })?;
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    // The last reference to the store goes here, outside the runtime: its
    // PostgreSQL connections block on their own runtime when closed.
    drop(ours);
    Ok(ExitCode::SUCCESS)
}

/// Resolves on SIGTERM or Ctrl+C.
async fn stopped() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}
