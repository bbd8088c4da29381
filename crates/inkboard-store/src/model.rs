//! The store's nouns: the validated values a caller hands in (a person's name, a
//! board id, a role) and the records it gets back (a person, a board, a change, a
//! token's or link's public facts, a share, an audit entry). Raw text becomes one of
//! these at the boundary, so nothing past it checks a name or an id again.

use std::fmt;

use crate::clock::Time;
use crate::json::Json;
use crate::StoreError;

/// The longest person's name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The longest token label, in characters.
pub const MAX_LABEL_CHARS: usize = 100;
/// The longest board title, in characters (the model's own limit is checked
/// before a title gets here; this one only keeps a listing's rows small).
pub const MAX_TITLE_CHARS: usize = 1000;
/// The length of a board id the store makes.
pub const BOARD_ID_LEN: usize = 16;

/// A person's database id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub i64);

/// A person's name: 1 to 64 characters, no control or invisible formatting
/// characters, no space at either end. Unique among current people; a removed
/// person's name may be given again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserName(String);

impl UserName {
    pub fn parse(text: &str) -> Result<UserName, StoreError> {
        let why = if text.is_empty() {
            Some("a name cannot be empty".to_string())
        } else if text.chars().count() > MAX_NAME_CHARS {
            Some(format!("a name has at most {MAX_NAME_CHARS} characters"))
        } else if text.trim() != text {
            Some("a name cannot start or end with a space".to_string())
        } else if text.chars().any(hidden) {
            Some("a name cannot hold control or invisible characters".to_string())
        } else {
            None
        };
        match why {
            Some(why) => Err(StoreError::invalid("name", why)),
            None => Ok(UserName(text.to_string())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Characters that would make two names look alike or reorder what is printed
/// around them: controls, zero-width characters and bidirectional overrides.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// A board's id: URL-safe (`A-Z a-z 0-9 - _`), 1 to 64 characters. The store
/// makes 16 random lower-case letters and digits (82 bits), so ids are neither
/// guessable nor a flag's look-alike on a command line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardId(String);

impl BoardId {
    pub fn parse(text: &str) -> Result<BoardId, StoreError> {
        let ok = (1..=64).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(BoardId(text.to_string()))
        } else {
            Err(StoreError::invalid(
                "board",
                "a board id is 1 to 64 letters, digits, '-' or '_'",
            ))
        }
    }

    /// A new random id.
    pub(crate) fn random() -> BoardId {
        const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut id = String::with_capacity(BOARD_ID_LEN);
        while id.len() < BOARD_ID_LEN {
            let mut bytes = [0u8; 32];
            crate::secret::fill(&mut bytes);
            // 252 is the largest multiple of 36 below 256: bytes past it are
            // dropped so every character is equally likely.
            for b in bytes.into_iter().filter(|b| *b < 252) {
                if id.len() < BOARD_ID_LEN {
                    id.push(ALPHABET[usize::from(b % 36)] as char);
                }
            }
        }
        BoardId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a person may do on a board. Ordered: each role can do what the ones
/// before it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Reads the board, its history and its exports.
    Viewer,
    /// Also changes it.
    Editor,
    /// Also shares it, unshares it and deletes it.
    Owner,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Owner => "owner",
        }
    }

    pub fn parse(text: &str) -> Result<Role, StoreError> {
        match text {
            "viewer" => Ok(Role::Viewer),
            "editor" => Ok(Role::Editor),
            "owner" => Ok(Role::Owner),
            _ => Err(StoreError::invalid(
                "role",
                format!("{text:?} is not a role: use viewer, editor or owner"),
            )),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a change came from the person themselves or from their agent (a call
/// made with one of their API tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuthorKind {
    Person,
    Agent,
}

impl AuthorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthorKind::Person => "person",
            AuthorKind::Agent => "agent",
        }
    }

    pub(crate) fn parse(text: &str) -> Result<AuthorKind, StoreError> {
        match text {
            "person" => Ok(AuthorKind::Person),
            "agent" => Ok(AuthorKind::Agent),
            other => Err(StoreError::corrupt(format!("author kind {other:?}"))),
        }
    }
}

/// Who makes a change: a person, directly or through their agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Author {
    pub user: UserId,
    pub kind: AuthorKind,
}

/// Who performs an administrative act (sharing, revoking...), for the checks and
/// the audit log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// The server's administrator, through `inkboard admin`: may do anything.
    Admin,
    /// A person, from the editor: needs the role the act needs.
    Person(UserId),
}

