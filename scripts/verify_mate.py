#!/usr/bin/env python3
"""Kept for one release so that `python3 scripts/verify_mate.py ...` keeps working: the
command is now `kawari-verify-mate` (pip install -e scripts), with the same flags."""

import sys

try:
    from kawari_tools.cli.verify_mate import main
except ImportError as e:
    sys.exit(f"scripts/verify_mate.py needs the kawari-tools package ({e}); install it with "
             f"`python3 -m pip install -e scripts` from the repository root")

if __name__ == "__main__":
    sys.exit(main())
