//! The command line. Each subcommand makes its flags into a tool call on the
//! engine and prints the tool's JSON answer, so the CLI and MCP always agree.
//! Answers hold text from files (a board's titles and texts, an imported
//! diagram's labels), which may hold a terminal's escape sequences: everything
//! printed goes through [`say`] and [`tell`], which escape them (core's
//! `echo::for_terminal`, and the same characters as JSON escapes in JSON).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use inkboard_core::echo;
use inkboard_format::{Existing, FileKind, FormatError};
use inkboard_tools::{Engine, Reply, ToolError};
use serde_json::{json, Value};

use crate::forward::HttpForward;

/// A whiteboard for people and AI agents.
#[derive(Parser)]
#[command(name = "inkboard", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the MCP tools on stdin/stdout (for Claude Code and other MCP clients).
    Mcp,
    /// Open a board in the editor (a local web page); agents' calls without a path
    /// then edit it live.
    Open {
        /// The board file (created if missing); without it, a new untitled board.
        /// A draw.io or Excalidraw file (or an SVG/PNG export) is imported into
        /// a new board, saved only where you say.
        file: Option<PathBuf>,
        /// The port on 127.0.0.1 (default: a free one).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Do not open a browser; just print the address.
        #[arg(long)]
        no_browser: bool,
    },
    /// Create a new, empty board file.
    New {
        /// The board file (.inkboard, .inkboard.json or .tableau.json).
        file: PathBuf,
        /// The board's title (default: the file name).
        #[arg(long)]
        title: Option<String>,
        /// A page name; repeat for several pages (default: one page, "Page 1").
        #[arg(long = "page")]
        pages: Vec<String>,
        /// Replace the file if it exists.
        #[arg(long)]
        overwrite: bool,
    },
    /// Run a batch of operations from a JSON file on a board file and print the answer.
    Batch {
        /// The board file.
        file: PathBuf,
        /// A JSON file holding the operations list (or an object with "operations").
        ops: PathBuf,
        /// The page operations without a page act on (number or name).
        #[arg(long)]
        page: Option<String>,
        /// Keep what succeeded before an error instead of rolling everything back.
        #[arg(long)]
        no_atomic: bool,
    },
    /// Render a page to a PNG (what `render` shows an agent) and print its summary.
    Render {
        /// The board file.
        file: PathBuf,
        /// Where to write the PNG (default: the board's name with .png); an
        /// existing PNG there is replaced.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The page (number or name; default the first).
        #[arg(long)]
        page: Option<String>,
        /// The longest side in pixels.
        #[arg(long, default_value_t = 1600)]
        max_size: u32,
        /// The colours: light (the board's own, the default) or dark (as the
        /// editor shows the board in dark mode).
        #[arg(long)]
        theme: Option<String>,
    },
    /// Export a board to .svg, .png, .pdf, .inkboard, .inkboard.json, .drawio,
    /// .excalidraw or .mmd (Mermaid: a flowchart, or the sequence, ER, class or
    /// state diagram a page holds).
    Export {
        /// The board file.
        file: PathBuf,
        /// The file to write; its extension picks the format.
        #[arg(short, long)]
        output: PathBuf,
        /// The page (number or name; default the first).
        #[arg(long, conflicts_with = "all_pages")]
        page: Option<String>,
        /// Every page: one PDF page each, or numbered .svg/.png files (.drawio and
        /// .inkboard files always hold every page; .excalidraw and .mmd hold one).
        #[arg(long)]
        all_pages: bool,
        /// PNG pixels per board unit.
        #[arg(long)]
        scale: Option<f64>,
        /// Replace the output file if it exists.
        #[arg(long)]
        overwrite: bool,
        /// The colours of an .svg, .png or .pdf: light (the board's own, the
        /// default) or dark (as the editor shows the board in dark mode).
        #[arg(long)]
        theme: Option<String>,
    },
    /// Make a new board file from a draw.io or Excalidraw file (.drawio, .xml,
    /// .drawio.svg, .drawio.png, .excalidraw, .excalidraw.svg, .excalidraw.png);
    /// what it could not keep is printed to stderr, one line per kind.
    Import {
        /// The draw.io or Excalidraw file.
        source: PathBuf,
        /// The board file to write (.inkboard, .inkboard.json or .tableau.json).
        #[arg(short, long)]
        output: PathBuf,
        /// Replace the board file if it exists.
        #[arg(long)]
        overwrite: bool,
    },
    /// Print where your token is (made on first use): HTTP clients of `/mcp`
    /// send it as `Authorization: Bearer TOKEN`.
    Token {
        #[command(subcommand)]
        action: Option<TokenAction>,
    },
    /// Run a team server: boards in a database, people and their agents with
    /// roles; prints its address (see docs/server.md).
    Serve {
        /// The data folder, for the embedded SQLite database (default:
        /// $XDG_DATA_HOME/inkboard, else ~/.local/share/inkboard); printed at
        /// start, for `inkboard admin --data`.
        #[arg(long, conflicts_with = "database")]
        data: Option<PathBuf>,
        /// A PostgreSQL database (postgres://USER:PASSWORD@HOST:PORT/DB), which
        /// any number of `serve` processes may share.
        #[arg(long)]
        database: Option<String>,
        /// The address to listen on; port 0 picks a free one.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// The address people and agents reach the server at (https://HOST,
        /// through a TLS reverse proxy): required to listen on anything but
        /// loopback.
        #[arg(long)]
        public_url: Option<String>,
    },
    /// Administer a team server's people, tokens, sign-in links and roles.
    Admin {
        /// The data folder of the server's embedded SQLite database: the one
        /// `inkboard serve` prints as "boards in DIR" when it starts (default
        /// there: $XDG_DATA_HOME/inkboard, else ~/.local/share/inkboard).
        #[arg(
            long,
            conflicts_with = "database",
            required_unless_present = "database"
        )]
        data: Option<PathBuf>,
        /// The server's PostgreSQL database, the URL given to `inkboard serve
        /// --database` (postgres://USER:PASSWORD@HOST:PORT/DB).
        #[arg(long)]
        database: Option<String>,
        #[command(subcommand)]
        command: crate::admin::AdminCommand,
    },
    /// Send a board file to a team server as a new board; prints its id. The
    /// token comes from INKBOARD_TOKEN or the config folder's inkboard/server-token.
    Push {
        file: PathBuf,
        /// The server's address, e.g. https://boards.example.com.
        #[arg(long)]
        server: String,
    },
    /// Fetch a board from a team server into a board file.
    Pull {
        /// The board's id.
        board: String,
        #[arg(long)]
        server: String,
        /// The board file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Replace the file if it exists.
        #[arg(long)]
        overwrite: bool,
    },
    /// Call any tool with JSON arguments and print its answer.
    Call {
        /// The tool's name, e.g. read_board.
        tool: String,
        /// The arguments as a JSON object (default: {}).
        args: Option<String>,
    },
}

