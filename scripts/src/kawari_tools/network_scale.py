"""Rescaling a network file's output: the same network, its centipawns multiplied.

The search's margins are centipawns, so a network's scale (the ``K`` of
``sigmoid(cp / K)``) decides how hard it prunes (docs/nnue.md). ``kawari train
--output-k`` sets it when a network is trained; this sets it on a file that
exists, for which the training data may be gone: the output weights and bias are
multiplied by ``to_k / from_k`` and written at the finest output quantization
(``qb``, a power of two from ``MIN_QB`` to ``MAX_QB``) whose integers fit, as
the trainer chooses it; a factor so large that even ``MIN_QB`` overflows is
refused. The first layer is untouched, so only the output's rounding differs
from a network trained at that scale. Reads and writes both file versions (1:
64-byte header, piece-square inputs; 2: 72 bytes with the feature set), with
``struct`` alone.
"""

from __future__ import annotations

import math
import struct

MAGIC = b"KWNN"
HEADERS = {1: 64, 2: 72}      # header bytes by file version (src/nnue/network.rs)
MIN_QB = 64                   # network.rs's QB: the coarsest the engine reads
MAX_QB = 1024                 # network.rs's MAX_QB
OUTPUT_SUM_LIMIT = float(1 << 30)   # train.rs's OUTPUT_SUM_LIMIT
QB_AT = 52                    # byte offset of qb in the header
CHECKSUM_AT = 60              # byte offset of the payload's checksum


class NetworkFileError(ValueError):
    """Bytes that are not a network file this module reads."""


def fnv1a(data: bytes) -> int:
    """FNV-1a, 32 bits: the network file's checksum of its payload."""
    h = 0x811C9DC5
    for c in data:
        h = ((h ^ c) * 0x01000193) & 0xFFFFFFFF
    return h


def round_half_away(x: float) -> int:
    """Rust's ``f64::round``: halves away from zero."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def rescale_output(data: bytes, factor: float) -> bytes:
    """The file image of ``data``'s network with its output times ``factor``."""
    if len(data) < 8 or data[:4] != MAGIC:
        raise NetworkFileError("not a Kawari network file (no KWNN header)")
    version = struct.unpack_from("<I", data, 4)[0]
    header = HEADERS.get(version)
    if header is None:
        raise NetworkFileError(f"network format version {version}, this reads 1 and 2")
    inputs, hidden, qa, qb, _scale, checksum = struct.unpack_from("<6I", data, 40)
    size = header + 2 * hidden + 2 * inputs * hidden + 4 * hidden + 4
    if len(data) != size:
        raise NetworkFileError(f"{len(data)} bytes, the header says {size}")
    if fnv1a(data[header:]) != checksum:
        raise NetworkFileError("checksum mismatch: the file is damaged")
    if not factor > 0:
        raise ValueError(f"factor {factor}: must be positive")
    at = header + 2 * hidden + 2 * inputs * hidden
    weights = struct.unpack_from(f"<{2 * hidden}h", data, at)
    bias = struct.unpack_from("<i", data, at + 4 * hidden)[0]
    # Float weights times factor, then the finest qb they fit at.
    floats = [w * factor / qb for w in weights]
    largest = max(abs(w) for w in floats)
    total = sum(abs(w) for w in floats) + abs(bias * factor / (qa * qb))
    def fits(q: int) -> bool:
        return largest * q < 32767 and total * qa * q < OUTPUT_SUM_LIMIT

    q = MAX_QB
    while q > MIN_QB and not fits(q):
        q //= 2
    if not fits(q):
        raise NetworkFileError(f"factor {factor}: the output weights overflow even at qb {MIN_QB}")
    new_weights = [round_half_away(w * factor * q / qb) for w in weights]
    new_bias = round_half_away(bias * factor * q / qb)
    out = bytearray(data)
    struct.pack_into(f"<{2 * hidden}h", out, at, *new_weights)
    struct.pack_into("<i", out, at + 4 * hidden, new_bias)
    struct.pack_into("<I", out, QB_AT, q)
    struct.pack_into("<I", out, CHECKSUM_AT, fnv1a(bytes(out[header:])))
    return bytes(out)
