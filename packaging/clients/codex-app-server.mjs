// Drives Codex's own MCP client without a model: starts `codex app-server`
// (Codex's JSON-RPC interface for IDEs, on stdio), asks it for the status of the
// configured MCP servers (Codex starts each one and lists its tools), then opens a
// thread and has Codex call one inkboard tool. `codex mcp list` only prints the
// configuration, so this is how the Codex trial proves the connection.
//
//   node codex-app-server.mjs BOARD_PATH     prints what Codex saw, exit 1 if anything failed
import { spawn } from "node:child_process";

const board = process.argv[2];
// Starting a thread makes Codex warm up a connection to its model provider; a
// provider on a closed loopback port keeps that attempt on this machine.
const loopbackProvider = [
  "-c", 'model_provider="loopback"',
  "-c", 'model_providers.loopback={ name = "loopback", base_url = "http://127.0.0.1:9/v1", wire_api = "responses" }',
];
const child = spawn("codex", ["app-server", ...loopbackProvider], { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.on("data", (chunk) => (stderr += chunk));
const pending = new Map();
let nextId = 1;
let buffer = "";
child.stdout.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (!line) continue;
    const message = JSON.parse(line);
    if (message.id !== undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    }
  }
});
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    child.stdin.write(JSON.stringify({ id, method, params }) + "\n");
  });
const timer = setTimeout(() => {
  console.error(`codex app-server: no answer in 60 s\n${stderr}`);
  process.exit(1);
}, 60000);

try {
  await request("initialize", { clientInfo: { name: "inkboard-try-clients", version: "0" } });
  child.stdin.write(JSON.stringify({ method: "initialized" }) + "\n");
  const status = await request("mcpServerStatus/list", {});
  const inkboard = status.data.find((server) => server.name === "inkboard");
  if (!inkboard) throw new Error(`Codex lists no inkboard server: ${JSON.stringify(status)}`);
  const tools = Object.keys(inkboard.tools ?? {});
  if (tools.length === 0) throw new Error(`Codex got no tools from inkboard: ${inkboard.toolsError ?? "none listed"}`);
  console.log(`codex mcpServerStatus/list: inkboard, ${tools.length} tools (${tools.slice(0, 4).join(", ")}, ...)`);
  const thread = await request("thread/start", { ephemeral: true });
  const result = await request("mcpServer/tool/call", {
    threadId: thread.thread.id,
    server: "inkboard",
    tool: "create_board",
    arguments: { path: board },
  });
  console.log(`codex mcpServer/tool/call create_board: ${JSON.stringify(result).slice(0, 300)}`);
  if (result.isError) throw new Error("the tool call failed");
} catch (err) {
  console.error(`codex app-server: ${err.message}\n${stderr}`);
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
  child.kill();
}
