//! Who may talk to the application, checked on every request before anything else
//! runs. The server listens on loopback only, but any web page the person visits
//! can send requests to loopback, and a DNS-rebinding site can even make them look
//! same-origin; so every request must also
//!
//! - name the application itself in `Host` (`127.0.0.1:PORT` or `localhost:PORT`),
//!   which a rebinding site cannot fake;
//! - carry no `Origin`, or the application's own (this covers WebSocket upgrades,
//!   which browsers let any site open);
//! - prove it was let in: the session cookie (browsers; HttpOnly, SameSite=Strict,
//!   obtained by trading the one-time code of the printed URL) or the user's bearer
//!   token (tools: from the discovery file or the token file, `token.rs`);
//! - for what reads or changes a board from a browser (the WebSocket, downloads),
//!   also the page key, which the cookie alone does not give
//!   (`browser_secrets.rs` says why).

use std::collections::HashSet;
use std::sync::Mutex;

use axum::http::{header, HeaderMap, HeaderValue};

use crate::browser_secrets::BrowserSecrets;
use crate::token::TokenFile;

/// The cookie that carries a browser's session.
pub const COOKIE: &str = "inkboard_session";
/// The header that carries the page key.
pub const KEY_HEADER: &str = "x-inkboard-key";
/// The WebSocket subprotocol that carries the page key, before the key.
pub const KEY_PROTOCOL: &str = "inkboard.key.";

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `Host` is not the application's own address.
    ForeignHost,
    /// `Origin` is another site.
    ForeignOrigin,
    /// Neither the session cookie nor the token.
    NotLetIn,
    /// The session cookie without the page key, where the key is needed.
    NoPageKey,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Refusal::ForeignHost => "this server answers only to its own address (127.0.0.1 or localhost with its port)",
            Refusal::ForeignOrigin => "requests from other sites are refused",
            Refusal::NotLetIn => "not signed in: open the link `inkboard open` printed, or send the token (the file `inkboard token` names) as a Bearer token",
            Refusal::NoPageKey => "this page was not signed in by its own link: open the link `inkboard open` printed",
        }
    }
}

/// The secrets of one running application.
pub struct Gate {
    port: u16,
    /// The user's bearer token (hex, 128 bits), also written to the discovery file.
    pub token: TokenFile,
    /// The value of the session cookie given to browsers (hex, 128 bits).
    session: String,
    /// The page key given with the cookie (hex, 128 bits).
    page_key: String,
    /// One-time codes not yet traded for the cookie.
    codes: Mutex<HashSet<String>>,
}

impl Gate {
    /// The gate of the application on `port`, letting browsers in with `secrets`.
    pub fn new(port: u16, secrets: &BrowserSecrets) -> std::io::Result<Self> {
        Ok(Gate {
            port,
            token: TokenFile::open()?,
            session: secrets.cookie.clone(),
            page_key: secrets.key.clone(),
            codes: Mutex::new(HashSet::new()),
        })
    }

    /// A gate with the given secrets and no token file, for driving the routes
    /// in-process ([`crate::router`]: the `http` fuzz target).
    pub fn fixed(port: u16, token: &str, session: &str, page_key: &str) -> Self {
        Gate {
            port,
            token: TokenFile::fixed(token),
            session: session.to_string(),
            page_key: page_key.to_string(),
            codes: Mutex::new(HashSet::new()),
        }
    }

    /// A fresh one-time code for a URL to print.
    pub fn new_code(&self) -> std::io::Result<String> {
        let code = random_hex()?;
        self.codes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(code.clone());
        Ok(code)
    }

    /// Trades a one-time code for the page key (the cookie goes with it, see
    /// [`Gate::cookie`]); a code works once.
    pub fn redeem(&self, code: &str) -> Option<&str> {
        let mut codes = self.codes.lock().unwrap_or_else(|e| e.into_inner());
        codes.remove(code).then_some(self.page_key.as_str())
    }

    /// Whether the request carries the page key: in `X-Inkboard-Key` (downloads,
    /// the session check), or as a WebSocket subprotocol `inkboard.key.KEY` (a
    /// browser's WebSocket can set no other header).
    pub fn has_page_key(&self, headers: &HeaderMap) -> bool {
        let in_header = headers
            .get_all(KEY_HEADER)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .any(|k| same(k.trim(), &self.page_key));
        let in_protocol = headers
            .get_all(header::SEC_WEBSOCKET_PROTOCOL)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .flat_map(|h| h.split(','))
            .filter_map(|p| p.trim().strip_prefix(KEY_PROTOCOL))
            .any(|k| same(k, &self.page_key));
        in_header || in_protocol
    }

    /// The `Set-Cookie` value that signs a browser in.
    pub fn cookie(&self) -> String {
        format!(
            "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
            self.session
        )
    }

