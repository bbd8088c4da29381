"""The benchmark's tables: per graph set and overall, each metric for inkboard
next to dot-ortho, dot-spline and ELK, and inkboard's crossings against dot-ortho's
and ELK's; with a baseline results file, inkboard's figures then and now.
"""

import math

TOOLS = ["inkboard", "dot-ortho", "dot-spline", "elk"]


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def median(values):
    v = sorted(values)
    if not v:
        return 0.0
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def summarise(rows):
    """Per tool, the metrics over the graphs every tool drew (so the columns
    compare the same drawings), and inkboard against dot-ortho and ELK."""
    ok = [r for r in rows if all("error" not in r["tools"].get(t, {"error": 1}) for t in TOOLS)]
    out = {"graphs": len(rows), "compared": len(ok), "tools": {}}
    for t in TOOLS:
        ms = [r["tools"][t] for r in ok]
        out["tools"][t] = {
            "crossings": sum(m["crossings"] for m in ms),
            "overlap": round(sum(m["overlap"] for m in ms), 1),
            "shared_ports": sum(m["shared_ports"] for m in ms),
            "close_ports": sum(m.get("close_ports", 0) for m in ms),
            "near_parallel": round(sum(m.get("near_parallel", 0.0) for m in ms), 1),
            "side_entries": sum(m["side_entries"] for m in ms),
            "bends": round(sum(m["bends"] for m in ms), 1),
            "area_geomean": round(geomean([m["area"] for m in ms]), 1),
            "aspect_median": round(median([m["aspect"] for m in ms]), 3),
        }
    for other in ("dot-ortho", "elk"):
        pairs = [(r["tools"]["inkboard"]["crossings"], r["tools"][other]["crossings"]) for r in ok]
        le = sum(1 for a, b in pairs if a <= b)
        out[f"vs_{other}"] = {
            "crossings_le": le,
            "crossings_le_share": round(le / len(pairs), 3) if pairs else 0.0,
            "crossings_ratio_geomean": round(geomean([(a + 1) / (b + 1) for a, b in pairs]), 3) if pairs else 0.0,
            "crossings_more": sum(1 for a, b in pairs if a > b),
        }
    # Issue 13: no crossings wherever dot or ELK draws none.
    out["crossing_where_others_do_not"] = [
        r["name"] for r in ok
        if r["tools"]["inkboard"]["crossings"] > 0
        and min(r["tools"][t]["crossings"] for t in ("dot-ortho", "elk")) == 0
    ]
    return out


def fmt_num(v):
    if isinstance(v, float) and not v.is_integer():
        # Whole px and bends from 100 up: tenths there only widen the columns.
        if abs(v) >= 100:
            return f"{v:,.0f}"
        return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return f"{int(v):,}"


def print_summary(title, s):
    print(f"\n== {title}: {s['compared']} graphs compared" + (f" ({s['graphs'] - s['compared']} with a failed drawing left out)" if s["graphs"] != s["compared"] else ""))
    labels = [
        ("crossings", "crossings (sum)"), ("overlap", "overlap px (sum)"),
        ("near_parallel", "parallel < 8 px, px"), ("shared_ports", "shared ports (sum)"),
        ("close_ports", "ports < 8 px apart"), ("side_entries", "side entries (sum)"),
        ("bends", "bends (sum)"), ("area_geomean", "area px² (geo mean)"),
        ("aspect_median", "aspect w/h (median)"),
    ]
    print(f"  {'metric':<24}" + "".join(f"{t:>13}" for t in TOOLS))
    for key, label in labels:
        if key == "area_geomean":
            vals = [f"{s['tools'][t][key] / 1000:,.0f}k" for t in TOOLS]
        else:
            vals = [fmt_num(s["tools"][t][key]) for t in TOOLS]
        print(f"  {label:<24}" + "".join(f"{v:>13}" for v in vals))
    for other in ("dot-ortho", "elk"):
        v = s[f"vs_{other}"]
        n = s["compared"]
        print(f"  inkboard crossings <= {other}: {v['crossings_le']}/{n} graphs ({100 * v['crossings_le_share']:.0f}%),"
              f" more on {v['crossings_more']}; geo mean of (ink+1)/({other}+1): {100 * v['crossings_ratio_geomean']:.0f}%")
    names = s["crossing_where_others_do_not"]
    if names:
        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        print(f"  inkboard crosses where dot-ortho or elk does not, on {len(names)}: {shown}")


