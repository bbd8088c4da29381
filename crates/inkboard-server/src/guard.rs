//! The server's guard: every request passes it. It checks Host and Origin
//! against the server's own address (its `--public-url`, or a loopback name), adds
//! the security headers to every answer, and turns the credentials a request
//! carries into a [`Member`]: an `Authorization: Bearer` token for agents
//! (`/mcp` and the push/pull routes), a session cookie for people. Failed
//! checks count against the client's address and the token's prefix
//! ([`crate::limit`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use inkboard_store::AuthorKind;

use crate::keeper::Member;
use crate::limit::token_key;
use crate::{Config, Shared};

/// The session cookie's name.
pub const COOKIE: &str = "inkboard_session";

/// The security headers of every answer: nothing framed, scripts and styles
/// from this server only, no referrer sent with a board's id in it.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    let set = |h: &mut HeaderMap, k: &'static str, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    // The editor's own policy (`inkboard-app`'s `http.rs`: its fonts are data
    // URLs, downloads blobs), with this server's forms.
    set(h, "content-security-policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
    set(h, "x-frame-options", "DENY");
    set(h, "x-content-type-options", "nosniff");
    set(h, "referrer-policy", "no-referrer");
    set(h, "cross-origin-resource-policy", "same-origin");
    response
}

/// Refuses a request whose Host is not this server's, or whose Origin (when
/// sent) is not this server's: another site's page cannot drive a signed-in
/// browser here, and a DNS name rebound to this address is refused.
pub async fn host_and_origin(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !shared.config.host_allowed(host) {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not answer to that host name",
        );
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !shared.config.origin_allowed(origin, host) {
            return refuse(
                StatusCode::FORBIDDEN,
                "requests from another site are refused",
            );
        }
    }
    next.run(request).await
}

fn refuse(status: StatusCode, why: &'static str) -> Response {
    closing((status, why).into_response())
}

/// A refusal ends its connection, and says so. Its request's body is never
/// read, so the connection cannot carry another request; a client told
/// `Connection: close` opens a new one, where one not told may send its next
/// request down the connection as it closes (httpx did, in a guesser's loop).
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The client's address, for the rate limits. Behind the reverse proxy that a
/// public URL implies (on this host: the peer is loopback), every request comes
/// from the proxy, and counting failures by its address would let one guesser
/// lock every agent out: the client is then the last address the proxy added
/// to `X-Forwarded-For` (Caddy and nginx's `$proxy_add_x_forwarded_for` append
/// the address they saw, so what a client sent itself comes before it).
pub fn client_key(request: &Request, config: &Config) -> String {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let proxied = config.public_url.is_some() && peer.is_some_and(|ip| ip.is_loopback());
    let forwarded = proxied.then(|| forwarded_for(request.headers())).flatten();
    match (forwarded, peer) {
        // An IPv6 client holds a whole /64 as a rule: counted as one, or each
        // of its 2^64 addresses would be a fresh bucket.
        (Some(std::net::IpAddr::V6(ip)), _) | (None, Some(std::net::IpAddr::V6(ip))) => {
            let s = ip.segments();
            format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        (Some(ip), _) | (None, Some(ip)) => format!("ip:{ip}"),
        (None, None) => "ip:unknown".to_string(),
    }
}

/// The last address of `X-Forwarded-For`, if it is one.
fn forwarded_for(headers: &HeaderMap) -> Option<std::net::IpAddr> {
    let last = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .rfind(|v| !v.is_empty())?;
    last.parse().ok()
}

/// The bearer token of a request, if it carries one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// 401 with the challenge MCP clients expect.
pub fn unauthorized(why: &'static str) -> Response {
    let mut r = (StatusCode::UNAUTHORIZED, why).into_response();
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"inkboard\""),
    );
    closing(r)
}

/// 429, with when to try again: failed sign-ins or token checks came too fast.
pub(crate) fn too_many() -> Response {
    let mut r = (
        StatusCode::TOO_MANY_REQUESTS,
        "too many failed attempts: wait a minute",
    )
        .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
    closing(r)
}

/// Lets through only a request with a current API token; the token's person,
/// as their agent, goes in the request's extensions as a [`Member`].
pub async fn agents_only(
    State(shared): State<Arc<Shared>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(token) = bearer(request.headers()).map(str::to_string) else {
        return unauthorized(
            "an API token is needed: Authorization: Bearer ink_… (inkboard admin token NAME)",
        );
    };
    let ip = client_key(&request, &shared.config);
    let prefix = token_key(&token);
    let keys = [ip.as_str(), prefix.as_str()];
    if !shared.limiter.allows(&keys) {
        return too_many();
    }
    let store = shared.store().clone();
    let checked = tokio::task::spawn_blocking(move || store.check_token(&token)).await;
    match checked {
        Ok(Ok(Some(user))) => {
            request.extensions_mut().insert(Member {
                id: user.id,
                name: user.name,
                kind: AuthorKind::Agent,
            });
            next.run(request).await
        }
        Ok(Ok(None)) => {
            shared.limiter.failed(&keys);
            unauthorized("this API token is not valid (revoked, or mistyped): ask for a new one")
        }
        Ok(Err(e)) => {
            tracing::error!("token check: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the server's database is not answering",
            )
                .into_response()
        }
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the token check stopped").into_response(),
    }
}

