// Arranging by mouse, checked on the server: the style panel's Order buttons (to
// front, forward, backward, to back) and its Duplicate button, and the right-click
// menu's six align items and two distribute items, each clicked with the mouse.
// What each did is read back from the server (MCP `read_board`: positions, and the
// page's z-order), and one Ctrl+Z puts the board back as it was.

import { before, beforeEach, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, dragBoard, clickBoard, clientOf, watch,
} from './lib.mjs';

const SHAPES = [
  { id: 's1', type: 'shape', x: 0, y: 0, w: 100, h: 60, text: 'A' },
  { id: 's2', type: 'shape', x: 200, y: 40, w: 100, h: 60, text: 'B' },
  { id: 's3', type: 'shape', x: 500, y: 100, w: 100, h: 60, text: 'C' },
];
/** Where the shapes start: id -> [x, y]. */
const START = Object.fromEntries(SHAPES.map((o) => [o.id, [o.x, o.y]]));

describe('arranging by mouse, as the server sees it', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;

  const { selected } = watch(() => page);

  /** The server's page: its objects by id and their z-order (back to front). */
  const server = async () => {
    const objects = (await mcp.call('read_board', {})).page.objects;
    return { byId: Object.fromEntries(objects.map((o) => [o.id, o])), order: objects.map((o) => o.id) };
  };
  /** Waits until the server's page passes `check({byId, order})`; answers it. */
  const serverIs = (check, what) => until(async () => {
    const b = await server();
    return check(b) && b;
  }, { what });
  const positions = (b) => Object.fromEntries(SHAPES.map((o) => [o.id, [b.byId[o.id]?.x, b.byId[o.id]?.y]]));
  const atStart = (b) => b.order.length === 3 && JSON.stringify(positions(b)) === JSON.stringify(START);
  /** One Ctrl+Z, and the board is back where it started. */
  const undoAll = async (what) => {
    await page.keyboard.press('Control+z');
    await serverIs((b) => atStart(b) && b.order.join() === 's1,s2,s3', `one Ctrl+Z undoes ${what}`);
  };

  const selectOne = async (id) => {
    await page.keyboard.press('Escape');
    const o = SHAPES.find((x) => x.id === id);
    await clickBoard(page, { x: o.x + o.w / 2, y: o.y + o.h / 2 });
    await selected([id], `${id} selected`);
  };
  const selectAllThree = async () => {
    await page.keyboard.press('Escape');
    await dragBoard(page, { x: -40, y: -40 }, { x: 640, y: 200 });
    await selected(['s1', 's2', 's3'], 'the three shapes');
  };
  /** Right-clicks board point p and clicks the menu item `testid` with the mouse. */
  const menu = async (p, testid) => {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('context-menu').waitFor();
    await page.getByTestId(testid).click();
    await page.getByTestId('context-menu').waitFor({ state: 'detached' });
  };

  before(async () => {
    s = await session({ objects: SHAPES, mcp: true });
    ({ page, mcp } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -100, zoom: 1 }));
  });

  // Each case starts from the board as written, whatever the one before left.
  beforeEach(async () => {
    const b = await server();
    if (atStart(b) && b.order.join() === 's1,s2,s3') return;
    const extra = b.order.filter((id) => !START[id]);
    const operations = extra.length ? [{ tool: 'delete', args: { ids: extra } }] : [];
    for (const [id, [x, y]] of Object.entries(START)) {
      operations.push({ tool: 'update', args: { id, x, y } }, { tool: 'order', args: { ids: [id], to: 'front' } });
    }
    await mcp.call('batch', { operations });
    await serverIs((x) => atStart(x) && x.order.join() === 's1,s2,s3', 'the board as written');
  });

  after(() => s?.close());

  for (const [id, to, want] of [
    ['s1', 'front', 's2,s3,s1'],
    ['s3', 'back', 's3,s1,s2'],
    ['s1', 'forward', 's2,s1,s3'],
    ['s3', 'backward', 's1,s3,s2'],
  ]) {
    it(`the panel's "${to}" order button moves ${id} in the server's z-order, one undo step`, async () => {
      await selectOne(id);
      await page.getByTestId(`order-${to}`).click();
      const b = await serverIs((x) => x.order.join() === want, `order ${want}`);
      assert.ok(atStart(b), 'nothing moved on the page');
      await until(async () => (await page.evaluate(() => [...document.querySelectorAll('[data-testid="objects"] > g[id]')].map((g) => g.id))).join() === want,
        { what: 'drawn in that order' });
      await undoAll(`order ${to}`);
    });
  }

  it("the panel's Duplicate button copies the selection 20 units down and right, one undo step", async () => {
    await selectOne('s2');
    await page.getByTestId('duplicate').click();
    const b = await serverIs((x) => x.order.length === 4, 'a copy on the server');
    const copy = b.byId[b.order[3]];
    assert.deepEqual([copy.x, copy.y, copy.w, copy.h, copy.text], [220, 60, 100, 60, 'B'], 'the copy of B, offset, on top');
    await selected([copy.id], 'the copy selected');
    await undoAll('the duplicate');

    await selectAllThree();
    await page.getByTestId('duplicate').click();
    const all = await serverIs((x) => x.order.length === 6, 'three copies');
    const copies = all.order.slice(3).map((i) => all.byId[i]);
    assert.deepEqual(copies.map((o) => [o.x, o.y, o.text]), [[20, 20, 'A'], [220, 60, 'B'], [520, 120, 'C']]);
    await undoAll('the three copies together');
  });

  // Joint bounds of the three: x 0..600 (centre 300), y 0..160 (middle 80).
  for (const [edge, want] of [
    ['left', { s1: [0, 0], s2: [0, 40], s3: [0, 100] }],
    ['center', { s1: [250, 0], s2: [250, 40], s3: [250, 100] }],
    ['right', { s1: [500, 0], s2: [500, 40], s3: [500, 100] }],
    ['top', { s1: [0, 0], s2: [200, 0], s3: [500, 0] }],
    ['middle', { s1: [0, 50], s2: [200, 50], s3: [500, 50] }],
    ['bottom', { s1: [0, 100], s2: [200, 100], s3: [500, 100] }],
  ]) {
    it(`the right-click menu's align ${edge} lines the selection up, one undo step`, async () => {
      await selectAllThree();
      await menu({ x: 250, y: 70 }, `menu-align-${edge}`);
      await serverIs((b) => JSON.stringify(positions(b)) === JSON.stringify(want), `aligned ${edge}: ${JSON.stringify(want)}`);
      await undoAll(`align ${edge}`);
    });
  }

  for (const [axis, want] of [
    ['horizontal', { s1: [0, 0], s2: [250, 40], s3: [500, 100] }],
    ['vertical', { s1: [0, 0], s2: [200, 50], s3: [500, 100] }],
  ]) {
    it(`the right-click menu's distribute ${axis} spaces the selection evenly, one undo step`, async () => {
      await selectAllThree();
      await menu({ x: 550, y: 130 }, `menu-distribute-${axis}`);
      await serverIs((b) => JSON.stringify(positions(b)) === JSON.stringify(want), `distributed ${axis}: ${JSON.stringify(want)}`);
      await undoAll(`distribute ${axis}`);
    });
  }

  it('the menu offers align only to two or more, distribute only to three or more', async () => {
    await selectOne('s1');
    const c = await clientOf(page, 50, 30);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('context-menu').waitFor();
    assert.equal(await page.getByTestId('menu-align-left').count(), 0);
    assert.equal(await page.getByTestId('menu-distribute-horizontal').count(), 0);
    await page.keyboard.press('Escape');
    await page.getByTestId('context-menu').waitFor({ state: 'detached' });
  });
});
