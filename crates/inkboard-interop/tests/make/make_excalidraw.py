import json
dot = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGOQ63gKRAwQCgAoJgYtPxbTHgAAAABJRU5ErkJggg=="
def el(id, type, x, y, w, h, **kw):
    e = {"id": id, "type": type, "x": x, "y": y, "width": w, "height": h, "angle": 0,
         "strokeColor": "#1e1e1e", "backgroundColor": "transparent", "fillStyle": "solid",
         "strokeWidth": 2, "strokeStyle": "solid", "roughness": 1, "opacity": 100,
         "groupIds": [], "frameId": None, "roundness": None, "seed": 1, "version": 1,
         "versionNonce": 1, "isDeleted": False, "boundElements": [], "updated": 1, "link": None, "locked": False}
    e.update(kw)
    return e
def text(id, x, y, w, h, t, **kw):
    d = dict(text=t, originalText=t, fontSize=20, fontFamily=5, textAlign="center",
             verticalAlign="middle", containerId=None, lineHeight=1.25)
    d.update(kw)
    return el(id, "text", x, y, w, h, **d)
def arrow(id, x, y, pts, type="arrow", **kw):
    xs = [p[0] for p in pts]; ys = [p[1] for p in pts]
    d = dict(points=pts, startBinding=None, endBinding=None, startArrowhead=None, endArrowhead="arrow", elbowed=False)
    d.update(kw)
    return el(id, type, x, y, max(xs)-min(xs), max(ys)-min(ys), **d)

els = [
  el("frame1", "frame", 0, 0, 900, 520, name="Overview"),
  el("box", "rectangle", 40, 60, 160, 80, backgroundColor="#a5d8ff", roundness={"type": 3},
     boundElements=[{"type": "text", "id": "box-label"}, {"type": "arrow", "id": "a1"}], frameId="frame1"),
  text("box-label", 70, 85, 100, 25, "Rounded box", containerId="box", strokeColor="#1971c2", frameId="frame1"),
  el("circle", "ellipse", 320, 60, 120, 120, backgroundColor="#ffc9c9", fillStyle="hachure", frameId="frame1"),
  el("choice", "diamond", 560, 50, 140, 140, strokeStyle="dashed", opacity=60, frameId="frame1",
     boundElements=[{"type": "text", "id": "choice-label"}]),
  text("choice-label", 590, 108, 80, 25, "Yes or no?", containerId="choice", frameId="frame1"),
  arrow("a1", 200, 100, [[0, 0], [120, 20]], startBinding={"elementId": "box", "focus": 0, "gap": 1},
        endBinding={"elementId": "circle", "focus": 0, "gap": 1}, boundElements=[{"type": "text", "id": "a1-label"}], frameId="frame1"),
  text("a1-label", 240, 100, 40, 25, "calls", containerId="a1", frameId="frame1"),
  arrow("a2", 440, 120, [[0, 0], [60, 80], [140, 0]], roundness={"type": 2},
        startBinding={"elementId": "circle", "focus": 0, "gap": 1}, endBinding={"elementId": "choice-label", "fixedPoint": [0.5, 1], "mode": "orbit"},
        startArrowhead="dot", endArrowhead="triangle", frameId="frame1"),
  arrow("elbow", 100, 140, [[0, 0], [0, 100], [200, 100]], elbowed=True, startBinding={"elementId": "box", "focus": 0, "gap": 1},
        endArrowhead="crowfoot_many", frameId="frame1"),
  arrow("line2", 40, 300, [[0, 0], [200, 0]], type="line", endArrowhead=None, strokeStyle="dotted", frameId="frame1"),
  arrow("zigzag", 40, 360, [[0, 0], [40, 40], [80, 0], [120, 40]], type="line", endArrowhead=None, frameId="frame1"),
  el("scribble", "freedraw", 300, 300, 60, 30, points=[[0, 0], [10, 5], [20, 15], [40, 20], [60, 30]], pressures=[], simulatePressure=True, strokeColor="#2f9e44", frameId="frame1"),
  el("photo", "image", 420, 300, 64, 64, fileId="file-dot", status="saved", scale=[1, 1], frameId="frame1"),
  el("lost-photo", "image", 520, 300, 64, 64, fileId="file-missing", status="pending", scale=[1, 1], frameId="frame1"),
  text("free-text", 40, 440, 220, 50, "Free text\non two lines", textAlign="left", verticalAlign="top", fontSize=16, frameId="frame1"),
  el("tilted", "rectangle", 620, 300, 120, 60, angle=0.5, link="https://example.com", frameId="frame1"),
  el("g1a", "rectangle", 40, 560, 80, 40, groupIds=["inner", "outer"]),
  el("g1b", "ellipse", 140, 560, 80, 40, groupIds=["inner", "outer"]),
  el("g2", "diamond", 240, 560, 60, 60, groupIds=["outer"]),
  el("gone", "rectangle", 400, 560, 80, 40, isDeleted=True),
  el("web", "embeddable", 520, 560, 160, 90, link="https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
  arrow("dangling", 700, 600, [[0, 0], [80, 0]], endBinding={"elementId": "gone", "focus": 0, "gap": 1}),
  el("data", "rectangle", 800, 560, 60, 40, customData={"owner": "ada"}),
]
doc = {"type": "excalidraw", "version": 2, "source": "inkboard-tests", "elements": els,
       "appState": {"gridSize": 20, "viewBackgroundColor": "#ffffff"},
       "files": {"file-dot": {"mimeType": "image/png", "id": "file-dot", "dataURL": dot, "created": 1}}}
open("made-features.excalidraw", "w").write(json.dumps(doc, indent=1) + "\n")
