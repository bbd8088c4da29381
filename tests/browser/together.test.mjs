// Undo of one's own and conflicts on a shared board (issue 34, items 4 and 5): TWO
// `inkboard serve` processes over ONE PostgreSQL, ann and bob on process A in separate
// browser contexts (so one process's history holds both their steps), ann's agent over
// HTTP MCP on process B (so her undo must take a step made on another process). With real mouse and keyboard
// events: ann's Ctrl+Z takes back her own drag, never bob's later one; her agent's batch is
// one step of hers, which bob's Ctrl+Z leaves alone; when bob moved her shape since, her
// undo keeps his position, takes back the rest of her step and says what it kept; two
// people changing one shape at once keep both changes, property by property; a shape one
// deletes stays deleted when the other's change to it comes later.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launch, until, dragBoard, clickBoard } from './lib.mjs';
import { pgBin, startCluster, admin, serve, HttpMcp, personAt } from './team.mjs';

/** The object `id` as `page` has it, or undefined. */
const objectOn = (page, id) => page.evaluate((i) => window.inkboard.objects()[i], id);

/** Waits until `page` shows object `id` with `fn(object)` true (or gone, for `fn(undefined)`). */
async function waitObject(page, id, fn, what) {
  await until(async () => fn(await objectOn(page, id)), { what, ms: 10000 });
}

const bin = pgBin();

