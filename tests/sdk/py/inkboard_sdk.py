"""What the Python SDK suite shares: the binary, `inkboard open` for streamable HTTP,
the steps of ../cases.json (substitution, coverage) and the checks of one result.
The calls themselves go through the SDK's own `Client.call_tool`, which validates
structuredContent against the tool's outputSchema (see test_sdk.py)."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import png

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BIN = str((ROOT / os.environ.get("INKBOARD_BIN", "target/debug/inkboard")).resolve())
TAMPER = HERE.parent / "tamper.mjs"
NODE = shutil.which("node") or "node"
CASES: list[dict[str, Any]] = json.loads((HERE.parent / "cases.json").read_text())["steps"]


def server_env(folder: Path) -> dict[str, str]:
    """Environment of every inkboard process: a private runtime folder, quiet logs."""
    runtime = folder / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "INKBOARD_LOG"}
    env["INKBOARD_RUNTIME_DIR"] = str(runtime)
    return env


@dataclass
class App:
    """A running `inkboard open`: its /mcp address and the discovery file's token."""

    proc: subprocess.Popen[bytes]
    url: str
    token: str

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_app(folder: Path) -> App:
    """`inkboard open --no-browser --port 0 FILE` on a new board in `folder`."""
    env = server_env(folder)
    board = folder / "open.inkboard"
    board.write_text(
        json.dumps(
            {
                "format": "inkboard",
                "version": 1,
                "title": "Open",
                "revision": 1,
                "next_id": 1,
                "pages": [{"id": "p1", "name": "Page 1", "objects": []}],
            }
        )
    )
    proc = subprocess.Popen(
        [BIN, "open", "--no-browser", "--port", "0", str(board)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait(timeout=5)
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        raise RuntimeError(f"inkboard open exited ({proc.returncode}) before printing its address: {stderr}")
    found = json.loads((Path(env["INKBOARD_RUNTIME_DIR"]) / "app.json").read_text())
    return App(proc=proc, url=f"http://127.0.0.1:{found['port']}/mcp", token=found["token"])


def temp_dir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="inkboard-sdk-py-")


def substitute(value: Any, names: dict[str, str]) -> Any:
    """Replaces every `{NAME}` in the strings of `value` by `names[NAME]`."""
    if isinstance(value, str):

        def one(m: re.Match[str]) -> str:
            if m.group(1) not in names:
                raise KeyError(f"cases.json uses {{{m.group(1)}}} before a step binds it")
            return names[m.group(1)]

        return re.sub(r"\{([A-Za-z_]+)\}", one, value)
    if isinstance(value, list):
        return [substitute(v, names) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, names) for k, v in value.items()}
    return value


def pick(obj: Any, key: str) -> Any:
    """The value at a dotted key (`ids.0`) of `obj`."""
    for part in key.split("."):
        if isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            return None
    return obj


def steps_for(transport: str) -> list[dict[str, Any]]:
    """The steps of cases.json that run on `transport` ("stdio" or "http")."""
    return [s for s in CASES if s.get("only") in (None, transport)]


def uncovered(tool_names: list[str], transport: str) -> list[str]:
    """The tools that have no `ok` step or no `error` step on `transport`."""
    steps = steps_for(transport)
    return [
        f"{name} ({expect})"
        for name in tool_names
        for expect in ("ok", "error")
        if not any(s["tool"] == name and s["expect"] == expect for s in steps)
    ]


def check_png(data: str) -> tuple[int, int]:
    """Decodes a base64 PNG fully (every row); answers its size."""
    width, height, rows, _ = png.Reader(file=io.BytesIO(base64.b64decode(data))).read()
    assert sum(1 for _ in rows) == height, "the PNG has fewer rows than it says"
    assert width > 0 and height > 0, f"the PNG is {width}x{height}"
    return width, height
