"""`os.environ["NAME"]` read by a module that the tree's justfiles run with `NAME` exported
(`export REPLAY_BASE_URL := "http://127.0.0.1:8000/v1"`, then a recipe's `python -m rollout.chat`):
the value every such run gives the program, placed on the export.

The runs counted are those of the module, or of a module near it that imports it, by the
justfiles (naming the variable) in the module's folder and those above it, up to the folder above
the one that holds its top package. Every run found must
give one known value; a run whose environment the justfile does not set (the caller's), a line
the reading does not follow, or no run at all leave the value unknown. So does a module that
writes or changes its environment, loads a dotenv file, or has a Python file near it that names
the variable (it may set it before the read), or a script or deployment file near that names it
(`scripts/run.sh`: it may run the program with another value)."""

from __future__ import annotations

import ast
import os

from ....readers.justfile_runs import RecipeRun, justfile_runs
from ....source import SourceFile
from .environment_defaults import may_be_written
from .environment_writes import environment_written
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .import_statements import imports_module
from .yaml_configs import import_root

_JUSTFILES = ("justfile", "Justfile", ".justfile")
_UP = 6  # folders above the module's looked into, at most
_MAX_FILES = 10  # justfiles naming the variable read
_MAX_FOLDERS = 12  # folders one level down of each looked into for other files that name it
_RUN_FILE_ENDINGS = (".sh", ".bash", ".yaml", ".yml", ".toml", ".env", ".ini", ".cfg", ".service", ".conf", ".mk")
_RUN_FILE_NAMES = ("Makefile", "makefile", "GNUmakefile", "Dockerfile", "Procfile", ".env")


def environment_read(reader: Evaluates, name: str, use: ast.AST, frame: Frame) -> Val:
    """`os.environ[name]` where `use` reads it: the module's own top-level write, else a justfile's export."""
    written = environment_written(reader, name, use, frame)
    return written if written is not NOTHING else recipe_exported(reader, name, frame)


def recipe_exported(reader: Evaluates, name: str, frame: Frame) -> Val:
    """What the justfiles that run the module export as `name`, when every run gives one value."""
    module = frame.module
    quoted = (f'"{name}"', f"'{name}'")
    tree = reader.tree  # type: ignore[attr-defined]
    if may_be_written(module, name) or any(
        word in text for path, text in tree.nearby_texts(module.path) if path != module.path for word in quoted
    ):
        return NOTHING
    runs = _runs(reader, module.path, name)
    values = {(run.value, run.at) for run in runs}
    if len(values) != 1:
        return NOTHING
    value, at = values.pop()
    return Val(value, span=at) if value is not None and at is not None else NOTHING


def _runs(reader: Evaluates, path: str, name: str) -> list[RecipeRun]:
    """The runs, by the justfiles near it, of the module at `path` or of a module near it that
    imports it; one run of any program with anything where another file near may set the variable."""
    known: dict = reader.__dict__.setdefault("_recipe_runs", {})
    if (path, name) not in known:
        tree = reader.tree  # type: ignore[attr-defined]
        programs = [path] + [near for near, text in tree.nearby_texts(path) if near != path and imports_module(text, near, path)]
        justfiles, set_elsewhere = _justfiles(tree.context, path, name)
        found = [RecipeRun(None, None, None)] if set_elsewhere else []
        for file, text in justfiles:
            runs = justfile_runs(SourceFile(file, text), name)
            found += [run for run in runs if run.module is None and run.path is None or any(_runs_module(run, file, p) for p in programs)]
        known[(path, name)] = found
    return known[(path, name)]


def _justfiles(context, path: str, name: str) -> tuple[list[tuple[str, str]], bool]:
    """(path, text) of the justfiles that name the variable, in the module's folder and those above
    it up to the folder above its top package's (just looks for its justfile in the working folder
    and those above it); and whether a script or a deployment file there, or in a folder one level
    down of one (`scripts/run.sh`), names it too (it may run the program with another value)."""
    top = os.path.normpath(import_root(context.read_text, path) or os.path.dirname(path) or os.curdir)
    folder, found, elsewhere = os.path.dirname(path) or os.curdir, [], False
    for _ in range(_UP):
        entries = context.list_folder(folder)
        for entry in entries:
            if entry in _JUSTFILES or entry.endswith(".just"):
                text = context.read_text(os.path.join(folder, entry)) or ""
                found += [(os.path.join(folder, entry), text)] if name in text else []
        below = [os.path.join(folder, entry) for entry in entries if "." not in entry][:_MAX_FOLDERS]
        elsewhere = elsewhere or any(_names_it(context, inner, name) for inner in [folder, *below])
        parent = os.path.dirname(folder) or os.curdir
        if parent == folder or os.path.normpath(folder) == os.path.dirname(top) or len(found) >= _MAX_FILES:
            break
        folder = parent
    return found[:_MAX_FILES], elsewhere


def _names_it(context, folder: str, name: str) -> bool:
    """Whether a file of the folder that may start a program (a shell script, a Makefile, a compose
    file, a unit, an env file) names the variable."""
    for entry in context.list_folder(folder):
        if entry.endswith(_RUN_FILE_ENDINGS) or entry in _RUN_FILE_NAMES:
            if name in (context.read_text(os.path.join(folder, entry)) or ""):
                return True
    return False


def _runs_module(run: RecipeRun, justfile: str, path: str) -> bool:
    """Whether a run's `-m MODULE` names the module at `path` (by its dotted path's end), or its
    script path does (from the justfile's folder, where just runs recipes, or as the path's end)."""
    stem = os.path.splitext(os.path.normpath(path))[0]
    if run.module is not None:
        dotted = stem.replace(os.sep, ".")
        return dotted == run.module or dotted.endswith("." + run.module)
    written = os.path.normpath(run.path or "")
    beside = os.path.normpath(os.path.join(os.path.dirname(justfile), written))
    return beside == os.path.normpath(path) or os.path.normpath(path).endswith(os.sep + written)