#[derive(Subcommand)]
enum TokenAction {
    /// Replace the token with a new one (a running application takes it within a
    /// second); prints where it is.
    Rotate,
}

/// Runs a command; the exit code is 0 on success and 1 when the tool failed.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let engine = Engine::forwarding(Box::new(HttpForward::new()));
    let (tool, args) = match cli.command {
        Command::Mcp => {
            crate::mcp::serve()?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Open {
            file,
            port,
            no_browser,
        } => return crate::open::run(file, port, no_browser),
        Command::New {
            file,
            title,
            pages,
            overwrite,
        } => {
            let args =
                json!({"path": file, "title": title, "pages": pages, "overwrite": overwrite});
            return Ok(match engine.call("create_board", drop_nulls(args)) {
                // The tool's message speaks of its argument; here it is a flag.
                Err(ToolError::File(FormatError::AlreadyExists { path })) => {
                    tell(&format!(
                        "inkboard new: {} already exists: choose another path, or pass --overwrite to replace it",
                        path.display()
                    ));
                    ExitCode::from(1)
                }
                other => print_reply("create_board", other),
            });
        }
        Command::Batch {
            file,
            ops,
            page,
            no_atomic,
        } => {
            let text = std::fs::read_to_string(&ops)
                .with_context(|| format!("cannot read {}", ops.display()))?;
            let value: Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not valid JSON", ops.display()))?;
            let operations = match value {
                Value::Object(mut o) if o.contains_key("operations") => {
                    o.remove("operations").unwrap_or(Value::Null)
                }
                other => other,
            };
            let page = page.map(|p| {
                p.parse::<u64>()
                    .map(Value::from)
                    .unwrap_or(Value::String(p))
            });
            let mut args = json!({"path": file, "operations": operations, "atomic": !no_atomic});
            if let Some(page) = page {
                args["page"] = page;
            }
            ("batch".to_string(), args)
        }
        Command::Render {
            file,
            output,
            page,
            max_size,
            theme,
        } => {
            let args = json!({"path": file, "page": page.map(page_value), "max_size": max_size, "theme": theme});
            let output = output.unwrap_or_else(|| png_beside(&file));
            return match engine.call("render", drop_nulls(args)) {
                Ok(Reply::Image { png, text, .. }) => {
                    let written = if output.is_dir() {
                        Err(format!(
                            "{} is a folder: give a file's path after -o, such as {}",
                            output.display(),
                            output
                                .join(format!("{}.png", FileKind::stem(&file)))
                                .display()
                        ))
                    } else {
                        // Written as exports are: atomically, never through a link
                        // out of its folder, never over a read-only file or a non-file.
                        inkboard_format::write_export(&output, &png, Existing::Replace)
                            .map_err(|e| e.to_string())
                    };
                    match written {
                        Ok(_) => {
                            say(&format!("{text}\nWrote {}", output.display()));
                            Ok(ExitCode::SUCCESS)
                        }
                        Err(message) => {
                            tell(&format!("inkboard render: {message}"));
                            Ok(ExitCode::from(1))
                        }
                    }
                }
                other => Ok(print_reply("render", other)),
            };
        }
        Command::Export {
            file,
            output,
            page,
            all_pages,
            scale,
            overwrite,
            theme,
        } => {
            let args = json!({"path": file, "output": output, "page": page.map(page_value), "all_pages": all_pages, "scale": scale, "overwrite": overwrite, "theme": theme});
            return Ok(match engine.call("export", drop_nulls(args)) {
                // The tool's message speaks of its argument; here it is a flag.
                Err(ToolError::File(FormatError::OutputExists { path })) => {
                    tell(&format!(
                        "inkboard export: {} already exists: choose another path, or pass --overwrite to replace it",
                        path.display()
                    ));
                    ExitCode::from(1)
                }
                other => print_reply("export", other),
            });
        }
        Command::Import {
            source,
            output,
            overwrite,
        } => {
            let args = json!({"source": source, "path": output, "overwrite": overwrite});
            return Ok(match engine.call("import", args) {
                // The tool's message speaks of its argument; here it is a flag.
                Err(ToolError::File(FormatError::OutputExists { path })) => {
                    tell(&format!(
                        "inkboard import: {} already exists: choose another path, or pass --overwrite to replace it",
                        path.display()
                    ));
                    ExitCode::from(1)
                }
                Ok(Reply::Json(answer)) => {
                    // What was lost goes to stderr, a line per kind, so that stdout
                    // stays the tool's JSON and the person still reads the losses.
                    for lost in answer["lost"].as_array().into_iter().flatten() {
                        if let Some(message) = lost["message"].as_str() {
                            tell(&format!("inkboard import: not kept: {message}"));
                        }
                    }
                    print_reply("import", Ok(Reply::Json(answer)))
                }
                other => print_reply("import", other),
            });
        }
        Command::Token { action } => return token(action),
        Command::Serve {
            data,
            database,
            listen,
            public_url,
        } => return crate::serve::run(crate::serve::Where { data, database }, listen, public_url),
        Command::Admin {
            data,
            database,
            command,
        } => return crate::admin::run(crate::serve::Where { data, database }, command),
        Command::Push { file, server } => return crate::transfer::push(&file, &server),
        Command::Pull {
            board,
            server,
            output,
            overwrite,
        } => return crate::transfer::pull(&board, &server, &output, overwrite),
        Command::Call { tool, args } => {
            let args: Value = match args {
                Some(text) => {
                    serde_json::from_str(&text).context("the arguments are not valid JSON")?
                }
                None => json!({}),
            };
            (tool, args)
        }
    };
    Ok(print_reply(&tool, engine.call(&tool, drop_nulls(args))))
}

