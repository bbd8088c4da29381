//! A small pool of database connections, shared by the blocking threads that call
//! the store. At most `size` connections are open; a caller takes an idle one,
//! opens a new one while under the limit, or waits for one to come back. A
//! connection that comes back unusable (closed by the server, stuck in a
//! transaction) is dropped, and the next caller opens a fresh one, so a database
//! restart costs the calls in flight at that moment and nothing after.
//!
//! Its own rather than `r2d2`: forty lines that keep each connection's prepared
//! statements beside it, and no adapter crates to keep in step with `rusqlite` and
//! `postgres`.

use std::ops::{Deref, DerefMut};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::db::Db;
use crate::StoreError;

type Connect<C> = Box<dyn Fn() -> Result<C, StoreError> + Send + Sync>;

pub(crate) struct Pool<C> {
    state: Mutex<State<C>>,
    returned: Condvar,
    size: usize,
    wait: Duration,
    connect: Connect<C>,
}

struct State<C> {
    idle: Vec<C>,
    open: usize,
}

impl<C: Db> Pool<C> {
    pub(crate) fn new(size: usize, wait: Duration, connect: Connect<C>) -> Pool<C> {
        Pool {
            state: Mutex::new(State {
                idle: Vec::new(),
                open: 0,
            }),
            returned: Condvar::new(),
            size: size.max(1),
            wait,
            connect,
        }
    }

    /// A connection, for as long as the guard lives.
    pub(crate) fn get(&self) -> Result<Pooled<'_, C>, StoreError> {
        let deadline = Instant::now() + self.wait;
        let mut state = self.lock();
        loop {
            if let Some(conn) = state.idle.pop() {
                return Ok(Pooled {
                    pool: self,
                    conn: Some(conn),
                });
            }
            if state.open < self.size {
                state.open += 1;
                drop(state);
                return match (self.connect)() {
                    Ok(conn) => Ok(Pooled {
                        pool: self,
                        conn: Some(conn),
                    }),
                    Err(e) => {
                        self.lock().open -= 1;
                        self.returned.notify_one();
                        Err(e)
                    }
                };
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(StoreError::PoolTimeout(self.wait));
            }
            state = match self.returned.wait_timeout(state, left) {
                Ok((s, _)) => s,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<C>> {
        // The state is two plain fields, consistent at every unlock, so a thread
        // that panicked holding it left nothing half-done.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A connection out of the pool; it goes back when dropped.
pub(crate) struct Pooled<'p, C: Db> {
    pool: &'p Pool<C>,
    conn: Option<C>,
}

impl<C: Db> Deref for Pooled<'_, C> {
    type Target = C;
    fn deref(&self) -> &C {
        self.conn.as_ref().expect("present until dropped")
    }
}

impl<C: Db> DerefMut for Pooled<'_, C> {
    fn deref_mut(&mut self) -> &mut C {
        self.conn.as_mut().expect("present until dropped")
    }
}

impl<C: Db> Drop for Pooled<'_, C> {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        let keep = conn.reusable();
        let mut state = self.pool.lock();
        if keep {
            state.idle.push(conn);
        } else {
            state.open -= 1;
        }
        drop(state);
        self.pool.returned.notify_one();
    }
}
