#!/usr/bin/env python3
"""Writes the draw.io corpus files made for the tests (see ../corpus/SOURCES.md)
from the hand-written XML beside this script, compressing and wrapping them the
way draw.io does: a page as base64(deflate-raw(encodeURIComponent(xml))), an SVG
with the mxfile in its root's `content` attribute, a PNG with a `tEXt` chunk
`mxfile` holding encodeURIComponent(mxfile). Run from anywhere; Python 3 only."""
import base64, html, os, struct, urllib.parse, zlib

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "corpus")

def uri(s):  # JavaScript's encodeURIComponent
    return urllib.parse.quote(s, safe="-_.!~*'()")

def compress(xml):
    d = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(d.compress(uri(xml).encode()) + d.flush()).decode()

def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

def png(w, h, rgb, extra):
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    for t, d in extra:
        out += chunk(t, d)
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

read = lambda n: open(os.path.join(here, n), encoding="utf-8").read()
page = read("compressed-page.xml").strip()
features = read("features.drawio.xml").replace("COMPRESSED", compress(page))
open(os.path.join(corpus, "made-features.drawio"), "w", encoding="utf-8").write(features)
open(os.path.join(corpus, "made-bare-model.xml"), "w", encoding="utf-8").write(page + "\n")

mxfile = '<mxfile host="inkboard-tests"><diagram id="p" name="Flow">%s</diagram></mxfile>' % compress(page)
svg = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
       '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="121px" height="181px" '
       'viewBox="-0.5 -0.5 121 181" content="%s"><defs/><g>'
       '<ellipse cx="60" cy="30" rx="60" ry="30" fill="#d5e8d4" stroke="#000"/></g></svg>\n') % html.escape(mxfile, quote=True)
open(os.path.join(corpus, "made-flow.drawio.svg"), "w", encoding="utf-8").write(svg)
open(os.path.join(corpus, "made-flow.drawio.png"), "wb").write(
    png(4, 4, (213, 232, 212), [(b"tEXt", b"mxfile\x00" + uri(mxfile).encode())]))
