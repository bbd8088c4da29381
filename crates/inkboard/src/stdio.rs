//! The stdio framing guard: every line a client sends gets an answer. rmcp's
//! stdio transport drops a line over its cap, ignores one that is not JSON, and
//! answers a message of the wrong shape without its `id`, so a client waits for
//! its timeout. This guard reads stdin itself, line by line up to
//! [`MAX_MESSAGE_BYTES`], answers what it refuses with a JSON-RPC error (the
//! request's `id` where one can be read, `null` where none can, as JSON-RPC
//! says), and hands rmcp only well-formed messages through an in-memory pipe. One
//! writer task puts rmcp's answers and the guard's on stdout a whole line at a
//! time, so they never interleave. When stdin closes, the requests still being
//! worked on get up to [`DRAIN`] to be answered before rmcp is told, since rmcp
//! drops what is in flight at end of input; after that the process ends.

use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::Mutex;

/// The longest message the server reads: a 16 MiB image sent as a data URL is
/// about 22 MiB of JSON. The same cap as every HTTP route's, `/mcp` included.
pub const MAX_MESSAGE_BYTES: usize = inkboard_app::MAX_BODY;

/// How long requests in flight may still be answered once stdin has closed (a
/// client that pipes its requests in and closes its end still gets the answers
/// of quick calls): within it, the process ends within a second of the close.
const DRAIN: std::time::Duration = std::time::Duration::from_millis(700);

/// How deep serde_json nests before it gives up (its recursion limit).
const MAX_DEPTH: usize = 128;

/// What the guard makes of one line.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A JSON-RPC message for rmcp; with the id of a request, which is owed an answer.
    Pass(Option<Value>),
    /// Nothing to do (a blank line, or a notification that cannot be answered).
    Skip,
    /// An error to send back.
    Answer(Value),
}

/// Judges one whole line (without its newline).
pub fn judge(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    match serde_json::from_slice::<Value>(line) {
        Ok(value) => judge_value(&value),
        Err(e) => {
            let text = e.to_string();
            let id = top_level_id(line);
            if text.contains("recursion limit") {
                answer_with(
                    id,
                    -32600,
                    format!("the message nests lists and objects {MAX_DEPTH} levels deep or more: inkboard takes at most {} levels of tool arguments", inkboard_core::limits::MAX_JSON_DEPTH),
                )
            } else if text.contains("surrogate") || text.contains("hex escape") {
                answer_with(
                    id,
                    -32602,
                    format!("the message holds a string that is not valid Unicode ({text}): send UTF-8 text, or escape characters as surrogate pairs"),
                )
            } else {
                // Not JSON: no id can be trusted, so the answer carries null.
                Verdict::Answer(error(Value::Null, -32700, format!("Parse error: {text}")))
            }
        }
    }
}

/// Judges a line that is JSON: rmcp takes it if it has the shape of a message;
/// otherwise the answer names what is wrong, with the request's id.
fn judge_value(value: &Value) -> Verdict {
    let Some(map) = value.as_object() else {
        let what = if value.is_array() {
            "a list (JSON-RPC batches are not part of MCP)"
        } else {
            "not an object"
        };
        return Verdict::Answer(error(
            Value::Null,
            -32600,
            format!("Invalid Request: the message is {what}"),
        ));
    };
    let id = map.get("id").filter(|id| valid_id(id)).cloned();
    if map.get("jsonrpc") != Some(&json!("2.0")) {
        return Verdict::Answer(error(
            id.unwrap_or(Value::Null),
            -32600,
            "Invalid Request: \"jsonrpc\" must be \"2.0\"".into(),
        ));
    }
    if serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(value.clone()).is_ok() {
        let request = map.contains_key("method");
        return Verdict::Pass(id.filter(|_| request));
    }
    let method = map.get("method").and_then(Value::as_str);
    match (method, id) {
        // A response or a notification rmcp does not know: rmcp decides (it
        // ignores the notifications it should).
        (None, _) | (Some(_), None) => Verdict::Pass(None),
        (Some(method), Some(id)) if !KNOWN_METHODS.contains(&method) => Verdict::Answer(error(
            id,
            -32601,
            format!("Method not found: {}", inkboard_core::echo::echo(method)),
        )),
        (Some(method), Some(id)) => Verdict::Answer(error(
            id,
            -32602,
            format!(
                "Invalid params for {method}: the request does not have the shape MCP gives it"
            ),
        )),
    }
}

