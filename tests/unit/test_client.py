"""The requester side: the callback sends the request as the SDK gave it, plus who asks, and
turns tray errors into ErrorData, never into a decision; a socket that is not the user's own or
a path too long for AF_UNIX is refused before anything is sent; an accepted URL
elicitation keeps its connection for the completion notice, which goes on that connection only."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import mcp_types as types
import pytest

from elicit_tray import client

PARAMS = types.ElicitRequestFormParams(message="Proceed?", requested_schema={"type": "object", "properties": {}})


def _run(callback: Any, context: Any) -> Any:
    return asyncio.run(callback(context, PARAMS))


def _capture(monkeypatch: Any, answer: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def fake_request(method: str, params: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        sent.append({"method": method, "params": params})
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(client, "request", fake_request)
    return sent


def test_the_server_name_comes_from_the_session_and_an_unknown_one_stays_unknown(monkeypatch):
    sent = _capture(monkeypatch, {"action": "accept", "content": {}})
    named = SimpleNamespace(
        session=SimpleNamespace(server_info=SimpleNamespace(name="files", title=None, version="2.0"))
    )
    assert _run(client.elicitation_callback(client_name="runner"), named) == types.ElicitResult(
        action="accept", content={}
    )
    assert sent[0]["method"] == "elicitation/create"
    assert sent[0]["params"]["_meta"]["elicit-tray/requester"] == {
        "serverName": "files",
        "serverVersion": "2.0",
        "clientName": "runner",
    }
    unknown = SimpleNamespace(session=SimpleNamespace(server_info=None))
    _run(client.elicitation_callback(), unknown)
    assert sent[1]["params"]["_meta"]["elicit-tray/requester"] == {}
    assert sent[1]["params"]["message"] == "Proceed?"
    assert sent[1]["params"]["requestedSchema"] == {"type": "object", "properties": {}}


def test_a_tray_error_becomes_error_data_never_a_decision(monkeypatch):
    _capture(monkeypatch, client.TrayError(-32602, "Invalid params", {"violations": []}))
    answer = _run(client.elicitation_callback(), None)
    assert answer == types.ErrorData(code=-32602, message="Invalid params", data={"violations": []})
    _capture(monkeypatch, client.TrayUnavailable("no display"))
    answer = _run(client.elicitation_callback(), None)
    assert isinstance(answer, types.ErrorData) and answer.code == -32603


# -- the socket checks and the completion connection, against an in-process fake tray (our uid) ----

unix_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets, SO_PEERCRED")


@pytest.fixture
def short_dir():
    path = Path(tempfile.mkdtemp(prefix="et-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@unix_only
def test_a_socket_directory_open_to_others_is_refused_before_connecting(short_dir: Path) -> None:
    shared = short_dir / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(shared / "socket"))
    listener.listen(4)
    listener.setblocking(False)
    try:
        answer = _run(client.elicitation_callback(socket_path=shared / "socket"), None)
        me = os.getuid()
        assert answer == types.ErrorData(
            code=-32603,
            message=(
                f"refusing to use the elicit-tray socket {shared / 'socket'}: its directory {shared} (owned by uid {me}) "
                f"has mode 0755, open to other users; it must be 0700; nothing was sent. Other users may have put a "
                f"socket there. If you trust its contents, run: chmod 700 {shared}; otherwise remove "
                f"{shared / 'socket'}. Then start elicit-tray again."
            ),
        )
        with pytest.raises(BlockingIOError):
            listener.accept()  # never even connected
    finally:
        listener.close()


@unix_only
def test_a_path_too_long_for_af_unix_is_refused_saying_what_to_do(short_dir: Path) -> None:
    long = short_dir / ("d" * 120) / "socket"
    with pytest.raises(client.TrayUnavailable) as caught:
        asyncio.run(client.request("ping", socket_path=long, autostart=False))
    size = len(str(long).encode())
    assert caught.value.message == (
        f"cannot use the elicit-tray socket: the socket path {long} is {size} bytes long; Unix sockets take at most "
        "107. Set ELICIT_TRAY_SOCKET (or pass --socket) to a shorter path in a directory only you can use "
        "(mode 0700), for the tray app and its clients alike, or set XDG_RUNTIME_DIR to a short private directory; "
        "nothing was sent"
    )


class FakeTray:
    """Answers ``elicitation/create`` with ``accept`` (``decline`` for a URL ending in /no) and
    records every line of every connection; ``closed`` lists the connections that ended."""

    def __init__(self) -> None:
        self.lines: list[list[dict[str, Any]]] = []
        self.closed: list[int] = []
        self.changed = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        index = len(self.lines)
        self.lines.append([])
        while line := await reader.readline():
            message = json.loads(line)
            self.lines[index].append(message)
            if "id" in message:
                action = "decline" if message["params"].get("url", "").endswith("/no") else "accept"
                writer.write(
                    json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"action": action}}).encode() + b"\n"
                )
            self.changed.set()
        self.closed.append(index)
        self.changed.set()
        writer.close()

    async def until(self, condition: Any) -> None:
        async with asyncio.timeout(10):
            while not condition():
                self.changed.clear()
                await self.changed.wait()


URL_PARAMS = {"mode": "url", "message": "Sign in", "url": "https://auth.example.com/x", "elicitationId": "e-1"}


def _complete(eid: str) -> Any:
    return types.ElicitCompleteNotification(params=types.ElicitCompleteNotificationParams(elicitation_id=eid))


@unix_only
def test_the_completion_goes_on_the_connection_that_made_the_elicitation_then_it_closes(short_dir: Path) -> None:
    sock = short_dir / "run" / "socket"
    (short_dir / "run").mkdir(mode=0o700)

    async def scenario() -> None:
        tray = FakeTray()
        server = await asyncio.start_unix_server(tray.serve, path=str(sock))
        registry = client.Completions()
        seen: list[Any] = []

        async def then(message: Any) -> None:
            seen.append(message)

        forward = client.completion_forwarder(completions=registry, then=then)
        async with server:
            assert await client.request(
                "elicitation/create", URL_PARAMS, socket_path=sock, autostart=False, completions=registry
            ) == {"action": "accept"}
            assert registry.waiting() == ["e-1"]  # connection 0 stays open for the notice
            declined = dict(URL_PARAMS, url="https://auth.example.com/no", elicitationId="e-2")
            assert await client.request(
                "elicitation/create", declined, socket_path=sock, autostart=False, completions=registry
            ) == {"action": "decline"}
            await tray.until(lambda: 1 in tray.closed)  # a declined one is not kept
            assert registry.waiting() == ["e-1"]

            await forward(_complete("e-9"))  # no connection waits for it: nothing is sent anywhere
            await forward(_complete("e-1"))
            await tray.until(lambda: 0 in tray.closed)
            assert [[m.get("method") for m in lines] for lines in tray.lines] == [
                ["elicitation/create", "notifications/elicitation/complete"],
                ["elicitation/create"],
            ]
            assert tray.lines[0][1] == {
                "jsonrpc": "2.0",
                "method": "notifications/elicitation/complete",
                "params": {"elicitationId": "e-1"},
            }
            assert registry.waiting() == []
            assert await registry.complete("e-1") is False  # once only
            assert [m.params.elicitation_id for m in seen] == ["e-9", "e-1"]

    asyncio.run(scenario())


@unix_only
def test_a_held_connection_the_tray_closes_is_forgotten(short_dir: Path) -> None:
    sock = short_dir / "run" / "socket"
    (short_dir / "run").mkdir(mode=0o700)

    async def scenario() -> None:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            line = await reader.readline()
            writer.write(
                json.dumps({"jsonrpc": "2.0", "id": json.loads(line)["id"], "result": {"action": "accept"}}).encode()
                + b"\n"
            )
            await writer.drain()
            writer.close()  # the tray goes away

        server = await asyncio.start_unix_server(serve, path=str(sock))
        registry = client.Completions()
        async with server:
            await client.request(
                "elicitation/create", URL_PARAMS, socket_path=sock, autostart=False, completions=registry
            )
            (entry,) = registry._held["e-1"]
            await asyncio.wait_for(entry.watcher, 10)  # it saw the end of the stream
            assert registry.waiting() == []
            assert await registry.complete("e-1") is False

    asyncio.run(scenario())
