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
  it), and its successor is started at once, so that it is ready for the next value. The worker's address space is capped at
  :data:`WORKER_MEMORY_BYTES`. A value that could not be checked in time is not a match; so is
  any longer value for that pattern later (one slow check per pattern and length, not one per
  keystroke). Answers are cached (:data:`CACHE_ENTRIES` by pattern and value digest).
- :func:`check_all` checks all the values of one request (the parser: every ``default``) in one
  round trip with one overall bound, :data:`REQUEST_BUDGET_S`; a value not checked by then
  counts as "could not be checked in time": not a match, remembered as such (a request of 256
  slow patterns costs the UI thread that budget, not 256 timeouts).
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
    "REQUEST_BUDGET_S",
    "check_all",
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
#: Longest wait (seconds) of the caller for all the values of one request together (one round
#: trip, :meth:`PatternEngine.check_all`); values not checked by then do not match.
REQUEST_BUDGET_S = 0.015
#: Longest wait (seconds) for a fresh worker process to start (once, not per value).
START_TIMEOUT_S = 5.0
#: Address-space cap of the worker process (bytes).
WORKER_MEMORY_BYTES = 512 * 1024 * 1024
#: Remembered answers.
CACHE_ENTRIES = 512
#: ECMA-262 flags: ``u`` (Unicode code points, ``\\p{..}``), as JSON Schema recommends.
FLAGS = "u"

# The worker: reads one JSON array per line, [pattern, value] or a list of them, and answers one
# line per pair, in order: "1", "0" or "!" (error).
_WORKER = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
sys.path.insert(0, {path!r})
import regress
compiled = {{}}
out = sys.stdout
out.write("ready\n"); out.flush()
def one(pattern, value):
    try:
        regex = compiled.get(pattern)
        if regex is None:
            if len(compiled) > 256:
                compiled.clear()
            regex = compiled[pattern] = regress.Regex(pattern, {flags!r})
        return "1" if regex.find(value) is not None else "0"
    except Exception:
        return "!"
