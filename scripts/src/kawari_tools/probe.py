"""Can this machine run an engine? Start it, send ``usi``, expect ``usiok``.

The cluster runner asks every worker node this before it sends games there: a
binary built for a newer CPU than a worker's dies at once (an illegal instruction,
or Kawari's own one-line refusal on stderr), and that line, not a lost game, is
what the user should see.
"""

from __future__ import annotations

import queue
import signal
import subprocess
import threading
import time
from typing import Optional

# Seconds an engine has to answer ``usi``; a network load may take a while.
PROBE_TIMEOUT_S = 20.0
# Seconds a probed engine has to exit after ``quit`` before it is killed.
QUIT_GRACE_S = 2.0


def _exit_text(code: int) -> str:
    if code < 0:
        sig = -code
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        what = signal.strsignal(sig) or name
        return f"was killed by {name} ({what.lower()})"
    return f"exited with code {code}"


def probe(argv: list[str], timeout: float = PROBE_TIMEOUT_S) -> Optional[str]:
    """None when ``argv`` starts and answers ``usi`` with ``usiok`` within
    ``timeout`` seconds; else one line that says why not, ending with the last
    line the program wrote on stderr, if any."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                start_new_session=True)
    except OSError as e:
        return f"cannot start {argv[0]}: {e}"
    lines: queue.Queue = queue.Queue()
    errors: list[str] = []

    def read_out() -> None:
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put(None)

    def read_err() -> None:
        for line in proc.stderr:
            if line.strip():
                errors.append(line.strip())

    out_reader = threading.Thread(target=read_out, daemon=True)
    err_reader = threading.Thread(target=read_err, daemon=True)
    out_reader.start()
    err_reader.start()
    why = None
    try:
        proc.stdin.write("usi\n")
        proc.stdin.flush()
    except OSError:
        pass                        # it died already: the reader sees the end
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            why = f"{argv[0]} did not answer usi with usiok within {timeout:g} s"
            break
        if line is None:
            code = proc.wait()
            err_reader.join(1.0)
            why = f"{argv[0]} {_exit_text(code)} before usiok"
            break
        if line == "usiok":
            break
    if proc.poll() is None:
        try:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait(timeout=QUIT_GRACE_S)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
    err_reader.join(1.0)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            stream.close()
        except OSError:
            pass
    if why is not None and errors:
        why += f": {errors[-1]}"
    return why
