"""The environment a program of the tree runs with: the runs of a Python module, or of a module near
it that imports it, by the files near it, each with what it gives one variable and where that is
written; read by `client_env` (`OPENAI_BASE_URL`) and `environment_read` (`os.environ["NAME"]`).

The files looked into are those in the module's folder and those above it, up to the folder above
the one that holds its top package (`src/` of `src/pkg/utils.py`: the repository's), that name the
variable: justfiles (just looks for its justfile in the working folder and those above it), and,
there or in a folder one level down of one, shell scripts, compose files and Kubernetes manifests
(`readers.justfile_runs`, `readers.shell.program_runs`, `readers.deployed_programs`, each with its
own rules of what leaves a value unknown). Another file there that may start a program and names
the variable (a Makefile, a Dockerfile, a unit, an env file, a CI job), a file not read whole, or
more files than are read, count as a run of any program with anything. A Python file near that names the
variable, or a dotenv file the module or one importing it loads, may set it another way."""

from __future__ import annotations

import ast
import os

from ....model import Span
from ....readers.justfile_runs import justfile_runs
from ....readers.python_runs import ANY_RUN, ProgramRun
from ....source import ParseError, SourceFile
from .environment_defaults import may_be_written
from .environment_writes import environment_written
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .import_roots import import_root, run_root
from .import_statements import imports_module
from .module import Module

_JUSTFILES = ("justfile", "Justfile", ".justfile")
_SCRIPTS = (".sh", ".bash")
_YAML = (".yaml", ".yml")
_OTHER_ENDINGS = (".toml", ".env", ".ini", ".cfg", ".service", ".conf", ".mk")
_OTHER_NAMES = ("Makefile", "makefile", "GNUmakefile", "Dockerfile", "Procfile")
_UP = 6  # folders above the module's looked into, at most
_MAX_FOLDERS = 12  # folders one level down of each
_MAX_FILES = 20  # files naming the variable read
_UP_TO_RUN = 2  # folders above a script where the bare name it runs is looked for


def environment_read(reader: Evaluates, name: str, use: ast.AST, frame: Frame) -> Val:
    """`os.environ[name]` where `use` reads it: the module's own top-level write, else the value
    every run of the module gives, placed where it is written."""
    written = environment_written(reader, name, use, frame)
    if written is not NOTHING or may_be_written(frame.module, name) or set_another_way(reader, frame.module, name):
        return written
    found = agreed(runs_near(reader, frame.module.path, name))
    return Val(found[0], span=found[1]) if found is not None and found[1] is not None else NOTHING


def set_another_way(reader, module: Module, name: str) -> bool:
    """Whether a Python file near the module names the variable (it may set it before the read), or
    the module or one that imports it loads a dotenv file (`load_dotenv(override=True)` replaces
    what a script exports)."""
    quoted = (f'"{name}"', f"'{name}'")
    nearby = reader.tree.nearby_texts(module.path)
    if "dotenv" in module.source.text or any(word in text for _, text in nearby for word in quoted):
        return True
    return any("dotenv" in text and imports_module(text, near, module.path) for near, text in nearby)


def agreed(runs: list[ProgramRun], default: str | None = None) -> tuple[str, Span | None, bool] | None:
    """The value every run gives the variable (`default` for a run that leaves it to the caller: the
    program's own `os.environ.setdefault`), where the first run writes it, and whether it rests on
    the variable being unset; None where runs disagree or one leaves it unknown (no run: the caller's)."""
    runs = runs or [ANY_RUN]
    values = {run.value if run.value is not None else default for run in runs}
    value = values.pop() if len(values) == 1 else None
    if value is None:
        return None
    return value, next((run.at for run in runs if run.value is not None), None), any(run.value is None for run in runs)


def runs_near(reader, path: str, name: str) -> list[ProgramRun]:
    """The runs, by the files near it, of the module at `path` or of a module near it that imports it."""
    known: dict = reader.__dict__.setdefault("_environment_runs", {})
    if (path, name) not in known:
        context = reader.tree.context
        programs = [path, *(near for near, text in reader.tree.nearby_texts(path) if near != path and imports_module(text, near, path))]
        files, elsewhere = run_files(context, path, name)
        found = [ANY_RUN] if elsewhere else []
        for file, text in files:
            runs = _read_runs(file, text, context, name)
            found += [run for run in runs if run == ANY_RUN or any(runs_module(run, file, p, context.read_text) for p in programs)]
        known[(path, name)] = found
    return known[(path, name)]


def _read_runs(file: str, text: str, context, name: str) -> list[ProgramRun]:
    from ....readers.deployed_programs import deployed_program_runs  # the shell interpreter: loaded when a run is asked for
    from ....readers.shell.program_runs import program_runs

    source = SourceFile(file, text)
    try:
        if os.path.basename(file) in _JUSTFILES or file.endswith(".just"):
            runs: list[ProgramRun] | None = justfile_runs(source, name)
        else:
            runs = deployed_program_runs(source, name) if file.endswith(_YAML) else program_runs(source, context, name)
    except (ParseError, RecursionError):
        runs = None
    return [ANY_RUN] if runs is None else runs  # a file not read whole may run the program with anything