for line in sys.stdin:
    try:
        pairs = json.loads(line)
        if pairs and isinstance(pairs[0], str):
            pairs = [pairs]
    except Exception:
        pairs = [None]
    for pair in pairs:
        answer = one(*pair) if isinstance(pair, list) and len(pair) == 2 else "!"
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
        #: The worker started (not waited for) when the last one was killed, so that the rest of a
        #: request need not wait for a new one; none before the first kill.
        self._spare: subprocess.Popen[bytes] | None = None
        self._cache: OrderedDict[tuple[str, bytes], str] = OrderedDict()
        self._slow: dict[str, int] = {}  # pattern -> shortest value length that timed out
        #: Counters for tests and logs: worker starts, worker kills, matches sent to the worker.
        self.starts = self.kills = self.sent = 0

    # -- worker -----------------------------------------------------------------------------
    def _spawn(self) -> subprocess.Popen[bytes]:
        """A new worker process, not yet known to be ready (it writes ``ready`` first)."""
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
        return proc

    def _start(self, deadline: float | None = None) -> subprocess.Popen[bytes] | None:
        """A ready worker: the spare one started after the last kill (waited for until
        ``deadline``; not ready by then: ``None``, and it stays the spare), else a new one
        (waited for up to :data:`START_TIMEOUT_S`). Raises ``RuntimeError`` if it fails."""
        spare, self._spare = self._spare, None
        if spare is not None and spare.poll() is None and deadline is not None:
            if self._read_line(spare, max(0.0, deadline - time.monotonic())) == b"ready":
                return spare
            if spare.poll() is None and time.monotonic() >= deadline:
                self._spare = spare  # still starting: the next request gets it
                return None
            self._kill(spare)
        elif spare is not None:
            self._kill(spare)
        proc = self._spawn()
        if self._read_line(proc, START_TIMEOUT_S) != b"ready":
            self._kill(proc)
            raise RuntimeError("the pattern worker did not start")
        return proc

    @staticmethod
    def _read_line(proc: subprocess.Popen[bytes], timeout_s: float) -> bytes | None:
        """One line from the worker within ``timeout_s``, or ``None`` (timeout or exit). What
        came after the line (the next answers of a batch) is kept for the next call."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        data: bytes = getattr(proc, "_elicit_unread", b"")
        while b"\n" not in data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                proc._elicit_unread = data  # type: ignore[attr-defined]
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                proc._elicit_unread = data  # type: ignore[attr-defined]
                return None
            data += chunk
        line, _, rest = data.partition(b"\n")
        proc._elicit_unread = rest  # type: ignore[attr-defined]
        return line

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
            for proc in (self._proc, self._spare):
                if proc is not None:
                    self._kill(proc)
            self._proc = self._spare = None

    # -- matching ---------------------------------------------------------------------------
    def check(self, pattern: str, value: str) -> str:
        """Whether ``pattern`` (ECMA-262, ``u`` flag) finds a match anywhere in ``value``: a
        :class:`Verdict`. Waits at most :attr:`timeout_s` for a value not seen before (plus a
        one-time worker start); a pattern that cannot compile never matches."""
        return self.check_all([(pattern, value)], budget_s=2 * self.timeout_s)[0]  # one value: timeout_s

    def check_all(self, pairs: list[tuple[str, str]], budget_s: float = REQUEST_BUDGET_S) -> list[str]:
        """The :class:`Verdict` of each ``(pattern, value)`` of ``pairs`` (one request's), in
        order: those not known are sent to the worker in one round trip; each is waited for at
        most :attr:`timeout_s`, all together at most ``budget_s`` seconds (plus a one-time
        worker start). A value not checked when the budget is spent is ``TOO_SLOW`` (not a
        match), and remembered so (the module docstring)."""
        with self._lock:
            verdicts: list[str | None] = [None] * len(pairs)
            keys = [self._key(pattern, value) for pattern, value in pairs]
            todo = [i for i in range(len(pairs)) if not self._known(pairs[i], keys[i], verdicts, i)]
            if not todo:  # all remembered: no worker needed
                return [v if v is not None else Verdict.TOO_SLOW for v in verdicts]
            started = time.monotonic()
            if self._proc is None or self._proc.poll() is not None:  # a first start is not counted
                self._proc = self._start_or_none(started + budget_s if self._spare is not None else None)
            deadline = time.monotonic() + budget_s if self._proc is not None else started
            while todo:
                todo = [i for i in todo if not self._known(pairs[i], keys[i], verdicts, i)]
                if not todo or time.monotonic() >= deadline:
                    break
                answered = self._ask_many([pairs[i] for i in todo], deadline)
                if not answered:  # no worker ready in time
                    break
                for i, (verdict, slow) in zip(todo, answered, strict=False):
                    self._remember(pairs[i], keys[i], verdict, slow)
                    verdicts[i] = verdict
                todo = todo[len(answered) :]
            for i in todo:  # not checked within the budget: not a match (not remembered as slow)
                if verdicts[i] is None:
                    self._remember(pairs[i], keys[i], Verdict.TOO_SLOW, False)
                    verdicts[i] = Verdict.TOO_SLOW
            return [v if v is not None else Verdict.TOO_SLOW for v in verdicts]

    def known(self, pattern: str, value: str) -> str | None:
        """The remembered :class:`Verdict` of ``value`` for ``pattern`` (an answer, or a length
        known to be too slow), or ``None``. Never asks the worker and never waits, not even for
        the lock that a check in another thread holds (the dialogs' typing path)."""
        known = self._cache.get(self._key(pattern, value))
        if known is None:
            slow_at = self._slow.get(pattern)
            known = Verdict.TOO_SLOW if slow_at is not None and len(value) >= slow_at else None
        return known

    @staticmethod
    def _key(pattern: str, value: str) -> tuple[str, bytes]:
        return pattern, hashlib.blake2b(value.encode("utf-8", "surrogatepass"), digest_size=16).digest()

    def _known(self, pair: tuple[str, str], key: tuple[str, bytes], verdicts: list[str | None], i: int) -> bool:
        """Fill ``verdicts[i]`` from the cache or the slow lengths; whether it was known."""
        known = self._cache.get(key)
        if known is None:
            slow_at = self._slow.get(pair[0])
            known = Verdict.TOO_SLOW if slow_at is not None and len(pair[1]) >= slow_at else None
        else:
            self._cache.move_to_end(key)
        verdicts[i] = known
        return known is not None

    def _remember(self, pair: tuple[str, str], key: tuple[str, bytes], verdict: str, slow: bool) -> None:
        pattern, value = pair
        if slow:  # it took the whole time of one value: longer values of the pattern are not tried
            slow_at = self._slow.get(pattern)
            self._slow[pattern] = min(len(value), slow_at if slow_at is not None else len(value))
            if len(self._slow) > CACHE_ENTRIES:
                self._slow.pop(next(iter(self._slow)))
        self._cache[key] = verdict
        if len(self._cache) > CACHE_ENTRIES:
            self._cache.popitem(last=False)

    def _start_or_none(self, deadline: float | None = None) -> subprocess.Popen[bytes] | None:
        try:
            return self._start(deadline)
        except (OSError, RuntimeError):  # no worker, no unbounded match: the value is not accepted
            log.exception("the pattern worker cannot start")
            return None

    def _ask_many(self, pairs: list[tuple[str, str]], deadline: float) -> list[tuple[str, bool]]:
        """Send ``pairs`` in one line; (verdict, took the whole time of one value) for those
        answered by ``deadline``, then for the first that was not (``TOO_SLOW``; the worker is
        killed, and started again if time is left). May return fewer than ``pairs``."""
        if self._proc is None or self._proc.poll() is not None:
            self._proc = self._start_or_none(deadline)
            if self._proc is None:
                return []
        proc = self._proc
        assert proc.stdin is not None
        self.sent += len(pairs)
        out: list[tuple[str, bool]] = []
        try:
            proc.stdin.write(json.dumps([list(p) for p in pairs]).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            pass
        else:
            while len(out) < len(pairs):
                wait = min(self.timeout_s, deadline - time.monotonic())
                answer = self._read_line(proc, max(0.0, wait))
                if answer not in (b"1", b"0", b"!"):
                    out.append((Verdict.TOO_SLOW, wait >= self.timeout_s))
                    break
                out.append((Verdict.MATCH if answer == b"1" else Verdict.NO_MATCH, False))
            else:
                return out
        if not out:
            out.append((Verdict.TOO_SLOW, False))
        self._kill(proc)  # too slow, or out of memory: its memory goes with it
        self._proc = None
        self._spare = self._spare or self._spawn()  # starting while the rest waits
        return out


#: The process-wide engine.
engine = PatternEngine()


def check(pattern: str, value: str) -> str:
    """:meth:`PatternEngine.check` on the process-wide :data:`engine`."""
    return engine.check(pattern, value)


def check_all(pairs: list[tuple[str, str]], budget_s: float = REQUEST_BUDGET_S) -> list[str]:
    """:meth:`PatternEngine.check_all` on the process-wide :data:`engine`."""
    return engine.check_all(pairs, budget_s)


def matches(pattern: str, value: str) -> bool:
    """Whether ``pattern`` finds a match in ``value`` within the time bound (JSON Schema
    ``pattern``: ECMA-262, unanchored). Too slow to tell is ``False``."""
    return engine.check(pattern, value) == Verdict.MATCH
