//! `inkboard push FILE --server URL` and `inkboard pull BOARD --server URL -o
//! FILE`: a board moved whole between a file and a team server, history aside,
//! through the server's token-guarded routes (`inkboard_server::transfer`). The
//! token comes from `INKBOARD_TOKEN`, else from `server-token` in inkboard's
//! config folder (`$XDG_CONFIG_HOME/inkboard`, or `~/.config/inkboard`), never
//! from the command line, where every local user could read it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use inkboard_format::Existing;

/// The token to send.
fn token() -> anyhow::Result<String> {
    if let Ok(t) = std::env::var("INKBOARD_TOKEN") {
        if !t.trim().is_empty() {
            return Ok(t.trim().to_string());
        }
    }
    let file = config_token_path();
    match file.as_deref().map(std::fs::read_to_string) {
        Some(Ok(t)) if !t.trim().is_empty() => Ok(t.trim().to_string()),
        _ => bail!(
            "no token: set INKBOARD_TOKEN, or put the token in {} (the server's administrator makes one with `inkboard admin token NAME`)",
            file.map_or("the config folder's inkboard/server-token".into(), |p| p.display().to_string())
        ),
    }
}

fn config_token_path() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    Some(
        env("XDG_CONFIG_HOME")
            .or_else(|| Some(env("HOME")?.join(".config")))?
            .join("inkboard/server-token"),
    )
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn server_url(server: &str) -> anyhow::Result<String> {
    let s = server.trim_end_matches('/');
    if !(s.starts_with("http://") || s.starts_with("https://")) {
        bail!("--server {server}: give the server's address, such as https://boards.example.com");
    }
    Ok(s.to_string())
}

fn failure(status: u16, body: &str) -> anyhow::Error {
    let message = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| body.trim().to_string());
    anyhow::anyhow!("the server answered {status}: {message}")
}

pub fn push(file: &Path, server: &str) -> anyhow::Result<ExitCode> {
    let server = server_url(server)?;
    // Read and checked here, so a damaged file is named before anything is sent.
    let loaded =
        inkboard_format::load(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = inkboard_format::json::to_pretty_string(&loaded.board);
    let mut answer = agent()
        .post(format!("{server}/api/boards"))
        .header("Authorization", format!("Bearer {}", token()?))
        .header("Content-Type", "application/json")
        .send(text)
        .with_context(|| format!("cannot reach {server}"))?;
    let status = answer.status().as_u16();
    let body = answer.body_mut().read_to_string().unwrap_or_default();
    if status != 201 {
        return Err(failure(status, &body));
    }
    let v: serde_json::Value =
        serde_json::from_str(&body).context("the server's answer is not JSON")?;
    let board = v["board"].as_str().unwrap_or_default();
    eprintln!(
        "pushed {} as board {board}: {server}/b/{board}",
        file.display()
    );
    println!("{board}");
    Ok(ExitCode::SUCCESS)
}

pub fn pull(board: &str, server: &str, output: &Path, overwrite: bool) -> anyhow::Result<ExitCode> {
    let server = server_url(server)?;
    if !board
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        || board.is_empty()
    {
        bail!("{board:?} is not a board id: list_boards (or the server's page) shows them");
    }
    let mut answer = agent()
        .get(format!("{server}/api/boards/{board}"))
        .header("Authorization", format!("Bearer {}", token()?))
        .call()
        .with_context(|| format!("cannot reach {server}"))?;
    let status = answer.status().as_u16();
    let body = answer
        .body_mut()
        .with_config()
        .limit(inkboard_core::limits::MAX_FILE_BYTES + 1024)
        .read_to_string()
        .context("cannot read the server's answer")?;
    if status != 200 {
        return Err(failure(status, &body));
    }
    // Checked as a board before it is written, and written as exports are:
    // atomically, an existing file replaced only with --overwrite.
    let parsed =
        inkboard_format::json::board_from_json(&body).context("the server sent a damaged board")?;
    let existing = if overwrite {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    inkboard_format::save_export(output, &parsed, existing)
        .with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!("pulled board {board} into {}", output.display());
    Ok(ExitCode::SUCCESS)
}
