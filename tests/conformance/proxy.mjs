// A forwarding proxy that lets the MCP conformance suite, which cannot send a
// token, reach inkboard's /mcp. It listens on 127.0.0.1 only, on a port of its
// own, and passes every request and answer through unchanged (streamed, so SSE
// arrives as the app sends it) except for two things a proxy on another port
// must do:
//
// - it adds `Authorization: Bearer TOKEN` (the discovery file's token) when the
//   request carries no Authorization header of its own;
// - in `Host` and `Origin`, a loopback name with the proxy's port
//   (`127.0.0.1:P`, `localhost:P`, `[::1]:P`) becomes the same name with the
//   app's port. Any other value (a rebinding site's `evil.example.com`, a
//   foreign origin) goes through verbatim, so the app's own Host/Origin checks
//   are what the suite sees; the proxy never makes a foreign value into an
//   accepted one.
//
// Headers are forwarded from the raw list, so a repeated header stays repeated
// (the app refuses a repeated Host; merging it here would hide that). Only the
// hop-by-hop headers of each connection are dropped, as any HTTP proxy does.
//
// Usage: INKBOARD_PORT=app-port INKBOARD_TOKEN=token node proxy.mjs PORT_FILE
// It writes its own port to PORT_FILE once it listens, and stops on SIGTERM.
import http from 'node:http';
import { writeFileSync, renameSync } from 'node:fs';

const appPort = Number(process.env.INKBOARD_PORT);
const token = process.env.INKBOARD_TOKEN ?? '';
const portFile = process.argv[2];
if (!Number.isInteger(appPort) || appPort <= 0 || !/^[0-9a-f]+$/.test(token) || !portFile) {
  console.error('usage: INKBOARD_PORT=PORT INKBOARD_TOKEN=HEX node proxy.mjs PORT_FILE');
  process.exit(2);
}

// Headers that belong to one connection (RFC 9110 §7.6.1), not to the request.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

let ownPort = 0;

/** `NAME:ownPort` with a loopback NAME becomes `NAME:appPort`; else unchanged. */
function toApp(hostPort) {
  for (const name of LOOPBACK) {
    if (hostPort.toLowerCase() === `${name}:${ownPort}`) return `${name}:${appPort}`;
  }
  return hostPort;
}

function forwardHeaders(raw) {
  const out = [];
  let authorized = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    let value = raw[i + 1];
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === 'host') value = toApp(value);
    if (lower === 'origin' && value.startsWith('http://')) {
      value = `http://${toApp(value.slice('http://'.length))}`;
    }
    if (lower === 'authorization') authorized = true;
    out.push(name, value);
  }
  if (!authorized) out.push('Authorization', `Bearer ${token}`);
  return out;
}

function responseHeaders(raw) {
  const out = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

const server = http.createServer((req, res) => {
  const upstream = http.request({
    host: '127.0.0.1',
    port: appPort,
    method: req.method,
    path: req.url,
    headers: forwardHeaders(req.rawHeaders),
    // The Host header is the client's (translated above), never one made up here.
    setHost: false,
    agent: false,
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode, answer.statusMessage, responseHeaders(answer.rawHeaders));
    // Sent at once: an SSE stream's headers must not wait for its first event.
    res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on('error', (e) => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`conformance proxy: the inkboard app did not answer: ${e.message}\n`);
    } else {
      res.destroy(e);
    }
  });
  // A client that goes away (a closed SSE stream) closes the app's side too.
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
});

server.listen(0, '127.0.0.1', () => {
  ownPort = server.address().port;
  writeFileSync(`${portFile}.tmp`, `${ownPort}\n`);
  renameSync(`${portFile}.tmp`, portFile);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
