// A connector's bends and label dragged by hand (web/select/bends.js): a selected
// orthogonal connector shows a handle on each leg; dragging one moves the leg
// across itself and the route, redrawn by the server, stays square through the
// new waypoints; its label (by its handle or its text) slides along the line; each drag is
// one `update`, undone by one Ctrl+Z; a double-click on a leg handle and "Reset
// route" in the right-click menu give the route back to the router. Real mouse
// events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, clientOf, objectsOf } from './lib.mjs';

describe('connector bends and labels', { timeout: 120000 }, () => {
  let s;
  let page;

  const connector = async () => (await objectsOf(page)).c3;
  const waitFor = (fn, what) => until(async () => fn(await connector()), { what });

  /** The corners of c3's line as drawn (its first path). */
  const drawn = () => page.evaluate(() => {
    const d = document.querySelector('g[id="c3"] path').getAttribute('d');
    const n = d.match(/-?[\d.]+/g).map(Number);
    const out = [];
    for (let i = 0; i + 1 < n.length; i += 2) out.push({ x: n[i], y: n[i + 1] });
    return out;
  });

  const square = (pts) => pts.every((p, i) => i === 0
    || Math.abs(p.x - pts[i - 1].x) < 0.01 || Math.abs(p.y - pts[i - 1].y) < 0.01);

  /** The centre of the element with test id `id`, in client pixels. */
  async function centreOf(id) {
    const b = await page.getByTestId(id).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }

  async function drag(from, to) {
    await page.mouse.move(from.x, from.y, { steps: 2 });
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 10 });
    await page.mouse.up();
  }

  /** Selects c3 by clicking a point a third of the way along its line. */
  async function selectConnector() {
    const p = await page.evaluate(() => {
      const path = document.querySelector('g[id="c3"] path');
      const q = path.getPointAtLength(path.getTotalLength() / 3);
      return { x: q.x, y: q.y };
    });
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y);
    // A leg too short for a handle has none: wait for any.
    await page.locator('[data-handle^="seg:"]').first().waitFor();
  }

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'From' },
        { id: 's2', type: 'shape', x: 400, y: 200, w: 120, h: 60, text: 'To' },
        { id: 'c3', type: 'connector', from: 's1', to: 's2', text: 'yes' },
        { id: 's4', type: 'shape', x: 0, y: 400, w: 120, h: 60, text: 'A' },
        { id: 's5', type: 'shape', x: 400, y: 400, w: 120, h: 60, text: 'B' },
        { id: 'c6', type: 'connector', from: 's4', to: 's5', route: 'straight' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('dragging a leg moves it across itself; the route stays square through the waypoints', async () => {
    await selectConnector();
    const before = await drawn();
    assert.ok(square(before), JSON.stringify(before));
    // The longest leg, as the test picks it: a vertical one moves sideways.
    const legs = before.slice(1).map((p, i) => ({ i, len: Math.hypot(p.x - before[i].x, p.y - before[i].y) }));
    const { i } = legs.reduce((a, b) => (b.len > a.len ? b : a));
    const [a, b] = [before[i], before[i + 1]];
    const vertical = Math.abs(a.x - b.x) < 0.01;
    const from = await centreOf(`handle-seg-${i}`);
    const to = vertical ? { x: from.x + 40, y: from.y + 15 } : { x: from.x + 15, y: from.y + 40 };
    await drag(from, to);
    const c = await waitFor((c) => c.waypoints?.length && c, 'waypoints');
    // The moved leg is 40 px over (the drag along it does nothing).
    const moved = vertical ? a.x + 40 : a.y + 40;
    const at = (p) => (vertical ? p[0] : p[1]);
    assert.ok(c.waypoints.some((p) => Math.abs(at(p) - moved) < 0.5), JSON.stringify(c.waypoints));
    const after = await until(async () => {
      const pts = await drawn();
      return JSON.stringify(pts) !== JSON.stringify(before) && pts;
    }, { what: 'the route redrawn' });
    assert.ok(square(after), JSON.stringify(after));
    for (const [x, y] of c.waypoints) {
      const on = after.some((p, k) => k > 0 && (
        (Math.abs(p.x - x) < 0.01 && Math.abs(after[k - 1].x - x) < 0.01
          && y >= Math.min(p.y, after[k - 1].y) - 0.01 && y <= Math.max(p.y, after[k - 1].y) + 0.01)
        || (Math.abs(p.y - y) < 0.01 && Math.abs(after[k - 1].y - y) < 0.01
          && x >= Math.min(p.x, after[k - 1].x) - 0.01 && x <= Math.max(p.x, after[k - 1].x) + 0.01)));
      assert.ok(on, `waypoint ${x},${y} on ${JSON.stringify(after)}`);
    }
  });

  it('the label slides along the line; one Ctrl+Z undoes the slide, another the bend', async () => {
    await page.getByTestId('handle-label').waitFor();
    // Near the end of the line: past 80% of its length.
    // The handle sits beside the label; it is held that far from the point the
    // label goes to.
    const { target, held } = await page.evaluate(() => {
      const path = document.querySelector('g[id="c3"] path');
      const q = path.getPointAtLength(path.getTotalLength() * 0.9);
      const texts = [...document.querySelectorAll('g[id="c3"] text')].map((t) => t.getBBox());
      const x = (Math.min(...texts.map((b) => b.x)) + Math.max(...texts.map((b) => b.x + b.width))) / 2;
      const y = (Math.min(...texts.map((b) => b.y)) + Math.max(...texts.map((b) => b.y + b.height))) / 2;
      const h = document.querySelector('[data-testid="handle-label"]').getBBox();
      return { target: { x: q.x, y: q.y }, held: { x: h.x + h.width / 2 - x, y: h.y + h.height / 2 - y } };
    });
    await drag(await centreOf('handle-label'), await clientOf(page, target.x + held.x, target.y + held.y));
    const c = await waitFor((c) => c.label_at !== undefined && c, 'a label place');
    assert.ok(c.label_at > 0.8 && c.label_at <= 1, `label_at ${c.label_at}`);
    assert.ok(c.waypoints?.length, 'the bends stay');
    // Drawn there: the label's middle is near the point 90% along the line.
    const shown = await page.evaluate(() => {
      const texts = [...document.querySelectorAll('g[id="c3"] text')].map((t) => t.getBBox());
      const x0 = Math.min(...texts.map((b) => b.x));
      return {
        x: (x0 + Math.max(...texts.map((b) => b.x + b.width))) / 2,
        y: (Math.min(...texts.map((b) => b.y)) + Math.max(...texts.map((b) => b.y + b.height))) / 2,
        x0,
      };
    });
    assert.ok(Math.hypot(shown.x - target.x, shown.y - target.y) < 40, `label drawn at ${JSON.stringify(shown)}, not near ${JSON.stringify(target)}`);

    // The label's text itself drags too, back towards the middle of the line
    // (pressed by its first letters: a leg's handle, over its middle, wins there).
    const mid = await page.evaluate(() => {
      const path = document.querySelector('g[id="c3"] path');
      const q = path.getPointAtLength(path.getTotalLength() * 0.4);
      return { x: q.x, y: q.y };
    });
    await drag(await clientOf(page, shown.x0 + 3, shown.y), await clientOf(page, mid.x, mid.y));
    const slid = await waitFor((c) => c.label_at < 0.6 && c, 'the label dragged by its text');
    assert.ok(slid.label_at > 0.2, `label_at ${slid.label_at}`);
    await page.keyboard.press('Control+z');
    await waitFor((c) => c.label_at > 0.8, 'that slide undone');
    await page.keyboard.press('Control+z');
    const undone = await waitFor((c) => c.label_at === undefined && c, 'the label slide undone');
    assert.ok(undone.waypoints?.length, 'only the slide is undone');
    await page.keyboard.press('Control+z');
    await waitFor((c) => c.waypoints === undefined, 'the bend undone');
  });

  it('a double-click on a leg handle and "Reset route" give the route back', async () => {
    await page.keyboard.press('Control+Shift+z');
    await waitFor((c) => c.waypoints?.length, 'the bend redone');
    await selectConnector();
    const b = await page.locator('[data-handle^="seg:"]').first().boundingBox();
    await page.mouse.dblclick(b.x + b.width / 2, b.y + b.height / 2);
    await waitFor((c) => c.waypoints === undefined, 'reset by double-click');
    await page.keyboard.press('Control+z');
    await waitFor((c) => c.waypoints?.length, 'the bend back');
    await selectConnector();
    const p = await page.evaluate(() => {
      const path = document.querySelector('g[id="c3"] path');
      const q = path.getPointAtLength(path.getTotalLength() / 3);
      return { x: q.x, y: q.y };
    });
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('menu-reset-route').click();
    await waitFor((c) => c.waypoints === undefined && c.label_at === undefined, 'reset from the menu');
  });

  it('a straight connector gets a bend from the middle of a stretch, and the bend moves', async () => {
    const line = () => page.evaluate(() => document.querySelector('g[id="c6"] path').getAttribute('d'));
    const c = await clientOf(page, 200, 430);
    await page.mouse.click(c.x, c.y);
    await page.getByTestId('handle-add-0').waitFor();
    await drag(await centreOf('handle-add-0'), await clientOf(page, 260, 480));
    const bent = await until(async () => (await objectsOf(page)).c6.waypoints, { what: 'a bend' });
    assert.deepEqual(bent, [[260, 480]]);
    await until(async () => (await line()).includes('L260 480'), { what: 'the line through the bend' });
    await page.getByTestId('handle-bend-0').waitFor();
    await drag(await centreOf('handle-bend-0'), await clientOf(page, 300, 490));
    await until(async () => JSON.stringify((await objectsOf(page)).c6.waypoints) === '[[300,490]]', { what: 'the bend moved' });
  });

  it('copy and paste carries the bends, moved with the copy', async () => {
    const click = async (p, shift) => {
      const c = await clientOf(page, p.x, p.y);
      if (shift) await page.keyboard.down('Shift');
      await page.mouse.click(c.x, c.y);
      if (shift) await page.keyboard.up('Shift');
    };
    await click({ x: 60, y: 430 });
    await click({ x: 460, y: 430 }, true);
    const onLine = await page.evaluate(() => {
      const path = document.querySelector('g[id="c6"] path');
      const q = path.getPointAtLength(path.getTotalLength() / 4);
      return { x: q.x, y: q.y };
    });
    await click(onLine, true);
    await until(async () => (await page.evaluate(() => window.inkboard.selection())).length === 3, { what: 'three selected' });
    const before = new Set(Object.keys(await objectsOf(page)));
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    const fresh = await until(async () => {
      const o = Object.values(await objectsOf(page)).filter((x) => !before.has(x.id));
      return o.length === 3 && o;
    }, { what: 'the pasted copy' });
    const a = fresh.find((x) => x.text === 'A');
    const c = fresh.find((x) => x.type === 'connector');
    const [dx, dy] = [a.x - 0, a.y - 400];
    assert.deepEqual(c.waypoints, [[300 + dx, 490 + dy]]);
  });
});
