//! A throwaway PostgreSQL cluster for the tests and the benchmark: Debian's
//! `initdb` and `pg_ctl` (under `/usr/lib/postgresql/*/bin`, or `$INKBOARD_PG_BIN`)
//! make and start one in a temporary folder, listening only on a Unix socket in
//! that folder. PostgreSQL refuses to run as root, so as root it runs as `nobody`
//! (through `runuser`). A watchdog shell stops the cluster and removes the folder
//! once the process that started it is gone, however it ended.
//!
//! The tests' cluster runs with `fsync=off`: they kill clients, never the
//! server, so its own durability is not what they test, and each case's new
//! database would otherwise cost a second of disk flushes. The benchmark starts
//! one with PostgreSQL's durable defaults ([`start`] with `durable`).
//!
//! Without PostgreSQL the PostgreSQL cases are skipped with a note, except on CI
//! (`CI=true`), where that is a failure: `scripts/test` installs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The socket's port number (a name only: nothing listens on TCP).
const PORT: u16 = 5432;
/// The cluster's superuser.
const USER: &str = "inkboard";

pub struct Cluster {
    root: PathBuf,
    /// `Some(name)` when the cluster runs as another user than this process.
    run_as: Option<String>,
    bin: PathBuf,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The cluster, started on first use; `None` (with a note) when PostgreSQL is
/// not installed here.
pub fn cluster() -> Option<&'static Cluster> {
    match CLUSTER.get_or_init(|| start(false)) {
        Ok(c) => Some(c),
        Err(why) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!(
                    "PostgreSQL is needed on CI: {why} (scripts/test installs Debian's postgresql)"
                );
            }
            static NOTED: OnceLock<()> = OnceLock::new();
            NOTED.get_or_init(|| {
                eprintln!("\n== PostgreSQL cases SKIPPED: {why} (apt-get install postgresql, or scripts/test)\n");
            });
            None
        }
    }
}

impl Cluster {
    /// A connection string for the cluster's `postgres` database.
    pub fn admin_url(&self) -> String {
        self.url("postgres")
    }

    pub fn url(&self, database: &str) -> String {
        format!(
            "host={} port={PORT} user={USER} dbname={database}",
            self.root.display()
        )
    }

    /// A new, empty database; answers its connection string.
    pub fn new_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            DATABASES.fetch_add(1, Ordering::SeqCst)
        );
        let mut admin =
            postgres::Client::connect(&self.admin_url(), postgres::NoTls).expect("connect");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        self.url(&name)
    }

    /// The cluster's data folder (its files, WAL included).
    pub fn data_dir(&self) -> PathBuf {
        self.root.join("data")
    }

    fn command(&self, program: &str) -> Command {
        command(&self.bin, self.run_as.as_deref(), program)
    }
}

fn command(bin: &Path, run_as: Option<&str>, program: &str) -> Command {
    let program = bin.join(program);
    let mut c = match run_as {
        Some(user) => {
            let mut c = Command::new("runuser");
            c.args(["-u", user, "--"]).arg(program);
            c
        }
        None => Command::new(program),
    };
    c.env("LC_ALL", "C");
    c
}

fn bin_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("INKBOARD_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| "no /usr/lib/postgresql".to_string())?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| "no initdb under /usr/lib/postgresql/*/bin".to_string())
}

fn output(c: &mut Command) -> Result<String, String> {
    let out = c.output().map_err(|e| format!("{c:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{c:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Makes and starts a cluster; `durable: false` turns `fsync` off.
pub fn start(durable: bool) -> Result<Cluster, String> {
    let bin = bin_dir()?;
    let root = tempfile::Builder::new()
        .prefix("inkboard-pg-")
        .tempdir()
        .map_err(|e| e.to_string())?
        .keep();
    let root_user = output(Command::new("id").arg("-u"))? == "0";
    let run_as = root_user.then(|| "nobody".to_string());
    if let Some(user) = &run_as {
        let uid: u32 = output(Command::new("id").args(["-u", user]))?
            .parse()
            .map_err(|_| "id -u nobody".to_string())?;
        let gid: u32 = output(Command::new("id").args(["-g", user]))?
            .parse()
            .map_err(|_| "id -g nobody".to_string())?;
        std::os::unix::fs::chown(&root, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
    }
    let cluster = Cluster { root, run_as, bin };
    let data = cluster.data_dir();
    output(cluster.command("initdb").arg("-D").arg(&data).args([
        "-U",
        USER,
        "--auth=trust",
        "--no-sync",
        "-E",
        "UTF8",
        "--locale=C",
    ]))?;
    // The watchdog: once this process is gone, stop the cluster and remove it.
    let stop = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {pg_ctl} -D '{data}' stop -m immediate >/dev/null 2>&1; rm -rf '{root}'",
        pid = std::process::id(),
        pg_ctl = match &cluster.run_as {
            Some(u) => format!("runuser -u {u} -- '{}'", cluster.bin.join("pg_ctl").display()),
            None => format!("'{}'", cluster.bin.join("pg_ctl").display()),
        },
        data = data.display(),
        root = cluster.root.display(),
    );
    Command::new("sh")
        .args(["-c", &stop])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let options = format!(
        "-k '{}' -h '' -p {PORT} -c max_connections=200{}",
        cluster.root.display(),
        if durable { "" } else { " -c fsync=off" }
    );
    output(
        cluster
            .command("pg_ctl")
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(cluster.root.join("log"))
            .args(["-w", "-o", &options, "start"]),
    )?;
    Ok(cluster)
}
