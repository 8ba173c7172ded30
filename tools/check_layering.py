#!/usr/bin/env python3
"""Reports #include edges that run against the intended direction of the layout.

Usage: tools/check_layering.py [--root DIR]

Three rules, read from the tables below (the top README's map says the same in words):
  1. A top-level folder includes only itself and the folders listed as below it.
  2. Inside a folder with rooms, a file includes only its own room and the rooms listed
     before it (rooms are ordered from the bottom up). Files at a roomed folder's top
     level are not allowed: every file has a room.
  3. libpg_query's functions (pg_query.h, pg_query_* calls) are used only in
     planner/parser/, the one place that parses SQL and PL/pgSQL text. The parse tree's
     node types (pg_query.pb-c.h) may be read by any layer above it.

Prints one line per violation and exits 1 if there is any, 0 otherwise.
"""
import argparse
import pathlib
import re
import sys

# Each top-level source folder and the folders it may include (besides itself).
FOLDERS = {
    "engine": [],
    "planner": ["engine"],
    "codegen": ["planner", "engine"],
    "frontend": ["codegen", "planner", "engine"],
    "server": ["frontend", "codegen", "planner", "engine"],
    "bench": ["frontend", "codegen", "planner", "engine"],
    "cli": ["server", "frontend", "codegen", "planner", "engine"],
    "tests": ["cli", "server", "bench", "frontend", "codegen", "planner", "engine"],
}

# Rooms of a folder, bottom first.
ROOMS = {
    "engine": ["types", "procedure", "storage", "log", "execution", "durability"],
    "planner": ["types", "parser", "expr", "catalog", "plan", "binder", "analysis", "exec"],
    "codegen": ["runtime", "jit", "interpreter", "procedures"],
    "frontend": ["session", "shell"],
}

PG_QUERY_HOME = "planner/parser/"
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
PG_QUERY_CALL = re.compile(r"\bpg_query_(?!_)\w+\s*\(")


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def check(root: pathlib.Path) -> list[str]:
    problems = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".h", ".cc") or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            parts = rel.split("/")
            rooms = ROOMS.get(folder)
            room = None
            if rooms is not None:
                if len(parts) < 3 or parts[1] not in rooms:
                    problems.append(f"{rel}: not in a room of {folder}/ ({', '.join(rooms)})")
                    continue
                room = parts[1]
            text = path.read_text(errors="replace")
            for kind, target in INCLUDE.findall(text):
                if kind == "<":
                    if target.endswith("pg_query.h") and not rel.startswith(PG_QUERY_HOME) and not rel.startswith("tests/"):
                        problems.append(f"{rel}: includes <{target}>; libpg_query belongs to {PG_QUERY_HOME}")
                    continue
                if target.endswith("pg_query.h") and not rel.startswith(PG_QUERY_HOME):
                    problems.append(f'{rel}: includes "{target}"; libpg_query belongs to {PG_QUERY_HOME}')
                    continue
                tparts = target.split("/")
                tfolder = tparts[0]
                if tfolder not in FOLDERS:
                    continue
                if tfolder != folder:
                    if tfolder not in FOLDERS[folder]:
                        problems.append(f"{rel}: includes {target} ({folder}/ sits below {tfolder}/)")
                    continue
                if room is not None and len(tparts) >= 3:
                    troom = tparts[1]
                    if troom in rooms and rooms.index(troom) > rooms.index(room):
                        problems.append(f"{rel}: includes {target} ({folder}/{room}/ sits below {folder}/{troom}/)")
            if not rel.startswith(PG_QUERY_HOME) and not rel.startswith("tests/"):
                call = PG_QUERY_CALL.search(strip_comments(text))
                if call:
                    problems.append(f"{rel}: calls {call.group(0).rstrip('(').strip()}; libpg_query belongs to {PG_QUERY_HOME}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent))
    args = ap.parse_args()
    problems = check(pathlib.Path(args.root))
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} include edge(s) against the intended direction")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
