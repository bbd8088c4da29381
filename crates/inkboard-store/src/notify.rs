//! Telling whoever holds a board that it moved. [`Store::subscribe`] hands out a
//! [`Subscription`], a blocking iterator of [`Event`]s; the [`Hub`] fans each event
//! out to every live subscription.
//!
//! With PostgreSQL the events come from the database: every commit sends
//! `NOTIFY inkboard_board, 'BOARD:REVISION'` in its transaction, and one thread per
//! store listens on a connection of its own, so a change committed by any process
//! reaches all of them. The same thread hears `inkboard_presence`
//! ([`Store::signal`]: `BOARD:BODY`, who is on a board and where their cursor is),
//! which is never stored: a note sent while a process is not listening is lost,
//! and its sender says it again soon (its heartbeat). When that connection breaks, the thread connects again
//! (waiting longer each time, up to a few seconds) and then sends
//! [`Event::Reconnected`], since notifications sent meanwhile are lost: a holder
//! re-reads the revisions of the boards it holds. With SQLite, which one process
//! owns, the store sends each event itself after the commit.
//!
//! [`Store::subscribe`]: crate::Store::subscribe
//! [`Store::signal`]: crate::Store::signal

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::Config;

use crate::model::BoardId;
use crate::pg::{CHANNEL, PRESENCE_CHANNEL};
use crate::StoreError;

/// A board reached a new revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardMoved {
    pub board: BoardId,
    pub revision: u64,
}

/// A note about who is on a board ([`crate::Store::signal`]), from any process.
/// Its body is the sender's text, at most [`MAX_SIGNAL_BYTES`]: what it means is
/// the server's business, which reads it as hostile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    pub board: BoardId,
    pub body: String,
}

/// The longest body a signal carries: PostgreSQL refuses a `NOTIFY` payload of
/// 8000 bytes or more, and the board's id and a colon come first.
pub const MAX_SIGNAL_BYTES: usize = 7000;

/// What a subscription receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Moved(BoardMoved),
    /// Someone's presence on a board (never stored; see [`Signal`]).
    Signal(Signal),
    /// The listening connection was lost and is back: boards may have moved
    /// without an event in between, so check the revisions of those you hold.
    Reconnected,
}

/// Events for one subscriber. Events are queued until read; a subscription that
/// is dropped stops receiving.
pub struct Subscription {
    events: Receiver<Event>,
}

impl Subscription {
    /// The next event, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    /// The next event already queued, if any.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }
}

impl Iterator for Subscription {
    type Item = Event;

    /// Waits for the next event; `None` once the store is gone.
    fn next(&mut self) -> Option<Event> {
        self.events.recv().ok()
    }
}

/// The subscribers of one store.
#[derive(Default)]
pub(crate) struct Hub {
    senders: Mutex<Vec<Sender<Event>>>,
    /// Set when the store is dropped: the listening thread ends.
    pub(crate) stop: AtomicBool,
}

impl Hub {
    pub(crate) fn subscribe(&self) -> Subscription {
        let (tx, rx) = mpsc::channel();
        self.lock().push(tx);
        Subscription { events: rx }
    }