/// The requests a client may send an MCP server (both protocol eras).
const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "completion/complete",
    "logging/setLevel",
];

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// An error answer with the request's id, or `null` where none could be read.
fn answer_with(id: Option<Value>, code: i64, message: String) -> Verdict {
    Verdict::Answer(error(id.unwrap_or(Value::Null), code, message))
}

fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The `id` of a top-level JSON object, read without building the object, so
/// that a message too deep or too long to parse can still be answered: the
/// official SDKs write `id` before `params`. `None` when the text does not start
/// as an object or has no readable id in it.
pub fn top_level_id(text: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut i = 0;
    let mut expect_key = false;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let end = string_end(text, i)?;
                if depth == 1 && expect_key {
                    let key = &text[i + 1..end];
                    let mut j = end + 1;
                    while j < text.len() && text[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if text.get(j) != Some(&b':') {
                        return None;
                    }
                    if key == b"id" {
                        return read_scalar(&text[j + 1..]);
                    }
                    expect_key = false;
                    i = j;
                } else {
                    i = end;
                }
            }
            b'{' => {
                depth += 1;
                expect_key = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b',' if depth == 1 => expect_key = true,
            c if depth == 0 && !c.is_ascii_whitespace() => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote that closes the string opening at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A number or string value at the start of `text` (after blanks), if it is a
/// valid JSON-RPC id.
fn read_scalar(text: &[u8]) -> Option<Value> {
    let start = text.iter().position(|c| !c.is_ascii_whitespace())?;
    let rest = &text[start..];
    let end = if rest.first() == Some(&b'"') {
        string_end(rest, 0)? + 1
    } else {
        rest.iter()
            .position(|c| matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace())
            .unwrap_or(rest.len())
    };
    serde_json::from_slice::<Value>(&rest[..end])
        .ok()
        .filter(valid_id)
}

/// Where the guard writes: stdout, one whole line at a time.
type Out<W> = Arc<Mutex<W>>;

/// The ids (as JSON text) of the requests handed to rmcp and not yet answered.
type Owed = Arc<std::sync::Mutex<std::collections::HashSet<String>>>;

async fn write_line<W: AsyncWrite + Unpin>(out: &Out<W>, line: &[u8]) -> std::io::Result<()> {
    let mut w = out.lock().await;
    w.write_all(line).await?;
    if !line.ends_with(b"\n") {
        w.write_all(b"\n").await?;
    }
    w.flush().await
}

/// Starts the guard between `input`/`output` (stdin and stdout) and returns the
/// pair of pipes rmcp is served on, and the task reading `input`, which ends
/// when the client closes it.
pub fn guard<R, W>(input: R, output: W) -> (DuplexStream, DuplexStream, tokio::task::JoinHandle<()>)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    // Big enough for a whole render answer in one go; the pipes are memory only.
    const PIPE: usize = 4 * 1024 * 1024;
    let (to_rmcp, rmcp_reads) = tokio::io::duplex(PIPE);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(PIPE);
    let out: Out<W> = Arc::new(Mutex::new(output));
    let owed = Owed::default();
    tokio::spawn(copy_answers(from_rmcp, out.clone(), owed.clone()));
    let reading = tokio::spawn(read_requests(input, to_rmcp, out, owed));
    (rmcp_reads, rmcp_writes, reading)
}

/// rmcp's answers to stdout, line by line.
async fn copy_answers<W: AsyncWrite + Unpin>(from_rmcp: DuplexStream, out: Out<W>, owed: Owed) {
    let mut lines = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if write_line(&out, &line).await.is_err() {
                    return;
                }
                // A notification carries no id; a response pays what is owed.
                if let Some(id) = top_level_id(&line) {
                    lock(&owed).remove(&id.to_string());
                }
            }
        }
    }
}

