// Excalidraw: each page of the fixture board exported as `.excalidraw` is opened
// by Excalidraw's own code (the npm package @excalidraw/excalidraw: loadFromBlob,
// which runs restore) in Chromium. Every element must come through restore as
// written (type, box, text, container, bindings both ways, frame, groups, image
// file, freedraw points), Excalidraw's own SVG export must show every text, and
// what its serializeAsJSON writes, imported back by `inkboard import`, must hold
// the same objects, texts and connections as the page.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FIXTURE, describe, shown, excalidrawScript, exportBoard, importFile, keep, launch, readBoard, serve, tempDir } from './lib.mjs';

let browser, server, page, dir;

before(async () => {
  dir = tempDir();
  server = await serve({ pages: { '/': '<!doctype html><html><body></body></html>' } });
  browser = await launch();
  page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.base + '/');
  await page.addScriptTag({ content: await excalidrawScript() });
  assert.equal(typeof (await page.evaluate(() => typeof window.Excalidraw.restore)), 'string');
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What restore must keep of an element, in words (ids included: they are the bindings). */
function essentials(e, files) {
  const box = (v) => Math.round(v * 100) / 100;
  const out = {
    id: e.id,
    type: e.type,
    deleted: e.isDeleted,
    groupIds: e.groupIds,
    frameId: e.frameId ?? null,
    bound: (e.boundElements ?? []).map((b) => `${b.type}:${b.id}`).sort(),
  };
  if (e.type !== 'text') Object.assign(out, { x: box(e.x), y: box(e.y), w: box(e.width), h: box(e.height) });
  if (e.type === 'text') {
    Object.assign(out, { text: e.originalText, containerId: e.containerId ?? null, source: e.customData?.inkboard?.text ?? null });
  }
  if (e.type === 'frame') out.name = e.name;
  if (e.type === 'arrow') {
    Object.assign(out, {
      start: e.startBinding?.elementId ?? null,
      end: e.endBinding?.elementId ?? null,
      heads: [e.startArrowhead, e.endArrowhead],
      points: e.points.map(([x, y]) => [box(x), box(y)]),
    });
  }
  if (e.type === 'freedraw') out.points = e.points.map(([x, y]) => [box(x), box(y)]);
  if (e.type === 'image') out.file = files?.[e.fileId]?.dataURL ?? null;
  if (e.customData) out.customData = e.customData;
  return out;
}

const board = readBoard(FIXTURE);

for (const [i, boardPage] of board.pages.entries()) {
  test(`Excalidraw opens page ${i + 1} (${boardPage.name}) and its own file imports back the same`, async () => {
    const file = path.join(dir, `page-${i + 1}.excalidraw`);
    const text = exportBoard(FIXTURE, file, i + 1);
    const written = JSON.parse(text);

    const opened = await page.evaluate(async (text) => {
      const E = window.Excalidraw;
      const scene = await E.loadFromBlob(new Blob([text], { type: 'application/json' }), null, null);
      const svg = await E.exportToSvg({
        elements: scene.elements,
        appState: { ...scene.appState, exportBackground: true },
        files: scene.files,
      });
      return {
        elements: scene.elements,
        files: scene.files,
        svgText: svg.textContent.replace(/\s+/g, ' '),
        svgImages: svg.querySelectorAll('image').length,
        json: E.serializeAsJSON(scene.elements, scene.appState, scene.files, 'local'),
      };
    }, text);

    // Every element came through restore as it was written, nothing added.
    const before = written.elements.map((e) => essentials(e, written.files));
    const after = opened.elements.map((e) => essentials(e, opened.files));
    assert.deepEqual(after, before);

    // What the page holds, as Excalidraw sees it.
    const kinds = (t) => opened.elements.filter((e) => e.type === t).length;
    const count = (t) => boardPage.objects.filter((o) => o.type === t).length;
    assert.equal(kinds('arrow'), count('connector'));
    assert.equal(kinds('freedraw'), count('ink'));
    assert.equal(kinds('image'), count('image'));
    assert.equal(kinds('frame'), boardPage.objects.filter((o) => o.geom === 'frame').length);
    const byId = new Map(opened.elements.map((e) => [e.id, e]));
    for (const o of boardPage.objects) {
      if (o.type === 'connector') {
        const a = byId.get(o.id);
        for (const [key, end] of [['startBinding', o.from], ['endBinding', o.to]]) {
          if (typeof end === 'string') {
            assert.equal(a[key]?.elementId, end, `${o.id} ${key}`);
            assert.ok(byId.get(end).boundElements.some((b) => b.id === o.id), `${end} lists ${o.id}`);
          } else {
            assert.equal(a[key], null, `${o.id} ${key} is free`);
          }
        }
      }
      if (o.text && o.geom !== 'frame') {
        const label = opened.elements.find((e) => e.type === 'text' && (e.id === o.id || e.containerId === o.id));
        assert.equal(label?.originalText, shown(o), `${o.id}'s text`);
        // Rich text travels as its source in customData, through Excalidraw's restore.
        assert.equal(label?.customData?.inkboard?.text ?? null, shown(o) === o.text ? null : o.text, `${o.id}'s rich source`);
        for (const line of shown(o).split('\n')) assert.ok(opened.svgText.includes(line), `the SVG shows ${line}`);
      }
    }
    assert.equal(opened.svgImages, count('image'), 'the SVG draws each image');

    // Excalidraw's own file, imported back: the same drawing.
    keep(`inkboard-fixture-${i + 1}.excalidraw`, opened.json);
    const back = path.join(dir, `back-${i + 1}.excalidraw`);
    writeFileSync(back, opened.json);
    const { board: imported, lost } = importFile(back, path.join(dir, `back-${i + 1}.inkboard`));
    assert.equal(imported.pages.length, 1);
    assert.deepEqual(describe(imported.pages[0]), describe(boardPage));
    assert.equal(lost, '', 'nothing reported lost');
  });
}
