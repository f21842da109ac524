#!/usr/bin/env python3
"""Rescale a network file's output from one K to another (the same network, its
centipawns times TO_K / FROM_K), for the search's margins.

    kawari-rescale-net nets/shogi.nnue shogi-k500.nnue --from-k 1794 --to-k 500

FROM_K is the scale the network was trained at (``kawari train`` prints it as
"the network's K"). See ``kawari_tools.network_scale``.
"""

import argparse
import sys
from typing import Optional

from kawari_tools.network_scale import NetworkFileError, rescale_output


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="network file to read")
    ap.add_argument("output", help="network file to write")
    ap.add_argument("--from-k", type=float, required=True, help="the network's K now")
    ap.add_argument("--to-k", type=float, required=True, help="the K to give it")
    args = ap.parse_args(argv)
    if args.from_k <= 0 or args.to_k <= 0:
        ap.error("K must be positive")
    try:
        with open(args.input, "rb") as f:
            data = rescale_output(f.read(), args.to_k / args.from_k)
    except (OSError, NetworkFileError) as e:
        print(f"kawari-rescale-net: {args.input}: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
