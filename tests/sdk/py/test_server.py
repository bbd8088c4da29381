"""Server mode (`inkboard serve`) driven by the official Python SDK over streamable
HTTP with bearer tokens, in both protocol eras; the SDK checks every result against
its output schema.

- roles: list_boards, create_board, a batch with a `$N.key` reference, a viewer's
  refused writes naming the role they need;
- not found: a stranger is answered for someone else's board exactly as for a
  missing one, by reading and writing tools alike, never "forbidden";
- hostile requests: no token and a wrong one (the SDK cannot connect; 401 with
  `WWW-Authenticate: Bearer`), another site's Origin, board ids made to break out,
  failed token checks rate limited (429 with Retry-After);
- two `serve` processes on one PostgreSQL database (../pg-cluster): each sees
  the other's writes, writers on both at once all land;
- `kill -9` of a process mid-write (one of two on PostgreSQL, the one on SQLite):
  its clients fail at once, nothing acknowledged is lost, the revisions have no
  gap, and the process restarted on the same database and port takes writes."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from inkboard_sdk import BIN, temp_dir

pytestmark = pytest.mark.anyio

ERAS = {"2025-11-25": "legacy", "2026-07-28": "auto"}
PG_CLUSTER = Path(__file__).resolve().parent.parent / "pg-cluster"
WRONG = "ink_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


class Server:
    """A running `inkboard serve` on `place` (`--data DIR` or `--database URL`)."""

    def __init__(self, place: list[str], listen: str = "127.0.0.1:0") -> None:
        self.place = place
        self.proc = subprocess.Popen([BIN, "serve", *place, "--listen", listen], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)

    def kill(self) -> None:
        """SIGKILL: the process ends wherever it is."""
        self.proc.kill()
        self.proc.wait(timeout=10)


def admin(place: list[str], *args: str) -> str:
    """`inkboard admin PLACE ARGS…`: its last line."""
    out = subprocess.run([BIN, "admin", *place, *args], check=True, capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


def text(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def session(server: Server, token: str, era: str, body):
    """Runs `body(client)` in one SDK session as `token`'s holder."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with create_mcp_http_client(headers=headers) as http:
        async with Client(streamable_http_client(server.url + "/mcp", http_client=http), mode=ERAS[era]) as client:
            assert client.protocol_version == era
            await client.list_tools()
            return await body(client)


async def made_board(client: Client, title: str) -> str:
    made = await client.call_tool("create_board", {"title": title})
    assert not made.is_error, text(made)
    board = made.structured_content["board"]
    done = await client.call_tool("batch", {"board": board, "operations": [
        {"tool": "add_shape", "args": {"text": "A"}},
        {"tool": "add_shape", "args": {"text": "B"}},
        {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}},
    ]})
    assert not done.is_error, text(done)
    assert done.structured_content["applied"] == 3
    return board


async def refused(client: Client, tool: str, args: dict) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error is True, f"{tool} {args} should fail: {text(result)}"
    return text(result)


