// Starts an MCP server on stdio the way a client would (a command and its
// arguments, no shell), does the 2025-11-25 handshake and asks for tools/list.
// Used by packaging/check to prove that each documented client configuration,
// and the command inside the built .mcpb bundle, starts a working inkboard.
//
//   node mcp-stdio.mjs COMMAND [ARGS...]   prints {"server": ..., "tools": [...]} as JSON
import { spawn } from "node:child_process";

const TIMEOUT_MS = 20000;

export function listTools(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    let stderr = "";
    let server = null;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${command} ${args.join(" ")}: no tools/list answer in ${TIMEOUT_MS} ms; stderr: ${stderr}`));
    }, TIMEOUT_MS);
    const send = (message) => child.stdin.write(JSON.stringify(message) + "\n");
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`${command}: ${err.message}`));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited (${code}) before answering; stderr: ${stderr}`));
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!line) continue;
        const message = JSON.parse(line);
        if (message.error) {
          clearTimeout(timer);
          child.kill();
          reject(new Error(`${command}: ${JSON.stringify(message.error)}`));
        } else if (message.id === 1) {
          server = message.result.serverInfo;
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.removeAllListeners("exit");
          child.stdin.end();
          child.kill();
          resolve({ server, tools: message.result.tools });
        }
      }
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "inkboard-packaging-check", version: "0" },
      },
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...args] = process.argv.slice(2);
  listTools(command, args).then(
    (answer) => console.log(JSON.stringify(answer)),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
