"""Features files and network files written outside the engine (``kawari_tools.nnue_files``),
checked against the engine itself: ``kawari features`` writes the trainer's samples, a
network file written here loads with ``EvalFile`` and scores every position as the
integer emulation here says, and a file whose header does not match its weights is
refused with the engine's reason. Needs numpy (``pip install -e 'scripts[dev]'``) and
the engine build (see test_kawari.py); test_torch_train.py trains with PyTorch."""

import functools
import random
import re
import subprocess

import pytest
from test_kawari import kawari  # noqa: F401  (the fixture: the built engine)

from kawari_tools import referee as R

np = pytest.importorskip("numpy")
from kawari_tools import nnue_files as nf  # noqa: E402  (needs numpy)

NETWORK_RE = re.compile(r"^info string network (\S+) (\S+) (\d+)x(\d+): (-?\d+) \(side to move\)")


def datagen(kawari, path, games=30, nodes=300, seed=3):  # noqa: F811
    """A small judkins datagen file (about 14 positions a game, a second or so; one
    thread, so that the records come in the same order every time)."""
    subprocess.run([kawari, "datagen", "--variant", "judkins", "--games", str(games),
                    "--nodes", str(nodes), "--threads", "1", "--seed", str(seed),
                    "--out", str(path)], check=True, capture_output=True, timeout=120)
    return path