@pytest.mark.parametrize("era", list(ERAS))
async def test_server_mode(era: str) -> None:
    with temp_dir() as name, anyio.fail_after(120):
        place = ["--data", name]
        server = Server(place)
        try:
            tokens = {}
            for person in ["ann", "bob", "cid"]:
                admin(place, "add-user", person)
                tokens[person] = admin(place, "token", person)

            async def as_ann(client: Client):
                board = await made_board(client, "Team plan")
                listed = await client.call_tool("list_boards", {})
                assert [(b["board"], b["role"]) for b in listed.structured_content["boards"]] == [(board, "owner")]
                return board

            board = await session(server, tokens["ann"], era, as_ann)
            admin(place, "share", board, "bob", "viewer")

            async def as_bob(client: Client):
                read = await client.call_tool("read_board", {"board": board})
                assert len(read.structured_content["page"]["objects"]) == 3
                for tool, args in [
                    ("add_shape", {"board": board, "text": "no"}),
                    ("batch", {"board": board, "operations": [{"tool": "add_shape", "args": {}}]}),
                    ("rename_board", {"board": board, "title": "Mine now"}),
                ]:
                    assert "needs the editor role on this board" in await refused(client, tool, args), tool
                again = await client.call_tool("read_board", {"board": board})
                assert again.structured_content["revision"] == 1, "the viewer wrote nothing"

            await session(server, tokens["bob"], era, as_bob)

            async def as_cid(client: Client):
                for tool, extra in [
                    ("read_board", {}),
                    ("add_shape", {"text": "x"}),
                    ("batch", {"operations": [{"tool": "add_shape", "args": {}}]}),
                    ("export", {"format": "svg"}),
                ]:
                    hidden = await refused(client, tool, {"board": board, **extra})
                    missing = await refused(client, tool, {"board": "nosuchboard0000", **extra})
                    assert "not found" in hidden, tool
                    for word in ["role", "forbidden", "permission"]:
                        assert word not in hidden.lower(), (tool, hidden)
                    assert hidden.replace(board, "ID") == missing.replace("nosuchboard0000", "ID"), tool
                for hostile in ["../../etc/passwd", "<script>alert(1)</script>", "x' OR '1'='1", "b" * 10_000]:
                    said = await refused(client, "read_board", {"board": hostile})
                    assert "not found" in said and len(said) < 1000, said[:200]
                listed = await client.call_tool("list_boards", {})
                assert listed.structured_content["boards"] == []

            await session(server, tokens["cid"], era, as_cid)

            # No token, a wrong one: the SDK cannot connect; the answer is 401
            # with the challenge MCP clients look for. Another site's page is refused.
            async def nothing(client: Client):
                raise AssertionError("connected without a valid token")

            for token in ["", WRONG]:
                with pytest.raises(Exception) as no_token:
                    await session(server, token, era, nothing)
                # The SDK's own refusal, not `nothing` finding itself connected
                # (an AssertionError, also an Exception, anywhere in a group).
                assert "connected without a valid token" not in repr(no_token.value), no_token.value
            async with httpx.AsyncClient() as raw:
                url = server.url + "/mcp"
                accept = {"Accept": "application/json, text/event-stream"}
                for headers in [{}, {"Authorization": f"Bearer {WRONG}"}]:
                    answer = await raw.post(url, json=INITIALIZE, headers={**accept, **headers})
                    assert answer.status_code == 401, headers
                    assert answer.headers["www-authenticate"].startswith("Bearer")
                good = {**accept, "Authorization": f"Bearer {tokens['cid']}"}
                answer = await raw.post(url, json=INITIALIZE, headers={**good, "Origin": "https://evil.example"})
                assert answer.status_code == 403
                assert (await raw.post(url, json=INITIALIZE, headers=good)).status_code == 200

                # Failed token checks are rate limited: a guesser is soon told to wait.
                statuses = []
                for _ in range(15):
                    answer = await raw.post(url, json=INITIALIZE, headers={**accept, "Authorization": f"Bearer {WRONG}"})
                    statuses.append(answer.status_code)
                    if answer.status_code == 429:
                        assert int(answer.headers["retry-after"]) > 0
                        break
                assert statuses[-1] == 429 and set(statuses[:-1]) <= {401}, statuses
        finally:
            server.stop()


async def test_two_processes_on_one_postgresql_database() -> None:
    cluster = subprocess.run([str(PG_CLUSTER), str(os.getpid()), "sdk_py_two"], capture_output=True, text=True)
    if cluster.returncode == 3 and os.environ.get("CI") != "true":
        pytest.skip(f"PostgreSQL is not installed: {cluster.stderr.strip()}")
    assert cluster.returncode == 0, cluster.stderr
    place = ["--database", cluster.stdout.strip()]
    era = "2026-07-28"
    servers = [Server(place), Server(place)]
    try:
        admin(place, "add-user", "ann")
        token = admin(place, "token", "ann")
        calls = 5

        with anyio.fail_after(120):
            board = await session(servers[0], token, era, lambda c: made_board(c, "Shared"))

            async def writer(server: Server, tag: str, ids: list[str]) -> None:
                async def write(client: Client):
                    for i in range(calls):
                        out = await client.call_tool("add_shape", {"board": board, "text": f"{tag}.{i}"})
                        assert not out.is_error, text(out)
                        ids.append(out.structured_content["id"])
                await session(server, token, era, write)

            ids: list[str] = []
            async with anyio.create_task_group() as tg:
                tg.start_soon(writer, servers[0], "one", ids)
                tg.start_soon(writer, servers[1], "two", ids)
            assert len(set(ids)) == 2 * calls, "ids are never handed out twice across processes"
            for server in servers:
                async def read(client: Client):
                    r = await client.call_tool("read_board", {"board": board})
                    assert r.structured_content["revision"] == 1 + 2 * calls
                    on_board = {o["id"] for o in r.structured_content["page"]["objects"]}
                    assert set(ids) <= on_board and len(on_board) == 3 + 2 * calls
                await session(server, token, era, read)

    finally:
        for s in servers:
            s.stop()


