"""The PyTorch trainer (``kawari-train-torch``): it learns from the engine's own
samples, and the file it writes is the network it trained, as the engine sees it.

A tiny network (16 hidden units, a few epochs) is trained on a small datagen file
made by the engine; the engine loads the file, names it in ``eval``, and scores
random positions (pieces in hand, kings everywhere) as the float model does within
the rounding the file's integers allow (``bound`` says how much that is), exactly as
``nnue_files.engine_eval`` computes from the file. Skipped without PyTorch
(``pip install torch numpy``, docs/nnue.md)."""

import copy
import dataclasses
import subprocess
import sys

import pytest
from test_kawari import kawari  # noqa: F401  (the fixture: the built engine)
from test_nnue_files import datagen, engine_evals, features, random_positions

from kawari_tools import referee as R

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
from kawari_tools import nnue_files as nf  # noqa: E402  (needs numpy)
from kawari_tools import torch_train as tt  # noqa: E402  (needs torch)

# Tiny networks: one thread is quickest, and PyTorch's threads spin while they wait,
# which costs much on a busy machine.
torch.set_num_threads(1)


def bound(model, padded, net):
    """The most the engine's score of each position can differ from the float model's,
    in centipawns, given the rounding of the weights the position uses.

    Per perspective and hidden unit j, the file's 16-bit sum ``A_j`` differs from
    ``QA`` times the float sum ``a_j`` by ``d_j``: the rounding errors of the bias
    and of each active feature's row, known exactly from the float and the integer
    weights. Clipping is 1-Lipschitz, so ``|clip(A_j, 0, QA) / QA - clip(a_j, 0, 1)|
    <= |d_j| / QA``; with ``v_j`` the output weight, ``V_j = w2q_j / QB`` its rounding,
    each unit's product differs by at most ``|d_j| / QA * |V_j| + h_j * |V_j - v_j|``,
    the output bias by its rounding; times ``SCALE``, plus one centipawn for the
    engine's cut toward zero. Only the clipping and the products are bounded; each
    rounding error is the one the file has."""
    m = copy.deepcopy(model).to("cpu").double()
    qa, qb, scale = net.qa, net.qb, net.scale
    w1 = np.concatenate([m.folded_w1(), np.zeros((1, net.hidden))])     # the pad's row
    idx = np.where(padded == net.inputs, net.inputs, padded.astype(np.int64))
    b1 = m.b1.detach().numpy()
    a = b1 + w1[idx].sum(axis=2)                                        # (n, 2, hidden)
    wq = np.concatenate([net.ft_weights.astype(np.float64), np.zeros((1, net.hidden))])
    d = (net.ft_bias - qa * b1) + (wq[idx] - qa * w1[idx]).sum(axis=2)
    v = m.w2.detach().numpy().reshape(2, net.hidden)
    vq = net.out_weights.reshape(2, net.hidden) / qb
    h = np.clip(a, 0.0, 1.0)
    per_unit = np.abs(d) / qa * np.abs(vq) + h * np.abs(vq - v)
    b2 = abs(net.out_bias / (qa * qb) - float(m.b2.detach()))
    return scale * (per_unit.sum(axis=(1, 2)) + b2) + 1.0 + 1e-6


@pytest.fixture(scope="module")
def data(kawari, tmp_path_factory):  # noqa: F811
    tmp = tmp_path_factory.mktemp("torch")
    return datagen(kawari, tmp / "j.bin", games=60)


