#!/usr/bin/env python3
"""Kept for one release so that `python3 scripts/find_short_wins.py ...` keeps working: the
command is now `kawari-find-short-wins` (pip install -e scripts), with the same flags."""

import sys

try:
    from kawari_tools.cli.find_short_wins import main
except ImportError as e:
    sys.exit(f"scripts/find_short_wins.py needs the kawari-tools package ({e}); install it with "
             f"`python3 -m pip install -e scripts` from the repository root")

if __name__ == "__main__":
    sys.exit(main())