describe('undo of one\'s own and conflicts, two processes on one PostgreSQL', { timeout: 240000, skip: bin ? false : 'PostgreSQL is not installed' }, () => {
  let cluster;
  let a;
  let b;
  let browser;
  let board;
  let agent;
  let ann;
  let bob;
  let s1;
  let s2;

  before(async () => {
    cluster = startCluster(bin);
    const db = cluster.url;
    for (const name of ['ann', 'bob']) admin(db, 'add-user', name);
    const token = admin(db, 'token', 'ann');
    a = await serve(db);
    b = await serve(db);
    agent = await new HttpMcp(b.url, token).connect();
    board = (await agent.call('create_board', { title: 'Undo of one\'s own' })).board;
    s1 = (await agent.call('add_shape', { board, x: 0, y: 0, w: 160, h: 80, text: 'Mine' })).id;
    s2 = (await agent.call('add_shape', { board, x: 0, y: 300, w: 160, h: 80, text: 'Bob\'s' })).id;
    admin(db, 'share', board, 'bob', 'editor');
    browser = await launch();
    ann = await personAt(browser, db, a, 'ann', board);
    bob = await personAt(browser, db, a, 'bob', board);
  });

  after(async () => {
    await browser?.close();
    await a?.stop();
    await b?.stop();
    cluster?.stop();
  });

  let moved; // where ann's drag put her shape

  it('Ctrl+Z takes back my last drag, not the later drag of someone else', async () => {
    await dragBoard(ann.page, { x: 80, y: 40 }, { x: 280, y: 40 });
    await waitObject(ann.page, s1, (o) => o?.x > 150, 'ann\'s drag');
    moved = (await objectOn(ann.page, s1)).x;
    await waitObject(bob.page, s1, (o) => o?.x === moved, 'ann\'s drag seen on bob\'s page');
    await dragBoard(bob.page, { x: 80, y: 340 }, { x: 80, y: 440 });
    await waitObject(bob.page, s2, (o) => o?.y > 350, 'bob\'s drag');
    const bobs = (await objectOn(bob.page, s2)).y;
    await waitObject(ann.page, s2, (o) => o?.y === bobs, 'bob\'s drag seen on ann\'s page');
    await ann.page.keyboard.press('Escape');
    await ann.page.keyboard.press('Control+z');
    for (const who of [ann, bob]) {
      await waitObject(who.page, s1, (o) => o?.x === 0, 'ann\'s drag taken back');
    }
    assert.equal((await objectOn(ann.page, s2)).y, bobs, 'bob\'s later drag stays');
    // Ctrl+Shift+Z does it again.
    await ann.page.keyboard.press('Control+Shift+z');
    await waitObject(bob.page, s1, (o) => o?.x === moved, 'ann\'s drag done again');
  });

  it('my agent\'s batch is one step of mine; someone else\'s Ctrl+Z leaves it', async () => {
    const made = await agent.call('batch', {
      board,
      operations: [
        { tool: 'add_shape', args: { x: 600, y: 0, w: 100, h: 50, text: 'A1' } },
        { tool: 'add_shape', args: { x: 600, y: 100, w: 100, h: 50, text: 'A2' } },
      ],
    });
    const ids = made.results.map((r) => r.id);
    assert.equal(ids.length, 2, JSON.stringify(made));
    for (const who of [ann, bob]) {
      await waitObject(who.page, ids[1], (o) => o?.text === 'A2', 'the agent\'s shapes drawn');
    }
    // Bob's own last step is his drag: his Ctrl+Z takes that back, not the agent's shapes.
    await bob.page.keyboard.press('Escape');
    await bob.page.keyboard.press('Control+z');
    await waitObject(ann.page, s2, (o) => o?.y === 300, 'bob\'s drag taken back');
    assert.ok(await objectOn(bob.page, ids[0]), 'the agent\'s shapes stay after bob\'s undo');
    // Ann's Ctrl+Z takes back her agent's batch, both shapes, in one step.
    await ann.page.keyboard.press('Control+z');
    for (const id of ids) await waitObject(bob.page, id, (o) => o === undefined, 'the batch taken back');
    assert.equal((await objectOn(ann.page, s1)).x, moved, 'ann\'s earlier drag is a step of its own');
  });

  it('what someone changed since stays, the rest of my step goes back, and I am told', async () => {
    // Ann's agent gives her shape a fill and a new place, in one call (hers).
    await agent.call('update', { board, id: s1, fill: '#ffcdd2', x: moved + 40, y: 20 });
    await waitObject(bob.page, s1, (o) => o?.y === 20 && o?.fill === '#ffcdd2', 'ann\'s change on bob\'s page');
    // Bob then drags the same shape straight down: its y is his now, its x still hers.
    await dragBoard(bob.page, { x: moved + 120, y: 60 }, { x: moved + 120, y: 160 });
    await waitObject(bob.page, s1, (o) => o?.y > 60, 'bob\'s drag');
    const bobs = (await objectOn(bob.page, s1)).y;
    await waitObject(ann.page, s1, (o) => o?.y === bobs, 'bob\'s drag on ann\'s page');
    await ann.page.keyboard.press('Control+z');
    await waitObject(bob.page, s1, (o) => o && o.fill !== '#ffcdd2', 'ann\'s fill taken back');
    const now = await objectOn(ann.page, s1);
    assert.deepEqual([now.x, now.y], [moved, bobs], 'her x goes back, his y stays');
    const note = ann.page.getByTestId('status-note');
    await until(async () => /Undone, except: "Mine" \([a-z0-9]+\): y changed since by someone else/.test(await note.textContent()), {
      what: 'the note saying what was kept',
    });
  });

  it('two people changing one shape at once keep both changes, property by property', async () => {
    // Bob drags while ann's agent recolours: neither change undoes the other.
    const from = { x: moved + 80, y: (await objectOn(bob.page, s1)).y + 40 };
    const drag = dragBoard(bob.page, from, { x: from.x + 100, y: from.y }, { steps: 20 });
    await agent.call('update', { board, id: s1, fill: '#c8e6c9' });
    await drag;
    for (const who of [ann, bob]) {
      await waitObject(who.page, s1, (o) => o?.x > moved + 50 && o?.fill === '#c8e6c9', 'both changes on each page');
    }
    assert.deepEqual(await objectOn(ann.page, s1), await objectOn(bob.page, s1), 'both pages show the same shape');
  });

  it('a shape deleted by one stays deleted when another\'s change to it comes later', async () => {
    const o = await objectOn(bob.page, s1);
    await clickBoard(bob.page, { x: o.x + 80, y: o.y + 40 });
    await until(async () => (await bob.page.evaluate(() => window.inkboard.selection())).includes(s1), { what: 'bob selects' });
    await bob.page.keyboard.press('Delete');
    await waitObject(ann.page, s1, (o) => o === undefined, 'deleted on ann\'s page');
    await assert.rejects(agent.call('update', { board, id: s1, fill: '#000000' }), new RegExp(s1));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await objectOn(bob.page, s1), undefined, 'still deleted');
  });
});
