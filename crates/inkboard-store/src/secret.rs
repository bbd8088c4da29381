//! Secrets: API tokens, sign-in links and sessions. Each is 256 random bits from
//! the operating system, written as a recognisable prefix and 43 characters of
//! URL-safe base64, shown to its holder once, and kept only as its SHA-256.
//!
//! A plain hash is enough here, where passwords would need a slow one: a slow
//! hash defends guessable secrets against guessing, and a 256-bit random value
//! cannot be guessed, so a stolen table of hashes gives nothing to try. It also
//! lets a secret be found by its hash with an index, so no stored value is ever
//! compared to a presented one byte by byte in our code: the database compares
//! hashes, and learning how much of a hash matched says nothing of a secret.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The three kinds of secret, each with its own prefix so that one is never
/// taken for another and secret scanners can find leaked tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretKind {
    /// An API token for a person's agents (`ink_…`): long-lived, revocable.
    Token,
    /// A one-time sign-in link (`inkl_…`): minutes-lived, single use.
    Link,
    /// A browser session (`inks_…`): the cookie's value.
    Session,
}

impl SecretKind {
    pub fn prefix(self) -> &'static str {
        match self {
            SecretKind::Token => "ink_",
            SecretKind::Link => "inkl_",
            SecretKind::Session => "inks_",
        }
    }
}

/// The length of a secret's random part as written: 32 bytes in base64.
const BODY_LEN: usize = 43;

/// A secret as shown to its holder. Its `Debug` hides it, so it never lands in a
/// log by accident; [`Secret::expose`] is the one way to read it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub(crate) fn generate(kind: SecretKind) -> Secret {
        let mut bytes = [0u8; 32];
        fill(&mut bytes);
        Secret(format!(
            "{}{}",
            kind.prefix(),
            URL_SAFE_NO_PAD.encode(bytes)
        ))
    }

    /// The secret's text: print it once, to the one it is for.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub(crate) fn hash(&self) -> [u8; 32] {
        hash(&self.0)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({}…)", &self.0[..self.0.len().min(5)])
    }
}

/// The SHA-256 of a presented secret, if it has the shape of one of `kind`:
/// anything else is refused without asking the database.
pub(crate) fn presented(kind: SecretKind, text: &str) -> Option<[u8; 32]> {
    let body = text.strip_prefix(kind.prefix())?;
    let shaped = body.len() == BODY_LEN
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    shaped.then(|| hash(text))
}

fn hash(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// Fills `bytes` from the operating system's random source. There is no safe
/// way on without it (every secret would be guessable), so its failure, which
/// happens only on a broken system, stops the process.
pub(crate) fn fill(bytes: &mut [u8]) {
    getrandom::fill(bytes).expect("the operating system's random source failed");
}