/// A page given on the command line: a number if it is one, else a name.
fn page_value(page: String) -> Value {
    page.parse::<u64>()
        .map(Value::from)
        .unwrap_or(Value::String(page))
}

/// `plans/flow.inkboard` → `plans/flow.png`.
fn png_beside(board: &std::path::Path) -> PathBuf {
    board.with_file_name(format!("{}.png", FileKind::stem(board)))
}

/// Prints a tool's answer as the MCP tool would give it.
fn print_reply(tool: &str, reply: Result<Reply, ToolError>) -> ExitCode {
    match reply {
        Ok(Reply::Json(value)) => {
            say_json(&value);
            // A non-atomic batch that stopped early answers normally but has failed.
            if tool == "batch" && value.get("failed").is_some() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Ok(Reply::Image { png, text, .. }) => {
            say(&format!("{text}\n({} bytes of PNG)", png.len()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            match e.data() {
                Some(data) => say_json(&data),
                None => tell(&format!("inkboard {tool}: {e}")),
            }
            ExitCode::from(1)
        }
    }
}

/// Flags not given become nulls in the JSON; tools treat absent and null alike,
/// but unknown-argument checks are clearer without them.
fn drop_nulls(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            Value::Object(map.into_iter().filter(|(_, v)| !v.is_null()).collect())
        }
        other => other,
    }
}

/// Prints a line to stdout, escape sequences and other characters that act on
/// a terminal written out (`echo::for_terminal`); a closed pipe (`inkboard ... |
/// head`) is not an error.
pub(crate) fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{}", echo::for_terminal(text));
}

/// Prints a line to stderr as [`say`] prints to stdout.
pub(crate) fn tell(text: &str) {
    eprintln!("{}", echo::for_terminal(text));
}

/// Prints JSON to stdout, pretty. serde_json writes C1 controls (a terminal's
/// CSI, U+009B), DEL and bidirectional controls as they are: these are written
/// as `\uXXXX` escapes instead, the same JSON value. They can only be in
/// strings, the only place outside which JSON has anything but ASCII.
fn say_json(value: &Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\n' && echo::garbles(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    say(&out);
}

/// `inkboard token [rotate]`: prints the token file's path, made (or replaced) first.
fn token(action: Option<TokenAction>) -> anyhow::Result<ExitCode> {
    use inkboard_app::token;
    let path = token::token_path()
        .context("there is no config folder to keep the token in: set HOME or XDG_CONFIG_HOME")?;
    match action {
        None => token::load_or_create(&path),
        Some(TokenAction::Rotate) => token::rotate(&path),
    }
    .with_context(|| format!("cannot use the token file {}", path.display()))?;
    say(&path.display().to_string());
    Ok(ExitCode::SUCCESS)
}
