"""inkboard driven by the official Python SDK (PyPI `mcp`, pinned in
requirements.txt) over stdio and streamable HTTP, in both protocol eras: the
2025-11-25 handshake (mode="legacy") and the stateless 2026-07-28 era (mode="auto":
the SDK asks `server/discover` and must settle on 2026-07-28). Every step of
../cases.json goes through `Client.call_tool`, i.e. `ClientSession.call_tool`, which
validates structuredContent against the tool's outputSchema and raises when it is
missing or does not match: such a refusal fails the test. So does a warning the SDK
logs about the server (e.g. a session termination it counts as failed)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

from inkboard_sdk import BIN, NODE, TAMPER, check_png, pick, server_env, start_app, steps_for, substitute, temp_dir, uncovered

pytestmark = pytest.mark.anyio

ERAS = {"2025-11-25": "legacy", "2026-07-28": "auto"}
# The longest one session may take: a hung server fails its test instead of the run.
TIMEOUT = 120
# The diagrams `import` reads: `{corpus}` in cases.json.
CORPUS = Path(__file__).resolve().parents[3] / "crates" / "inkboard-interop" / "tests" / "corpus"


def test_the_sdk_speaks_both_eras() -> None:
    assert LATEST_HANDSHAKE_VERSION == "2025-11-25"
    assert LATEST_MODERN_VERSION == "2026-07-28"


async def play(client: Client, transport: str, folder: Path) -> list[str]:
    """Plays the steps for `transport`; answers one line per failed step."""
    names: dict[str, str] = {"dir": str(folder), "corpus": str(CORPUS)}
    failures: list[str] = []
    for i, step in enumerate(steps_for(transport)):
        label = f"#{i} {step['tool']} {step['expect']}" + (f" ({step['only']})" if step.get("only") else "")
        try:
            problem = await play_one(client, step, names)
        except Exception as e:  # a refusal by the SDK, or a step that could not be built
            problem = f"the SDK refused the call: {type(e).__name__}: {e}"
        if problem:
            failures.append(f"{label}: {problem}")
    return failures


async def play_one(client: Client, step: dict[str, Any], names: dict[str, str]) -> str | None:
    """One step: None if it went as cases.json says, else what went wrong."""
    args = substitute(step.get("args", {}), names)
    says = step.get("says")
    if step["expect"] == "protocol_error":
        try:
            result = await client.call_tool(step["tool"], args)
        except MCPError as e:
            if e.code != -32602:
                return f"expected JSON-RPC error -32602, got {e.code}: {e}"
            if says and says not in e.error.message:
                return f'the error does not say "{says}": {e.error.message}'
            return None
        return f"expected a JSON-RPC error, got a result: {result}"
    result = await client.call_tool(step["tool"], args)
    text = "\n".join(c.text for c in result.content if c.type == "text")
    if step["expect"] == "error":
        if result.is_error is not True:
            return f"expected isError: true, got {result}"
        if not text.strip():
            return "the tool error carries no text"
        if says and says not in text:
            return f'the error does not say "{says}": {text}'
        return None
    if result.is_error:
        return f"expected success, got the tool error: {text}"
    if step.get("image"):
        images = [c for c in result.content if c.type == "image"]
        if len(images) != 1 or images[0].mime_type != "image/png":
            return f"expected one image/png block, got {[c.type for c in result.content]}"
        check_png(images[0].data)
    for name, key in step.get("bind", {}).items():
        value = pick(result.structured_content, key)
        if not isinstance(value, str):
            return f"structuredContent has no string at {key}: {result.structured_content}"
        names[name] = value
    return None


@dataclass
class Session:
    """What one session saw; checked after the client is closed, so that a failure
    reads plainly instead of inside the transport's task group."""

    version: str = ""
    server_name: str | None = None
    tool_names: list[str] = field(default_factory=list)
    without_output_schema: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def run_session(server: Any, era: str, transport: str, folder: Path) -> Session:
    seen = Session()
    async with Client(server, mode=ERAS[era]) as client:
        seen.version = client.protocol_version
        seen.server_name = client.server_info.name if client.server_info else None
        listed = await client.list_tools()
        seen.tool_names = [t.name for t in listed.tools]
        seen.without_output_schema = [t.name for t in listed.tools if t.output_schema is None]
        if not uncovered(seen.tool_names, transport):
            seen.failures = await play(client, transport, folder)
    return seen


@pytest.mark.parametrize("era", list(ERAS))
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_every_tool(transport: str, era: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="mcp")
    with temp_dir() as name, anyio.fail_after(TIMEOUT):
        folder = Path(name)
        app = start_app(folder) if transport == "http" else None
        try:
            if app is None:
                seen = await run_session(
                    StdioServerParameters(command=BIN, args=["mcp"], env=server_env(folder)), era, transport, folder
                )
            else:
                headers = {"Authorization": f"Bearer {app.token}"}
                async with create_mcp_http_client(headers=headers) as http:
                    seen = await run_session(streamable_http_client(app.url, http_client=http), era, transport, folder)
        finally:
            if app is not None:
                app.stop()
    assert seen.version == era, "the negotiated protocol version"
    assert seen.server_name == "inkboard"
    assert len(seen.tool_names) >= 26, seen.tool_names
    assert seen.without_output_schema == [], "tools without an outputSchema"
    assert uncovered(seen.tool_names, transport) == [], "tools without a valid or an invalid call in cases.json"
    assert seen.failures == [], "\n".join(seen.failures)
    warnings = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [], f"the SDK logged warnings about the server: {warnings}"


REFUSALS = {
    "strip": "Tool create_board has an output schema but did not return structured content",
    "mismatch": "Invalid structured content returned by tool create_board",
}


@pytest.mark.parametrize("tamper", list(REFUSALS))
@pytest.mark.parametrize("era", list(ERAS))
async def test_the_sdk_refuses_a_result_off_its_schema(era: str, tamper: str) -> None:
    """The suite is only worth something if the SDK really refuses a bad result: behind
    ../tamper.mjs (a stdio proxy that strips or spoils structuredContent), call_tool
    must raise the SDK's own schema error."""
    with temp_dir() as name, anyio.fail_after(TIMEOUT):
        folder = Path(name)
        server = StdioServerParameters(command=NODE, args=[str(TAMPER), tamper, BIN, "mcp"], env=server_env(folder))
        async with Client(server, mode=ERAS[era]) as client:
            assert client.protocol_version == era
            await client.list_tools()
            with pytest.raises(RuntimeError, match=REFUSALS[tamper]):
                await client.call_tool("create_board", {"path": str(folder / "a.inkboard")})
