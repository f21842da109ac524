"""``kawari train`` in PyTorch, for a GPU where there is one: the same network, loss,
optimiser and schedule, written to the same network file.

The samples are the Rust trainer's own (``kawari features`` writes them: the same
features, held-out games and mirror images, and its fitted ``K``). The model is
``src/learn/train.rs``'s:

- a first layer shared by both perspectives, ``acc = b1 + sum W1[f]`` over the
  active features, clipped to [0, 1] (gradient zero at and beyond the bounds, as
  there), the side to move's units then the other side's into one linear output
  ``y``, the score ``y * SCALE`` centipawns;
- with king buckets, the rows of a piece-square factor shared by every bucket
  (and one shared by mirror-image squares, where the variant allows), the buckets
  starting at zero and decayed by ``bucket_decay``; the export folds the factors
  into each bucket;
- loss: the squared error of ``sigmoid(score / K)`` against
  ``lambda * sigmoid(search score / K) + (1 - lambda) * result``, averaged over a
  batch; Adam (0.9, 0.999, 1e-8), the learning rate decayed by a cosine to a
  twentieth step by step; weights bounded after each step as there;
- the held-out loss after each epoch; the epoch with the lowest is kept, and
  training stops after ``patience`` epochs without a new lowest.

The float results differ from the Rust trainer's in the last bits (another random
initialisation, another summation order), not in kind.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import torch
import torch.nn.functional as F

from kawari_tools.nnue_files import FeaturesFile, QuantizedNetwork, engine_eval, quantize

# The Rust trainer's initial weights (Params::new): first-layer rows uniform in
# +-0.5/sqrt(30), biases in [0, 0.5], output weights in +-1/sqrt(2 * hidden).
INIT_W1 = 0.5 / math.sqrt(30.0)
INIT_B1 = 0.5
# The learning rate's floor, a fraction of the initial one (train.rs's schedule).
LR_FLOOR = 0.05
# Bound on the output bias after each step (train.rs's Adam::step).
B2_LIMIT = 1000.0
# Positions per batch when only evaluating (no gradient).
EVAL_BATCH = 16384


@dataclass
class TrainConfig:
    """What to train; the defaults are ``kawari train``'s."""

    hidden: int = 128
    epochs: int = 4
    batch: int = 1024
    lr: float = 0.001
    lam: float = 0.75
    seed: int = 1
    patience: int = 2
    bucket_decay: float = 50.0
    symmetric_factor: bool = True
    device: Optional[str] = None        # None: cuda if available, else cpu
    # the network's K: its output rescaled after training so that sigmoid(cp / K)
    # is the expected result (None: the data's own K), as ``kawari train --output-k``
    output_k: Optional[float] = None


@dataclass
class Report:
    """What a run measured (``train.rs``'s ``Report`` and the time)."""

    train_positions: int
    holdout_positions: int
    k: float
    holdout_loss_of_scores: float
    output_k: float = 0.0
    holdout_loss: list = field(default_factory=list)
    train_loss: list = field(default_factory=list)
    epoch_seconds: list = field(default_factory=list)
    best_epoch: int = 0
    holdout_loss_quantized: float = float("nan")
    clipped_weights: int = 0
    device: str = "cpu"


