"""The engines a config file of the tree reaches through the Python that reads it: `rollout.yaml`
turns the mask on under `engine_kwargs`, `config.py` loads it from its own place
(`RolloutConfig.model_validate(yaml.safe_load(f))` in `load_config()`) and `infer.py` starts
`LLM(**load_config().engine_kwargs)`. Neither module names the mask, so the prefilter passes
both by; the config file, whose engine mapping it keeps, asks for them instead (its frontend
calls `reading_launches`), and nothing is read for a tree whose config files do not turn the
mask on.

Read: the Python files near the config file that name it (its file name, as a path from their
own place is written; for a config folder, those of the project around it too), each as an engine module of its own, and the modules near each that
import one of the names carrying the file (`importers`), and the programs near it that a shell script
beside the file runs with the file's name among its words (`eval.sh`: `python inference.py --config
./config_sample.yaml`). A module the prefilter passes is
checked on its own and is not read here. A launch is kept when one of its settings is written
in the config file; the files read are dependencies of the config file's result."""

from __future__ import annotations

import ast
import itertools
import os
from typing import Callable

from ....model import Launch
from ....source import ExtractContext, SourceFile
from .engines import engine_launches
from .handed_configs import served_module
from .import_roots import import_root
from .import_statements import imports_module
from .importers import builds_engine, imported_launches, importer_launches, origin_in, users_of
from .module import FUNCTIONS, Module, parse
from .reader import Reader
from .requests import reaching_engines
from .tree import Tree, nearby

Relevant = Callable[[str], bool]
_PROJECT_TOPS = ("__init__.py", ".git", "pyproject.toml", "setup.py")  # a folder that is not a folder of config files
_MAX_ENTRIES = 200  # entries of the folder above looked at
_SCRIPTS = (".sh", ".bash")


def reading_launches(path: str, context: ExtractContext, relevant: Relevant) -> list[Launch]:
    """The launches of the engines the tree's Python builds from the config file at `path`."""
    name = os.path.basename(path)
    found: list[Launch] = _served_launches(path, context, relevant)
    scripts: dict[str, list[str]] = {}  # the scripts of a folder that name the file
    for near in _loaders_around(path):
        text = context.read_text(near)
        if text is not None and name not in text and _run_with(near, path, context, scripts):
            found += _given_launches(near, text, path, context, relevant)
        if text is None or name not in text:
            continue
        if "__file__" not in text:  # a path the flow reads starts at the module's own place, or where a script runs
            found += _script_launches(near, text, path, context, relevant)
            continue
        loader = parse(SourceFile(near, text))
        if loader is None:
            continue
        if builds_engine(text) and not relevant(text):
            found += _own_launches(loader, context)
        elif not relevant(text):  # it hands the file's values to the classes it imports (data-juicer's recipe ops)
            found += imported_launches(loader, context, relevant, origin=path)[0]
        definitions = _definitions(loader)
        carrying = users_of({defined for defined, text in definitions.items() if name in text}, definitions)
        if carrying:
            found += importer_launches(loader, context, carrying, relevant, origin=path)[0]
    return [launch for launch in found if any(origin_in(setting, path) for setting in launch.settings.values())]


def _loaders_around(path: str) -> list[str]:
    """The Python files near a config file, and, for one in a folder of config files beside the
    project's code, those of the project: `config/rollout.yaml` is read by
    `search_r1/llm_agent/generation.py` through `Path(__file__).resolve().parents[2] / "config"`."""
    found = nearby(path)
    folder = os.path.dirname(path) or "."
    project = os.path.dirname(os.path.abspath(folder))
    if any(os.path.exists(os.path.join(folder, top)) for top in _PROJECT_TOPS) or not _holds_code(project):
        return found  # a package's own file or the project's top: nothing above it is looked into
    above = os.path.normpath(os.path.join(folder, os.pardir, os.path.basename(path)))
    return [*found, *(near for near in nearby(above) if near not in found)]


