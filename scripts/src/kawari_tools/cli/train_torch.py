#!/usr/bin/env python3
"""Train a Kawari network with PyTorch (on a GPU where there is one) and write the
network file the engine loads, as ``kawari train`` does.

The input is a features file made by the engine from datagen files, with the Rust
trainer's own features, held-out games and mirror images:

    kawari features --variant judkins --data judkins.bin --out judkins.kwft
    kawari-train-torch --data judkins.kwft --out judkins.nnue

Needs PyTorch and numpy (``pip install torch numpy``); ``docs/nnue.md`` has more.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional


def boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise argparse.ArgumentTypeError(f"'{text}': true or false")
    return text == "true"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="a features file of `kawari features`")
    ap.add_argument("--out", required=True, help="the network file to write")
    ap.add_argument("--hidden", type=int, default=128,
                    help="hidden units per perspective, a multiple of 16 (128)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over the data (4)")
    ap.add_argument("--batch", type=int, default=1024, help="positions per step (1024)")
    ap.add_argument("--lr", type=float, default=0.001, help="Adam's learning rate (0.001)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75,
                    help="weight of the search score against the result (0.75)")
    ap.add_argument("--patience", type=int, default=2,
                    help="stop after n epochs without a lower held-out loss; 0 never (2)")
    ap.add_argument("--bucket-decay", type=float, default=50.0,
                    help="king buckets: weight decay of the buckets' rows (50)")
    ap.add_argument("--symmetric-factor", type=boolean, default=True,
                    help="king buckets: a factor shared by mirror-image squares (true)")
    ap.add_argument("--output-k", type=float,
                    help="the network's K: its output rescaled so that sigmoid(cp / K) is "
                         "the expected result (default: the data's own K)")
    ap.add_argument("--seed", type=int, default=1, help="initial weights and shuffles (1)")
    ap.add_argument("--device", help="cpu, cuda, cuda:1, ... (default: cuda if available)")
    ap.add_argument("--threads", type=int, help="CPU threads for PyTorch (default: its own)")
    args = ap.parse_args(argv)
    if args.hidden <= 0 or args.hidden % 16 or args.hidden > 2048:
        ap.error(f"--hidden {args.hidden}: a multiple of 16 up to 2048")
    if not 0.0 <= args.lam <= 1.0:
        ap.error(f"--lambda {args.lam}: 0..1")
    if args.epochs < 1 or args.batch < 1:
        ap.error("--epochs and --batch: at least 1")
    if args.output_k is not None and not 30.0 <= args.output_k <= 3000.0:
        ap.error(f"--output-k {args.output_k}: 30..3000")
    try:
        import torch

        from kawari_tools import nnue_files as nf
        from kawari_tools import torch_train as tt
    except ImportError as e:
        print(f"kawari-train-torch: {e}: install PyTorch and numpy "
              f"(pip install torch numpy)", file=sys.stderr)
        return 1
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        feats = nf.read_features(args.data)
    except (OSError, nf.FormatError) as e:
        print(f"kawari-train-torch: {e}", file=sys.stderr)
        return 2
    cfg = tt.TrainConfig(hidden=args.hidden, epochs=args.epochs, batch=args.batch, lr=args.lr,
                         lam=args.lam, seed=args.seed, patience=args.patience,
                         bucket_decay=args.bucket_decay,
                         symmetric_factor=args.symmetric_factor, device=args.device,
                         output_k=args.output_k)
    try:
        model, r = tt.train(feats, cfg, lambda line: print(line, file=sys.stderr, flush=True))
    except (ValueError, RuntimeError) as e:
        print(f"kawari-train-torch: {e}", file=sys.stderr)
        return 2
    net, _ = model.quantized(feats, r.output_k / r.k)
    try:
        with open(args.out, "wb") as f:
            f.write(nf.network_bytes(net))
    except OSError as e:
        print(f"kawari-train-torch: {args.out}: {e}", file=sys.stderr)
        return 1
    print(f"{feats.variant}: {feats.inputs} inputs ({feats.feature_set}), {args.hidden} hidden; "
          f"{r.train_positions} training and {r.holdout_positions} held-out positions; "
          f"K {r.k:.0f}, the network's {r.output_k:.0f}; on {r.device}")
    print(f"held-out loss: {r.holdout_loss[r.best_epoch - 1]:.6f} (float, epoch {r.best_epoch} "
          f"kept), {r.holdout_loss_quantized:.6f} (quantized); the search scores "
          f"themselves: {r.holdout_loss_of_scores:.6f}")
    if r.clipped_weights:
        print(f"note: {r.clipped_weights} first-layer weights were cut to the bound "
              f"{feats.w1_limit:g} (the engine's 16-bit sums need it)")
    print(f"seconds per epoch: {', '.join(f'{s:.1f}' for s in r.epoch_seconds)}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
