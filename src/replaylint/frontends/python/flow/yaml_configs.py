"""Config files read by path: Hydra's `@hydra.main(config_path="conf", config_name="config")`
(the config is `conf/config.yaml` next to the module) and `OmegaConf.load("conf/x.yaml")` (a
path from the working directory: the project root, else the module's folder). The YAML's keys
become the mapping's keys, each written where the YAML writes it, so a finding points there and
a fix edits the YAML.

What stays open: a `defaults:` list (Hydra composes other files), a value interpolated at run
time (`${oc.env:MODE}`) or left to the command line (`???`), a file that is not in the tree or
does not parse. Hydra's command line
(`python train.py vllm.logprobs_mode=...`) is Python's `"$@"`: the config is judged as written,
and a finding on an absent key says so."""

from __future__ import annotations

import ast
import os

from ....model import UNKNOWN, LineIndex, Setting
from .facts import NOTHING, Entry, Kwargs, Val
from .module import Module

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
    if "config_name" not in given:
        return NOTHING
    folder = os.path.join(os.path.dirname(module.path), given.get("config_path", "."))
    name = given["config_name"] if given["config_name"].endswith((".yaml", ".yml")) else given["config_name"] + ".yaml"
    return _read(reader, os.path.normpath(os.path.join(folder, name)), (_OVERRIDES,))


def loaded(reader, node: ast.Call, module: Module) -> Val:
    """`OmegaConf.load("conf/x.yaml")`: the file under the project root, else the module's folder."""
    argument = node.args[0] if node.args else None
    if not isinstance(argument, ast.Constant) or not isinstance(argument.value, str) or os.path.isabs(argument.value):
        return NOTHING
    for base in (reader.tree.context.root, os.path.dirname(module.path)):
        path = os.path.normpath(os.path.join(base, argument.value))
        if reader.tree.context.read_text(path) is not None:
            return _read(reader, path)
    return NOTHING


def _is_hydra_main(decorator: ast.expr, module: Module) -> bool:
    if not isinstance(decorator, ast.Call):
        return False
    head, _, rest = module.text(decorator.func).partition(".")
    base = module.imports.get(head, head)
    return (f"{base}.{rest}" if rest else base) == "hydra.main"


def _read(reader, path: str, assumed: tuple[str, ...] = ()) -> Val:
    text = reader.tree.context.read_text(path)  # a dependency of the result: a change re-judges
    if text is None:
        return NOTHING
    from yaml.nodes import MappingNode

    from ....words.yaml_nodes import ComposeError, compose_all, get

    try:
        documents = compose_all(text)
    except ComposeError:
        return NOTHING
    if len(documents) != 1 or not isinstance(documents[0], MappingNode):
        return NOTHING
    # Hydra composes the files of a defaults list into every mapping: none is complete.
    reasons = (f"Hydra's defaults list ({os.path.basename(path)})",) if get(documents[0], "defaults") is not None else ()
    from .dicts import as_val

    return as_val(_mapping(documents[0], LineIndex(path, text), reasons, assumed))


def _mapping(node, index: LineIndex, reasons: tuple[str, ...], assumed: tuple[str, ...]) -> Kwargs:
    from yaml.nodes import MappingNode

    from ....words.yaml_nodes import construct, entries, span

    found = Kwargs(reasons=list(reasons), assumed=list(assumed))
    for key, value in entries(node):
        name = str(key.value)
        nested = _mapping(value, index, reasons, assumed) if isinstance(value, MappingNode) else None
        known = UNKNOWN if _run_time(index.text, value) else construct(value)
        whole = span(index, value, start_node=key)
        setting = Setting(name, known, whole, index.text[whole.start : whole.end], span(index, value))
        found.entries[name] = Entry(setting, ref=nested)
    return found


def _run_time(text: str, node) -> bool:
    """An interpolation (`${oc.env:MODE}`), or OmegaConf's `???`: a value given when it runs."""
    written = text[node.start_mark.index : node.end_mark.index]
    return "${" in written or written.strip("'\"") == "???"