    /// Checks `Host` and `Origin`: the checks every request passes, signed in or not.
    pub fn check_site(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        // A repeated header is refused rather than judged by its first copy: a
        // proxy or a later reader may take another copy than the one checked.
        let host = match only(headers, header::HOST) {
            Ok(host) => host.and_then(|h| h.to_str().ok()).unwrap_or(""),
            Err(()) => return Err(Refusal::ForeignHost),
        };
        if !self.is_own_host(host) {
            return Err(Refusal::ForeignHost);
        }
        let origin = only(headers, header::ORIGIN).map_err(|()| Refusal::ForeignOrigin)?;
        if let Some(origin) = origin {
            let origin = origin.to_str().unwrap_or("");
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|rest| self.is_own_host(rest));
            if !own {
                return Err(Refusal::ForeignOrigin);
            }
        }
        Ok(())
    }

    /// Checks that the request is signed in, by cookie or by token.
    pub fn check_signed_in(&self, headers: &HeaderMap) -> Result<Signed, Refusal> {
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|h| h.to_str().ok())
            .and_then(bearer_credentials);
        if bearer.is_some_and(|t| same(t.trim(), &self.token.get())) {
            return Ok(Signed::Token);
        }
        let cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .flat_map(|h| h.split(';'))
            .filter_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
            .any(|v| same(v, &self.session));
        if cookie {
            return Ok(Signed::Cookie);
        }
        Err(Refusal::NotLetIn)
    }

    fn is_own_host(&self, host: &str) -> bool {
        let port = self.port.to_string();
        ["127.0.0.1", "localhost"].iter().any(|name| {
            host.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|p| p == port)
        })
    }
}

/// How a request proved it was let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signed {
    /// A browser's session cookie.
    Cookie,
    /// The discovery file's token (MCP servers, the CLI, HTTP MCP clients).
    Token,
}

/// The one value of header `name`, or none; `Err` when it is sent more than once.
fn only(headers: &HeaderMap, name: header::HeaderName) -> Result<Option<&HeaderValue>, ()> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (first, None) => Ok(first),
        _ => Err(()),
    }
}

/// The credentials of an `Authorization: Bearer …` value. The scheme's name is
/// case-insensitive (RFC 9110 §11.1), and clients do send `bearer`.
fn bearer_credentials(value: &str) -> Option<&str> {
    let (scheme, rest) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(rest)
}

