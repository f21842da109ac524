"""One USI client for the scripts: start an engine, handshake, set options, search.

Every wait has a deadline, so a script never blocks on an engine for ever:

* the engine exits (or cannot be started): ``EngineError`` with ``kind='crash'``
  and the exit code;
* it says nothing (or nothing useful) until the deadline: ``kind='stalled'``;
* it answers garbage: ``kind='garbage'`` -- too many lines in a row that are not
  USI at all, or a ``bestmove`` with no move where one is needed.

The error's message names the engine and what was awaited, e.g.
``kawari exited with code 3 while waiting for readyok``.

Used by match.py (and its cluster tasks), label.py, find_short_wins.py and
verify_mate.py.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

DEFAULT_TIMEOUT_S = 20.0
STOP_GRACE_S = 1.0
# Lines an engine may send in a row that are no USI at all before it is called
# broken; a few stray lines (banners, debug output) are common and harmless.
GARBAGE_LIMIT = 100

# First words of every line an engine may send in USI or UCI (Fairy-Stockfish
# speaks both); anything else counts as garbage.
KNOWN_WORDS = {"id", "option", "usiok", "uciok", "readyok", "info", "bestmove",
               "checkmate", "copyprotection", "registration"}


class EngineError(Exception):
    """The engine died (``kind='crash'``), did not answer in time (``'stalled'``) or
    answered something that is not USI (``'garbage'``)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class Aborted(Exception):
    """The caller's ``abort`` callback asked to stop waiting."""


class IoLog:
    """Optional log of all engine traffic, shared by several engines."""

    def __init__(self, path: Optional[str] = None):
        self._f = open(path, "a", encoding="utf-8") if path else None
        self._lock = threading.Lock()
        self._t0 = time.monotonic()

    def write(self, who: str, arrow: str, line: str) -> None:
        if self._f is None:
            return
        with self._lock:
            self._f.write(f"{time.monotonic() - self._t0:10.3f} {who} {arrow} {line}\n")
            self._f.flush()

    @property
    def enabled(self) -> bool:
        return self._f is not None


@dataclass
class EngineSpec:
    """How to start and configure one engine: its argv, a display name, options."""

    argv: list[str]
    name: Optional[str] = None
    options: list[tuple[str, Optional[str]]] = field(default_factory=list)


@dataclass
class Reply:
    """An answer to ``go``: ``move`` is a USI move, ``resign`` or ``win``; ``info``
    is the last ``info`` line with a score."""

    move: str
    elapsed_ms: float
    info: str = ""

    @property
    def score(self) -> Optional[tuple[str, int]]:
        return parse_score(self.info)


def parse_score(info: str) -> Optional[tuple[str, int]]:
    """``('cp', 34)`` or ``('mate', -3)`` from an ``info ... score ...`` line, else None.
    A ``mate +`` / ``mate -`` without a distance (USI allows it) is ``('mate', ±1)``."""
    tokens = info.split()
    if "score" not in tokens:
        return None
    i = tokens.index("score")
    kind = tokens[i + 1] if i + 1 < len(tokens) else ""
    value = tokens[i + 2] if i + 2 < len(tokens) else ""
    if kind not in ("cp", "mate"):
        return None
    if kind == "mate" and value in ("+", "-"):
        return kind, 1 if value == "+" else -1
    try:
        return kind, int(value)
    except ValueError:
        return None


def score_text(info: str) -> Optional[str]:
    """``cp 34`` / ``mate -3`` as the engine wrote it (match records keep it so)."""
    tokens = info.split()
    if "score" not in tokens:
        return None
    i = tokens.index("score")
    return " ".join(tokens[i + 1:i + 3]) or None


