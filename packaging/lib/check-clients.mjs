// Checks the client configurations in packaging/clients/: each has the shape its
// client documents (VS Code: `servers` with "type": "stdio"; Codex: TOML
// `[mcp_servers.NAME]`; the others: `mcpServers`), each starts inkboard and gets its
// tools when run the way the client runs it (command and args, no shell), and
// docs/clients.md shows each file as it is, so the documentation is what was tested.
//
//   node check-clients.mjs BINARY      BINARY stands in for `inkboard` on PATH and for
//                                      the absolute path in the Claude Desktop example
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { listTools } from "./mcp-stdio.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const clientsDir = join(here, "..", "clients");
const docs = readFileSync(join(here, "..", "..", "docs", "clients.md"), "utf8");
const binary = resolve(process.argv[2]);

// Where each client keeps its servers, by file name.
const shapes = {
  "claude-code.json": (doc) => doc.mcpServers?.inkboard,
  "claude-desktop.json": (doc) => doc.mcpServers?.inkboard,
  "vscode.json": (doc) => doc.servers?.inkboard?.type === "stdio" && doc.servers.inkboard,
  "cursor.json": (doc) => doc.mcpServers?.inkboard,
  "windsurf.json": (doc) => doc.mcpServers?.inkboard,
  "gemini.json": (doc) => doc.mcpServers?.inkboard,
  "codex.toml": (doc) => doc.mcp_servers?.inkboard,
};

const bin = mkdtempSync(join(tmpdir(), "inkboard-path-"));
symlinkSync(binary, join(bin, "inkboard"));
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
let failed = false;
const files = readdirSync(clientsDir).filter((name) => name.endsWith(".json") || name.endsWith(".toml"));
for (const name of Object.keys(shapes)) {
  if (!files.includes(name)) {
    console.error(`packaging/clients/${name} is missing`);
    failed = true;
  }
}
for (const name of files.filter((file) => file in shapes)) {
  const text = readFileSync(join(clientsDir, name), "utf8");
  try {
    const doc = name.endsWith(".toml")
      ? JSON.parse(
          execFileSync("python3", ["-c", "import json,sys,tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))"], {
            input: text,
          }),
        )
      : JSON.parse(text);
    const entry = shapes[name](doc);
    if (!entry) throw new Error("no inkboard server where this client looks for it");
    if (!docs.includes(text.trim())) throw new Error("docs/clients.md does not show this file as it is");
    // Absolute paths in examples (Claude Desktop) point at an install we do not have.
    const command = entry.command.startsWith("/") ? binary : entry.command;
    const { tools } = await listTools(command, entry.args ?? [], { ...env, ...(entry.env ?? {}) });
    if (tools.length === 0) throw new Error("the server lists no tools");
    console.log(`${name}: ${entry.command} ${(entry.args ?? []).join(" ")} -> ${tools.length} tools`);
  } catch (err) {
    console.error(`packaging/clients/${name}: ${err.message}`);
    failed = true;
  }
}
rmSync(bin, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