def features(kawari, out, *args):  # noqa: F811
    """``kawari features ARGS --out OUT``, read back; and its summary line."""
    p = subprocess.run([kawari, "features", "--variant", "judkins", *args, "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return nf.read_features(str(out)), p.stdout.splitlines()[0]


@functools.lru_cache(maxsize=None)
def random_positions(count=24, seed=5, min_plies=6, max_plies=40):
    """SFENs of judkins positions after random legal moves from the start: pieces in
    hand, kings on many squares (so king buckets change and mirror). Cached: pyffish
    takes some 15 ms a move here."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        ref = R.Referee("judkins")
        for _ in range(rng.randint(min_plies, max_plies)):
            moves = ref.legal_moves()
            if not moves or ref.outcome() is not None:
                break
            ref.push(rng.choice(moves))
        if ref.outcome() is None and ref.legal_moves():
            out.append(ref.sfen)
    return tuple(out)


def engine_evals(kawari, eval_file, sfens):  # noqa: F811
    """(network lines' (variant, set, inputs, hidden, score) per position, error lines)
    of the engine with ``EvalFile`` set to ``eval_file``."""
    cmds = ["usi", "setoption name USI_Variant value judkins",
            f"setoption name EvalFile value {eval_file}", "isready"]
    for s in sfens:
        cmds += [f"position sfen {s}", "eval"]
    p = subprocess.run([kawari], input="\n".join(cmds + ["quit"]) + "\n", capture_output=True,
                       text=True, timeout=120)
    nets, errors = [], []
    for line in p.stdout.splitlines():
        m = NETWORK_RE.match(line)
        if m:
            nets.append((m[1], m[2], int(m[3]), int(m[4]), int(m[5])))
        elif line.startswith("info string error"):
            errors.append(line)
    return nets, errors


def random_network(feats, hidden, seed):
    """Float weights of the sizes a trainer makes, quantized as the trainer does."""
    rng = np.random.default_rng(seed)
    b1 = rng.uniform(0.0, 0.5, hidden).astype(np.float32)
    w1 = rng.uniform(-0.09, 0.09, (feats.inputs, hidden)).astype(np.float32)
    w2 = rng.uniform(-0.5, 0.5, 2 * hidden).astype(np.float32)
    net, cut = nf.quantize(feats, b1, w1, w2, 0.03)
    assert cut == 0
    return net


def test_rounding_is_rusts():
    # halves away from zero, in 32-bit floats (numpy's round takes them to even)
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.49999997], np.float32)
    assert list(nf.round_half_away(x, 1)) == [1, 2, 3, -1, -3, 0, 0]
    # the product is rounded to 32 bits first, as Rust's `x * QA as f32`
    assert list(nf.round_half_away(np.float32([0.25, -1.0]), 255)) == [64, -255]
    assert list(nf.to_int(np.array([40000.0, -40000.0]), np.int16)) == [32767, -32768]


def test_output_quantization_is_the_finest_that_fits():
    assert nf.output_quantization(np.float32([0.5, -0.25]), 0.1, 255, 64) == 1024
    # each weight an i16: 31.9 * 1024 fits, 40 * 1024 does not
    assert nf.output_quantization(np.float32([31.9]), 0.0, 255, 64) == 1024
    assert nf.output_quantization(np.float32([40.0]), 0.0, 255, 64) == 512
    # the output sum below 2^30: 5120 * 255 * 1024 is past it
    assert nf.output_quantization(np.full(512, 10.0, np.float32), 0.0, 255, 64) == 512
    # never coarser than the file's own QB
    assert nf.output_quantization(np.float32([600.0]), 0.0, 255, 64) == 64


def test_features_are_the_trainers(kawari, tmp_path):  # noqa: F811
    data = datagen(kawari, tmp_path / "j.bin")
    records = data.stat().st_size // 128
    psq, line = features(kawari, tmp_path / "psq.kwft", "--data", str(data), "--holdout", "4")
    assert line.startswith(f"judkins: 1080 inputs (psq); {len(psq.train)} training and "
                           f"{len(psq.held)} held-out positions; K {psq.k:.0f}")
    assert (psq.variant, psq.feature_set, psq.inputs, psq.bucket_inputs) == \
        ("judkins", "psq", 1080, 1080)
    assert psq.symmetric and psq.mirrored and psq.holdout == 4 and psq.k > 30
    assert (psq.qa, psq.qb, psq.scale) == (255, 64, 400)
    # every record is a position: the held-out ones once, the others twice (mirrored)
    assert len(psq.held) > 0 and len(psq.train) + 2 * len(psq.held) == 2 * records
    assert set(np.unique(psq.train.result)) <= {-1, 0, 1}
    # a position and its mirror image: same score, mirrored features (Layout::mirror)
    t = psq.train
    for i in (0, 2, 10):
        for p in (0, 1):
            a = t.features[t.offsets[2 * i + p]:t.offsets[2 * i + p + 1]]
            b = t.features[t.offsets[2 * i + 2 + p]:t.offsets[2 * i + 3 + p]]
            assert list(psq.mirror[a]) == list(b)
        assert t.score[i] == t.score[i + 1]
    x = t.padded(psq.inputs)
    assert x.shape[:2] == (len(t), 2)
    for i in (0, len(t) - 1):
        for p in (0, 1):
            a = list(t.features[t.offsets[2 * i + p]:t.offsets[2 * i + p + 1]])
            assert list(x[i, p]) == a + [psq.inputs] * (x.shape[2] - len(a))
    # king buckets: no mirror images (each bucket sees its king on the left)
    kb, _ = features(kawari, tmp_path / "kb.kwft", "--data", str(data), "--holdout", "4",
                     "--features", "king-buckets")
    assert (kb.feature_set, kb.inputs, kb.bucket_inputs) == ("king-buckets", 9720, 1080)
    assert not kb.mirrored and len(kb.train) + len(kb.held) == records
    assert (len(kb.held), kb.k) == (len(psq.held), psq.k)
    # nothing held out: an empty section
    none, _ = features(kawari, tmp_path / "none.kwft", "--data", str(data), "--holdout", "0")
    assert len(none.held) == 0 and len(none.train) == 2 * records
    assert none.held.padded(none.inputs).shape == (0, 2, 1)
    # a bad file is refused with the reason
    bad = tmp_path / "bad.kwft"
    bad.write_bytes(b"KWFT" + (7).to_bytes(4, "little") + bytes(120))
    with pytest.raises(nf.FormatError, match="version 7"):
        nf.read_features(str(bad))
    bad.write_bytes((tmp_path / "psq.kwft").read_bytes()[:-3])
    with pytest.raises(nf.FormatError, match="bytes"):
        nf.read_features(str(bad))


@pytest.mark.parametrize("feature_set", ["psq", "king-buckets"])
def test_a_network_written_here_scores_as_the_engine(kawari, tmp_path, feature_set):  # noqa: F811
    sfens = random_positions()
    (tmp_path / "pos.txt").write_text("\n".join(sfens) + "\n")
    feats, _ = features(kawari, tmp_path / "pos.kwft", "--sfens", str(tmp_path / "pos.txt"),
                        "--features", feature_set)
    assert len(feats.train) == len(sfens) and feats.k == 0
    net = random_network(feats, 32, seed=1)
    assert net.qb == nf.MAX_QB      # small output weights: the finest quantization
    path = tmp_path / "net.nnue"
    path.write_bytes(nf.network_bytes(net))
    back = nf.read_network(str(path), expect=feats)
    assert (back.ft_weights == net.ft_weights).all() and back.out_bias == net.out_bias
    nets, errors = engine_evals(kawari, path, sfens)
    assert errors == []
    assert [n[:4] for n in nets] == [("judkins", feature_set, feats.inputs, 32)] * len(sfens)
    expected = nf.engine_eval(net, feats.train.padded(feats.inputs), feats.inputs)
    assert [n[4] for n in nets] == list(expected)
    assert len(set(expected)) > len(sfens) // 2     # the positions differ, and their scores
    if feature_set == "king-buckets":
        # the positions put the kings in several buckets
        buckets = set(feats.train.features // feats.bucket_inputs)
        assert len(buckets) >= 4, buckets


def test_mismatched_network_files_are_refused(kawari, tmp_path):  # noqa: F811
    sfens = random_positions()[:3]
    (tmp_path / "pos.txt").write_text("\n".join(sfens) + "\n")
    feats, _ = features(kawari, tmp_path / "pos.kwft", "--sfens", str(tmp_path / "pos.txt"))
    good = nf.network_bytes(random_network(feats, 16, seed=2))
    (tmp_path / "good.nnue").write_bytes(good)

    def header(at, value):
        b = bytearray(good)
        b[at:at + len(value)] = value
        return bytes(b)

    cases = {
        # a psq network whose header says king buckets
        "set.nnue": (header(64, (1).to_bytes(4, "little")),
                     "1080 inputs, judkins has 9720 with feature set king-buckets in this build"),
        # a judkins network whose header says shogi
        "variant.nnue": (header(8, b"shogi\0\0"),
                         "1080 inputs, shogi has 2520 with feature set psq in this build"),
        "unknown-set.nnue": (header(64, (7).to_bytes(4, "little")),
                             "feature set 7 is unknown to this build (it reads 0 = psq, "
                             "1 = king-buckets)"),
        "version.nnue": (header(4, (3).to_bytes(4, "little")),
                         "network format version 3, this build reads 2"),
    }
    for name, (data, reason) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        # the good file first: a refused one leaves it in use
        cmds = ["usi", "setoption name USI_Variant value judkins",
                f"setoption name EvalFile value {tmp_path / 'good.nnue'}",
                f"setoption name EvalFile value {path}", f"position sfen {sfens[0]}", "eval",
                "quit"]
        out = subprocess.run([kawari], input="\n".join(cmds) + "\n", capture_output=True,
                             text=True, timeout=60).stdout.splitlines()
        errors = [line for line in out if line.startswith("info string error")]
        assert len(errors) == 1 and errors[0].startswith(
            f"info string error: EvalFile: {reason}"), (name, errors)
        nets = [NETWORK_RE.match(line) for line in out if NETWORK_RE.match(line)]
        assert [(m[1], m[2], m[4]) for m in nets] == [("judkins", "psq", "16")], name
        # this reader refuses it as well, against the features it was made for
        with pytest.raises(nf.FormatError):
            nf.read_network(str(path), expect=feats)