class UsiEngine:
    """A USI engine process with a reader thread feeding a queue of stdout lines.

    ``timeout`` bounds the handshake and every ``isready``; searches take their own.
    """

    def __init__(self, spec: EngineSpec | list[str], label: str = "",
                 log: Optional[IoLog] = None, timeout: float = DEFAULT_TIMEOUT_S):
        self.spec = spec if isinstance(spec, EngineSpec) else EngineSpec(list(spec))
        self.label = label or os.path.basename(self.spec.argv[0])
        self.log = log or IoLog(None)
        self.timeout = timeout
        self.proc: Optional[subprocess.Popen] = None
        self.lines: "queue.Queue[tuple[float, Optional[str]]]" = queue.Queue()
        self.id_name: Optional[str] = None
        self.options: list[str] = []
        self.healthy = False

    # -- process ---------------------------------------------------------------
    def start(self) -> "UsiEngine":
        """Start the process and do the ``usi``/``usiok`` handshake."""
        self.kill()
        try:
            self.proc = subprocess.Popen(
                self.spec.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if self.log.enabled else subprocess.DEVNULL,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
                # its own process group, so kill() takes any children with it
                start_new_session=True)
        except OSError as e:
            raise EngineError("crash", f"cannot start {self.spec.argv!r}: {e}") from e
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        if self.log.enabled:
            threading.Thread(target=self._read_stderr, args=(self.proc.stderr,),
                             daemon=True).start()
        self.healthy = True
        self.send("usi")
        self.options = []
        deadline = time.monotonic() + self.timeout
        while True:
            line = self.readline(deadline, "usiok")
            tokens = line.split()
            if tokens[0] == "usiok":
                return self
            if tokens[:2] == ["id", "name"]:
                self.id_name = line.split(None, 2)[2].strip() if len(tokens) > 2 else None
            elif tokens[:2] == ["option", "name"] and "type" in tokens:
                self.options.append(" ".join(tokens[2:tokens.index("type")]))

    def __enter__(self) -> "UsiEngine":
        return self if self.proc is not None else self.start()

    def __exit__(self, *exc) -> None:
        self.quit()

    def _read(self, stream, q) -> None:
        try:
            for line in stream:
                line = line.rstrip("\r\n")
                self.log.write(self.label, ">", line)
                q.put((time.monotonic(), line))
        except (OSError, ValueError):
            pass
        q.put((time.monotonic(), None))

    def _read_stderr(self, stream) -> None:
        try:
            for line in stream:
                self.log.write(self.label, "!", line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        self.log.write(self.label, "<", line)
        try:
            assert self.proc is not None and self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError, AssertionError) as e:
            self.healthy = False
            raise EngineError("crash", f"{self.name} cannot be written to ({e})") from e

    def readline(self, deadline: float, waiting_for: str,
                 abort: Optional[Callable[[], bool]] = None) -> str:
        """Next USI line (blank lines skipped); EngineError on EOF, at ``deadline``, or
        after GARBAGE_LIMIT lines in a row that are not USI."""
        line, _ = self.readline_timed(deadline, waiting_for, abort)
        return line

    def readline_timed(self, deadline: float, waiting_for: str,
                       abort: Optional[Callable[[], bool]] = None) -> tuple[str, float]:
        garbage, first_garbage = 0, ""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError("stalled", f"{self.name} did not send {waiting_for} in time"
                                  + (f" (sent {garbage} lines that are not USI, such as "
                                     f"{first_garbage[:60]!r})" if garbage else ""))
            try:
                # short slices, so that ``abort`` is polled while an engine thinks
                stamp, line = self.lines.get(timeout=min(left, 0.1))
            except queue.Empty:
                if abort is not None and abort():
                    raise Aborted() from None
                continue
            if line is None:
                self.healthy = False
                code = self._exit_code()
                raise EngineError("crash", f"{self.name} exited"
                                  + (f" with code {code}" if code is not None else "")
                                  + f" while waiting for {waiting_for}")
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] in KNOWN_WORDS:
                return line, stamp
            garbage += 1
            first_garbage = first_garbage or line
            if garbage >= GARBAGE_LIMIT:
                raise EngineError("garbage", f"{self.name} sent {garbage} lines that are not "
                                  f"USI while waiting for {waiting_for}, such as "
                                  f"{first_garbage[:60]!r}")

    def _exit_code(self) -> Optional[int]:
        if self.proc is None:
            return None
        try:
            return self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None

    def wait_for(self, token: str, timeout: float) -> str:
        """Read up to the first line starting with ``token``; return that line."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(deadline, token)
            if line.split()[0] == token:
                return line

    def kill(self) -> None:
        """Kill the engine's process group (started by us with its own session)."""
        proc, self.proc = self.proc, None
        self.healthy = False
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def quit(self) -> None:
        """``quit``, a second to go, then kill whatever is left."""
        if self.proc is not None and self.healthy:
            try:
                self.send("quit")
                self.proc.wait(timeout=1.0)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()

    # -- USI -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name or self.id_name or os.path.basename(self.spec.argv[0])

    def set_option(self, name: str, value: Optional[str] = None) -> None:
        self.send(f"setoption name {name}" + (f" value {value}" if value is not None else ""))

    def select_variant(self, variant: str, variant_path: Optional[str] = None) -> bool:
        """Send ``VariantPath`` (if given and listed) and ``USI_Variant`` (or else
        ``UCI_Variant``) if listed; False if the engine lists neither."""
        if variant_path and "VariantPath" in self.options:
            self.set_option("VariantPath", variant_path)
        for opt in ("USI_Variant", "UCI_Variant"):
            if opt in self.options:
                self.set_option(opt, variant)
                return True
        return False

    def isready(self) -> None:
        self.send("isready")
        self.wait_for("readyok", self.timeout)

    def new_game(self) -> None:
        """``isready``/``readyok`` (dropping anything stale), then ``usinewgame``."""
        self.isready()
        self.send("usinewgame")

    def go(self, position: str, go: str, timeout_s: float,
           abort: Optional[Callable[[], bool]] = None) -> Reply:
        """Send the position and ``go``; wait for ``bestmove`` at most ``timeout_s``."""
        self.send(position)
        self.send(go)
        t0 = time.monotonic()
        deadline = t0 + timeout_s
        info = ""
        while True:
            line, stamp = self.readline_timed(deadline, "bestmove", abort)
            tokens = line.split()
            if tokens[0] == "info" and "score" in tokens:
                info = line
            elif tokens[0] == "bestmove":
                move = tokens[1] if len(tokens) > 1 else ""
                return Reply(move, (stamp - t0) * 1000.0, info)

    def search(self, sfen: str, moves: list[str], go: str, timeout_s: float) -> Reply:
        """``go`` from ``sfen`` after ``moves``; a ``bestmove`` without a move is garbage."""
        position = f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else "")
        reply = self.go(position, go, timeout_s)
        if not reply.move:
            raise EngineError("garbage", f"{self.name} sent a bestmove without a move")
        return reply

    def mate(self, sfen: str, ms: int, timeout_s: float) -> list[str]:
        """``go mate ms`` from ``sfen``: the words after ``checkmate`` (a line of moves,
        ``nomate``, ``timeout`` or ``notimplemented``)."""
        self.send(f"position sfen {sfen}")
        self.send(f"go mate {ms}")
        line = self.wait_for("checkmate", timeout_s)
        return line.split()[1:]

    def stop_and_drain(self, grace: float = STOP_GRACE_S) -> None:
        """``stop`` and wait for the late ``bestmove``; kill the engine if it does not
        come (a caller restarts it before its next use)."""
        try:
            self.send("stop")
            self.wait_for("bestmove", grace)
        except EngineError:
            self.kill()

    def game_over(self, result: str) -> None:
        if self.healthy:
            try:
                self.send(f"gameover {result}")
            except EngineError:
                pass
