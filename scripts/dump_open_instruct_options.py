#!/usr/bin/env python3
"""Dump the option table of open-instruct's `grpo_fast.py` parser from its source.

    git clone https://github.com/allenai/open-instruct /tmp/oi && git -C /tmp/oi checkout e6c3044a
    pip download --no-deps transformers==5.4.0 -d /tmp/tf && unzip /tmp/tf/*.whl 'transformers/hf_argparser.py' -d /tmp/tf
    python scripts/dump_open_instruct_options.py /tmp/oi /tmp/tf/transformers/hf_argparser.py e6c3044a... \\
        > src/replaylint/frameworks/data/open-instruct-options.json

`open_instruct/grpo_fast.py`'s `__main__` block builds `ArgumentParserPlus((GRPOExperimentConfig,
TokenizerConfig, ModelConfig, StreamingDataLoaderConfig, VLLMConfig, EnvsConfig))` (transformers'
`HfArgumentParser`; open-instruct asks for `transformers>=5.4.0`) and calls
`parse_args_into_dataclasses()`. open-instruct cannot be imported here (torch, vLLM, Ray, olmo-core),
so this script builds the same dataclasses from the source: each class's annotated fields with
their defaults, read with `ast`, their types evaluated in a namespace that holds only what the
parser looks at (`bool`, `int`, `float`, `str`, `list[...]`, `Literal[...]`, unions with None,
enums as enums). transformers' own `hf_argparser.py` (loaded alone: it imports only the standard
library and PyYAML) then builds the real parser, whose `_option_string_actions` give every option
string with the number of words it takes (0 for `--no_*`, `?` for booleans, `+` for lists, 1 else).

Output: {"allow_abbrev": true, "commit": ..., "source": ..., "required": [[option strings of one required field], ...], "options": {"--opt": nargs, ...}}
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib.util
import json
import os
import sys
import typing
from pathlib import Path

# The dataclasses of `ArgumentParserPlus((...))` in grpo_fast.py's `__main__`, where they are defined.
CLASSES = (
    ("open_instruct/grpo_utils.py", "GRPOExperimentConfig"),
    ("open_instruct/dataset_transformation.py", "TokenizerConfig"),
    ("open_instruct/model_utils.py", "ModelConfig"),
    ("open_instruct/data_loader.py", "StreamingDataLoaderConfig"),
    ("open_instruct/data_loader.py", "VLLMConfig"),
    ("open_instruct/environments/tools/utils.py", "EnvsConfig"),
)
BASES = {"olmo_core_utils": "open_instruct/olmo_core_utils.py"}
MAIN = "open_instruct/grpo_fast.py"


def class_node(root: Path, path: str, name: str) -> ast.ClassDef:
    tree = ast.parse((root / path).read_text())
    return next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)


def enum_stub(name: str) -> type:
    """An enum standing in for one open-instruct imports (its values are choices: not needed)."""
    return enum.Enum(name, {"stand_in": "stand_in"})


def build_dataclass(root: Path, path: str, name: str, namespace: dict) -> type:
    """The dataclass `name` of `path`, with its bases, from its annotated fields and defaults."""
    node = class_node(root, path, name)
    bases = []
    for base in node.bases:
        module, _, base_name = ast.unparse(base).rpartition(".")
        bases.append(build_dataclass(root, BASES[module], base_name, namespace) if module else namespace[base_name])
    fields = []
    for statement in node.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        annotation = eval(compile(ast.Expression(statement.annotation), path, "eval"), namespace)  # noqa: S307 - a type
        if statement.value is None:
            fields.append((statement.target.id, annotation))
            continue
        default = _default(statement, annotation, path, namespace)
        fields.append(
            (statement.target.id, annotation, default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default))
        )
    return dataclasses.make_dataclass(name, fields, bases=tuple(bases))


class _Constant:
    """A default naming a module constant of open-instruct (`GROUND_TRUTHS_KEY`): neither None nor
    a boolean, which is all the parser asks of a default."""


def _default(statement: ast.AnnAssign, annotation: object, path: str, namespace: dict) -> object:
    try:
        return eval(compile(ast.Expression(statement.value), path, "eval"), namespace)  # noqa: S307 - a default
    except NameError:
        assert annotation not in (bool, bool | None), f"{path}: a boolean's default is a name: {ast.unparse(statement)}"
        return _Constant()


def namespace_for(root: Path) -> dict:
    namespace: dict = {
        "os": os,
        "dataclass": dataclasses.dataclass,
        "field": dataclasses.field,
        "Literal": typing.Literal,
        "Any": typing.Any,
    }
    namespace["Optional"], namespace["Union"] = typing.Optional, typing.Union
    # enums the fields name: GRPOLossType (grpo_utils.py, defined there), AttentionBackendName (olmo-core's)
    loss = class_node(root, "open_instruct/grpo_utils.py", "GRPOLossType")
    namespace["GRPOLossType"] = enum.StrEnum(
        "GRPOLossType", {t.targets[0].id: t.value.value for t in loss.body if isinstance(t, ast.Assign)}
    )
    namespace["AttentionBackendName"] = enum_stub("AttentionBackendName")
    namespace["ParsedEnvConfig"] = object  # an `init=False` field
    return namespace


def main(root_text: str, argparser_path: str, commit: str) -> None:
    root = Path(root_text)
    main_source = (root / MAIN).read_text()
    assert all(name in main_source for _, name in CLASSES), "grpo_fast.py's parser takes other dataclasses"
    spec = importlib.util.spec_from_file_location("hf_argparser", argparser_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    namespace = namespace_for(root)
    types = [build_dataclass(root, path, name, namespace) for path, name in CLASSES]
    parser = module.HfArgumentParser(types)
    options = {
        option: 0 if action.nargs == 0 else 1 if action.nargs is None else action.nargs
        for option, action in sorted(parser._option_string_actions.items())
    }
    required = sorted(action.option_strings for action in parser._actions if action.required)
    source = (
        f"allenai/open-instruct {MAIN} (commit {commit}): the dataclasses of its ArgumentParserPlus read from the source, "
        "the parser built by transformers 5.4.0 hf_argparser.py (scripts/dump_open_instruct_options.py)"
    )
    data = {"allow_abbrev": parser.allow_abbrev, "commit": commit, "source": source, "required": required, "options": options}
    json.dump(data, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
