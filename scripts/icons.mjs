// Makes crates/inkboard-icons/data/lucide.tsv, inkboard's icon table, from the
// lucide-static npm package: `npm pack lucide-static && tar xzf lucide-static-*.tgz
// && node scripts/icons.mjs package`. It keeps the icons data/curated.txt names (a
// trailing * adds the name's variants one word longer), turns each icon's elements
// (path, circle, ellipse, rect, line, polyline, polygon) into one SVG path in
// Lucide's 24x24 box, keeps its first tags and adds data/extra.tsv's aliases and
// tags. One line per name: name, the icon it draws (itself, or an alias's icon),
// tags joined by commas, path data; sorted by name, so a new version diffs by icon.
import fs from "node:fs";
import path from "node:path";

const pkg = process.argv[2];
if (!pkg) throw new Error("usage: node scripts/icons.mjs EXTRACTED_LUCIDE_STATIC_PACKAGE_DIR");
const here = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "crates", "inkboard-icons");
const nodes = JSON.parse(fs.readFileSync(path.join(pkg, "icon-nodes.json"), "utf8"));
const tags = JSON.parse(fs.readFileSync(path.join(pkg, "tags.json"), "utf8"));
const version = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;
// Lucide's own tags run to 30 a name; the first few are the telling ones.
const MAX_TAGS = 6;

const words = (file) =>
  fs.readFileSync(path.join(here, "data", file), "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));

const chosen = new Set();
for (const word of words("curated.txt").join(" ").split(/\s+/).filter(Boolean)) {
  const star = word.endsWith("*");
  const base = star ? word.slice(0, -1) : word;
  if (!nodes[base]) throw new Error(`lucide-static ${version} has no icon ${base}`);
  chosen.add(base);
  if (star) {
    const depth = base.split("-").length + 1;
    for (const name of Object.keys(nodes)) {
      if (name.startsWith(base + "-") && name.split("-").length === depth) chosen.add(name);
    }
  }
}

const n = (v) => Number(v);
const f = (v) => String(Math.round(v * 1000) / 1000);
function element([tag, a]) {
  switch (tag) {
    case "path":
      // A path's first move is absolute even when written `m` (and its
      // implicit pairs after it relative lines); joined after another element
      // it would read from that element's end, so it starts from the origin
      // (a lone move draws nothing).
      return /^\s*m/.test(a.d) ? `M0 0${a.d.trim()}` : a.d;
    case "circle":
    case "ellipse": {
      const rx = n(a.rx ?? a.r), ry = n(a.ry ?? a.r), cx = n(a.cx), cy = n(a.cy);
      return `M${f(cx - rx)} ${f(cy)}a${f(rx)} ${f(ry)} 0 1 0 ${f(2 * rx)} 0a${f(rx)} ${f(ry)} 0 1 0 ${f(-2 * rx)} 0Z`;
    }
    case "rect": {
      const x = n(a.x ?? 0), y = n(a.y ?? 0), w = n(a.width), h = n(a.height);
      const rx = Math.min(n(a.rx ?? a.ry ?? 0), w / 2), ry = Math.min(n(a.ry ?? a.rx ?? 0), h / 2);
      if (!rx || !ry) return `M${f(x)} ${f(y)}h${f(w)}v${f(h)}h${f(-w)}Z`;
      const arc = (dx, dy) => `a${f(rx)} ${f(ry)} 0 0 1 ${f(dx)} ${f(dy)}`;
      return `M${f(x + rx)} ${f(y)}h${f(w - 2 * rx)}${arc(rx, ry)}v${f(h - 2 * ry)}${arc(-rx, ry)}h${f(2 * rx - w)}${arc(-rx, -ry)}v${f(2 * ry - h)}${arc(rx, -ry)}Z`;
    }
    case "line":
      return `M${a.x1} ${a.y1}L${a.x2} ${a.y2}`;
    case "polyline":
    case "polygon": {
      const p = a.points.trim().split(/[\s,]+/);
      let d = `M${p[0]} ${p[1]}`;
      for (let i = 2; i + 1 < p.length; i += 2) d += `L${p[i]} ${p[i + 1]}`;
      return tag === "polygon" ? d + "Z" : d;
    }
    default:
      throw new Error(`an element this script cannot draw: ${tag}`);
  }
}

const rows = new Map();
for (const name of chosen) {
  rows.set(name, { icon: name, tags: (tags[name] ?? []).slice(0, MAX_TAGS), d: nodes[name].map(element).join("") });
}
for (const line of words("extra.tsv")) {
  const [what, a, b] = line.split("\t");
  if (what === "alias") {
    if (!rows.has(b)) throw new Error(`alias ${a} of ${b}, which is not chosen`);
    if (rows.has(a)) throw new Error(`alias ${a} is already a name`);
    rows.set(a, { icon: b, tags: [], d: "" });
  } else if (what === "tags") {
    if (!rows.has(a)) throw new Error(`tags for ${a}, which is not chosen`);
    const t = rows.get(a).tags;
    for (const tag of b.split(",")) if (!t.includes(tag)) t.push(tag);
  } else throw new Error(`unknown line in extra.tsv: ${line}`);
}
const clean = (s) => s.replace(/[\t\n,]/g, " ");
const out = [...rows.keys()].sort().map((name) => {
  const r = rows.get(name);
  return [name, r.icon, r.tags.map(clean).join(","), r.d].join("\t");
});
fs.writeFileSync(path.join(here, "data", "lucide.tsv"), `lucide-static\t${version}\n` + out.join("\n") + "\n");
fs.copyFileSync(path.join(pkg, "LICENSE"), path.join(here, "data", "LICENSE"));
console.log(`${chosen.size} icons, ${rows.size - chosen.size} aliases, lucide-static ${version}`);
