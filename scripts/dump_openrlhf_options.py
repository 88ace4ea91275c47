#!/usr/bin/env python3
"""Dump the option table of OpenRLHF's `train_ppo_ray` parser, per release, from its wheels.

    pip download --no-deps openrlhf==0.11.2 -d /tmp/w   # one wheel per release read
    python scripts/dump_openrlhf_options.py /tmp/w/openrlhf-*.whl \\
        > src/replaylint/frameworks/data/openrlhf-options.json

`openrlhf/cli/train_ppo_ray.py` builds its `argparse.ArgumentParser()` inline, in its
`if __name__ == "__main__":` block, up to `args = parser.parse_args()`. Those statements (and
nothing else of the package: they use only `argparse` and `datetime`) are run here to get the real
parser; its `_option_string_actions` give every option string with the number of words it takes
(`nargs`: 0 for flags, 1 for a plain value, or argparse's `?`, `*`, `+`, N). Releases whose
tables are equal are listed together.

Output: {"allow_abbrev": true, "prog": "train_ppo_ray.py", "source": ..., "tables": [{"options":
{"--opt": nargs, ...}, "releases": [...]}, ...]}, oldest release first, one table a line.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import re
import sys
import zipfile

SOURCE = (
    "openrlhf wheels from PyPI; the statements of openrlhf/cli/train_ppo_ray.py's `__main__` block before "
    "`parser.parse_args()` run by scripts/dump_openrlhf_options.py; options = the parser's _option_string_actions"
)
MODULE = "openrlhf/cli/train_ppo_ray.py"


def parser_of(source: str) -> argparse.ArgumentParser:
    """The parser the `__main__` block builds, without running anything after it."""
    tree = ast.parse(source)
    main = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and getattr(node.test.left, "id", "") == "__name__"
    )
    statements = []
    for statement in main.body:
        if "parse_args" in ast.unparse(statement):
            break
        statements.append(statement)
    namespace: dict = {"argparse": argparse, "datetime": datetime.datetime}
    exec(compile(ast.Module(statements, type_ignores=[]), MODULE, "exec"), namespace)  # noqa: S102 - OpenRLHF's own parser code
    return namespace["parser"]


def nargs_of(action: argparse.Action) -> int | str:
    if action.nargs is None:
        return 1
    return action.nargs


def table(parser: argparse.ArgumentParser) -> dict[str, int | str]:
    return {option: nargs_of(action) for option, action in parser._option_string_actions.items()}


def release_of(wheel: str) -> str:
    match = re.search(r"openrlhf-([0-9][^-]*)-", wheel)
    if match is None:
        raise SystemExit(f"not an openrlhf wheel: {wheel}")
    return match.group(1)


def main(wheels: list[str]) -> int:
    tables: list[dict] = []
    for wheel in sorted(wheels, key=lambda name: [int(part) for part in re.findall(r"\d+", release_of(name))]):
        with zipfile.ZipFile(wheel) as archive:
            name = next(name for name in archive.namelist() if name.endswith(MODULE))  # `openrlhf-X.data/purelib/...` too
            options = table(parser_of(archive.read(name).decode()))
        same = next((entry for entry in tables if entry["options"] == options), None)
        if same is None:
            tables.append({"releases": [release_of(wheel)], "options": options})
        else:
            same["releases"].append(release_of(wheel))
    head = json.dumps({"allow_abbrev": True, "prog": "train_ppo_ray.py", "source": SOURCE}, sort_keys=True)[:-1]
    rows = ",\n".join("  " + json.dumps(entry, sort_keys=True) for entry in tables)
    sys.stdout.write(f'{head}, "tables": [\n{rows}\n]}}\n')  # one release table a line
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
