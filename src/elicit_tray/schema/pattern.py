"""``pattern`` with ECMA-262 semantics (JSON Schema 2020-12 §6.3.3 / Validation §4.3), bounded.

JSON Schema says a ``pattern`` is an ECMA-262 regular expression, searched unanchored: ``\\d``,
``\\w`` and ``\\b`` are ASCII, ``$`` matches only at the very end (not before a trailing
newline). The engine is ``regress`` (Rust, made for ECMA-262), built with the ``u`` flag as the
specification recommends.

Bounded work: a backtracking engine can take exponential time to match
(``^(a+)+$``), so the UI thread never matches itself:

- :func:`compile_problem` (in the request parser) checks the length (at most
  :data:`MAX_PATTERN_CHARS`) and compiles in-process; regress compiles a 1,000-character
  pattern in well under a millisecond and never expands counted repetition.
- :func:`matches` asks a worker process, which holds the compiled patterns, and waits at most
  :data:`MATCH_TIMEOUT_S`; a worker that does not answer in time is killed (its memory with
  it) and started again for the next value. The worker's address space is capped at
  :data:`WORKER_MEMORY_BYTES`. A value that could not be checked in time is not a match; so is
  any longer value for that pattern later (one slow check per pattern and length, not one per
  keystroke). Answers are cached (:data:`CACHE_ENTRIES` by pattern and value digest).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
from collections import OrderedDict

__all__ = [
    "MAX_PATTERN_CHARS",
    "MATCH_TIMEOUT_S",
    "WORKER_MEMORY_BYTES",
    "CACHE_ENTRIES",
    "compile_problem",
    "matches",
    "Verdict",
    "check",
    "PatternEngine",
    "engine",
]

log = logging.getLogger(__name__)

#: Longest ``pattern``, in characters (code points); longer is -32602 at the pattern's path.
MAX_PATTERN_CHARS = 1_000
#: Longest wait (seconds) of the caller for one match; beyond it the value does not match.
MATCH_TIMEOUT_S = 0.05
#: Longest wait (seconds) for a fresh worker process to start (once, not per value).
START_TIMEOUT_S = 5.0
#: Address-space cap of the worker process (bytes).
WORKER_MEMORY_BYTES = 512 * 1024 * 1024
#: Remembered answers.
CACHE_ENTRIES = 512
#: ECMA-262 flags: ``u`` (Unicode code points, ``\\p{..}``), as JSON Schema recommends.
FLAGS = "u"

# The worker: reads one JSON array per line [pattern, value], answers "1", "0" or "!" (error).
_WORKER = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
sys.path.insert(0, {path!r})
import regress
compiled = {{}}
out = sys.stdout
out.write("ready\n"); out.flush()
for line in sys.stdin:
    try:
        pattern, value = json.loads(line)
        regex = compiled.get(pattern)
        if regex is None:
            if len(compiled) > 256:
                compiled.clear()
            regex = compiled[pattern] = regress.Regex(pattern, {flags!r})
        answer = "1" if regex.find(value) is not None else "0"
    except Exception:
        answer = "!"
    out.write(answer + "\n"); out.flush()
"""


#: The argument with which a frozen bundle's own executable runs the worker (there is no
#: ``python -c`` in a bundle): its entry point calls :func:`worker_main`.
WORKER_ARG = "--pattern-worker"


def _worker_code() -> str:
    import regress

    path = os.path.dirname(os.path.dirname(os.path.abspath(regress.__file__)))
    return _WORKER.format(mem=WORKER_MEMORY_BYTES, path=path, flags=FLAGS)


def worker_main() -> int:
    """Run the pattern worker in this process (stdin/stdout lines; see the module): what a
    frozen bundle's entry point does when started with :data:`WORKER_ARG`. Returns 0 at EOF."""
    exec(_worker_code(), {"__name__": "elicit_tray_pattern_worker"})  # the same code as ``python -c``
    return 0


def compile_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be used, as a sentence, or ``None`` if it compiles.

    Checks the length (:data:`MAX_PATTERN_CHARS`) first, then ECMA-262 syntax with the ``u``
    flag (regress). Bounded: under a millisecond for any pattern within the length limit.
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        return f"longer than {MAX_PATTERN_CHARS} characters ({len(pattern)})"
    import regress

    try:
        regress.Regex(pattern, FLAGS)
    except Exception as exc:  # regress.RegressError, or a panic surfaced as an exception
        return f"invalid ECMA-262 regular expression: {exc}"
    return None