/// stdin to rmcp, judging each line; ends (closing rmcp's input) with stdin.
async fn read_requests<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    input: R,
    mut to_rmcp: DuplexStream,
    out: Out<W>,
    owed: Owed,
) {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_bounded_line(&mut input, &mut line).await {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::TooLong) => {
                let id = top_level_id(&line).unwrap_or(Value::Null);
                let answer = error(
                    id,
                    -32600,
                    format!(
                        "the message is over {} MiB: send less in one call (an image by its file path in 'source', or split a batch)",
                        MAX_MESSAGE_BYTES >> 20
                    ),
                );
                if write_line(&out, answer.to_string().as_bytes())
                    .await
                    .is_err()
                {
                    break;
                }
            }
            Ok(Line::Whole) => match judge(&line) {
                Verdict::Pass(id) => {
                    if let Some(id) = id {
                        lock(&owed).insert(id.to_string());
                    }
                    // A cancelled request is owed no answer (MCP).
                    if let Some(id) = cancelled_request(&line) {
                        lock(&owed).remove(&id.to_string());
                    }
                    if !line.ends_with(b"\n") {
                        line.push(b'\n');
                    }
                    if to_rmcp.write_all(&line).await.is_err() {
                        break;
                    }
                }
                Verdict::Skip => {}
                Verdict::Answer(answer) => {
                    if write_line(&out, answer.to_string().as_bytes())
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            },
        }
    }
    let deadline = tokio::time::Instant::now() + DRAIN;
    while !lock(&owed).is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let _ = to_rmcp.shutdown().await;
}

/// The request a `notifications/cancelled` line cancels.
fn cancelled_request(line: &[u8]) -> Option<Value> {
    // A cancellation is a few hundred bytes; no need to read big lines again.
    if line.len() > 4096 {
        return None;
    }
    let v: Value = serde_json::from_slice(line).ok()?;
    if v.get("method")? != "notifications/cancelled" {
        return None;
    }
    v.get("params")?.get("requestId").cloned()
}

fn lock(owed: &Owed) -> std::sync::MutexGuard<'_, std::collections::HashSet<String>> {
    owed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

enum Line {
    Whole,
    /// Over the cap: `line` keeps its first bytes (to find the id), the rest was
    /// read and dropped.
    TooLong,
    End,
}

/// Reads one line into `line`, never holding more than [`MAX_MESSAGE_BYTES`].
async fn read_bounded_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    /// What is kept of a line over the cap: where the SDKs put the id.
    const KEPT: usize = 64 * 1024;
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            // End of input: a last line without a newline still counts.
            return Ok(if too_long {
                Line::TooLong
            } else if line.is_empty() {
                Line::End
            } else {
                Line::Whole
            });
        }
        let (chunk, done) = match available.iter().position(|&c| c == b'\n') {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let used = chunk.len();
        if !too_long && line.len() + used > MAX_MESSAGE_BYTES {
            too_long = true;
        }
        if too_long {
            let room = KEPT.saturating_sub(line.len()).min(used);
            line.extend_from_slice(&chunk[..room]);
        } else {
            line.extend_from_slice(chunk);
        }
        input.consume(used);
        if done {
            return Ok(if too_long { Line::TooLong } else { Line::Whole });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_id_without_parsing_the_rest() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}{}}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(top_level_id(deep.as_bytes()), Some(json!(7)));
        assert_eq!(
            top_level_id(br#"{"method":"x","params":{"id":1},"id":"a\"b"}"#),
            Some(json!("a\"b"))
        );
        assert_eq!(top_level_id(br#"{"params":{"id":1}}"#), None);
        assert_eq!(top_level_id(b"not json"), None);
        assert_eq!(top_level_id(br#"{"id": null}"#), None);
    }

    #[test]
    fn every_refusal_is_answered() {
        let cases: Vec<(&[u8], Value, i64)> = vec![
            (b"{not json", Value::Null, -32700),
            (b"[1, 2]", Value::Null, -32600),
            (br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#, json!(3), -32600),
            (br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":7}"#, json!(4), -32602),
            (
                br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"t":"\ud800"}}}"#,
                json!(5),
                -32602,
            ),
        ];
        for (line, id, code) in cases {
            let Verdict::Answer(a) = judge(line) else {
                panic!("{} was not answered", String::from_utf8_lossy(line));
            };
            assert_eq!(a["id"], id, "{a}");
            assert_eq!(a["error"]["code"], json!(code), "{a}");
        }
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Verdict::Pass(Some(json!(1)))
        );
        // rmcp answers unknown methods itself (-32601, with the id).
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":4,"method":"no/such"}"#),
            Verdict::Pass(Some(json!(4)))
        );
        assert_eq!(judge(b"  \r"), Verdict::Skip);
    }
}
