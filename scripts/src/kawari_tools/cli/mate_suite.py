#!/usr/bin/env python3
"""Run a USI engine's `go mate` over a collection of tsume problems and check every
answer with pyffish (kawari_tools.mate_check.verify_line), independently of the engine.

One engine process per problem (a fresh table each time; the time counted runs from
`go mate` to the `checkmate` line). Per problem it prints the answer's length against
the collection's, the time, the nodes (the last `info ... nodes N` before the answer)
and the verdict; at the end, solved / unsolved, median and worst time of the solved
ones, and the lengths compared. Works with Kawari and with KomoringHeights (both answer
`checkmate <moves>`, `checkmate nomate` or `checkmate timeout`). Kawari also says, in an
`info string mate in N plies, ...` line, whether its answer is proven the shortest or
only a line within a proven bound (out of time first); the summary counts both.

Example (the whole of 将棋図巧, 30 s and 2 GB per problem, results kept as JSON lines so
that an interrupted run can go on with --resume)::

    kawari-mate-suite --engine target/release/kawari \\
        --problems engine-tests/data/classics-zukou.tsv --ms 30000 --hash 2048 \\
        --out /tmp/zukou-kawari.jsonl

The problems file is a TSV with a header and the columns ``name``, ``sfen`` and ``plies``
(the collection's length; more columns are ignored). Exit status 1 when an answer is
wrong (not a verified mate); unsolved problems alone do not fail the run.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass

from kawari_tools import referee
from kawari_tools.mate_check import verify_line

# Seconds past the `go mate` limit before the engine is sent `stop`, then killed: the
# engines answer at their limit, this only keeps a hung engine from stopping the run.
GRACE_S = 10.0

# An answer this long past the limit still counts as within it: engines stop at their
# limit and answer with what they have a moment later.
SLACK_S = 1.0


@dataclass
class Result:
    """One problem's outcome."""

    name: str
    plies: int  # the collection's length
    answer: list[str]  # the moves after `checkmate`, or ["nomate"] / ["timeout"] / []
    seconds: float
    nodes: int | None
    verdict: str  # "ok", or what is wrong, or "unsolved: ..."
    # The engine's word on the answer: proven the shortest (True), a line within a
    # proven bound only (False), or nothing said (None; engines other than Kawari).
    proven: bool | None = None

    @property
    def solved(self) -> bool:
        return self.verdict == "ok"


