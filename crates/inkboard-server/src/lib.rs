//! inkboard's team server (`inkboard serve`): boards kept in the store
//! (`inkboard-store`, SQLite or PostgreSQL), edited by people and their agents
//! through the one tool engine, over HTTP.
//!
//! - [`held`]: this process's copies of the boards it has open, caught up from
//!   the store on every use, and a broadcast per board fed by the store's events
//!   (PostgreSQL `NOTIFY` from every process).
//! - [`keeper`]: the engine's store for one caller ([`Access`]): their roles,
//!   their commits, made in their name ("Ann", or "Ann's agent").
//! - [`guard`]: Host and Origin checks, security headers, tokens and sessions,
//!   failures rate limited ([`limit`]).
//! - [`pages`]: what a person's browser sees: sign-in links, their boards, a
//!   board with its history and, for its owners, sharing.
//! - [`sharing`]: a board's people, and an owner's share and unshare, for the
//!   people page's forms and the editor's Share dialog; each one audited.
//! - [`window`]: the live editor of `inkboard-app` on a stored board, one
//!   person's window at a time ([`window::BoardDesk`]).
//! - [`presence`]: who is on a board (windows' cursors, selections and views,
//!   agents at work), between processes as store signals, never stored.
//! - [`transfer`]: a board moved whole between a file and the server
//!   (`inkboard push` / `pull`).
//!
//! This crate knows nothing of MCP: the binary mounts rmcp's streamable HTTP
//! service at `/mcp` behind [`guard::agents_only`], and runs each call through
//! an engine built with [`Access`] for the member the guard put in the request.
//!
//! **Invariant: a board the caller has no role on is answered exactly as a
//! missing one, on every route and in every tool.**
//!
//! **Invariant: listening on anything but loopback requires an `https://` public
//! URL; Host and Origin are then checked against it and cookies are `Secure`.**

pub mod error;
pub mod guard;
pub mod held;
pub mod keeper;
pub mod limit;
pub mod pages;
pub mod presence;
pub mod sharing;
pub mod transfer;
pub mod window;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use inkboard_store::Store;

pub use held::Held;
pub use keeper::{Access, Member};

/// The most a person's form (sign out, a new board, a share) may send.
pub const MAX_FORM_BODY: usize = 16 * 1024;

/// The largest request body the server reads (a pushed board, a tool call
/// with an image): the file-size limit of a board, and some room.
pub const MAX_BODY: usize = inkboard_core::limits::MAX_FILE_BYTES as usize + 1024 * 1024;

/// Why the server will not start as asked.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("listening on {0}, which is not loopback, needs --public-url https://YOUR.HOST (behind a TLS reverse proxy, see docs/server.md): people's sessions and agents' tokens must not cross the network in clear text")]
    PublicNeedsHttps(SocketAddr),
    #[error("--public-url {0}: give the address people open, as https://HOST[:PORT] (http:// only for a loopback address)")]
    BadPublicUrl(String),
}

/// The server's address as people and agents reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    pub https: bool,
    /// `host[:port]`, lower case.
    pub authority: String,
}

impl PublicUrl {
    pub fn parse(url: &str) -> Result<PublicUrl, ConfigError> {
        let bad = || ConfigError::BadPublicUrl(url.to_string());
        let (https, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(bad());
        };
        let authority = rest.trim_end_matches('/');
        if authority.is_empty()
            || authority.contains(['/', '?', '#', '@', ' '])
            || !authority.is_ascii()
        {
            return Err(bad());
        }
        Ok(PublicUrl {
            https,
            authority: authority.to_ascii_lowercase(),
        })
    }

    /// `https://host[:port]`, as a browser's Origin says it.
    pub fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}", self.authority)
    }
}

/// How the server answers: its address and the checks that follow from it.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address it listens on (the port chosen, when 0 was asked).
    pub listen: SocketAddr,
    pub public_url: Option<PublicUrl>,
}

impl Config {
    /// Checks the combination: anything but loopback needs an https public URL.
    pub fn new(listen: SocketAddr, public_url: Option<&str>) -> Result<Config, ConfigError> {
        let public_url = public_url.map(PublicUrl::parse).transpose()?;
        let loopback = listen.ip().is_loopback();
        match &public_url {
            Some(p) if p.https => {}
            Some(_) if loopback => {}
            Some(p) => return Err(ConfigError::BadPublicUrl(p.origin())),
            None if loopback => {}
            None => return Err(ConfigError::PublicNeedsHttps(listen)),
        }
        Ok(Config { listen, public_url })
    }