/// Compares secrets in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// 128 random bits from the operating system, as 32 hex digits.
pub(crate) fn random_hex() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    //! The gate's decisions on real header maps: which addresses, origins,
    //! cookies, tokens, codes and page keys let a request in.

    use axum::http::HeaderName;

    use super::*;

    const PORT: u16 = 4321;
    const SESSION: &str = "5e5510115e5510115e5510115e551011";
    const KEY: &str = "0a9e0a9e0a9e0a9e0a9e0a9e0a9e0a9e";

    fn gate() -> Gate {
        crate::testing::isolate();
        let secrets = BrowserSecrets {
            cookie: SESSION.into(),
            key: KEY.into(),
            port: PORT,
        };
        Gate::new(PORT, &secrets).expect("a gate")
    }

    /// Headers in order, a name repeated as sent.
    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn only_the_applications_own_address_is_answered() {
        let gate = gate();
        let own = ["127.0.0.1:4321", "localhost:4321"];
        let foreign = [
            "127.0.0.1:43210",
            "127.0.0.1:432",
            "127.0.0.1",
            "localhost",
            "127.0.0.1:4321.evil.example",
            "localhost.evil.example:4321",
            "evil.example:4321",
            "[::1]:4321",
            "",
        ];
        for host in own {
            assert_eq!(
                gate.check_site(&headers(&[("host", host)])),
                Ok(()),
                "{host}"
            );
        }
        for host in foreign {
            assert_eq!(
                gate.check_site(&headers(&[("host", host)])),
                Err(Refusal::ForeignHost),
                "{host}"
            );
        }
        assert_eq!(gate.check_site(&headers(&[])), Err(Refusal::ForeignHost));
    }

    #[test]
    fn only_no_origin_or_the_applications_own_is_let_through() {
        let gate = gate();
        let with = |origin: &str| {
            gate.check_site(&headers(&[("host", "127.0.0.1:4321"), ("origin", origin)]))
        };
        assert_eq!(with("http://127.0.0.1:4321"), Ok(()));
        assert_eq!(with("http://localhost:4321"), Ok(()));
        for origin in [
            "https://127.0.0.1:4321",
            "http://127.0.0.1:4322",
            "http://evil.example",
            "null",
            "127.0.0.1:4321",
        ] {
            assert_eq!(with(origin), Err(Refusal::ForeignOrigin), "{origin}");
        }
    }

    #[test]
    fn a_repeated_host_or_origin_is_refused_whatever_its_copies_say() {
        let gate = gate();
        let own = "127.0.0.1:4321";
        assert_eq!(
            gate.check_site(&headers(&[("host", own), ("host", own)])),
            Err(Refusal::ForeignHost)
        );
        let origin = "http://127.0.0.1:4321";
        assert_eq!(
            gate.check_site(&headers(&[
                ("host", own),
                ("origin", origin),
                ("origin", "http://evil.example")
            ])),
            Err(Refusal::ForeignOrigin)
        );
    }

    #[test]
    fn the_bearer_token_signs_a_tool_in() {
        let gate = gate();
        let token = gate.token.get();
        let with = |value: &str| gate.check_signed_in(&headers(&[("authorization", value)]));
        assert_eq!(with(&format!("Bearer {token}")), Ok(Signed::Token));
        assert_eq!(with(&format!("Bearer {token} ")), Ok(Signed::Token));
        assert_eq!(with(&format!("bearer {token}")), Ok(Signed::Token));
        assert_eq!(with(&format!("BEARER {token}")), Ok(Signed::Token));
        assert_eq!(with(&format!("Bearer{token}")), Err(Refusal::NotLetIn));
        assert_eq!(with(&format!("Bearer {token}0")), Err(Refusal::NotLetIn));
        assert_eq!(with(&format!("Basic {token}")), Err(Refusal::NotLetIn));
        assert_eq!(with(token.as_str()), Err(Refusal::NotLetIn));
        assert_eq!(with("Bearer "), Err(Refusal::NotLetIn));
        assert_eq!(gate.check_signed_in(&headers(&[])), Err(Refusal::NotLetIn));
    }

    #[test]
    fn the_session_cookie_signs_a_browser_in_among_other_cookies() {
        let gate = gate();
        let with = |cookies: &[&str]| {
            let pairs: Vec<(&str, &str)> = cookies.iter().map(|c| ("cookie", *c)).collect();
            gate.check_signed_in(&headers(&pairs))
        };
        let ours = format!("inkboard_session={SESSION}");
        assert_eq!(with(&[&ours]), Ok(Signed::Cookie));
        assert_eq!(with(&[&format!("a=1; {ours}; b=2")]), Ok(Signed::Cookie));
        assert_eq!(
            with(&["a=1", &ours]),
            Ok(Signed::Cookie),
            "a second Cookie header"
        );
        assert_eq!(with(&["inkboard_session=0000"]), Err(Refusal::NotLetIn));
        assert_eq!(
            with(&[&format!("inkboard_sessionx={SESSION}")]),
            Err(Refusal::NotLetIn)
        );
        assert_eq!(
            with(&[&format!("x_inkboard_session={SESSION}")]),
            Err(Refusal::NotLetIn)
        );
    }

    #[test]
    fn the_cookie_is_http_only_and_same_site_strict() {
        assert_eq!(
            gate().cookie(),
            format!("inkboard_session={SESSION}; HttpOnly; SameSite=Strict; Path=/")
        );
    }

    #[test]
    fn a_one_time_code_is_traded_for_the_page_key_once() {
        let gate = gate();
        let first = gate.new_code().unwrap();
        let second = gate.new_code().unwrap();
        assert_ne!(first, second);
        assert_eq!(gate.redeem(&first), Some(KEY));
        assert_eq!(gate.redeem(&first), None, "used up");
        assert_eq!(gate.redeem("not a code"), None);
        assert_eq!(gate.redeem(&second), Some(KEY), "each code on its own");
    }

    #[test]
    fn the_page_key_comes_in_its_header_or_as_a_websocket_subprotocol() {
        let gate = gate();
        let has = |pairs: &[(&str, &str)]| gate.has_page_key(&headers(pairs));
        let protocol = format!("inkboard.key.{KEY}");
        assert!(has(&[("x-inkboard-key", KEY)]));
        assert!(has(&[("x-inkboard-key", &format!(" {KEY} "))]));
        assert!(has(&[("sec-websocket-protocol", &protocol)]));
        assert!(has(&[(
            "sec-websocket-protocol",
            &format!("chat, {protocol}")
        )]));
        assert!(!has(&[]));
        assert!(!has(&[("x-inkboard-key", SESSION)]));
        assert!(
            !has(&[("sec-websocket-protocol", KEY)]),
            "without its prefix"
        );
        assert!(!has(&[("sec-websocket-protocol", "inkboard.key.")]));
        assert!(!has(&[("x-inkboard-key", &KEY[..31])]));
    }

    #[test]
    fn secrets_compare_equal_only_when_whole_and_alike() {
        assert!(same("abc", "abc"));
        assert!(same("", ""));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "abcd"));
        assert!(!same("abcd", "abc"));
    }

    #[test]
    fn secrets_are_128_random_bits_in_hex() {
        let (a, b) = (random_hex().unwrap(), random_hex().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }
}
