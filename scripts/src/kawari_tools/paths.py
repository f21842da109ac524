"""Where the tools find the repository's files: the openings suites, the engine
builds and Heian's definition.

The package is meant to be installed editable from the checkout
(``pip install -e scripts``), so the repository root is found from this file's
place (``scripts/src/kawari_tools/``); ``heian.ini`` ships inside the package.
"""

from __future__ import annotations

import os

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# scripts/src/kawari_tools -> the checkout's root
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE_DIR)))
# The Heian definitions sent as VariantPath and loaded into pyffish.
DEFAULT_HEIAN_INI = os.path.join(PACKAGE_DIR, "data", "heian.ini")
# The balanced opening suites (``kawari-openings``), one per variant.
OPENINGS_DIR = os.path.join(REPO_ROOT, "openings")
# ``cargo build --release`` and the tune build (``--features tune --target-dir target/tune``).
KAWARI_BINARY = os.path.join(REPO_ROOT, "target", "release", "kawari")
TUNE_BINARY = os.path.join(REPO_ROOT, "target", "tune", "release", "kawari")


def display_path(path: str) -> str:
    """``path`` relative to the repository root when it lies inside it."""
    rel = os.path.relpath(path, REPO_ROOT)
    return path if rel.startswith("..") else rel
