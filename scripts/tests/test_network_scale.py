"""``kawari-rescale-net`` (``kawari_tools.network_scale``): a rescaled network file loads
in the engine and scores every position at the factor asked for (factor 1 exactly as
the file it came from); a damaged or foreign file is refused. Needs the engine build
(see test_kawari.py)."""

import os
import re
import struct
import subprocess

import pytest
from conftest import REPO_ROOT
from test_kawari import kawari  # noqa: F401  (the fixture: the built engine)

from kawari_tools import network_scale as ns
from kawari_tools.cli import rescale_net

NETWORK_RE = re.compile(r"^info string network \S+ \S+ \d+x\d+: (-?\d+) \(side to move\)")
POSITIONS = ["startpos", "startpos moves 7g7f 3c3d 8h2b+ 3a2b",
             "startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f",
             "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
             "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
             "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"]


def network_scores(kawari, eval_file):  # noqa: F811
    """The network's score (side to move) of each of POSITIONS in shogi."""
    lines = ["usi", f"setoption name EvalFile value {eval_file}", "isready"]
    for p in POSITIONS:
        lines += [f"position {p}", "eval"]
    out = subprocess.run([kawari], input="\n".join(lines + ["quit"]) + "\n",
                         capture_output=True, text=True, timeout=60).stdout
    assert "info string error" not in out, out
    scores = [int(m.group(1)) for m in map(NETWORK_RE.match, out.splitlines()) if m]
    assert len(scores) == len(POSITIONS), out
    return scores


@pytest.fixture(scope="module")
def shogi_net():
    with open(os.path.join(REPO_ROOT, "nets", "shogi.nnue"), "rb") as f:
        return f.read()


def test_factor_one_scores_as_the_original(kawari, shogi_net, tmp_path):  # noqa: F811
    out = tmp_path / "same.nnue"
    out.write_bytes(ns.rescale_output(shogi_net, 1.0))
    assert network_scores(kawari, out) == network_scores(kawari, "<built-in>")


def test_a_factor_scales_every_score(kawari, shogi_net, tmp_path):  # noqa: F811
    src = tmp_path / "src.nnue"
    src.write_bytes(shogi_net)
    out = tmp_path / "half.nnue"
    assert rescale_net.main([str(src), str(out), "--from-k", "1000", "--to-k", "500"]) == 0
    before = network_scores(kawari, "<built-in>")
    after = network_scores(kawari, out)
    assert max(abs(b) for b in before) >= 200, before
    for b, a in zip(before, after):
        # Half the score, give or take the rounding of the new output weights
        # and the engine's truncation to whole centipawns, both sides.
        assert abs(a - b / 2) <= 2, (before, after)


def test_damaged_and_foreign_files_are_refused(shogi_net, tmp_path, capsys):
    broken = bytearray(shogi_net)
    broken[-10] ^= 0xFF
    with pytest.raises(ns.NetworkFileError, match="checksum"):
        ns.rescale_output(bytes(broken), 0.5)
    with pytest.raises(ns.NetworkFileError, match="header says"):
        ns.rescale_output(shogi_net[:-2], 0.5)
    other = tmp_path / "other.bin"
    other.write_bytes(b"KWFT" + bytes(200))
    assert rescale_net.main([str(other), str(tmp_path / "x"), "--from-k", "2", "--to-k", "1"]) == 1
    assert "not a Kawari network file" in capsys.readouterr().err


def test_a_factor_too_large_for_the_coarsest_qb_is_refused(shogi_net):
    # The engine reads qb 64 to 1024 only: as the factor grows the output is
    # written ever coarser, down to 64, and a factor whose weights would need a
    # coarser one still is an error, not a file the engine refuses later. The
    # factors are stepped by 1.5 (the bands are a factor of 2 wide, so every qb
    # is met) and depend on no particular network's weights.
    qbs = []
    factor = 1.0
    while True:
        try:
            out = ns.rescale_output(shogi_net, factor)
        except ns.NetworkFileError as e:
            assert "overflow" in str(e), e
            break
        qbs.append(struct.unpack_from("<I", out, ns.QB_AT)[0])
        factor *= 1.5
        assert factor < 1e9, qbs
    # Factor 1 keeps the file's own qb (the trainer chose the finest that fits).
    assert qbs[0] == struct.unpack_from("<I", shogi_net, ns.QB_AT)[0]
    assert qbs == sorted(qbs, reverse=True), qbs
    expected = [ns.MIN_QB << i for i in range(6) if ns.MIN_QB << i <= qbs[0]]
    assert sorted(set(qbs)) == expected, qbs