def _script_launches(near: str, text: str, path: str, context: ExtractContext, relevant: Relevant) -> list[Launch]:
    """The engines the classes a script imports build from a config file it names at its top level
    by a path from where it runs (FlashRAG's `VLLMGenerator(Config("my_config.yaml", ...))` beside
    the YAML), or in a folder below it by its path from there (AutoRAG's runner:
    `run_generator_node("config/generator.yaml", ...)`). Not a module another imports (a library's
    `load_config(path="rollout.yaml")`: the path is its program's, wherever that runs), nor a script
    in another folder than the file's or above it."""
    root = import_root(context.read_text, near)
    written = os.path.relpath(path, root).replace(os.sep, "/") if root is not None else os.pardir
    if written.startswith(os.pardir) or written not in text:
        return []
    loader = parse(SourceFile(near, text))
    top = [statement for statement in loader.tree.body if not isinstance(statement, (*FUNCTIONS, ast.ClassDef))] if loader else []
    if loader is None or not any(written in loader.text(statement) for statement in top):
        return []
    if any(imports_module(other, importer, near) for importer, other in Tree(loader, context).nearby_texts(near) if importer != near):
        return []
    return imported_launches(loader, context, relevant, origin=path)[0]


def _run_with(program: str, path: str, context: ExtractContext, scripts: dict[str, list[str]]) -> bool:
    """Whether a shell script beside the config file (or beside the program) names both: it may run
    the program with the file as a word (llm-jp-eval-inference's `eval.sh`: `python inference.py
    inference --config ./config_sample.yaml`), which the program's flow then reads (`script_options`).
    `scripts`: the texts of each folder's scripts that name the file, read once per config file."""
    name, program_name = os.path.basename(path), os.path.basename(program)
    for folder in dict.fromkeys((os.path.dirname(path) or ".", os.path.dirname(program) or ".")):
        if folder not in scripts:
            texts = (context.read_text(os.path.join(folder, entry)) for entry in context.list_folder(folder) if entry.endswith(_SCRIPTS))
            scripts[folder] = [text for text in texts if text is not None and name in text]
        if any(program_name in text for text in scripts[folder]):
            return True
    return False


def _given_launches(near: str, text: str, path: str, context: ExtractContext, relevant: Relevant) -> list[Launch]:
    """The engines of a program a script runs with the config file: its own (a module the prefilter
    passes is checked on its own), else those of the classes it imports."""
    if relevant(text):
        return []
    loader = parse(SourceFile(near, text))
    if loader is None:
        return []
    return _own_launches(loader, context) if builds_engine(text) else imported_launches(loader, context, relevant, origin=path)[0]


def _served_launches(path: str, context: ExtractContext, relevant: Relevant) -> list[Launch]:
    """The engines of the class a serving framework makes with the config file at `path` (Truss's
    `model/model.py`, handed `config.yaml` whole: `handed_configs`)."""
    module_path = served_module(context.read_text, path)
    text = context.read_text(module_path) if module_path is not None else None
    if module_path is None or text is None or not builds_engine(text) or relevant(text):
        return []
    module = parse(SourceFile(module_path, text))
    return _own_launches(module, context) if module is not None else []


def _holds_code(folder: str) -> bool:
    """Whether a folder holds a Python file or package (a project's top, not the file system's)."""
    try:
        with os.scandir(folder) as entries:
            for entry in itertools.islice(entries, _MAX_ENTRIES):
                if entry.name.endswith(".py") or os.path.isfile(os.path.join(entry.path, "__init__.py")):
                    return True
    except OSError:
        return False
    return False


def _own_launches(module: Module, context: ExtractContext) -> list[Launch]:
    tree = Tree(module, context)
    reader = Reader(tree)
    return [launch for launch, _ in reaching_engines(reader, module, engine_launches(reader, module))]


def _definitions(module: Module) -> dict[str, str]:
    """The module-level names with the text that defines each (a function, a class, a value)."""
    found = {}
    for statement in module.tree.body:
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            found[statement.name] = module.text(statement)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            found.update(dict.fromkeys((target.id for target in targets if isinstance(target, ast.Name)), module.text(statement.value)))
    return found