/// A person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub name: UserName,
    pub created: Time,
    /// When the person was removed; a removed person signs in with nothing and
    /// holds no role, but their name stays on the changes they made.
    pub removed: Option<Time>,
}

/// A board's listing facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    pub id: BoardId,
    pub title: String,
    pub created_by: UserId,
    pub created: Time,
    /// The revision of its last change (or the one it was created at).
    pub revision: u64,
}

/// One committed change, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChange {
    pub revision: u64,
    pub author: Author,
    /// The author's name, kept for display even after they were removed.
    pub author_name: UserName,
    pub time: Time,
    /// The change as its committer gave it.
    pub change: Json,
}

/// A board read whole: its latest snapshot and the changes after it, in order.
/// Applying `changes` to `snapshot` gives the board at `info.revision`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub info: BoardInfo,
    pub snapshot: Json,
    pub snapshot_revision: u64,
    pub changes: Vec<StoredChange>,
}

/// What a commit answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Committed {
    /// The change's revision: the expected one plus one.
    pub revision: u64,
    /// The board's latest snapshot is `snapshot_every` or more changes old: the
    /// committer should call [`Store::save_snapshot`](crate::Store::save_snapshot)
    /// with the board at `revision`, outside its hot path. Not doing so only makes
    /// loads slower; the next commit asks again.
    pub snapshot_due: bool,
}

/// An API token's public facts (never the secret, which is shown once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenInfo {
    pub id: i64,
    pub user: UserName,
    pub label: String,
    pub created: Time,
    /// Within a minute: the store records uses at most once a minute per token.
    pub last_used: Option<Time>,
    pub revoked: Option<Time>,
}

/// A sign-in link's public facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkInfo {
    pub id: i64,
    pub user: UserName,
    pub created: Time,
    pub expires: Time,
    pub used: Option<Time>,
    pub revoked: Option<Time>,
}

/// A person signed in through a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub user: User,
    pub expires: Time,
}

/// One person's role on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    pub user: UserId,
    pub name: UserName,
    pub role: Role,
}

/// What an audit entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuditAction {
    UserAdded,
    UserRemoved,
    TokenCreated,
    TokenRevoked,
    LinkCreated,
    LinkRevoked,
    /// A sign-in link was used and a session began.
    SignedIn,
    BoardCreated,
    BoardDeleted,
    /// A role given or changed (`role` is the new one).
    Shared,
    /// A role taken away (`role` is the one taken).
    Unshared,
}

impl AuditAction {
    const ALL: [AuditAction; 11] = [
        AuditAction::UserAdded,
        AuditAction::UserRemoved,
        AuditAction::TokenCreated,
        AuditAction::TokenRevoked,
        AuditAction::LinkCreated,
        AuditAction::LinkRevoked,
        AuditAction::SignedIn,
        AuditAction::BoardCreated,
        AuditAction::BoardDeleted,
        AuditAction::Shared,
        AuditAction::Unshared,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::UserAdded => "user.add",
            AuditAction::UserRemoved => "user.remove",
            AuditAction::TokenCreated => "token.create",
            AuditAction::TokenRevoked => "token.revoke",
            AuditAction::LinkCreated => "link.create",
            AuditAction::LinkRevoked => "link.revoke",
            AuditAction::SignedIn => "signin",
            AuditAction::BoardCreated => "board.create",
            AuditAction::BoardDeleted => "board.delete",
            AuditAction::Shared => "share",
            AuditAction::Unshared => "unshare",
        }
    }

    pub(crate) fn parse(text: &str) -> Result<AuditAction, StoreError> {
        AuditAction::ALL
            .into_iter()
            .find(|a| a.as_str() == text)
            .ok_or_else(|| StoreError::corrupt(format!("audit action {text:?}")))
    }
}

/// One line of the audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: i64,
    pub time: Time,
    /// `None`: the administrator, through `inkboard admin`.
    pub actor: Option<UserName>,
    pub action: AuditAction,
    pub board: Option<BoardId>,
    /// The person acted upon (shared with, removed, given a token...).
    pub subject: Option<UserName>,
    pub role: Option<Role>,
    /// A token's or link's id, a label: what else identifies the act.
    pub detail: Option<String>,
}

/// Checks a free text (a token label, a board title): at most `max` characters and
/// no control characters but tabs.
pub(crate) fn check_text(what: &'static str, text: &str, max: usize) -> Result<(), StoreError> {
    if text.chars().count() > max {
        return Err(StoreError::invalid(
            what,
            format!("at most {max} characters"),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\t') {
        return Err(StoreError::invalid(what, "no control characters"));
    }
    Ok(())
}