@pytest.mark.parametrize("feature_set", ["psq", "king-buckets"])
def test_a_trained_network_is_the_engines(kawari, data, tmp_path, feature_set):  # noqa: F811
    feats, _ = features(kawari, tmp_path / "j.kwft", "--data", str(data), "--holdout", "5",
                        "--features", feature_set)
    cfg = tt.TrainConfig(hidden=16, epochs=4, batch=64, lr=0.003, seed=9, patience=0,
                         device="cpu")
    model, r = tt.train(feats, cfg)
    # held-out loss falls, the lowest epoch is kept, quantizing changes it little
    kept = r.holdout_loss[r.best_epoch - 1]
    assert kept < r.holdout_loss[0] and min(r.holdout_loss) == kept, r
    assert abs(r.holdout_loss_quantized - kept) < 0.05 * kept, r
    assert r.clipped_weights == 0
    # the same seed trains the same network
    again, _ = tt.train(feats, cfg)
    assert all(torch.equal(p, q) for p, q in zip(model.parameters(), again.parameters()))

    net, _ = model.quantized(feats)
    path = tmp_path / "j.nnue"
    path.write_bytes(nf.network_bytes(net))
    sfens = random_positions()
    (tmp_path / "pos.txt").write_text("\n".join(sfens) + "\n")
    pos, _ = features(kawari, tmp_path / "pos.kwft", "--sfens", str(tmp_path / "pos.txt"),
                      "--features", feature_set)
    x = pos.train.padded(pos.inputs)
    nets, errors = engine_evals(kawari, path, sfens)
    assert errors == []
    assert [n[:4] for n in nets] == [("judkins", feature_set, feats.inputs, 16)] * len(sfens)
    engine = np.array([n[4] for n in nets])
    assert list(engine) == list(nf.engine_eval(net, x, pos.inputs))
    floats = tt.predict(model, x, feats.scale)
    limit = bound(model, x, net)
    assert (np.abs(engine - floats) <= limit).all(), \
        [(e, f, b) for e, f, b in zip(engine, floats, limit) if abs(e - f) > b]
    # the network has learnt something that tells these positions apart
    assert np.ptp(floats) > 5 * limit.max(), (np.ptp(floats), limit.max())


def test_another_k_rescales_the_output(kawari, data, tmp_path):  # noqa: F811
    feats, _ = features(kawari, tmp_path / "j.kwft", "--data", str(data), "--holdout", "5")
    cfg = tt.TrainConfig(hidden=16, epochs=2, batch=64, lr=0.003, seed=9, patience=0,
                         device="cpu")
    model, r = tt.train(feats, cfg)
    twice, r2 = tt.train(feats, dataclasses.replace(cfg, output_k=2 * r.k))
    # trained alike; the quantized loss stays (a finer QB) and the scores double
    assert r2.holdout_loss == r.holdout_loss and r2.output_k == 2 * r.k
    assert abs(r2.holdout_loss_quantized - r.holdout_loss_quantized) \
        < 0.01 * r.holdout_loss_quantized, (r, r2)
    net, _ = model.quantized(feats)
    net2, _ = twice.quantized(feats, r2.output_k / r2.k)
    x = feats.held.padded(feats.inputs)
    a, b = nf.engine_eval(net, x, feats.inputs), nf.engine_eval(net2, x, feats.inputs)
    assert np.abs(a).max() >= 10
    assert (np.abs(b - 2 * a) <= 2 + np.abs(a) // 50).all()


def test_the_command_line_writes_a_network_the_engine_loads(kawari, data, tmp_path):  # noqa: F811
    features(kawari, tmp_path / "j.kwft", "--data", str(data))
    out = tmp_path / "j.nnue"
    p = subprocess.run([sys.executable, "-m", "kawari_tools.cli.train_torch", "--data",
                        str(tmp_path / "j.kwft"), "--out", str(out), "--hidden", "16",
                        "--epochs", "2", "--batch", "128", "--device", "cpu", "--threads", "1"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0].startswith("judkins: 1080 inputs (psq), 16 hidden; ")
    assert "epoch 2/2" in p.stderr
    nets, errors = engine_evals(kawari, out, [R.get_variant("judkins").start_sfen])
    assert errors == [] and [n[:4] for n in nets] == [("judkins", "psq", 1080, 16)]
    # a features file of positions only cannot be trained on, and says why
    (tmp_path / "pos.txt").write_text(random_positions()[0] + "\n")
    features(kawari, tmp_path / "pos.kwft", "--sfens", str(tmp_path / "pos.txt"))
    p = subprocess.run([sys.executable, "-m", "kawari_tools.cli.train_torch", "--data",
                        str(tmp_path / "pos.kwft"), "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "no fitted K" in p.stderr, p.stderr
