"""The package's shape: no import circle, no library module importing a command
line module, no module importing Ray but the cluster ones, no ``sys.path`` edits,
no file over 800 lines."""

import ast
import os

from conftest import SCRIPTS_DIR

PACKAGE = os.path.join(SCRIPTS_DIR, "src", "kawari_tools")
MAX_LINES = 800
# the Ray plumbing, the Ray runner, and datagen (a cluster tool; Ray is imported in
# the function that joins the cluster)
RAY_MODULES = {"kawari_tools.cluster", "kawari_tools.match.ray_runner", "kawari_tools.datagen"}
SYS_PATH_EDITS = ("sys.path." + "insert", "sys.path." + "append")


def modules() -> dict[str, str]:
    """Dotted name -> path of every module of the package."""
    out = {}
    for folder, _, files in os.walk(PACKAGE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, os.path.dirname(PACKAGE))[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = path
    return out


def imports(path: str, names: set[str]) -> tuple[set[str], set[str]]:
    """(package modules, other top-level modules) that ``path`` imports, at any depth
    (a function-level import is an import too)."""
    ours, others = set(), set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            if t in names:
                ours.add(t)
            elif not t.startswith("kawari_tools"):
                others.add(t.split(".")[0])
    return ours, others


def test_no_import_circle_and_no_library_imports_a_command_line():
    mods = modules()
    names = set(mods)
    graph = {m: imports(p, names)[0] - {m} for m, p in mods.items()}
    for m, deps in graph.items():
        if not m.startswith("kawari_tools.cli"):
            assert not {d for d in deps if d.startswith("kawari_tools.cli")}, m
    # a module depends on its package's __init__ only through Python, not by design
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            if m.startswith(d + "."):
                continue
            assert state.get(d) != 1, " -> ".join(trail + [m, d])
            if d not in state:
                visit(d, trail + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_only_the_cluster_modules_import_ray():
    mods = modules()
    for m, path in mods.items():
        if "ray" in imports(path, set(mods))[1]:
            assert m in RAY_MODULES, m


def test_no_file_is_too_long_and_none_edits_sys_path():
    for folder, _, files in os.walk(SCRIPTS_DIR):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                text = open(path, encoding="utf-8").read()
                assert text.count("\n") <= MAX_LINES, path
                assert not any(edit in text for edit in SYS_PATH_EDITS), path
