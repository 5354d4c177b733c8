#!/usr/bin/env python3
"""Folder-level include graph of core/: counts pairs of folders that reach each other
(directly or through others) and includes that point up the documented layer order; and the
clients (cli/, wasm/), which reach the core only through its API (core/api.h, core/api/) and
the shared vocabulary of core/base/ (JSON, errors, the version).

  scripts/check_layers.py            report; exit 1 on any cycle or upward include
  scripts/check_layers.py --count    print only the number of mutually reaching pairs
  scripts/check_layers.py --quiet    print only the problems (the build runs it so)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = ROOT / "core"
INCLUDE = re.compile(r'^\s*#\s*include\s+"(core/[^"]+)"', re.M)

# Lowest first; a folder may include only folders listed before it (docs/architecture.md). The
# same order as PALEO_CORE_LAYERS in CMakeLists.txt.
# "api.h" is core/api.h, the top, owned by api/.
LAYERS = [
    "base", "hardware", "precision", "spec", "efficiency", "cost", "original", "cluster",
    "training_scheme", "search", "transformer", "serving", "planner", "import", "validation",
    "calibration", "api",
]


# What a client of the core may include of it.
CLIENTS = ["cli", "wasm"]
CLIENT_MAY_INCLUDE = ("core/api.h", "core/api/", "core/base/")


def client_reach_arounds():
    sites = []
    for client in CLIENTS:
        for path in sorted((ROOT / client).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
                if not target.startswith(CLIENT_MAY_INCLUDE):
                    sites.append(f"{path.relative_to(ROOT)} -> {target}")
    return sites


def folder_of(rel):
    parts = rel.split("/")
    if len(parts) == 2:  # core/api.h
        return "api"
    return parts[1]


def include_graph():
    edges = {}
    for path in sorted(CORE.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        src = folder_of(str(path.relative_to(ROOT)))
        for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
            dst = folder_of(target)
            if dst != src:
                edges.setdefault(src, {}).setdefault(dst, []).append(
                    f"{path.relative_to(ROOT)} -> {target}")
    return edges


def reachable(edges, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in edges.get(todo.pop(), {}):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def main():
    edges = include_graph()
    folders = sorted(set(edges) | {d for e in edges.values() for d in e})
    reach = {f: reachable(edges, f) for f in folders}
    pairs = [(a, b) for i, a in enumerate(folders) for b in folders[i + 1:]
             if b in reach[a] and a in reach[b]]
    if "--count" in sys.argv:
        print(len(pairs))
        return 0
    problems = 0
    for a, b in pairs:
        print(f"cycle: {a} <-> {b}")
        problems += 1
    rank = {name: i for i, name in enumerate(LAYERS)}
    for src in folders:
        if src not in rank:
            print(f"unknown folder core/{src}/: add it to LAYERS and docs/architecture.md")
            problems += 1
            continue
        for dst, sites in sorted(edges.get(src, {}).items()):
            if dst not in rank or rank[dst] > rank[src]:
                for site in sites:
                    print(f"upward include (core/{dst}/ is above core/{src}/): {site}")
                    problems += 1
    for site in client_reach_arounds():
        print(f"client reaches below the API (use core/api/): {site}")
        problems += 1
    if problems or "--quiet" not in sys.argv:
        print(f"{len(pairs)} folder pairs in a cycle, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
