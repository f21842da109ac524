"""Kawari's training inputs and network files, read and written with numpy.

Two formats, both defined on the Rust side (the engine is their reference):

- **features files** (``kawari features``, ``src/learn/export.rs``): the trainer's
  own samples, every position's active features from both perspectives (side to
  move first), its search score and its result, split into training and
  held-out positions as ``kawari train`` splits them. A trainer here never
  computes a feature itself.
- **network files** (``src/nnue/network.rs``, version 2): the quantized network
  the engine loads with ``EvalFile``; its header names the variant and the
  feature set, and the engine refuses a file whose inputs do not match them.

``quantize`` and ``network_bytes`` turn float weights into a network file exactly
as ``kawari train`` does (``Params::quantize``: round half away from zero in
32-bit floats, first-layer weights bounded first); ``engine_eval`` computes a
network's score of a position as the engine's ``eval`` prints it, in integers.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .network_scale import fnv1a

FEATURES_MAGIC = b"KWFT"
FEATURES_VERSION = 1
FEATURES_HEADER = 128
# flags of a features file
FLAG_SYMMETRIC = 1      # the variant's moves are mirror-symmetric
FLAG_MIRRORED = 2       # the training section holds each position's mirror image too

NETWORK_MAGIC = b"KWNN"
# the finest output quantization a network file may use (network.rs's MAX_QB)
MAX_QB = 1024
# the output sum's bound for a finer QB (train.rs's OUTPUT_SUM_LIMIT)
OUTPUT_SUM_LIMIT = float(1 << 30)
NETWORK_VERSION = 2
NETWORK_HEADER = 72

# FeatureSet::id -> FeatureSet::name (src/nnue/features.rs)
FEATURE_SETS = {0: "psq", 1: "king-buckets"}


class FormatError(ValueError):
    """A file that is not what it should be; the message names the file and why."""


@dataclass
class Section:
    """Positions of one section: ``offsets`` (2n + 1) into ``features``; position
    i's side to move sees ``features[offsets[2i]:offsets[2i+1]]``, the other side
    the next slice. Scores are centipawns and results 1, 0, -1, both for the side
    to move."""

    offsets: np.ndarray     # uint32
    features: np.ndarray    # uint16
    score: np.ndarray       # int16
    result: np.ndarray      # int8

    def __len__(self) -> int:
        return len(self.score)

    def padded(self, pad: int) -> np.ndarray:
        """The features as an (n, 2, width) uint16 array, each perspective's list
        filled up with ``pad`` to the longest one's length."""
        n = len(self)
        starts = self.offsets[:-1].astype(np.int64)
        lens = np.diff(self.offsets).astype(np.int64)
        width = int(lens.max()) if len(lens) else 0
        width = max(width, 1)
        out = np.full((2 * n, width), pad, dtype=np.uint16)
        # a column at a time: memory of one column's indices, not of every feature's
        for col in range(width):
            has = lens > col
            out[has, col] = self.features[starts[has] + col]
        return out.reshape(n, 2, width)


@dataclass
class FeaturesFile:
    """A features file: the layout it was made with and its two sections."""

    path: str
    variant: str
    set_id: int
    inputs: int             # the network file's inputs for this variant and set
    bucket_inputs: int      # inputs of one king bucket (= inputs for psq)
    flags: int
    k: float                # K of sigmoid(score / K), fitted by the Rust trainer
    qa: int
    qb: int
    scale: int
    w1_limit: float         # the Rust trainer's bounds on weights: they keep the
    w2_limit: float         # engine's 16-bit sums from overflowing
    holdout: int
    mirror: np.ndarray      # Layout::mirror of each feature of one bucket
    train: Section
    held: Section

    @property
    def feature_set(self) -> str:
        return FEATURE_SETS[self.set_id]

    @property
    def symmetric(self) -> bool:
        return bool(self.flags & FLAG_SYMMETRIC)

    @property
    def mirrored(self) -> bool:
        return bool(self.flags & FLAG_MIRRORED)


def _read_headed(path: str, magic: bytes, header: int, version: int,
                 kind: str, versioned: str) -> tuple[bytes, str]:
    """A file's bytes and the variant its header names, once its magic and version
    are checked (both formats share that start: magic, version, variant name)."""
    with open(path, "rb") as f:
        b = f.read()
    if len(b) < header or b[:4] != magic:
        raise FormatError(f"{path}: not a {kind} (no {magic.decode()} header)")
    found = struct.unpack_from("<I", b, 4)[0]
    if found != version:
        raise FormatError(f"{path}: {versioned} version {found}, this reader reads {version}")
    return b, b[8:40].split(b"\0", 1)[0].decode("ascii", "replace")