    /// Cookies carry `Secure` when people reach the server over https.
    pub fn secure_cookies(&self) -> bool {
        self.public_url.as_ref().is_some_and(|p| p.https)
    }

    /// The address to print and to build links with.
    pub fn base_url(&self) -> String {
        match &self.public_url {
            Some(p) => p.origin(),
            None => format!("http://{}", self.listen),
        }
    }

    /// Whether a request's Host names this server: its public authority, or,
    /// without one, a loopback name with the port it listens on.
    pub fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        if let Some(p) = &self.public_url {
            return host == p.authority;
        }
        let port = self.listen.port();
        ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .any(|name| host == format!("{name}:{port}"))
    }

    /// Whether an Origin is this server's own (the Host was checked before).
    pub fn origin_allowed(&self, origin: &str, host: &str) -> bool {
        let origin = origin.to_ascii_lowercase();
        match &self.public_url {
            Some(p) => origin == p.origin(),
            None => origin == format!("http://{}", host.to_ascii_lowercase()),
        }
    }
}

/// What every route shares.
pub struct Shared {
    pub held: Arc<Held>,
    pub config: Config,
    pub limiter: limit::Limiter,
    /// Made-up session cookies' failures ([`limit::Limiter::cookies`]).
    pub cookie_limiter: limit::Limiter,
    /// The editor windows open on this process.
    pub windows: window::Windows,
}

impl Shared {
    pub fn store(&self) -> &Store {
        self.held.store()
    }
}

/// The server's routes around `mcp` (rmcp's service, mounted at `/mcp` by the
/// binary): agents' routes behind their token, people's behind their session,
/// everything behind the Host/Origin check, the body limit and the security
/// headers. Serve it with `into_make_service_with_connect_info::<SocketAddr>`,
/// so the rate limits know each client's address.
pub fn router(shared: Arc<Shared>, mcp: axum::Router) -> axum::Router {
    use axum::middleware::{from_fn, from_fn_with_state};
    let agents = mcp
        .merge(transfer::routes().with_state(shared.clone()))
        .layer(from_fn_with_state(shared.clone(), guard::agents_only));
    // People's forms (a title, a name and a role) are read before the handler
    // knows who sent them: a small limit, where agents' pushes need MAX_BODY.
    let forms = pages::routes()
        .merge(sharing::routes())
        .layer(DefaultBodyLimit::max(MAX_FORM_BODY));
    // Who a session cookie signs in is found once a request, bad cookies rate
    // limited (`guard::sessions`).
    forms
        .merge(window::routes())
        .layer(from_fn_with_state(shared.clone(), guard::sessions))
        .with_state(shared.clone())
        .merge(agents.layer(DefaultBodyLimit::max(MAX_BODY)))
        .layer(from_fn_with_state(shared.clone(), guard::host_and_origin))
        .layer(from_fn(guard::headers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_address_needs_https_and_loopback_does_not() {
        let public: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert!(matches!(
            Config::new(public, None),
            Err(ConfigError::PublicNeedsHttps(_))
        ));
        assert!(Config::new(public, Some("http://board.example")).is_err());
        let c = Config::new(public, Some("https://Board.Example/")).unwrap();
        assert!(c.secure_cookies());
        assert!(c.host_allowed("board.example"));
        assert!(!c.host_allowed("evil.example"));
        assert!(c.origin_allowed("https://board.example", "board.example"));
        assert!(!c.origin_allowed("http://board.example", "board.example"));
        let c = Config::new(local, None).unwrap();
        assert!(!c.secure_cookies());
        assert!(c.host_allowed("127.0.0.1:8080") && c.host_allowed("localhost:8080"));
        assert!(!c.host_allowed("rebound.example:8080") && !c.host_allowed("127.0.0.1:9"));
        assert!(c.origin_allowed("http://localhost:8080", "localhost:8080"));
        assert!(!c.origin_allowed("http://evil.example", "localhost:8080"));
    }
}