class Model(torch.nn.Module):
    """The network in floats; ``rows`` first-layer rows (the inputs, then any
    factor rows) and one more, always zero, for the padding of feature lists."""

    def __init__(self, feats: FeaturesFile, hidden: int, symmetric_factor: bool,
                 gen: torch.Generator):
        super().__init__()
        if hidden <= 0 or hidden % 16:
            raise ValueError(f"--hidden {hidden}: a multiple of 16")
        self.inputs, self.hidden = feats.inputs, hidden
        block = feats.bucket_inputs
        self.factored = feats.inputs > block
        rows = feats.inputs + (2 * block if self.factored else 0)
        self.pad = rows
        w1 = torch.zeros(rows + 1, hidden)
        if self.factored:
            w1[feats.inputs:feats.inputs + block].uniform_(-INIT_W1, INIT_W1, generator=gen)
        else:
            w1[:feats.inputs].uniform_(-INIT_W1, INIT_W1, generator=gen)
        self.w1 = torch.nn.Parameter(w1)
        self.b1 = torch.nn.Parameter(torch.rand(hidden, generator=gen) * INIT_B1)
        s2 = 1.0 / math.sqrt(2 * hidden)
        self.w2 = torch.nn.Parameter(torch.empty(2 * hidden).uniform_(-s2, s2, generator=gen))
        self.b2 = torch.nn.Parameter(torch.zeros(()))
        # Feature -> its rows: its own, the plain factor's, the symmetric
        # factor's (train.rs's Factor::of); the padding maps to itself.
        own = torch.arange(feats.inputs + 1)
        luts = [own.clone()]
        if self.factored:
            piece_square = own[:-1] % block
            mirror = torch.from_numpy(feats.mirror.astype(np.int64))
            sym = (torch.minimum(piece_square, mirror[piece_square])
                   if feats.symmetric and symmetric_factor else piece_square)
            for base, row in ((feats.inputs, piece_square), (feats.inputs + block, sym)):
                lut = own.clone()
                lut[:-1] = base + row
                lut[-1] = rows
                luts.append(lut)
        luts[0][-1] = rows
        self.register_buffer("luts", torch.stack(luts))

    def rows_of(self, idx: torch.Tensor) -> torch.Tensor:
        """The first-layer rows of features ``idx`` (..., width), padding being
        ``inputs``: (..., width * rows per feature)."""
        return torch.cat([lut[idx] for lut in self.luts], dim=-1)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """Output (network units) of positions ``idx`` (n, 2, width)."""
        n = idx.shape[0]
        rows = self.rows_of(idx).reshape(2 * n, -1)
        acc = F.embedding_bag(rows, self.w1, mode="sum", padding_idx=self.pad)
        acc = acc.reshape(n, 2 * self.hidden) + self.b1.repeat(2)
        return F.hardtanh(acc, 0.0, 1.0) @ self.w2 + self.b2

    @torch.no_grad()
    def folded_w1(self) -> np.ndarray:
        """The file's first-layer rows: each input's own row plus its factors'."""
        own = torch.arange(self.inputs, device=self.w1.device)
        w = self.w1[own].clone()
        for lut in self.luts[1:]:
            w += self.w1[lut[:-1]]
        return w.cpu().numpy()

    def quantized(self, feats: FeaturesFile,
                  output_scale: float = 1.0) -> tuple[QuantizedNetwork, int]:
        """The network file's integers and how many weights the bound cut; the
        output multiplied by ``output_scale`` (a network of another K)."""
        with torch.no_grad():
            f = np.float32(output_scale)
            w2 = self.w2.cpu().numpy().astype(np.float32) * f
            b2 = float(np.float32(float(self.b2)) * f)
            return quantize(feats, self.b1.cpu().numpy(), self.folded_w1(), w2, b2)


def device_of(name: Optional[str]) -> torch.device:
    """``name``, or cuda where PyTorch sees a GPU, else the CPU."""
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def targets(score: np.ndarray, result: np.ndarray, k: float, lam: float) -> np.ndarray:
    """The blended target: ``lam * sigmoid(score / K) + (1 - lam) * result``, the
    result as 1, 0.5, 0."""
    s = 1.0 / (1.0 + np.exp(-score.astype(np.float32) / np.float32(k)))
    r = (result.astype(np.float32) + 1.0) / 2.0
    return (lam * s + (1.0 - lam) * r).astype(np.float32)


def mean_loss(model: Model, x: np.ndarray, t: np.ndarray, c: float,
              device: torch.device) -> float:
    """Mean loss of the float model over positions ``x`` with targets ``t``."""
    if len(t) == 0:
        return 0.0
    total = 0.0
    with torch.no_grad():
        for a in range(0, len(t), EVAL_BATCH):
            idx = torch.from_numpy(x[a:a + EVAL_BATCH].astype(np.int64)).to(device)
            p = torch.sigmoid(model(idx) * c)
            tt = torch.from_numpy(t[a:a + EVAL_BATCH]).to(device)
            total += float(((p - tt) ** 2).sum(dtype=torch.float64))
    return total / len(t)


def quantized_loss(net: QuantizedNetwork, x: np.ndarray, t: np.ndarray, k: float,
                   pad: int) -> float:
    """Mean loss of the quantized network as the engine computes it."""
    if len(t) == 0:
        return 0.0
    total = 0.0
    for a in range(0, len(t), 1024):
        cp = engine_eval(net, x[a:a + 1024], pad).astype(np.float64)
        d = 1.0 / (1.0 + np.exp(-cp / k)) - t[a:a + 1024]
        total += float((d * d).sum())
    return total / len(t)


