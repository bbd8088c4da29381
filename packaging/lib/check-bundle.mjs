// Starts the server inside an unpacked .mcpb bundle exactly as its manifest tells
// Claude Desktop to (`${__dirname}` is the bundle's folder), and checks that it
// answers tools/list with the tools the manifest lists.
//
//   node check-bundle.mjs UNPACKED_DIR
import { readFileSync } from "node:fs";
import { listTools } from "./mcp-stdio.mjs";

const dir = process.argv[2];
const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8"));
const { command, args = [] } = manifest.server.mcp_config;
const expand = (text) => text.replaceAll("${__dirname}", dir);
const { server, tools } = await listTools(expand(command), args.map(expand));
const got = tools.map((tool) => tool.name).sort();
const listed = (manifest.tools ?? []).map((tool) => tool.name).sort();
if (got.length === 0 || JSON.stringify(got) !== JSON.stringify(listed)) {
  console.error(`the bundle's server lists ${JSON.stringify(got)}, its manifest ${JSON.stringify(listed)}`);
  process.exit(1);
}
console.log(`bundle: ${server.name} ${server.version} started from ${command}, ${got.length} tools, as its manifest lists`);
