"""The config a `@hydra.main(...)` entry point composes (`hydra_config`): the file its decorator names
(`config_path`, `config_name`), or, when it names none (`@hydra.main(version_base="1.1")`), the one
Hydra's own options name on the command line that every run of the program by the tree's shell
scripts gives (RLinf's examples/reasoning/run_main_grpo_math.sh: `python
${REPO_PATH}/examples/reasoning/main_grpo.py --config-path ${CONFIG_PATH}/config/math/
--config-name $CONFIG_NAME`, `CONFIG_NAME` the script's default when it is run without arguments).

As Hydra 1.3 reads them (`hydra/_internal/utils.py`): `--config-path`/`-cp` is absolute or
relative to the program's file, else the decorator's `config_path`; `--config-name`/`-cn` names
the file (`.yaml` added). Each key rests on the run. No run, a run not read for its words, runs
that name different files, a word not known, or any other word (an override `key=value`, which
would change a value, `--config-dir`) leave the config open."""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING

from .facts import NOTHING, Val
from .hydra_defaults import hydra_config_file
from .module import Module
from .script_flags import run_as, script_runs

if TYPE_CHECKING:
    from ....model import Span
    from ....readers.shell.program_runs import ProgramWords

_PATH = ("--config-path", "-cp")
_NAME = ("--config-name", "-cn")


def command_line_config(reader, module: Module, decorated_path: str | None) -> Val:
    """The config file the scripts' runs of the module name, read with each key resting on the run."""
    chosen: set[str] = set()
    names: set[str] = set()
    first: tuple[ProgramWords, Span, str] | None = None
    for run in script_runs(reader, module) or [None]:
        named = _named(run) if run is not None else None
        if named is None:
            return NOTHING
        folder, name, span, written = named
        folder = folder if folder is not None else decorated_path
        if folder is None:
            return NOTHING
        file = name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"
        names.add(name)
        path = os.path.normpath(os.path.join(os.path.dirname(module.path), folder, file))
        chosen.add(os.path.relpath(path) if os.path.isabs(path) and not os.path.isabs(module.path) else path)  # as the tree's paths
        first = first or (run, span, written)  # type: ignore[assignment]
    if len(chosen) != 1 or first is None:
        return NOTHING
    run, span, written = first
    path = chosen.pop()
    top = os.path.dirname(path) if len(names) == 1 and "/" not in names.pop() else ""  # `-cn sub/x`: not the top folder
    return hydra_config_file(reader, path, top, (run_as(module.path, span, written, run.taken_when()),), resting=True)


def _named(run: ProgramWords) -> tuple[str | None, str, Span, str] | None:
    """(`--config-path`'s folder, `--config-name`'s name, where and how the name is written) of a
    run whose words are Hydra's config options and nothing else; None for any other run."""
    folder, name = None, None
    words = run.words
    position = 0
    while position < len(words):
        text, span = words[position]
        option, equals, inline = (text or "").partition("=")
        if option not in (*_PATH, *_NAME) or span is None:
            return None
        given = (inline, span) if equals else words[position + 1] if position + 1 < len(words) else (None, None)
        position += 1 if equals else 2
        if given[0] is None or given[1] is None:
            return None
        if option in _PATH:
            folder = given[0]
        else:
            name = (given[0], given[1], text if equals else f"{text} {given[0]}")
    if name is None:
        return None
    return folder, name[0], name[1], name[2]


_OVERRIDES = "Hydra's command line does not set it"


def hydra_config(reader, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, module: Module) -> Val | None:
    """The config `@hydra.main(...)` hands to `name`, its function's first parameter; None when
    the function is not a Hydra entry point."""
    decorator = next((d for d in function.decorator_list if _is_hydra_main(d, module)), None)
    params = [*function.args.posonlyargs, *function.args.args]
    if decorator is None or not params or params[0].arg != name:
        return None
    assert isinstance(decorator, ast.Call)
    given = {k.arg: k.value.value for k in decorator.keywords if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)}
    if "config_name" not in given:  # the command line names it (`--config-name`), as the tree's scripts run it
        return command_line_config(reader, module, given.get("config_path"))
    folder = os.path.normpath(os.path.join(os.path.dirname(module.path), given.get("config_path", ".")))
    name = given["config_name"] if given["config_name"].endswith((".yaml", ".yml")) else given["config_name"] + ".yaml"
    return hydra_config_file(reader, os.path.normpath(os.path.join(folder, name)), folder, (_OVERRIDES,))


def _is_hydra_main(decorator: ast.expr, module: Module) -> bool:
    if not isinstance(decorator, ast.Call):
        return False
    head, _, rest = module.text(decorator.func).partition(".")
    base = module.imports.get(head, head)
    return (f"{base}.{rest}" if rest else base) == "hydra.main"