def train(feats: FeaturesFile, cfg: TrainConfig,
          progress: Callable[[str], None] = lambda _: None) -> tuple[Model, Report]:
    """Trains a network on ``feats``' training section, reports the held-out
    loss each epoch and returns the best epoch's model."""
    if len(feats.train) == 0:
        raise ValueError(f"{feats.path}: no training positions")
    if feats.k <= 0:
        raise ValueError(f"{feats.path}: no fitted K (a file of --sfens positions is "
                         f"for evaluating, not training)")
    device = device_of(cfg.device)
    gen = torch.Generator().manual_seed(cfg.seed)
    model = Model(feats, cfg.hidden, cfg.symmetric_factor, gen).to(device)
    pad = feats.inputs
    x_train = feats.train.padded(pad)
    x_held = feats.held.padded(pad)
    k = float(feats.k)
    output_k = float(cfg.output_k) if cfg.output_k else k
    t_train = targets(feats.train.score, feats.train.result, k, cfg.lam)
    t_held = targets(feats.held.score, feats.held.result, k, cfg.lam)
    p_held = 1.0 / (1.0 + np.exp(-feats.held.score.astype(np.float64) / k))
    report = Report(len(feats.train), len(feats.held), k,
                    float(((p_held - t_held) ** 2).mean()) if len(t_held) else 0.0,
                    output_k=output_k, device=str(device))
    progress(f"{len(feats.train)} training, {len(feats.held)} held-out positions; "
             f"K = {k:.0f}; on {device}")
    c = feats.scale / k
    # fused: one kernel for the whole update (CPU too from PyTorch 2.4), the same sums
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.9, 0.999), eps=1e-8,
                           fused=True)
    rng = np.random.default_rng(cfg.seed)
    n = len(feats.train)
    steps_per_epoch = -(-n // cfg.batch)
    total_steps = max(steps_per_epoch * cfg.epochs, 1)
    w1_limit, w2_limit = feats.w1_limit, feats.w2_limit
    bucket_rows = feats.inputs if model.factored else 0
    best = None
    step = 0
    for epoch in range(1, cfg.epochs + 1):
        start = time.perf_counter()
        order = rng.permutation(n)
        train_loss = torch.zeros((), dtype=torch.float64, device=device)
        for a in range(0, n, cfg.batch):
            chunk = order[a:a + cfg.batch]
            lr = cfg.lr * (LR_FLOOR + (1 - LR_FLOOR) * 0.5 * (
                1 + math.cos(math.pi * step / total_steps)))
            for g in opt.param_groups:
                g["lr"] = lr
            idx = torch.from_numpy(x_train[chunk].astype(np.int64)).to(device)
            t = torch.from_numpy(t_train[chunk]).to(device)
            p = torch.sigmoid(model(idx) * c)
            sq = (p - t) ** 2
            loss = sq.mean()
            opt.zero_grad(set_to_none=False)
            loss.backward()
            opt.step()
            with torch.no_grad():
                model.w1.clamp_(-w1_limit, w1_limit)
                if bucket_rows and cfg.bucket_decay > 0:
                    model.w1[:bucket_rows] *= 1.0 - lr * cfg.bucket_decay
                model.b1.clamp_(-w1_limit, w1_limit)
                model.w2.clamp_(-w2_limit, w2_limit)
                model.b2.clamp_(-B2_LIMIT, B2_LIMIT)
                train_loss += sq.detach().sum(dtype=torch.float64)
            step += 1
        if device.type == "cuda":
            torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        hl = mean_loss(model, x_held, t_held, c, device)
        tl = float(train_loss) / n
        report.holdout_loss.append(hl)
        report.train_loss.append(tl)
        report.epoch_seconds.append(seconds)
        progress(f"epoch {epoch}/{cfg.epochs}: train loss {tl:.6f}, held-out loss {hl:.6f} "
                 f"({seconds:.1f} s)")
        # Without held-out positions every epoch is the best: keep the last.
        if best is None or len(t_held) == 0 or hl < best[0]:
            best = (hl, epoch, copy.deepcopy(model.state_dict()))
        if cfg.patience > 0 and epoch - best[1] >= cfg.patience:
            progress(f"no lower held-out loss for {cfg.patience} epochs: stopping, "
                     f"keeping epoch {best[1]}")
            break
    model.load_state_dict(best[2])
    report.best_epoch = best[1]
    net, report.clipped_weights = model.quantized(feats, output_k / k)
    report.holdout_loss_quantized = quantized_loss(net, x_held, t_held, output_k, pad)
    return model, report


def predict(model: Model, padded: np.ndarray, scale: int) -> np.ndarray:
    """The float model's scores in centipawns (float64) of positions ``padded``."""
    m = copy.deepcopy(model).to("cpu").double()
    with torch.no_grad():
        return (m(torch.from_numpy(padded.astype(np.int64))) * scale).numpy()
