"""Configs a framework hands to a function's parameter whatever its caller passes: Hydra's and
pydra's to their entry points (`yaml_configs`, `init_objects`), and a serving framework's parsed
config file to the class of the user's it makes (`framework_registry.SERVED_CLASSES`): Truss makes
`model/model.py`'s `Model` with `config=` its `config.yaml`, so `kwargs["config"]["model_metadata"]`
in `Model.__init__(self, **kwargs)` is that file's mapping, each key where the file writes it."""

from __future__ import annotations

import ast
import os
from typing import Callable

from ....framework_registry import SERVED_CLASSES, ServedClass
from ....model import Setting
from .facts import Entry, Kwargs, Val
from .frames import Frame
from .hydra_runs import hydra_config
from .init_objects import pydra_config
from .yaml_configs import read_config

ReadText = Callable[[str], "str | None"]
_KEYWORDS = frozenset(served.keyword for served in SERVED_CLASSES)


def handed(reader, function: ast.FunctionDef | ast.AsyncFunctionDef | None, name: str, frame: Frame) -> Val | None:
    """What a framework hands to the parameter `name` of `function`; None when nothing is."""
    if function is None:
        return None
    if function.decorator_list:
        config = hydra_config(reader, function, name, frame.module)
        return config if config is not None else pydra_config(reader, function, name, frame.module)
    kwarg = function.args.kwarg
    if function.name != "__init__" or frame.cls is None or not (name in _KEYWORDS or (kwarg is not None and kwarg.arg == name)):
        return None
    found = served_config(reader.tree.context.read_text, frame.module.path, frame.cls.name)
    return _given(reader, function, name, *found) if found is not None else None


def served_config(read_text: ReadText, module_path: str, class_name: str) -> tuple[ServedClass, str] | None:
    """The framework and config file that make the class `class_name` of the module at
    `module_path` (the config in the folder above the module's); None when none does."""
    root = os.path.dirname(os.path.dirname(module_path))
    for served in SERVED_CLASSES:
        path = os.path.join(root, served.config_file)
        keys = _config_keys(read_text, path, served)
        if (
            keys is not None
            and keys[2] == class_name
            and os.path.normpath(os.path.join(root, keys[0], keys[1])) == os.path.normpath(module_path)
        ):
            return served, path
    return None


def served_module(read_text: ReadText, config_path: str) -> str | None:
    """The module a serving framework loads the class of the user's from, for its config file at
    `config_path`; None when the file is no such framework's."""
    for served in SERVED_CLASSES:
        keys = _config_keys(read_text, config_path, served) if os.path.basename(config_path) == served.config_file else None
        if keys is not None:
            return os.path.join(os.path.dirname(config_path), keys[0], keys[1])
    return None


def _config_keys(read_text: ReadText, path: str, served: ServedClass) -> tuple[str, str, str] | None:
    """The module folder, file and class name the config at `path` names (or their defaults);
    None when the file is not the framework's."""
    text = read_text(path)
    if text is None or not any(key in text for key in served.marker_keys):  # a cheap look before the parse
        return None
    from yaml.nodes import MappingNode

    from ....readers.yaml_nodes import get, get_str, only_document

    document = only_document(text, MappingNode)
    if document is None or any(get(document, key) is not None for key in served.other_kinds):
        return None
    if not any(get(document, key) is not None for key in served.marker_keys):
        return None
    folder, file, cls = (get_str(document, key) or default for key, default in (served.module_dir, served.module_file, served.class_name))
    return folder, file, cls


def _given(reader, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, served: ServedClass, path: str) -> Val | None:
    """The parameter `name` of the class's `__init__`: the config mapping for the framework's
    keyword, a mapping holding it for `**kwargs`; None for any other parameter."""
    arguments = function.args
    config = read_config(reader, path, plain=True)
    if config.kwargs is None:
        return None
    if name == served.keyword and any(arg.arg == name for arg in (*arguments.args, *arguments.kwonlyargs)):
        return config
    if arguments.kwarg is None or arguments.kwarg.arg != name:
        return None
    span = config.kwargs.entries and next(iter(config.kwargs.entries.values())).setting.span
    setting = Setting(served.keyword, config.value, span, os.path.basename(path), span)  # type: ignore[arg-type]
    others = f"what {served.name} passes besides `{served.keyword}` (its data folder, secrets)"
    return Val(kwargs=Kwargs({served.keyword: Entry(setting, ref=config.kwargs)}, reasons=[others], plain=True))