def ask(cmd: list[str], sfen: str, ms: int, hash_mb: int, variant: str | None,
        options: list[tuple[str, str]]) -> tuple[list[str], float, int | None, bool | None]:
    """The words after `checkmate`, the seconds from `go mate` to it, the nodes of
    the last `info` line that gave them, and whether the engine said its mate is proven
    the shortest (None: it said nothing). An engine that dies or hangs answers []."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert p.stdin and p.stdout
    setup = f"usi\nsetoption name USI_Hash value {hash_mb}\n"
    if variant:
        setup += f"setoption name USI_Variant value {variant}\n"
    for name, value in options:
        setup += f"setoption name {name} value {value}\n"
    answer: list[str] = []
    nodes: int | None = None
    proven: bool | None = None
    start = time.monotonic()
    timer = None
    try:
        p.stdin.write(setup + "isready\n")
        p.stdin.flush()
        for line in p.stdout:
            if line.strip() == "readyok":
                break
        p.stdin.write(f"position sfen {sfen}\ngo mate {ms}\n")
        p.stdin.flush()
        start = time.monotonic()

        def stop_then_kill() -> None:
            try:
                p.stdin.write("stop\n")
                p.stdin.flush()
            except OSError:
                pass
            time.sleep(GRACE_S)
            p.kill()

        timer = threading.Timer(ms / 1000 + GRACE_S, stop_then_kill)
        timer.start()
        for line in p.stdout:
            words = line.split()
            if words[:4] == ["info", "string", "mate", "in"]:
                proven = "proven the shortest" in line and "not proven" not in line
            elif words[:1] == ["info"] and "nodes" in words[:-1]:
                try:
                    nodes = int(words[words.index("nodes") + 1])
                except ValueError:
                    pass
            elif words[:1] == ["checkmate"]:
                answer = words[1:]
                break
    except (BrokenPipeError, OSError):
        pass
    took = time.monotonic() - start
    if timer:
        timer.cancel()
    try:
        p.stdin.write("quit\n")
        p.stdin.flush()
    except OSError:
        pass
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return answer, took, nodes, proven


def judge(v: referee.Variant, sfen: str, answer: list[str]) -> str:
    """"ok" for a verified mate, else why not."""
    if not answer:
        return "unsolved: no answer"
    if answer[0] in ("nomate", "timeout"):
        return f"unsolved: {answer[0]}"
    return verify_line(v, sfen, answer) or "ok"


def summary(results: list[Result], limit_s: float) -> list[str]:
    """The closing lines: counts, times, nodes and lengths of the solved problems."""
    solved = [r for r in results if r.solved and r.seconds <= limit_s + SLACK_S]
    late = [r for r in results if r.solved and r.seconds > limit_s + SLACK_S]
    wrong = [r for r in results if not r.solved and not r.verdict.startswith("unsolved")]
    unsolved = [r for r in results if r.verdict.startswith("unsolved")]
    lines = [f"solved {len(solved)} of {len(results)} within {limit_s:g} s"
             f" ({len(late)} later, {len(unsolved)} unsolved, {len(wrong)} wrong)"]
    if solved:
        times = [r.seconds for r in solved]
        worst = max(solved, key=lambda r: r.seconds)
        nodes = [r.nodes for r in solved if r.nodes is not None]
        lines.append(f"time: median {statistics.median(times):.2f} s,"
                     f" worst {worst.seconds:.2f} s ({worst.name}), total {sum(times):.1f} s")
        if nodes:
            lines.append(f"nodes: median {int(statistics.median(nodes))}, max {max(nodes)},"
                         f" total {sum(nodes)}")
        same = sum(len(r.answer) == r.plies for r in solved)
        longer = [r for r in solved if len(r.answer) > r.plies]
        shorter = [r for r in solved if len(r.answer) < r.plies]
        lines.append(f"lengths: {same} as the collection, {len(longer)} longer"
                     f" ({' '.join(f'{r.name}:{len(r.answer)}/{r.plies}' for r in longer)}),"
                     f" {len(shorter)} shorter"
                     f" ({' '.join(f'{r.name}:{len(r.answer)}/{r.plies}' for r in shorter)})")
    said = [r for r in solved if r.proven is not None]
    if said:
        bounded = [r for r in said if not r.proven]
        lines.append(f"proven the shortest (the engine's word): {len(said) - len(bounded)}"
                     f" of {len(said)}; lines within a proven bound only: {len(bounded)}"
                     f" ({' '.join(f'{r.name}:{len(r.answer)}' for r in bounded)})")
    if unsolved or wrong:
        lines.append("not solved: " + " ".join(r.name for r in unsolved + wrong))
    return lines


def read_problems(path: str) -> list[tuple[str, str, int]]:
    """(name, sfen, plies) of each row of a problems TSV with a header."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()][1:]
    return [(r[0], r[1], int(r[2])) for r in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="engine command line")
    ap.add_argument("--problems", required=True, help="TSV of name, sfen, plies")
    ap.add_argument("--ms", type=int, default=60_000, help="go mate time per problem")
    ap.add_argument("--hash", type=int, default=2048, help="USI_Hash in MB")
    ap.add_argument("--variant", default="shogi",
                    help="variant for pyffish; sent as USI_Variant unless --no-variant")
    ap.add_argument("--no-variant", action="store_true",
                    help="do not send USI_Variant (engines that have no such option)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="more setoption lines for the engine")
    ap.add_argument("--only", default=None, help="comma-separated problem names")
    ap.add_argument("--max-plies", type=int, default=None,
                    help="skip problems longer than this (the collection's length)")
    ap.add_argument("--out", default=None, help="JSON lines of the results, one a problem")
    ap.add_argument("--resume", action="store_true",
                    help="keep the problems already in --out and run the others")
    ap.add_argument("--heian-ini", default=None)
    a = ap.parse_args(argv)
    referee.init_pyffish(a.heian_ini)
    v = referee.get_variant(a.variant)
    options = [tuple(o.split("=", 1)) for o in a.option]
    problems = read_problems(a.problems)
    if a.only:
        wanted = set(a.only.split(","))
        problems = [p for p in problems if p[0] in wanted]
    if a.max_plies is not None:
        problems = [p for p in problems if p[2] <= a.max_plies]
    results: list[Result] = []
    done: set[str] = set()
    if a.resume and a.out and os.path.exists(a.out):
        with open(a.out, encoding="utf-8") as f:
            for line in f:
                r = Result(**json.loads(line))
                if any(p[0] == r.name for p in problems):
                    results.append(r)
                    done.add(r.name)
    out = open(a.out, "a" if a.resume else "w", encoding="utf-8") if a.out else None
    cmd = shlex.split(a.engine)
    for name, sfen, plies in problems:
        if name in done:
            continue
        answer, took, nodes, proven = ask(cmd, sfen, a.ms, a.hash,
                                          None if a.no_variant else a.variant, options)
        r = Result(name, plies, answer, round(took, 3), nodes, judge(v, sfen, answer), proven)
        results.append(r)
        if out:
            out.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")
            out.flush()
        got = len(answer) if r.solved else "-"
        said = {True: "  (proven the shortest)", False: "  (within a bound only)"}.get(proven, "")
        print(f"{name:12} plies {plies:>4}  answer {got!s:>4}  {took:7.2f} s"
              f"  nodes {nodes if nodes is not None else '-'!s:>11}  {r.verdict}{said}",
              flush=True)
    if out:
        out.close()
    for line in summary(results, a.ms / 1000):
        print(line)
    wrong = [r for r in results if not r.solved and not r.verdict.startswith("unsolved")]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