class Verdict:
    """Outcomes of :meth:`PatternEngine.check`: ``MATCH``, ``NO_MATCH`` or ``TOO_SLOW``."""

    MATCH = "match"
    NO_MATCH = "no-match"
    TOO_SLOW = "too-slow"


class PatternEngine:
    """Matches ECMA-262 patterns in a worker process with a time bound per value (see the
    module). Thread-safe; one worker at a time, started on first use."""

    def __init__(self, timeout_s: float = MATCH_TIMEOUT_S):
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._cache: OrderedDict[tuple[str, bytes], str] = OrderedDict()
        self._slow: dict[str, int] = {}  # pattern -> shortest value length that timed out
        #: Counters for tests and logs: worker starts, worker kills, matches sent to the worker.
        self.starts = self.kills = self.sent = 0

    # -- worker -----------------------------------------------------------------------------
    def _start(self) -> subprocess.Popen[bytes]:
        frozen = getattr(sys, "frozen", False)  # a PyInstaller bundle: its executable is not Python
        argv = [sys.executable, WORKER_ARG] if frozen else [sys.executable, "-I", "-S", "-c", _worker_code()]
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
        )
        self.starts += 1
        if self._read_line(proc, START_TIMEOUT_S) != b"ready":
            self._kill(proc)
            raise RuntimeError("the pattern worker did not start")
        return proc

    @staticmethod
    def _read_line(proc: subprocess.Popen[bytes], timeout_s: float) -> bytes | None:
        """One line from the worker within ``timeout_s``, or ``None`` (timeout or exit)."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 64)
            if not chunk:
                return None
            data += chunk
        return data.rstrip(b"\n")

    def _kill(self, proc: subprocess.Popen[bytes]) -> None:
        self.kills += 1
        proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()

    def close(self) -> None:
        """Stop the worker (a later check starts a new one)."""
        with self._lock:
            if self._proc is not None:
                self._kill(self._proc)
                self._proc = None

    # -- matching ---------------------------------------------------------------------------
    def check(self, pattern: str, value: str) -> str:
        """Whether ``pattern`` (ECMA-262, ``u`` flag) finds a match anywhere in ``value``: a
        :class:`Verdict`. Waits at most :attr:`timeout_s` for a value not seen before (plus a
        one-time worker start); a pattern that cannot compile never matches."""
        key = (pattern, hashlib.blake2b(value.encode("utf-8", "surrogatepass"), digest_size=16).digest())
        with self._lock:
            known = self._cache.get(key)
            if known is not None:
                self._cache.move_to_end(key)
                return known
            slow_at = self._slow.get(pattern)
            if slow_at is not None and len(value) >= slow_at:
                return Verdict.TOO_SLOW
            verdict = self._ask(pattern, value)
            if verdict is Verdict.TOO_SLOW:
                self._slow[pattern] = min(len(value), slow_at if slow_at is not None else len(value))
                if len(self._slow) > CACHE_ENTRIES:
                    self._slow.pop(next(iter(self._slow)))
            self._cache[key] = verdict
            if len(self._cache) > CACHE_ENTRIES:
                self._cache.popitem(last=False)
            return verdict

    def _ask(self, pattern: str, value: str) -> str:
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._proc = self._start()
            except (OSError, RuntimeError):  # no worker, no unbounded match: the value is not accepted
                log.exception("the pattern worker cannot start")
                self._proc = None
                return Verdict.TOO_SLOW
        proc = self._proc
        assert proc.stdin is not None
        self.sent += 1
        try:
            proc.stdin.write(json.dumps([pattern, value]).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            answer = None
        else:
            answer = self._read_line(proc, self.timeout_s)
        if answer in (b"1", b"0", b"!"):
            return Verdict.MATCH if answer == b"1" else Verdict.NO_MATCH
        self._kill(proc)  # too slow, or out of memory: its memory goes with it
        self._proc = None
        return Verdict.TOO_SLOW


#: The process-wide engine.
engine = PatternEngine()


def check(pattern: str, value: str) -> str:
    """:meth:`PatternEngine.check` on the process-wide :data:`engine`."""
    return engine.check(pattern, value)


def matches(pattern: str, value: str) -> bool:
    """Whether ``pattern`` finds a match in ``value`` within the time bound (JSON Schema
    ``pattern``: ECMA-262, unanchored). Too slow to tell is ``False``."""
    return engine.check(pattern, value) == Verdict.MATCH
