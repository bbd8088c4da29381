//! `inkboard admin (--data DIR | --database URL) COMMAND`: the server's people,
//! their tokens and sign-in links, and boards' roles, from the command line, as
//! the administrator (`Operator::Admin`: every act is in the audit log). A
//! secret is printed once, on the command's last line, and kept only hashed.

use std::process::ExitCode;
use std::time::Duration;

use clap::Subcommand;
use inkboard_store::{BoardId, Operator, Role, Store, Time, UserName};

use crate::cli::say;
use crate::serve::Where;

#[derive(Subcommand)]
pub enum AdminCommand {
    /// Add a person.
    AddUser { name: String },
    /// Remove a person: their tokens, links and sessions stop working; their
    /// name stays on the changes they made.
    RemoveUser { name: String },
    /// List the people, the removed ones said to be.
    Users,
    /// Make an API token for a person's agents; printed on the last line, once.
    Token {
        name: String,
        /// What the token is for (e.g. "laptop Claude Code").
        #[arg(long, default_value = "")]
        label: String,
    },
    /// List tokens (all, or one person's), never their secrets.
    Tokens { name: Option<String> },
    /// Revoke a token by its number (from `tokens`).
    RevokeToken { id: i64 },
    /// Make a one-time sign-in link for a person; its path (/s/…) is printed on
    /// the last line, once. Open the server's address followed by it.
    Link {
        name: String,
        /// How long it works, in minutes (at most 7 days).
        #[arg(long, default_value_t = 24 * 60)]
        minutes: u64,
    },
    /// List sign-in links (all, or one person's).
    Links { name: Option<String> },
    /// Revoke a sign-in link by its number (from `links`).
    RevokeLink { id: i64 },
    /// Give a person a role on a board: viewer, editor or owner.
    Share {
        board: String,
        name: String,
        role: String,
    },
    /// Take a person's role on a board away.
    Unshare { board: String, name: String },
    /// Who holds which role on a board.
    Shares { board: String },
    /// Every board.
    Boards,
    /// Delete a board with its history and roles, for good (the audit log
    /// keeps its id). Anyone who had it open finds it gone.
    DeleteBoard { board: String },
    /// The latest entries of the audit log.
    Audit {
        #[arg(long, default_value_t = 50)]
        limit: usize,
    },
}

fn when(t: Time) -> String {
    let secs = t.0.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = inkboard_app::recovery::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

fn name(text: &str) -> anyhow::Result<UserName> {
    UserName::parse(text).map_err(anyhow::Error::msg)
}

fn board(text: &str) -> anyhow::Result<BoardId> {
    BoardId::parse(text).map_err(anyhow::Error::msg)
}

pub fn run(place: Where, command: AdminCommand) -> anyhow::Result<ExitCode> {
    let store: Store = place.open()?;
    let admin = Operator::Admin;
    let e = anyhow::Error::msg;
    match command {
        AdminCommand::AddUser { name: n } => {
            let user = store.add_user(&name(&n)?, admin).map_err(e)?;
            say(&format!("added {}", user.name));
        }
        AdminCommand::RemoveUser { name: n } => {
            let user = store.remove_user(&name(&n)?, admin).map_err(e)?;
            say(&format!("removed {}", user.name));
        }
        AdminCommand::Users => {
            // Removed people are listed too (their names stay on their
            // changes), and said to be.
            for u in store.users().map_err(e)? {
                match u.removed {
                    Some(r) => say(&format!(
                        "{}\tadded {}\tremoved {}",
                        u.name,
                        when(u.created),
                        when(r)
                    )),
                    None => say(&format!("{}\tadded {}", u.name, when(u.created))),
                }
            }
        }
        AdminCommand::Token { name: n, label } => {
            let (info, secret) = store.create_token(&name(&n)?, &label, admin).map_err(e)?;
            eprintln!(
                "token {} for {}'s agents (shown once; agents send it as Authorization: Bearer TOKEN):",
                info.id, info.user
            );
            say(secret.expose());
        }
        AdminCommand::Tokens { name: n } => {
            let n = n.as_deref().map(name).transpose()?;
            for t in store.tokens(n.as_ref()).map_err(e)? {
                let state = match (t.revoked, t.last_used) {
                    (Some(r), _) => format!("revoked {}", when(r)),
                    (None, Some(u)) => format!("last used {}", when(u)),
                    (None, None) => "never used".into(),
                };
                say(&format!("{}\t{}\t{}\t{}", t.id, t.user, t.label, state));
            }
        }
        AdminCommand::RevokeToken { id } => {
            let t = store.revoke_token(id, admin).map_err(e)?;
            say(&format!("token {} of {} revoked", t.id, t.user));
        }
        AdminCommand::Link { name: n, minutes } => {
            let ttl = Duration::from_secs(minutes.saturating_mul(60));
            let (info, secret) = store.create_link(&name(&n)?, ttl, admin).map_err(e)?;
            eprintln!(
                "sign-in link {} for {}, works once until {} (open the server's address followed by):",
                info.id,
                info.user,
                when(info.expires)
            );
            say(&format!("/s/{}", secret.expose()));
        }
        AdminCommand::Links { name: n } => {
            let n = n.as_deref().map(name).transpose()?;
            for l in store.links(n.as_ref()).map_err(e)? {
                let state = match (l.used, l.revoked) {
                    (Some(u), _) => format!("used {}", when(u)),
                    (None, Some(r)) => format!("revoked {}", when(r)),
                    (None, None) => format!("expires {}", when(l.expires)),
                };
                say(&format!("{}\t{}\t{}", l.id, l.user, state));
            }
        }
        AdminCommand::RevokeLink { id } => {
            let l = store.revoke_link(id, admin).map_err(e)?;
            say(&format!("sign-in link {} of {} revoked", l.id, l.user));
        }
        AdminCommand::Share {
            board: b,
            name: n,
            role,
        } => {
            let role = Role::parse(&role).map_err(e)?;
            let s = store
                .share(&board(&b)?, &name(&n)?, role, admin)
                .map_err(e)?;
            say(&format!("{} is {} of {b}", s.name, s.role));
        }
        AdminCommand::Unshare { board: b, name: n } => {
            let had = store.unshare(&board(&b)?, &name(&n)?, admin).map_err(e)?;
            say(if had {
                "role taken away"
            } else {
                "had no role"
            });
        }
        AdminCommand::Shares { board: b } => {
            for s in store.shares(&board(&b)?, admin).map_err(e)? {
                say(&format!("{}\t{}", s.name, s.role));
            }
        }
        AdminCommand::Boards => {
            for b in store.all_boards().map_err(e)? {
                say(&format!("{}\t{}\trevision {}", b.id, b.title, b.revision));
            }
        }
        AdminCommand::DeleteBoard { board: b } => {
            store.delete_board(&board(&b)?, admin).map_err(e)?;
            say(&format!("board {b} deleted"));
        }
        AdminCommand::Audit { limit } => {
            for a in store.audit(limit).map_err(e)? {
                let mut line = format!(
                    "{}\t{}\t{}",
                    when(a.time),
                    a.actor.as_ref().map_or("admin", |n| n.as_str()),
                    a.action.as_str()
                );
                for part in [
                    a.board.as_ref().map(|b| format!("board {b}")),
                    a.subject.as_ref().map(|s| format!("for {s}")),
                    a.role.map(|r| format!("as {r}")),
                    a.detail.clone(),
                ]
                .into_iter()
                .flatten()
                {
                    line.push('\t');
                    line.push_str(&part);
                }
                say(&line);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