def read_features(path: str) -> FeaturesFile:
    """Reads a features file; ``FormatError`` says what is wrong with a bad one."""
    b, variant = _read_headed(path, FEATURES_MAGIC, FEATURES_HEADER, FEATURES_VERSION,
                              "features file of `kawari features`", "features file")
    (set_id, inputs, bucket_inputs, flags, k, qa, qb, scale, w1_limit, w2_limit,
     n_train, n_held, f_train, f_held, holdout) = struct.unpack_from("<4If3I2f4QI", b, 40)
    if set_id not in FEATURE_SETS:
        raise FormatError(f"{path}: feature set {set_id} is unknown to this reader "
                          f"(it reads {', '.join(f'{i} = {n}' for i, n in FEATURE_SETS.items())})")
    if bucket_inputs == 0 or inputs % bucket_inputs:
        raise FormatError(f"{path}: {inputs} inputs are not whole buckets of {bucket_inputs}")
    at = FEATURES_HEADER

    def take(dtype, count):
        nonlocal at
        size = np.dtype(dtype).itemsize * count
        if at + size > len(b):
            raise FormatError(f"{path}: {len(b)} bytes, shorter than its header says")
        a = np.frombuffer(b, dtype=dtype, count=count, offset=at)
        at += size
        return a

    mirror = take("<u2", bucket_inputs)
    sections = []
    for n, nf in ((n_train, f_train), (n_held, f_held)):
        offsets = take("<u4", 2 * n + 1)
        if offsets[-1] != nf or np.any(np.diff(offsets.astype(np.int64)) < 0):
            raise FormatError(f"{path}: its offsets do not fit its {nf} features")
        sections.append(Section(offsets, take("<u2", nf), take("<i2", n), take("i1", n)))
    if at != len(b):
        raise FormatError(f"{path}: {len(b)} bytes, its header says {at}")
    for s in sections:
        if len(s.features) and int(s.features.max()) >= inputs:
            raise FormatError(f"{path}: a feature beyond its {inputs} inputs")
    return FeaturesFile(path, variant, set_id, inputs, bucket_inputs, flags, k, qa, qb, scale,
                        w1_limit, w2_limit, holdout, mirror, sections[0], sections[1])


def round_half_away(x: np.ndarray, scale: float) -> np.ndarray:
    """``(x * scale).round()`` as Rust's ``f32::round``: in 32-bit floats, halves
    away from zero (numpy's own ``round`` takes halves to even)."""
    v = np.asarray(x, dtype=np.float32) * np.float32(scale)
    a = np.abs(v)
    r = np.floor(a)
    r += (a - r) >= np.float32(0.5)     # exact: a - floor(a) is exact in floats
    return np.copysign(r, v).astype(np.float64)


def to_int(x: np.ndarray, dtype) -> np.ndarray:
    """Rust's saturating ``as`` cast of rounded values to ``dtype``."""
    info = np.iinfo(dtype)
    return np.clip(x, info.min, info.max).astype(dtype)


@dataclass
class QuantizedNetwork:
    """A network as the file holds it."""

    variant: str
    set_id: int
    inputs: int
    hidden: int
    qa: int
    qb: int
    scale: int
    ft_bias: np.ndarray     # int16, hidden
    ft_weights: np.ndarray  # int16, (inputs, hidden)
    out_weights: np.ndarray  # int16, 2 * hidden: the side to move's units first
    out_bias: int           # int32


def output_quantization(w2: np.ndarray, b2: float, qa: int, qb: int) -> int:
    """The finest output quantization, from ``qb`` up to ``MAX_QB`` by powers of
    two, whose integers fit (each weight an i16, the output sum an i32), as
    ``train.rs``'s ``output_quantization`` chooses it."""
    w = np.abs(np.asarray(w2, dtype=np.float32))
    largest = np.float32(w.max()) if len(w) else np.float32(0)
    total = float(w.astype(np.float64).sum()) + abs(float(np.float32(b2)))
    q = MAX_QB
    while q > qb and (largest * np.float32(q) >= np.float32(32767)
                      or total * (qa * q) >= OUTPUT_SUM_LIMIT):
        q //= 2
    return q


def quantize(feats: FeaturesFile, b1: np.ndarray, w1: np.ndarray, w2: np.ndarray,
             b2: float) -> tuple[QuantizedNetwork, int]:
    """The network file's integers for float weights (``w1``: one row per input,
    king-bucket factors already folded in), as ``kawari train`` makes them (the
    output weights at the finest QB they fit); and how many first-layer weights
    the bound ``w1_limit`` cut."""
    hidden = len(b1)
    w1 = np.asarray(w1, dtype=np.float32)
    if w1.shape != (feats.inputs, hidden) or np.shape(w2) != (2 * hidden,):
        raise ValueError(f"weights of shape {w1.shape}, {np.shape(w2)} for "
                         f"{feats.inputs} inputs and {hidden} hidden units")
    if hidden == 0 or hidden % 16 or hidden > 2048:
        raise ValueError(f"{hidden} hidden units: must be a multiple of 16 up to 2048")
    lim = np.float32(feats.w1_limit)
    cut = int(np.count_nonzero(np.abs(w1) > lim))
    qb = output_quantization(w2, b2, feats.qa, feats.qb)
    q = QuantizedNetwork(
        feats.variant, feats.set_id, feats.inputs, hidden, feats.qa, qb, feats.scale,
        to_int(round_half_away(b1, feats.qa), np.int16),
        to_int(round_half_away(np.clip(w1, -lim, lim), feats.qa), np.int16),
        to_int(round_half_away(w2, qb), np.int16),
        int(to_int(round_half_away(np.float32(b2), feats.qa * qb), np.int32)),
    )
    return q, cut


