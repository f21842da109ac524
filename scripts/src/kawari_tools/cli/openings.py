#!/usr/bin/env python3
"""kawari-openings: generate a suite of balanced opening positions for one of
Kawari's variants (kawari_tools.opening_suite says how).

Exit status: 0 when the suite was written, 1 if the engine fails, 2 on bad arguments
or when the candidates run out before ``--count`` positions were kept.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import shlex
import sys
from typing import Optional

from kawari_tools import paths, referee
from kawari_tools.opening_suite import (
    BANDS,
    DEFAULT_COUNT,
    DEFAULT_DEPTH,
    DEFAULT_MAX_CANDIDATES,
    PLY_RANGES,
    count_tried,
    generate,
    repository_commit,
    suite_path,
    suite_text,
)
from kawari_tools.usi_client import EngineError, EngineSpec


def parse_plies(text: str) -> tuple[int, int]:
    lo, sep, hi = text.partition("-")
    a, b = int(lo), int(hi if sep else lo)
    if not 0 <= a <= b:
        raise ValueError(f"bad --plies {text!r}: expected LO-HI with 0 <= LO <= HI")
    return a, b


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kawari-openings",
        description="Generate balanced opening positions for a variant: random plies from "
                    "the start, kept when a fixed-depth search scores them near 0, "
                    "deduplicated; one SFEN per line with a provenance header.")
    p.add_argument("--variant", required=True, choices=sorted(referee.VARIANTS))
    p.add_argument("--engine", default=paths.KAWARI_BINARY,
                   metavar="CMD", help="engine command line (default: %(default)s)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="USI option for the engine (repeatable)")
    p.add_argument("--out", metavar="FILE",
                   help="output file (default: openings/<variant>.txt in the repository)")
    p.add_argument("--count", type=int, default=DEFAULT_COUNT,
                   help="positions to keep (default: %(default)s)")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                   help="search depth (default: %(default)s)")
    p.add_argument("--band", type=int, metavar="CP",
                   help="keep scores within +/-CP of 0 (default per variant: " +
                        ", ".join(f"{v} {b}" for v, b in BANDS.items()) + ")")
    p.add_argument("--plies", metavar="LO-HI",
                   help="random plies per candidate (default per variant: " +
                        ", ".join(f"{v} {a}-{b}" for v, (a, b) in PLY_RANGES.items()) + ")")
    p.add_argument("--seed", type=int, default=1, help="(default: %(default)s)")
    p.add_argument("--max-candidates", type=int, default=DEFAULT_MAX_CANDIDATES,
                   help="give up after this many candidates (default: %(default)s)")
    p.add_argument("--concurrency", type=int, default=1,
                   help="engines searching at the same time (default: %(default)s)")
    p.add_argument("--variant-path", default=paths.DEFAULT_HEIAN_INI, metavar="INI",
                   help="Heian definition sent as VariantPath and loaded into pyffish")
    p.add_argument("--build", metavar="TEXT",
                   help="the engine's build for the header (default: the repository's HEAD)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.band is None:
            args.band = BANDS[args.variant]
        if args.count < 1 or args.depth < 1 or args.band < 0 or args.concurrency < 1 \
                or args.max_candidates < 1:
            raise ValueError("--count, --depth, --concurrency and --max-candidates must be "
                             "positive and --band not negative")
        plies = parse_plies(args.plies) if args.plies else PLY_RANGES[args.variant]
        engine_argv = shlex.split(args.engine)
        if not engine_argv:
            raise ValueError("empty --engine command")
        options = []
        for text in args.option:
            name, eq, value = text.partition("=")
            options.append((name.strip(), value if eq else None))
        args.variant_path = os.path.abspath(args.variant_path)
        referee.init_pyffish(args.variant_path)
        variant = referee.get_variant(args.variant)
    except ValueError as e:
        parser.error(str(e))
    out = args.out or suite_path(variant.name)
    log = (lambda _: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    spec = EngineSpec(engine_argv, None, options)
    try:
        kept, _, engine = generate(variant, spec, args.count, args.depth, args.band,
                                   args.seed, plies, args.max_candidates, args.concurrency,
                                   args.variant_path, log)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if len(kept) < args.count:
        print(f"error: only {len(kept)} of {args.count} positions within the band in "
              f"{args.max_candidates} candidates", file=sys.stderr)
        return 2
    stats = count_tried(kept, variant, args.seed, plies)
    command = "kawari-openings " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = suite_text(variant.name, kept, stats, command, engine,
                      args.build or f"repository HEAD {repository_commit()}",
                      args.depth, args.band, args.seed, plies, date)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    summary = text.splitlines()[6].lstrip("# ")
    print(f"{variant.name}: wrote {len(kept)} positions to {out}; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