CLEAN_FAILURE_S = 10


def leaves(e: BaseException) -> list[BaseException]:
    """The exceptions inside `e`'s (nested) exception groups, or `e` itself."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for inner in e.exceptions for leaf in leaves(inner)]
    return [e]


async def killed_mid_write(place: list[str], era: str, two: bool) -> None:
    """Writers (each with its own token) send batches of three add_shape through
    the process to be killed and, on PostgreSQL, through one that lives on; the
    first is killed -9 once each writer has had batches acknowledged."""
    people = ["ann", "bob", "cid", "dee"] if two else ["ann", "bob", "cid"]
    tokens = {}
    for person in people:
        admin(place, "add-user", person)
        tokens[person] = admin(place, "token", person)
    servers = [Server(place), Server(place)] if two else [Server(place)]
    victim = len(servers) - 1
    # Who writes where: on PostgreSQL ann and dee on the survivor, bob and cid on the victim.
    plan = [("ann", 0), ("bob", 1), ("cid", 1), ("dee", 0)] if two else [("ann", 0), ("bob", 0), ("cid", 0)]
    try:
        board = await session(servers[0], tokens["ann"], era, lambda c: made_board(c, "Crash"))
        for person in people[1:]:
            admin(place, "share", board, person, "editor")
        since = 1
        logs = [{"who": who, "at": at, "tag": f"w{n}", "acked": [], "failure": None, "cut": None} for n, (who, at) in enumerate(plan)]
        stop_survivors = anyio.Event()

        async def write(log: dict) -> None:
            async def body(client: Client) -> None:
                i = 0
                while not (log["at"] != victim and stop_survivors.is_set()):
                    operations = [{"tool": "add_shape", "args": {"text": f"{log['tag']}.{i}.{k}"}} for k in range(3)]
                    log["cut"] = i
                    with anyio.fail_after(CLEAN_FAILURE_S):
                        out = await client.call_tool("batch", {"board": board, "operations": operations})
                    assert not out.is_error, text(out)
                    log["acked"].append((i, [r["id"] for r in out.structured_content["results"]]))
                    log["cut"] = None
                    i += 1
                    if log["at"] != victim:
                        # The survivors go on while the SDK gives the killed process's
                        # clients up (up to 6 s of reconnecting in the 2025-11-25 era):
                        # paced, so that board_changes stays under the SDK's 1 MiB event.
                        await anyio.sleep(0.02)

            try:
                await session(servers[log["at"]], tokens[log["who"]], era, body)
            except BaseException as e:  # noqa: BLE001 - what the SDK raises for a dead server, or a hang
                if isinstance(e, anyio.get_cancelled_exc_class()):
                    raise
                log["failure"] = e

        async with anyio.create_task_group() as tg:
            for log in logs:
                tg.start_soon(write, log)
            with anyio.fail_after(60):
                while not all(len(l["acked"]) >= 3 or l["failure"] for l in logs):
                    await anyio.sleep(0.01)
            assert all(l["failure"] is None for l in logs), [repr(l["failure"]) for l in logs]
            killed_at = anyio.current_time()
            servers[victim].kill()
            with anyio.fail_after(60):
                while not all(l["failure"] for l in logs if l["at"] == victim):
                    await anyio.sleep(0.01)
            failed_in = anyio.current_time() - killed_at
            before = [len(l["acked"]) for l in logs]
            with anyio.fail_after(60):
                while not all(len(l["acked"]) >= b + 3 or l["failure"] for l, b in zip(logs, before) if l["at"] != victim):
                    await anyio.sleep(0.01)
            stop_survivors.set()
        for log in logs:
            if log["at"] == victim:
                # A clean error from the SDK or its HTTP client: no timeout (the
                # SDK's or ours), no failed check.
                for e in leaves(log["failure"]):
                    assert not isinstance(e, (TimeoutError, AssertionError)), f"{log['tag']} hung or failed: {e!r}"
            else:
                assert log["failure"] is None, f"{log['tag']} on the surviving process: {log['failure']!r}"
        assert failed_in < CLEAN_FAILURE_S, f"the killed process's clients failed after {failed_in:.1f} s"

        async def holds(client: Client, fresh: bool = False) -> int:
            """Every acknowledged batch is on the board, whole, by its author; a cut
            one whole or not at all; nothing else; one revision per batch, no gap
            (a `fresh` process's history starts at its latest snapshot)."""
            read = await client.call_tool("read_board", {"board": board})
            objects = read.structured_content["page"]["objects"]
            by_id = {o["id"]: o for o in objects}
            assert len(by_id) == len(objects), "no id is on the board twice"
            start = since
            changes = await client.call_tool("board_changes", {"board": board, "since": since})
            older = re.search(r"older than what this server has seen of the board \(revision (\d+)\)", text(changes))
            if changes.is_error and older and fresh:
                start = int(older.group(1))
                changes = await client.call_tool("board_changes", {"board": board, "since": start})
            assert not changes.is_error, text(changes)
            changed = {c.get("id"): c for c in changes.structured_content["changes"]}
            landed = 0
            for log in logs:
                for i, ids in log["acked"]:
                    for k, object_id in enumerate(ids):
                        assert object_id in by_id, f"acknowledged write lost: {log['tag']}.{i}.{k} ({object_id})"
                        assert by_id[object_id]["text"] == f"{log['tag']}.{i}.{k}"
                        if start == since or object_id in changed:
                            assert changed[object_id]["by"] == f"{log['who']}'s agent"
                    landed += 1
                if log["cut"] is not None:
                    cut = sum(1 for o in objects if str(o.get("text", "")).startswith(f"{log['tag']}.{log['cut']}."))
                    assert cut in (0, 3), f"{log['tag']}'s cut batch landed whole or not at all: {cut} of 3"
                    landed += cut // 3
            revision = read.structured_content["revision"]
            assert len(objects) == 3 + 3 * landed, "nothing but the writers' batches was written"
            assert revision == since + landed, "one revision per batch that landed"
            revisions = sorted({c["revision"] for c in changes.structured_content["changes"]})
            assert revisions == list(range(start + 1, revision + 1)), "the revisions run without a gap"
            return revision

        with anyio.fail_after(60):
            revision = await session(servers[0], tokens["ann"], era, holds) if two else None
            # The killed process again, on the same database and the same port.
            port = servers[victim].url.rsplit(":", 1)[1]
            servers[victim] = Server(place, f"127.0.0.1:{port}")
            assert servers[victim].url.endswith(f":{port}")

            async def fresh(client: Client) -> int:
                seen = await holds(client, fresh=True)
                wrote = await client.call_tool("batch", {"board": board, "operations": [{"tool": "add_shape", "args": {"text": "after"}}]})
                assert not wrote.is_error, text(wrote)
                return seen

            seen = await session(servers[victim], tokens["bob"], era, fresh)
            if two:
                assert seen == revision, "the restarted process reads what the survivor does"
            for server in servers:
                async def after(client: Client) -> None:
                    r = await client.call_tool("board_changes", {"board": board, "since": seen})
                    assert [(c["revision"], c["by"]) for c in r.structured_content["changes"]] == [(seen + 1, "bob's agent")]
                await session(server, tokens["ann"], era, after)
    finally:
        for s in servers:
            if s.proc.poll() is None:
                s.stop()


@pytest.mark.parametrize("era", list(ERAS))
async def test_killed_mid_write_on_postgresql(era: str) -> None:
    cluster = subprocess.run([str(PG_CLUSTER), str(os.getpid()), "sdk_py_kill"], capture_output=True, text=True)
    if cluster.returncode == 3 and os.environ.get("CI") != "true":
        pytest.skip(f"PostgreSQL is not installed: {cluster.stderr.strip()}")
    assert cluster.returncode == 0, cluster.stderr
    await killed_mid_write(["--database", cluster.stdout.strip()], era, True)


@pytest.mark.parametrize("era", list(ERAS))
async def test_killed_mid_write_on_sqlite(era: str) -> None:
    with temp_dir() as name:
        await killed_mid_write(["--data", name], era, False)
