"""The byte plumbing of ``elicit-tray wrap`` (``docs/wrap-design.md`` §2.6 "Memory"): lines
split from a stream without holding a line twice, and pipe ends read and written without
copying what is written.
"""

from __future__ import annotations

import os
import stat

import anyio

__all__ = ["LineSplitter", "End", "CHUNK"]

#: Bytes read at a time (and the pipe buffer asked for).
CHUNK = 1 << 20


class LineSplitter:
    """Splits a byte stream into lines *with* their ``\\n`` (no length limit). ``feed(chunk) ->
    list[bytes | bytearray]``; ``rest()`` returns the unterminated tail at EOF (``b""`` if none).

    Memory (README "Memory"): a line inside one chunk is a slice of it; a line that spans
    chunks grows in one ``bytearray`` (no list of parts, no join) and is handed out as that
    ``bytearray`` itself, so a line is held once while it is read."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def _take(self) -> bytes | bytearray:
        line, self._buf = self._buf, bytearray()
        return line

    def feed(self, chunk: bytes) -> list[bytes | bytearray]:
        nl = chunk.find(b"\n")
        if nl < 0:
            self._buf += chunk
            return []
        lines: list[bytes | bytearray] = []
        if self._buf:
            self._buf += memoryview(chunk)[: nl + 1]
            lines.append(self._take())
        else:
            lines.append(chunk[: nl + 1])
        start = nl + 1
        while True:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                break
            lines.append(chunk[start : nl + 1])
            start = nl + 1
        if start < len(chunk):
            self._buf += memoryview(chunk)[start:]
        return lines

    def rest(self) -> bytes | bytearray:
        return self._take() if self._buf else b""


def _is_stream(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return os.name == "posix" and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode))


class End:
    """One end of a pipe, socket, file or terminal: read (``in``) or written (``out``);
    non-blocking through ``anyio.wait_readable``/``wait_writable`` where it is a pipe or a socket,
    else a worker thread / plain writes. Writes go out of the caller's buffer (no copy)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.is_async = _is_stream(fd)
        self._blocking: bool | None = None
        self.closed = False
        if self.is_async:
            self._blocking = os.get_blocking(fd)
            os.set_blocking(fd, False)

    def restore(self) -> None:
        """Put the descriptor back in the blocking mode it had (the host's, not ours)."""
        if self._blocking is not None and not self.closed:
            try:
                os.set_blocking(self.fd, self._blocking)
            except OSError:
                pass

    def close(self) -> None:
        """Close the descriptor (tasks waiting on it are woken with ``ClosedResourceError``)."""
        if not self.closed:
            self.closed = True
            if self.is_async:
                anyio.notify_closing(self.fd)
            os.close(self.fd)

    async def read(self) -> bytes:
        """Up to ``CHUNK`` bytes; ``b""`` at EOF or once closed."""
        if not self.is_async:
            return await anyio.to_thread.run_sync(os.read, self.fd, CHUNK, abandon_on_cancel=True)
        while not self.closed:
            try:
                return os.read(self.fd, CHUNK)
            except BlockingIOError:
                try:
                    await anyio.wait_readable(self.fd)
                except anyio.ClosedResourceError:
                    break
            except OSError:  # a reset socket, or closed meanwhile: the end of the stream
                break
        return b""

    async def write(self, data: bytes | bytearray) -> None:
        """All of ``data``. Raises OSError when the other side is gone or the end is closed."""
        if self.closed:
            raise BrokenPipeError("closed")
        if not self.is_async and os.name != "posix":  # pragma: no cover - Windows pipes
            await anyio.to_thread.run_sync(_write_all, self.fd, data)
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                try:
                    await anyio.wait_writable(self.fd)
                except anyio.ClosedResourceError:
                    raise BrokenPipeError("closed") from None
                continue
            view = view[written:]


def _write_all(fd: int, data: bytes | bytearray) -> None:  # pragma: no cover - Windows pipes
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