    pub(crate) fn publish(&self, event: Event) {
        // Sending on a channel whose receiver is gone fails: that subscriber left.
        self.lock().retain(|tx| tx.send(event.clone()).is_ok());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Sender<Event>>> {
        self.senders.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// How often the listening thread looks up from waiting (to see whether the
/// store is gone, and whether its connection still stands).
const TICK: Duration = Duration::from_millis(250);
/// The longest wait between two attempts to connect again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Connects and listens, then leaves a thread to pass the notifications on. The
/// first connection is made here, so an unreachable database is the caller's
/// error and an event committed after this returns is never missed.
pub(crate) fn start_listener(config: Config, hub: Arc<Hub>) -> Result<(), StoreError> {
    let first = listen(&config)?;
    std::thread::Builder::new()
        .name("inkboard-store-listen".into())
        .spawn(move || run(config, hub, first))
        .map_err(|e| StoreError::Io {
            path: "listening thread".into(),
            source: e,
        })?;
    Ok(())
}

fn listen(config: &Config) -> Result<postgres::Client, StoreError> {
    let mut client = config.connect(postgres::NoTls)?;
    client.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {PRESENCE_CHANNEL}"))?;
    Ok(client)
}

fn run(config: Config, hub: Arc<Hub>, mut client: postgres::Client) {
    loop {
        // Pass notifications on until the connection breaks or the store is gone.
        while !hub.stop.load(Ordering::SeqCst) {
            let mut broken = false;
            {
                let mut notes = client.notifications();
                let mut iter = notes.timeout_iter(TICK);
                loop {
                    match iter.next() {
                        Ok(Some(n)) => {
                            let event = if n.channel() == PRESENCE_CHANNEL {
                                parse_signal(n.payload()).map(Event::Signal)
                            } else {
                                parse(n.payload()).map(Event::Moved)
                            };
                            if let Some(event) = event {
                                hub.publish(event);
                            }
                        }
                        // A quiet tick, or a connection closed (checked below).
                        Ok(None) => break,
                        Err(_) => {
                            broken = true;
                            break;
                        }
                    }
                }
            }
            if broken || client.is_closed() {
                break;
            }
        }
        if hub.stop.load(Ordering::SeqCst) {
            return;
        }
        let mut wait = Duration::from_millis(50);
        client = loop {
            std::thread::sleep(wait);
            if hub.stop.load(Ordering::SeqCst) {
                return;
            }
            match listen(&config) {
                Ok(c) => break c,
                Err(_) => wait = (wait * 2).min(MAX_BACKOFF),
            }
        };
        hub.publish(Event::Reconnected);
    }
}

/// Reads a `BOARD:REVISION` payload; anything else on the channel is ignored.
fn parse(payload: &str) -> Option<BoardMoved> {
    let (board, revision) = payload.rsplit_once(':')?;
    Some(BoardMoved {
        board: BoardId::parse(board).ok()?,
        revision: revision.parse().ok()?,
    })
}

/// Reads a `BOARD:BODY` presence payload (a board id holds no colon).
fn parse_signal(payload: &str) -> Option<Signal> {
    let (board, body) = payload.split_once(':')?;
    if body.len() > MAX_SIGNAL_BYTES {
        return None;
    }
    Some(Signal {
        board: BoardId::parse(board).ok()?,
        body: body.to_string(),
    })
}

/// The payload of a presence signal.
pub(crate) fn signal_payload(board: &BoardId, body: &str) -> String {
    format!("{board}:{body}")
}

/// The payload a commit sends.
pub(crate) fn payload(board: &BoardId, revision: u64) -> String {
    format!("{board}:{revision}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_read_back() {
        let board = BoardId::parse("abc123").unwrap();
        assert_eq!(
            parse(&payload(&board, 42)),
            Some(BoardMoved {
                board,
                revision: 42
            })
        );
        assert_eq!(parse("no-colon"), None);
        assert_eq!(parse("bad id!:3"), None);
        assert_eq!(parse("abc:-1"), None);
    }

    #[test]
    fn signals_read_back_and_oversized_ones_are_dropped() {
        let board = BoardId::parse("abc123").unwrap();
        let body = r#"{"x":1,"note":"a:b"}"#;
        assert_eq!(
            parse_signal(&signal_payload(&board, body)),
            Some(Signal {
                board: board.clone(),
                body: body.into()
            })
        );
        assert_eq!(parse_signal("no-colon"), None);
        assert_eq!(parse_signal("bad id!:{}"), None);
        let big = "x".repeat(MAX_SIGNAL_BYTES + 1);
        assert_eq!(parse_signal(&signal_payload(&board, &big)), None);
    }
}
