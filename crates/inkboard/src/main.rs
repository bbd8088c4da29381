//! The `inkboard` binary: the command line, the MCP server on stdio, and (with the
//! application issue) the local editor. Every command runs the same tool engine
//! from `inkboard-tools`; nothing here implements an operation of its own.

mod admin;
mod cli;
mod forward;
mod mcp;
mod mcpapp;
mod open;
mod serve;
mod served_mcp;
mod stdio;
mod transfer;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            cli::tell(&format!("inkboard: {e:#}"));
            std::process::ExitCode::from(2)
        }
    }
}
