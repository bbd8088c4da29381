#!/usr/bin/env python3
"""Counts the vertices (edge labels left out) and edges of each page of the
draw.io corpus files, straight from their XML (inflating compressed pages), to
check the importer's counts in the .expect files against the source by a second,
independent reading. Usage: python3 count_drawio.py ../corpus/*.xml ../corpus/*.drawio"""
import base64, sys, urllib.parse, zlib, xml.etree.ElementTree as ET

def pages(path):
    root = ET.parse(path).getroot()
    if root.tag == "mxGraphModel":
        return [root]
    out = []
    for d in root.findall("diagram"):
        m = d.find("mxGraphModel")
        text = (d.text or "").strip()
        if m is None and text:
            m = ET.fromstring(urllib.parse.unquote(zlib.decompress(base64.b64decode(text), -15).decode()))
        out.append(m)
    return out

for path in sys.argv[1:]:
    for i, m in enumerate(pages(path), 1):
        if m is None:
            print(f"{path} page {i}: empty")
            continue
        cells = [(n.get("id"), n if n.tag == "mxCell" else n.find("mxCell")) for n in m.find("root")]
        by_id = dict(cells)
        edges = [c for _, c in cells if c.get("edge") == "1"]
        labels = lambda c: by_id.get(c.get("parent")) is not None and by_id[c.get("parent")].get("edge") == "1"
        verts = [c for _, c in cells if c.get("vertex") == "1" and not labels(c)]
        print(f"{path} page {i}: {len(verts)} vertices, {len(edges)} edges")