def run_files(context, path: str, name: str, skip: frozenset[str] = frozenset()) -> tuple[list[tuple[str, str]], bool]:
    """(path, text) of the files near the module that name the variable and are read for runs; and
    whether another file there that may start a program names it, or there are more to read
    (`skip`: files known to start none, a packaging file that only declares the module's commands)."""
    top = os.path.normpath(run_root(context.read_text, path) or os.path.dirname(path) or os.curdir)
    folder, found, elsewhere = os.path.dirname(path) or os.curdir, {}, False
    for _ in range(_UP):
        entries = context.list_folder(folder)
        found.update(_naming(context, folder, [entry for entry in entries if entry in _JUSTFILES or entry.endswith(".just")], name))
        below = [os.path.join(folder, entry) for entry in entries if "." not in entry]
        for inner in [folder, *below[:_MAX_FOLDERS]]:
            inner_entries = context.list_folder(inner)
            found.update(_naming(context, inner, [entry for entry in inner_entries if entry.endswith((*_SCRIPTS, *_YAML))], name))
            others = [
                e
                for e in inner_entries
                if (e.endswith(_OTHER_ENDINGS) or e in _OTHER_NAMES) and os.path.normpath(os.path.join(inner, e)) not in skip
            ]
            elsewhere = elsewhere or bool(_naming(context, inner, others, name))
        parent = os.path.dirname(folder) or os.curdir
        if parent == folder or os.path.normpath(folder) == os.path.dirname(top) or len(found) > _MAX_FILES:
            break
        folder = parent
    return list(found.items())[:_MAX_FILES], elsewhere or len(found) > _MAX_FILES


def _naming(context, folder: str, entries: list[str], name: str) -> dict[str, str]:
    texts = {os.path.join(folder, entry): context.read_text(os.path.join(folder, entry)) or "" for entry in entries}
    return {file: text for file, text in texts.items() if name in text}


def runs_module(run: ProgramRun, file: str, path: str, read_text) -> bool:
    """Whether a run's `-m MODULE` is the module at `path` by its dotted name from the folder that
    holds its top package, or its script path names it (from the folder of the file that runs it,
    a path with folders that ends the module's, or one from a folder above the file's: the
    repository's root, where such scripts are run from, named relative to where the tree is checked)."""
    if run.module is not None:
        top = import_root(read_text, path) or os.path.dirname(path)
        dotted = os.path.splitext(os.path.relpath(path, top or os.curdir))[0].replace(os.sep, ".")
        return dotted == run.module or _from_run_folder(run.module, os.path.dirname(file), read_text) == os.path.normpath(path)
    written = os.path.normpath(run.path or "")
    beside = os.path.normpath(os.path.join(os.path.dirname(file), written))
    here = os.path.normpath(path)
    if beside == here or (os.sep in written and not written.startswith(os.pardir) and _ends_module(written, file, here)):
        return True
    if os.path.isabs(written):  # `python ${REPO_PATH}/examples/main.py`, the script's own folder's path
        return os.path.abspath(here) == written
    return os.path.basename(here) == written and _run_from_above(written, os.path.dirname(beside), read_text) == here


def _from_run_folder(dotted: str, folder: str, read_text) -> str | None:
    """The file `python -m src.inference` runs when `src/` has no `__init__.py` (a namespace
    package, imported from the working folder): the one the dotted name spells from the script's
    folder, or from the nearest folder above it that holds one, where such a script is run from."""
    written = os.path.join(*dotted.split(".")) + ".py"
    here = os.path.join(folder, written)
    return os.path.normpath(here) if read_text(here) is not None else _run_from_above(written, folder, read_text)


def _ends_module(written: str, file: str, here: str) -> bool:
    """Whether a run's path with folders (`eval/run_offline_inference.py` in eval/scripts/x.sh) ends
    the module's path, or is it taken from a folder above the running file's."""
    return here.endswith(os.sep + written) or _folder_above(written, file, here) is not None


def _folder_above(written: str, file: str, here: str) -> str | None:
    """The folder above the running file's that the path written names the module from (None: none)."""
    folder = os.path.dirname(os.path.dirname(os.path.normpath(file)))
    while True:
        if os.path.normpath(os.path.join(folder, written)) == here:
            return folder or os.curdir
        if folder == os.path.dirname(folder):
            return None
        folder = os.path.dirname(folder)


def run_folder(run: ProgramRun, file: str, path: str, read_text) -> str | None:
    """The working folder of a run of the module at `path` that `runs_module` accepts: for `-m`, the
    folder that holds its top package; for a script path, the folder it is named from (the running
    file's, or the one above the module that the path written ends at: `python
    flagscale/inference/inference_aquila.py` from the repository's root); None where not known."""
    if run.module is not None:
        return import_root(read_text, path)
    written = os.path.normpath(run.path or "")
    if os.path.isabs(written) or written.startswith(os.pardir):
        return None
    here = os.path.normpath(path)
    if os.path.normpath(os.path.join(os.path.dirname(file), written)) == here:
        return os.path.dirname(file) or os.curdir
    return here[: -len(written) - 1] or os.curdir if here.endswith(os.sep + written) else _folder_above(written, file, here)


def _run_from_above(written: str, folder: str, read_text) -> str | None:
    """The file a script runs by its bare name (`python3 -u math_eval.py` in `sh/eval.sh`) when the
    script's folder holds none: the one in the nearest folder above it that does, where such a
    script is run from (`bash sh/eval.sh`)."""
    if read_text(os.path.join(folder, written)) is not None:
        return None
    for _ in range(_UP_TO_RUN):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if read_text(os.path.join(folder, written)) is not None:
            return os.path.normpath(os.path.join(folder, written))
    return None
