//! Who listens on a loopback port, from the kernel's own tables: a discovery file
//! says which process and port the application has, but a file can be stale (its
//! process gone and its pid given to another) or planted, so before anything is
//! sent the claim is checked against the system. On Linux, `/proc/net/tcp` names
//! each listening socket's owner (uid) and inode, and `/proc/PID/fd` the sockets a
//! process holds; elsewhere only "the pid is alive" can be checked.

use std::fs;

/// What the system says of `pid` listening on 127.0.0.1:`port`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Listening {
    /// `pid` holds the listening socket, and it belongs to `uid`.
    Yes,
    /// Nobody listens there, another user does, or another process than `pid`.
    No,
    /// The system gives no socket tables (not Linux): `pid` is alive, no more known.
    Unknown,
}

/// Checks that `pid`, running as `uid`, listens on 127.0.0.1:`port`.
pub(super) fn listening(pid: u32, port: u16, uid: u32) -> Listening {
    let Ok(table) = fs::read_to_string("/proc/net/tcp") else {
        return if alive(pid) {
            Listening::Unknown
        } else {
            Listening::No
        };
    };
    let inodes: Vec<u64> = listeners(&table, port)
        .filter(|&(owner, _)| owner == uid)
        .map(|(_, inode)| inode)
        .collect();
    if inodes.is_empty() {
        return Listening::No;
    }
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Listening::No;
    };
    let holds = fds.flatten().any(|fd| {
        fs::read_link(fd.path()).is_ok_and(|link| {
            let link = link.to_string_lossy();
            inodes
                .iter()
                .any(|inode| link == format!("socket:[{inode}]"))
        })
    });
    if holds {
        Listening::Yes
    } else {
        Listening::No
    }
}

/// The (uid, inode) of each socket of `table` (the text of `/proc/net/tcp`)
/// listening on 127.0.0.1:`port`.
fn listeners(table: &str, port: u16) -> impl Iterator<Item = (u32, u64)> + '_ {
    // The address is the kernel's 32-bit word in hex, so its byte order is the
    // machine's: 127.0.0.1 reads 0100007F on little-endian machines.
    let loopback = format!("{:08X}", u32::from_ne_bytes([127, 0, 0, 1]));
    let local = format!("{loopback}:{port:04X}");
    table.lines().skip(1).filter_map(move |line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // sl local rem st queues timer retransmits uid timeout inode ...
        let (address, state, uid, inode) = (
            fields.get(1)?,
            fields.get(3)?,
            fields.get(7)?,
            fields.get(9)?,
        );
        // 0A: TCP_LISTEN.
        if *address != local || *state != "0A" {
            return None;
        }
        Some((uid.parse().ok()?, inode.parse().ok()?))
    })
}

/// Whether a process has pid `pid` (one of another user counts).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 sends nothing; it only checks the pid.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listening_sockets_are_read_from_the_table() {
        let loopback = format!("{:08X}", u32::from_ne_bytes([127, 0, 0, 1]));
        let table = format!(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
             0: {loopback}:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 100 0 0 10 0\n\
             1: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 222 1 0 100 0 0 10 0\n\
             2: {loopback}:1F92 {loopback}:9999 01 00000000:00000000 00:00000000 00000000  1000        0 333 1 0 100 0 0 10 0\n"
        );
        assert_eq!(listeners(&table, 0x1F90).collect::<Vec<_>>(), [(1000, 111)]);
        // Not on loopback, or not listening.
        assert_eq!(listeners(&table, 0x1F91).count(), 0);
        assert_eq!(listeners(&table, 0x1F92).count(), 0);
    }

    #[test]
    fn a_process_listening_here_is_found() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
        let port = listener.local_addr().expect("address").port();
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        let me = std::process::id();
        if std::path::Path::new("/proc/net/tcp").exists() {
            assert_eq!(listening(me, port, uid), Listening::Yes);
            assert_eq!(listening(me, port, uid + 1), Listening::No);
            drop(listener);
            assert_eq!(listening(me, port, uid), Listening::No);
        }
    }
}
