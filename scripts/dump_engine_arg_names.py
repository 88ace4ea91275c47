#!/usr/bin/env python3
"""Write src/replaylint/vllm/engine_arg_names.py from vLLM releases' own source.

Reads `vllm/engine/arg_utils.py` of each release folder given (a wheel installed with
`pip install --no-deps --target`, or an unpacked sdist) with `ast`, never importing it: every
annotated name in the bodies of `class EngineArgs` and `class AsyncEngineArgs`, as
`dataclasses.fields` lists them. A name every release declares is in ENGINE_ARGS_FIELDS, one
only some declare in ENGINE_ARGS_SOME_RELEASES, and what `AsyncEngineArgs` adds in
ASYNC_ENGINE_ARGS_OWN.

    python scripts/dump_engine_arg_names.py bench/.cache/vllm-releases/vllm-{0.28.0,0.31.0,0.34.0} \\
        --out src/replaylint/vllm/engine_arg_names.py

`--check` compares the module with what the releases give and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parent.parent / "src" / "replaylint" / "vllm" / "engine_arg_names.py"

_HEADER = '''"""The names of vLLM's `EngineArgs` dataclass fields (and the one `AsyncEngineArgs` adds to them),
as `dataclasses.fields(EngineArgs)` lists them: a program that keeps only the keys of its
options that are fields (generative-computing/mellea's `{{f.name: opts[f.name] for f in
dataclasses.fields(cls) if f.name in opts}}`) passes a name every release declares, drops one no
release declares, and may pass one only some releases declare. Written by
scripts/dump_engine_arg_names.py from the {releases} trees (`vllm/engine/arg_utils.py`, every
annotated name of `class EngineArgs` and `class AsyncEngineArgs`); do not edit by hand."""

from __future__ import annotations
'''


def class_fields(source: str, name: str) -> list[str]:
    """The annotated names of a top-level class's body, in order."""
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.ClassDef) and statement.name == name:
            return [node.target.id for node in statement.body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]
    raise SystemExit(f"no class {name} in the source")


def release_fields(folder: Path) -> tuple[str, set[str], set[str]]:
    """A release folder's name, its EngineArgs fields and AsyncEngineArgs' own."""
    source = (folder / "vllm" / "engine" / "arg_utils.py").read_text(encoding="utf-8")
    release = folder.name.removeprefix("vllm-")
    return release, set(class_fields(source, "EngineArgs")), set(class_fields(source, "AsyncEngineArgs"))


def module_text(folders: list[Path]) -> str:
    releases = [release_fields(folder) for folder in folders]
    every = set.intersection(*(fields for _, fields, _ in releases))
    some = set.union(*(fields for _, fields, _ in releases)) - every
    own = set.intersection(*(added for _, _, added in releases))
    names = ", ".join(release for release, _, _ in releases[:-1]) + f" and {releases[-1][0]}" if len(releases) > 1 else releases[0][0]
    return (
        _HEADER.format(releases=names)
        + "\n"
        + _frozenset("ENGINE_ARGS_FIELDS", every)
        + "\n# Fields only some of those releases declare.\n"
        + _frozenset("ENGINE_ARGS_SOME_RELEASES", some)
        + "\n# The fields `AsyncEngineArgs` adds to those of `EngineArgs` (every release above).\n"
        + _frozenset("ASYNC_ENGINE_ARGS_OWN", own)
    )


def _frozenset(name: str, values: set[str]) -> str:
    """As ruff formats it (one value stays on its line)."""
    if len(values) == 1:
        return f'{name} = frozenset(("{next(iter(values))}",))\n'
    return f"{name} = frozenset(\n    (\n" + "".join(f'        "{value}",\n' for value in sorted(values)) + "    )\n)\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="+", type=Path, help="release folders, oldest first")
    parser.add_argument("--out", type=Path, default=MODULE)
    parser.add_argument("--check", action="store_true", help="compare with the module instead of writing it")
    arguments = parser.parse_args(argv)
    text = module_text(arguments.releases)
    if arguments.check:
        if arguments.out.read_text(encoding="utf-8") != text:
            print(f"{arguments.out} differs from what the releases give", file=sys.stderr)
            return 1
        return 0
    arguments.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
