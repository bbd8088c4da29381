#!/usr/bin/env python3
"""Writes the attack files of issue 29 into ../hostile/ (see bounds.rs): small
files whose naive import costs gigabytes or minutes. Each is a real attack, not
a stand-in: imported without the bounds, the entity files abort the process.
Run from anywhere; Python 3 only."""
import base64, html, os, struct, urllib.parse, zlib

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "hostile")

def uri(s):  # JavaScript's encodeURIComponent
    return urllib.parse.quote(s, safe="-_.!~*'()")

def compress(xml):  # draw.io's compressed page
    d = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(d.compress(uri(xml).encode()) + d.flush()).decode()

def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

def png(extra):  # one white pixel, then the given chunks
    o = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    o += chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff"))
    for t, d in extra:
        o += chunk(t, d)
    return o + chunk(b"IEND", b"")

def write(name, data):
    data = data if isinstance(data, bytes) else data.encode()
    open(os.path.join(out, name), "wb").write(data)
    print(f"{name}: {len(data)} bytes")

def model(cells):
    return ('<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>%s'
            '</root></mxGraphModel>') % cells

def shape(value, style=""):
    return ('<mxCell id="2" parent="1" vertex="1" style="%s" value="%s">'
            '<mxGeometry width="300" height="60" as="geometry"/></mxCell>') % (style, value)

# Nested entities: each &b; is 250 &a; of 10,000 bytes, used 2,600 times: 6.5 GB.
bomb = ('<!DOCTYPE m [<!ENTITY a "%s"><!ENTITY b "%s">]>' % ("A" * 10000, "&a;" * 250)
        + model(shape("&b;" * 2600)))
mxfile = '<mxfile><diagram name="p">%s</diagram></mxfile>'
write("entities-page.drawio", mxfile % compress(bomb))
# The same as the whole diagram of a PNG: compressed zTXt, and compressed iTXt.
write("entities-ztxt.drawio.png", png([(b"zTXt", b"mxfile\x00\x00" + zlib.compress(bomb.encode(), 9))]))
write("entities-itxt.drawio.png", png([(b"iTXt", b"mxfile\x00\x01\x00\x00\x00" + zlib.compress(bomb.encode(), 9))]))
# A PNG whose mxfile holds the bomb as an (escaped, uncompressed) page.
write("entities-page-ztxt.drawio.png", png([(b"zTXt", b"mxfile\x00\x00" + zlib.compress((mxfile % html.escape(bomb)).encode(), 9))]))
# An SVG declaring the entities itself, and one whose embedded diagram does.
svg_bomb = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "%s"><!ENTITY b "%s">]>'
            '<svg xmlns="http://www.w3.org/2000/svg" content="&lt;mxfile/&gt;"><desc>%s</desc></svg>'
            ) % ("A" * 2000, "&a;" * 250, "&b;" * 4000)
write("entities.drawio.svg", svg_bomb)
small_bomb = ('<!DOCTYPE m [<!ENTITY a "%s"><!ENTITY b "%s">]>' % ("A" * 2000, "&a;" * 250)
              + model(shape("&b;" * 4000)))
write("entities-content.drawio.svg",
      '<svg xmlns="http://www.w3.org/2000/svg" content="%s"></svg>' % html.escape(small_bomb, quote=True))
# An HTML label of a million '<' (99 s before), compressed.
write("million-lt.drawio", mxfile % compress(model(shape("&lt;" * 1000000, "html=1"))))
# A one-label file: 25,000 '*' in a 300x60 shape (its import is quick; its render stalled).
write("stars.drawio", mxfile % compress(model(shape("*" * 25000))))
