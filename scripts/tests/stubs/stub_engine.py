#!/usr/bin/env python3
"""A scriptable fake USI engine for testing kawari-match and the other tools.

It plays uniformly random legal moves (computed with kawari_tools.referee) and, after
``--after N`` of its own moves, misbehaves according to ``--mode``:

  random    keep playing random legal moves (the default)
  illegal   answer an illegal move
  crash     exit without answering
  hang      go silent: answer nothing any more (not even isready)
  resign    answer ``bestmove resign``
  win       answer ``bestmove win`` (a declaration; right or wrong)
  pawnmate  play a pawn-drop mate whenever one is available, else random moves
  slow      sleep ``--delay`` ms before every move
  dead      exit at once, before answering ``usi``
  mute      read commands but never answer anything (not even ``usi``)
  garbage   answer ``usi`` with lines that are not USI (and never ``usiok``)
  cpu       exit at once with code 1 and CPU_LINE on stderr, as a binary built for
            a newer CPU refuses to run
  sigill    die at once of SIGILL, as such a binary does without that check

``--no-variant-option`` hides the USI_Variant/VariantPath options (the variant then
comes from ``--variant``); ``--transcript FILE`` appends every received command to FILE;
``--spin NAME=DEFAULT:MIN:MAX`` lists one more spin option (as a tune build does);
``--only-without VAR`` misbehaves only where the environment has no ``VAR`` (and
plays random moves where it has: a binary that runs on one machine but not another).
"""

import argparse
import os
import random
import signal
import sys
import time

# What a binary built for a newer CPU says before it exits (the form is the stub's own).
CPU_LINE = "stub: this binary needs a CPU with AVX2 and BMI2, which this machine lacks"

pyffish = referee = None      # imported at the first isready (loading pyffish takes ~0.5 s)


def load_modules():
    global pyffish, referee
    if referee is None:
        import pyffish as _pyffish

        from kawari_tools import referee as _referee
        pyffish, referee = _pyffish, _referee


VARIANT_NAMES = ["shogi", "judkins", "yarishogi", "heian", "heian9x8", "heian8x9", "heian8x8"]


class Stub:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.variant = args.variant
        self.variant_path = None
        self.moves_played = 0
        self.silent = False
        self.position = (None, [])

    def out(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def log(self, line):
        if self.args.transcript:
            with open(self.args.transcript, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    # -- position --------------------------------------------------------------
    def current(self):
        """(variant, pyffish FEN) of the current position."""
        load_modules()
        if self.variant_path:
            referee.init_pyffish(self.variant_path)
        v = referee.get_variant(self.variant)
        sfen, moves = self.position
        board = referee.Board.from_sfen(sfen or v.start_sfen, v)
        for m in moves:
            board = board.apply(m)
        return v, board.fen()

    def choose(self):
        v, fen = self.current()
        if self.args.mode == "pawnmate" and v.drops:
            for m in pyffish.legal_moves(v.name, fen, []):
                if m.startswith("P@") and not pyffish.legal_moves(v.name, fen, [m]):
                    return referee.move_from_fsf(m, v)
        legal = referee.legal_fsf_moves(v, fen)
        if not legal:
            return "resign"
        return referee.move_from_fsf(self.rng.choice(sorted(legal)), v)

    def illegal_move(self):
        v, fen = self.current()
        legal = {referee.move_from_fsf(m, v) for m in referee.legal_fsf_moves(v, fen)}
        for candidate in ("1a1a", "5e5d", "9a9b", "1i1h", "P*1a"):
            if candidate not in legal:
                return candidate
        return "0000"

    # -- commands --------------------------------------------------------------
    def go(self):
        misbehave = self.moves_played >= self.args.after
        mode = self.args.mode
        if misbehave and mode == "crash":
            sys.exit(3)
        if misbehave and mode == "hang":
            self.silent = True
            return
        if mode == "slow":
            time.sleep(self.args.delay / 1000.0)
        if misbehave and mode == "resign":
            move = "resign"
        elif misbehave and mode == "win":
            move = "win"
        elif misbehave and mode == "illegal":
            move = self.illegal_move()
        else:
            move = self.choose()
        self.moves_played += 1
        self.out(f"info depth 1 score cp 0 pv {move}")
        self.out(f"bestmove {move}")

    def handle(self, line):
        self.log(line)
        tokens = line.split()
        if not tokens or self.silent:
            return True
        cmd = tokens[0]
        if self.args.mode == "mute":
            return True
        if cmd == "usi" and self.args.mode == "garbage":
            for n in range(150):
                self.out(f"?? line {n} of nonsense")
            return True
        if cmd == "usi":
            self.out("id name Stub-" + self.args.mode)
            self.out("id author test")
            if not self.args.no_variant_option:
                names = " ".join("var " + v for v in VARIANT_NAMES)
                self.out(f"option name USI_Variant type combo default shogi {names}")
                self.out("option name VariantPath type string default <empty>")
            self.out("option name USI_Hash type spin default 16 min 1 max 1024")
            for spin in self.args.spin:
                name, _, rest = spin.partition("=")
                default, lo, hi = rest.split(":")
                self.out(f"option name {name} type spin default {default} min {lo} max {hi}")
            self.out("usiok")
        elif cmd == "isready":
            if self.args.after > 0 or self.args.mode in ("random", "illegal", "pawnmate", "slow"):
                load_modules()        # a real engine's set-up: not on the clock
            self.out("readyok")
        elif cmd == "setoption" and len(tokens) >= 5 and tokens[1] == "name":
            name, value = tokens[2], " ".join(tokens[4:])
            if name in ("USI_Variant", "UCI_Variant"):
                self.variant = value
            elif name == "VariantPath":
                self.variant_path = value
        elif cmd == "position":
            if tokens[1] == "startpos":
                sfen, rest = None, tokens[2:]
            else:
                end = tokens.index("moves") if "moves" in tokens else len(tokens)
                sfen, rest = " ".join(tokens[2:end]), tokens[end:]
            moves = rest[1:] if rest and rest[0] == "moves" else []
            self.position = (sfen, moves)
        elif cmd == "usinewgame":
            self.moves_played = 0       # --after counts the moves of each game
        elif cmd == "go":
            self.go()
        elif cmd == "quit":
            return False
        return True


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", default="random",
                   choices=["random", "illegal", "crash", "hang", "resign", "win",
                            "pawnmate", "slow", "dead", "mute", "garbage", "cpu", "sigill"])
    p.add_argument("--after", type=int, default=0, help="own moves before misbehaving")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--delay", type=int, default=0, help="ms to sleep per move (slow)")
    p.add_argument("--variant", default="shogi", help="variant if not set by USI_Variant")
    p.add_argument("--no-variant-option", action="store_true")
    p.add_argument("--transcript")
    p.add_argument("--spin", action="append", default=[], metavar="NAME=DEFAULT:MIN:MAX")
    p.add_argument("--only-without", metavar="VAR")
    args = p.parse_args()
    if args.only_without and args.only_without in os.environ:
        args.mode = "random"
    if args.mode == "dead":
        sys.exit(5)
    if args.mode == "cpu":
        print(CPU_LINE, file=sys.stderr, flush=True)
        sys.exit(1)
    if args.mode == "sigill":
        os.kill(os.getpid(), signal.SIGILL)
    stub = Stub(args)
    for line in sys.stdin:
        if not stub.handle(line.strip()):
            break


if __name__ == "__main__":
    main()