def print_graphs(rows):
    """A line per graph: crossings and overlap for every tool, then inkboard's
    shared ports, side entries and bends (dot-ortho's and ELK's after a slash)."""
    print(f"\n  {'graph':<20}{'n':>4}{'m':>5}  {'crossings':<22}{'overlap px':<24}{'ports':<9}{'sides':<12}bends")
    print(f"  {'':<29}  {'ink/ortho/spline/elk':<22}{'ink/ortho/spline/elk':<24}{'ink/elk':<9}{'ink/ortho':<12}ink/ortho")
    for r in rows:
        t = r["tools"]

        def cell(tool, key):
            m = t.get(tool, {})
            return "err" if "error" in m or key not in m else fmt_num(m[key])
        c = "/".join(cell(x, "crossings") for x in TOOLS)
        o = "/".join(cell(x, "overlap") for x in TOOLS)
        p = f"{cell('inkboard', 'shared_ports')}/{cell('elk', 'shared_ports')}"
        sd = f"{cell('inkboard', 'side_entries')}/{cell('dot-ortho', 'side_entries')}"
        b = f"{cell('inkboard', 'bends')}/{cell('dot-ortho', 'bends')}"
        print(f"  {r['name'][:20]:<20}{r['nodes']:>4}{r['edges']:>5}  {c:<22}{o:<24}{p:<9}{sd:<12}{b}")
        for tool in TOOLS:
            if "error" in t.get(tool, {}):
                print(f"      {tool}: " + " | ".join(t[tool]["error"].splitlines()))


def print_compare(base_rows, rows, sets):
    """inkboard's figures in a baseline results file against this run's, on the
    same graphs (those of this run that the baseline also has), per set and
    overall: what a branch changed."""
    names = {r["name"] for r in base_rows}
    rows = [r for r in rows if r["name"] in names]
    by_name = {r["name"]: r for r in base_rows}
    parts = [(s, [r for r in rows if r["set"] == s]) for s in sets]
    parts = [(s, p) for s, p in parts if p]
    if len(parts) > 1:
        parts.append(("overall", rows))
    print("\n== inkboard: baseline -> this run (the same graphs)")
    sums = [(summarise([by_name[r["name"]] for r in part]), summarise(part)) for _, part in parts]
    print(f"  {'metric':<20}" + "".join(f"{s:>24}" for s, _ in parts))
    keys = [("crossings", "crossings"), ("overlap", "overlap px"), ("near_parallel", "parallel < 8 px"),
            ("shared_ports", "shared ports"), ("close_ports", "ports < 8 px"),
            ("side_entries", "side entries"), ("bends", "bends")]
    for k, label in keys:
        cells = [f"{fmt_num(t['tools']['inkboard'][k])} -> {fmt_num(n['tools']['inkboard'][k])}" for t, n in sums]
        print(f"  {label:<20}" + "".join(f"{c:>24}" for c in cells))
    cells = [f"{t['vs_dot-ortho']['crossings_le']} -> {n['vs_dot-ortho']['crossings_le']} of {n['compared']}" for t, n in sums]
    print(f"  {'<= dot-ortho':<20}" + "".join(f"{c:>24}" for c in cells))
    cells = [f"{100 * t['vs_dot-ortho']['crossings_ratio_geomean']:.0f}% -> {100 * n['vs_dot-ortho']['crossings_ratio_geomean']:.0f}%" for t, n in sums]
    print(f"  {'geo mean vs ortho':<20}" + "".join(f"{c:>24}" for c in cells))
    changed = []
    for r in rows:
        a = by_name[r["name"]]["tools"]["inkboard"]
        b = r["tools"]["inkboard"]
        if "error" in a or "error" in b:
            if ("error" in a) != ("error" in b):
                changed.append(f"{r['name']}: {'fails now' if 'error' in b else 'drawn now'}")
            continue
        if a["crossings"] != b["crossings"] or abs(a["overlap"] - b["overlap"]) > 0.5:
            changed.append(f"{r['name']} {a['crossings']}->{b['crossings']} ({a['overlap']:.0f}->{b['overlap']:.0f} px)")
    if changed:
        print(f"  crossings (overlap) changed on {len(changed)} graphs: " + ", ".join(changed))
