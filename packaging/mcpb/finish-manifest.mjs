// Writes the manifest that goes inside the bundle: packaging/mcpb/manifest.json
// plus what only the built binary knows. The tool list comes from the binary's own
// tools/list (so it is never written twice), the platform from the machine that
// built it (a bundle holds one native binary), and the binary must report the
// manifest's version, so a version bump cannot leave the bundle behind.
//
//   node finish-manifest.mjs MANIFEST BINARY > bundle/manifest.json
import { readFileSync } from "node:fs";
import { listTools } from "../lib/mcp-stdio.mjs";

const [manifestPath, binary] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const { server, tools } = await listTools(binary, manifest.server.mcp_config.args);
if (server.version !== manifest.version) {
  console.error(
    `${binary} reports version ${server.version} but ${manifestPath} says ${manifest.version}: ` +
      `set "version" in the manifest to the crate's version.`,
  );
  process.exit(1);
}
// The first sentence is what Claude Desktop has room to show beside each tool.
const firstSentence = (text) => (text ?? "").split(/(?<=\.)\s/)[0];
manifest.tools = tools.map((tool) => ({ name: tool.name, description: firstSentence(tool.description) }));
manifest.compatibility = { ...manifest.compatibility, platforms: [process.platform] };
process.stdout.write(JSON.stringify(manifest, null, 2) + "\n");