/// The session secret a request's cookie carries.
pub fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

/// Who a request's session cookie signs in, found once a request by
/// [`sessions`] and read by the people's handlers (`Extension<SignedIn>`).
#[derive(Clone, Debug, Default)]
pub struct SignedIn(pub Option<Member>);

/// Finds who a request's session cookie signs in, for the handlers
/// ([`SignedIn`]). A cookie that signs no one in counts as a failure against the
/// client's address and the cookie, as a bad token does, so a flood of made-up
/// cookies is refused (429) before the database is asked again; the allowance is
/// larger than tokens' ([`crate::limit::COOKIE_BURST`]), as a browser keeps
/// sending a cookie whose session ended.
pub async fn sessions(
    State(shared): State<Arc<Shared>>,
    mut request: Request,
    next: Next,
) -> Response {
    let signed = match session_cookie(request.headers()) {
        None => SignedIn(None),
        Some(secret) => {
            let ip = client_key(&request, &shared.config);
            let prefix = cookie_key(&secret);
            let keys = [ip.as_str(), prefix.as_str()];
            if !shared.cookie_limiter.allows(&keys) {
                return too_many();
            }
            let store = shared.store().clone();
            let found = tokio::task::spawn_blocking(move || store.check_session(&secret)).await;
            match found {
                Ok(Ok(Some(session))) => SignedIn(Some(Member {
                    id: session.user.id,
                    name: session.user.name,
                    kind: AuthorKind::Person,
                })),
                Ok(Ok(None)) => {
                    shared.cookie_limiter.failed(&keys);
                    SignedIn(None)
                }
                // The database not answering is no one's failure: signed out.
                Ok(Err(e)) => {
                    tracing::error!("session check: {e}");
                    SignedIn(None)
                }
                Err(_) => SignedIn(None),
            }
        }
    };
    request.extensions_mut().insert(signed);
    next.run(request).await
}

/// The limiter's key of a presented session cookie: its first characters.
fn cookie_key(secret: &str) -> String {
    let head: String = secret.chars().take(12).collect();
    format!("cookie:{head}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(peer: &str, forwarded: Option<&str>) -> Request {
        let mut r = Request::new(axum::body::Body::empty());
        let peer: SocketAddr = peer.parse().unwrap();
        r.extensions_mut().insert(ConnectInfo(peer));
        if let Some(f) = forwarded {
            r.headers_mut()
                .insert("x-forwarded-for", HeaderValue::from_str(f).unwrap());
        }
        r
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64() {
        let local = Config::new("127.0.0.1:8080".parse().unwrap(), None).unwrap();
        let a = request("[2001:db8:1:2::7]:4000", None);
        let b = request("[2001:db8:1:2:ffff::9]:4000", None);
        let other = request("[2001:db8:1:3::7]:4000", None);
        assert_eq!(client_key(&a, &local), "ip:2001:db8:1:2::/64");
        assert_eq!(client_key(&a, &local), client_key(&b, &local));
        assert_ne!(client_key(&a, &local), client_key(&other, &local));
    }

    #[test]
    fn a_refusal_closes_its_connection() {
        for refusal in [
            unauthorized("no"),
            too_many(),
            refuse(StatusCode::FORBIDDEN, "no"),
        ] {
            assert_eq!(refusal.headers()[header::CONNECTION], "close");
        }
        assert!(unauthorized("no").headers()[header::WWW_AUTHENTICATE]
            .to_str()
            .unwrap()
            .starts_with("Bearer"));
    }

    #[test]
    fn behind_the_proxy_each_client_counts_on_its_own() {
        let proxied = Config::new(
            "127.0.0.1:8080".parse().unwrap(),
            Some("https://boards.example"),
        )
        .unwrap();
        // The proxy's own entry is the last; what the client claimed comes first.
        let r = request("127.0.0.1:5000", Some("6.6.6.6, 203.0.113.7"));
        assert_eq!(client_key(&r, &proxied), "ip:203.0.113.7");
        assert_eq!(
            client_key(&request("127.0.0.1:5000", None), &proxied),
            "ip:127.0.0.1"
        );
        // Not from the proxy, or no proxy at all: the header is the client's word.
        let direct = request("198.51.100.2:5000", Some("203.0.113.7"));
        assert_eq!(client_key(&direct, &proxied), "ip:198.51.100.2");
        let local = Config::new("127.0.0.1:8080".parse().unwrap(), None).unwrap();
        let r = request("127.0.0.1:5000", Some("203.0.113.7"));
        assert_eq!(client_key(&r, &local), "ip:127.0.0.1");
        let r = request("127.0.0.1:5000", Some("not an address"));
        assert_eq!(client_key(&r, &proxied), "ip:127.0.0.1");
    }
}