def network_bytes(net: QuantizedNetwork) -> bytes:
    """The version-2 file image of ``net`` (``Network::to_bytes``)."""
    payload = b"".join([
        net.ft_bias.astype("<i2").tobytes(),
        net.ft_weights.astype("<i2").tobytes(),
        net.out_weights.astype("<i2").tobytes(),
        struct.pack("<i", net.out_bias),
    ])
    name = net.variant.encode("ascii")[:32].ljust(32, b"\0")
    header = NETWORK_MAGIC + struct.pack("<I", NETWORK_VERSION) + name + struct.pack(
        "<8I", net.inputs, net.hidden, net.qa, net.qb, net.scale, fnv1a(payload), net.set_id, 0)
    assert len(header) == NETWORK_HEADER
    return header + payload


def read_network(path: str, expect: Optional[FeaturesFile] = None) -> QuantizedNetwork:
    """Reads a version-2 network file; with ``expect``, refuses one whose variant,
    feature set or inputs are not that features file's (``FormatError``)."""
    b, variant = _read_headed(path, NETWORK_MAGIC, NETWORK_HEADER, NETWORK_VERSION,
                              "Kawari network file", "network format")
    inputs, hidden, qa, qb, scale, checksum, set_id, _ = struct.unpack_from("<8I", b, 40)
    if set_id not in FEATURE_SETS:
        raise FormatError(f"{path}: feature set {set_id} is unknown to this reader")
    size = NETWORK_HEADER + 2 * hidden + 2 * inputs * hidden + 4 * hidden + 4
    if len(b) != size:
        raise FormatError(f"{path}: {len(b)} bytes, the header says {size}")
    if fnv1a(b[NETWORK_HEADER:]) != checksum:
        raise FormatError(f"{path}: checksum mismatch: the file is damaged")
    if expect is not None:
        found = (variant, FEATURE_SETS[set_id], inputs)
        wanted = (expect.variant, expect.feature_set, expect.inputs)
        if found != wanted:
            raise FormatError(f"{path}: a network for {found[0]} {found[1]} with {found[2]} "
                              f"inputs, not {wanted[0]} {wanted[1]} with {wanted[2]}")
    at = NETWORK_HEADER
    ft_bias = np.frombuffer(b, "<i2", hidden, at)
    at += 2 * hidden
    ft_weights = np.frombuffer(b, "<i2", inputs * hidden, at).reshape(inputs, hidden)
    at += 2 * inputs * hidden
    out_weights = np.frombuffer(b, "<i2", 2 * hidden, at)
    out_bias = struct.unpack_from("<i", b, at + 4 * hidden)[0]
    return QuantizedNetwork(variant, set_id, inputs, hidden, qa, qb, scale,
                            ft_bias, ft_weights, out_weights, out_bias)


def engine_eval(net: QuantizedNetwork, padded: np.ndarray, pad: int) -> np.ndarray:
    """The engine's score (centipawns, side to move) of each position of
    ``padded`` ((n, 2, width) features, ``pad`` for none), computed as
    ``Network::output`` does: 16-bit wrapping sums, activations clipped to
    ``[0, QA]``, the output sum times ``SCALE / (QA * QB)`` cut toward zero."""
    rows = np.concatenate([net.ft_weights.astype(np.int64),
                           np.zeros((1, net.hidden), np.int64)])
    idx = np.where(padded == pad, net.inputs, padded.astype(np.int64))
    acc = np.broadcast_to(net.ft_bias.astype(np.int64), idx.shape[:2] + (net.hidden,)).copy()
    for slot in range(idx.shape[2]):        # one feature a side at a time: (n, 2, hidden)
        acc += rows[idx[:, :, slot]]
    acc = (acc + 32768) % 65536 - 32768
    act = np.clip(acc, 0, net.qa)
    w = net.out_weights.astype(np.int64).reshape(2, net.hidden)
    s = (act * w).sum(axis=(1, 2)) + net.out_bias
    q = np.abs(s) * net.scale // (net.qa * net.qb)
    return np.sign(s) * q
