// chat/context.js: what the person did in the chat view and what they selected, said in
// one short sentence for the model's context ("the person moved s3 and s4 and
// selected the frame 'Backend'"). Board text is quoted as data, shortened, and only
// ever sent as text.

const VERBS = {
  move: 'moved', update: 'changed', delete: 'deleted', add_shape: 'added', add_connector: 'connected',
  add_ink: 'drew', add_image: 'added the image', duplicate: 'duplicated', group: 'grouped', ungroup: 'ungrouped',
  order: 'reordered', align: 'aligned', distribute: 'spaced out', add_page: 'added a page',
  rename_page: 'renamed a page', delete_page: 'deleted a page', batch: 'edited', undo: 'undid a step',
  redo: 'redid a step',
};

/** Some text of the board, quoted and shortened to a few words. */
function quote(text) {
  const t = String(text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 40 ? `'${t.slice(0, 39)}…'` : `'${t}'`;
}

/** An object in words: "the frame 'Backend' (s2)", "connector c7", "s3". */
export function describe(id, objects) {
  const o = objects.get(id);
  if (!o) return id;
  const text = o.text ?? o.label;
  if (o.type === 'connector') return text ? `the connector ${quote(text)} (${id})` : `connector ${id}`;
  if (o.type === 'group') return `group ${id}`;
  if (o.type === 'shape') {
    const kind = o.geom === 'frame' ? 'frame' : o.geom === 'note' ? 'note' : o.geom === 'text' ? 'text' : 'shape';
    return text ? `the ${kind} ${quote(text)} (${id})` : `${kind} ${id}`;
  }
  return `${o.type} ${id}`;
}

function list(items) {
  if (items.length <= 1) return items.join('');
  if (items.length > 6) return `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The ids an edit touched: those it was given, or those it made. */
function touched(e) {
  const a = e.args ?? {};
  const ids = [...(a.ids ?? []), ...(a.id ? [a.id] : [])];
  const r = e.result ?? {};
  if (!ids.length && r.id) ids.push(r.id);
  if (!ids.length && Array.isArray(r.ids)) ids.push(...r.ids);
  return ids.map(String);
}

/** The sentence: each kind of edit once, with the objects it touched, then the selection. */
export function summary(edits, selection, objects, board) {
  const byVerb = new Map();
  for (const e of edits) {
    let verb = VERBS[e.tool] ?? `used ${e.tool} on`;
    if (e.tool === 'update' && e.args?.text !== undefined) verb = 'changed the text of';
    else if (e.tool === 'update') verb = 'restyled';
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    const ids = byVerb.get(verb);
    for (const id of touched(e)) if (!ids.includes(id)) ids.push(id);
  }
  const parts = [];
  for (const [verb, ids] of byVerb) parts.push(ids.length ? `${verb} ${list(ids)}` : verb);
  if (selection.length) parts.push(`selected ${list(selection.map((id) => describe(id, objects)))}`);
  else if (parts.length) parts.push('selected nothing');
  const where = board?.path ? ` in the inkboard view of ${board.path}` : ' in the inkboard view';
  const rev = board?.revision != null ? ` (now at revision ${board.revision}; board_changes lists each change)` : '';
  if (!parts.length) return `The person${where} has changed nothing and selected nothing${rev}.`;
  return `The person${where} ${list(parts)}${rev}.`;
}
