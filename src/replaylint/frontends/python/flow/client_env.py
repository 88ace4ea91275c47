"""The address an OpenAI client is made with: its `base_url=` (or a `**mapping` that gives it), else
the `OPENAI_BASE_URL` of the program's environment. openai-python's own default
(`openai/lib/_client_auth.py`, `sync__init__`/`async__init__`, the `OpenAI`/`AsyncOpenAI` constructors'
code): `elif base_url is None: base_url = os.environ.get("OPENAI_BASE_URL")`, then
`"https://api.openai.com/v1"`; a `provider=` or `data_residency=` decides it instead.

The environment is read where the tree writes it around the program: the module's own write
(`os.environ["OPENAI_BASE_URL"] = URL` at its top, or in the function that makes the client before
it; `os.environ.setdefault(...)`, resting on the variable being unset), else the runs of the module,
or of a module near it that imports it, by the files near it (its folder and those above it up to
the one above its top package's, each with the folders one level down): a shell script's export or
prefix (`export OPENAI_BASE_URL=URL; python -m pkg.main`, `OPENAI_BASE_URL=URL python main.py`), a
compose service's `environment`, a Kubernetes container's `env`. Every run found must give the same
URL; a run whose environment the file does not set (the caller's), another write or read of the
variable in the module or a module near it, a dotenv file the program loads, or no run at all,
leave the address unknown."""

from __future__ import annotations

import ast
import os

from ....readers.python_runs import ProgramRun
from ....source import ParseError, SourceFile
from .bodies import address_condition, text
from .callsites import keyword
from .client_factories import defaults_read, spread_keyword
from .environment_writes import environment_written
from .facts import NOTHING
from .frames import Frame
from .import_statements import imports_module
from .reader import Reader
from .yaml_configs import import_root

VARIABLE = "OPENAI_BASE_URL"
# Keywords that decide the client's address instead of the environment (`provider=AzureOpenAI(...)`).
_OWN_ADDRESS = ("base_url", "provider", "data_residency")
_UP = 6  # folders above the module's looked into, at most
_MAX_FOLDERS = 12  # folders one level down of each
_MAX_FILES = 20  # scripts and YAML files naming the variable read
_YAML = (".yaml", ".yml")
_UNREAD = ProgramRun(None, None, None, -1)  # the runs of a file not read whole: any, with anything


def base_url(reader: Reader, call: ast.Call, where: Frame) -> tuple[object, str]:
    """The base URL an OpenAI client's construction gives it, and what that rests on."""
    spread = spread_keyword(reader, call, where, "base_url")
    if spread is not None:
        return spread
    given = keyword(call, "base_url")
    if given is None and not call.args and all(item.arg is not None and item.arg not in _OWN_ADDRESS for item in call.keywords):
        return environment_url(reader, call, where)
    return text(reader, given, where), address_conditions(given, where)


def address_conditions(node: ast.expr | None, frame: Frame) -> str:
    """What an address rests on: the environment defaults it was read with, and the defaults of
    the parameters it reads when no caller passes them (`as_written`)."""
    return " and ".join(filter(None, (address_condition(node, frame), *defaults_read(node, frame))))


def environment_url(reader: Reader, call: ast.Call, frame: Frame) -> tuple[object, str]:
    """`OPENAI_BASE_URL` where the client is made, as the module and the scripts around it set it."""
    module = frame.module
    written = environment_written(reader, VARIABLE, call, frame)
    if written is not NOTHING:
        return written.value, ""
    named = [node for node in ast.walk(module.tree) if isinstance(node, ast.Constant) and node.value == VARIABLE]
    before = _set_before(call, frame) if len(named) == 1 else None
    if (named and before is None) or _named_near(reader, module.path) or _loads_dotenv(reader, module.path, module.source.text):
        return None, ""  # read or written another way, or a module near it or a dotenv file may set it
    if before is not None and before[1]:
        return before[0], ""  # `os.environ[NAME] = URL` before the client is made
    default = before[0] if before is not None else None  # `os.environ.setdefault(NAME, URL)`
    runs = _runs(reader, module.path) or [_UNREAD]  # no run found: the caller's environment
    values = {run.value if run.value is not None else default for run in runs}
    if len(values) != 1 or None in values:
        return None, ""
    return values.pop(), f"`{VARIABLE}` is unset" if any(run.value is None for run in runs) else ""


def _importers(reader: Reader, path: str) -> list[tuple[str, str]]:
    return [(near, text) for near, text in reader.tree.nearby_texts(path) if imports_module(text, near, path)]


def _loads_dotenv(reader: Reader, path: str, text: str) -> bool:
    """Whether the module or one that imports it loads a dotenv file (`load_dotenv(override=True)`
    replaces what the script exports)."""
    return any("dotenv" in each for each in (text, *(near for _, near in _importers(reader, path))))


def _named_near(reader: Reader, path: str) -> bool:
    quoted = (f'"{VARIABLE}"', f"'{VARIABLE}'")
    return any(word in text for near, text in reader.tree.nearby_texts(path) if near != path for word in quoted)


def _set_before(call: ast.Call, frame: Frame) -> tuple[str, bool] | None:
    """(URL, replaces) of an `os.environ[NAME] = URL` (True) or `os.environ.setdefault(NAME, URL)`
    (False) that runs before the construction: a statement of the module's top (above it, when the
    module's top makes the client), or of the body of the function that makes it, above it."""
    function = frame.function
    for body in (frame.module.tree.body, function.body if function is not None else []):
        for statement in body:
            if statement.lineno >= call.lineno and (function is None or body is function.body):
                break
            found = _environment_write(statement)
            if found is not None:
                return found
    return None


def _environment_write(statement: ast.stmt) -> tuple[str, bool] | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
        named = isinstance(target, ast.Subscript) and ast.unparse(target.value) in ("os.environ", "environ")
        named = named and isinstance(target.slice, ast.Constant) and target.slice.value == VARIABLE  # type: ignore[union-attr]
        return (value.value, True) if named and isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) in ("os.environ.setdefault", "environ.setdefault")):
        return None
    arguments = call.args if len(call.args) == 2 and not call.keywords else []
    named = bool(arguments) and isinstance(arguments[0], ast.Constant) and arguments[0].value == VARIABLE
    given = arguments[1] if named else None
    return (given.value, False) if isinstance(given, ast.Constant) and isinstance(given.value, str) else None


def _runs(reader: Reader, path: str) -> list[ProgramRun]:
    """The runs, by the scripts and deployment files near it, of the module at `path` or of a
    module near it that imports it."""
    known: dict = reader.__dict__.setdefault("_environment_runs", {})
    if path not in known:
        from ....readers.deployed_programs import deployed_program_runs  # the shell interpreter: loaded when a client needs it
        from ....readers.shell.program_runs import program_runs

        context = reader.tree.context
        programs = [path, *(near for near, _ in _importers(reader, path))]
        found = []
        for file, text in _run_files(context, path):
            try:
                runs = (
                    deployed_program_runs(text, VARIABLE)
                    if file.endswith(_YAML)
                    else program_runs(SourceFile(file, text), context, VARIABLE)
                )
            except (ParseError, RecursionError):
                runs = None
            runs = [_UNREAD] if runs is None else runs  # a file not read whole may run the program with anything
            found += [run for run in runs if run == _UNREAD or any(_runs_module(run, file, p, context.read_text) for p in programs)]
        known[path] = found
    return known[path]


def _run_files(context, path: str) -> list[tuple[str, str]]:
    """(path, text) of the shell scripts and compose files that name the variable, in the module's
    folder and those above it up to the folder above the one that holds its top package (`src/` of
    `src/pkg/utils.py`: the repository's), and the folders one level down of each."""
    top = os.path.normpath(import_root(context.read_text, path) or os.path.dirname(path) or os.curdir)
    folder, found = os.path.dirname(path) or os.curdir, {}
    for _ in range(_UP):
        below = [os.path.join(folder, name) for name in context.list_folder(folder) if "." not in name]
        for inner in [folder, *below[:_MAX_FOLDERS]]:
            for name in context.list_folder(inner):
                file = os.path.join(inner, name)
                if name.endswith((".sh", *_YAML)) and file not in found:
                    text = context.read_text(file) or ""
                    found.update({file: text} if VARIABLE in text else {})
        parent = os.path.dirname(folder) or os.curdir
        if parent == folder or os.path.normpath(folder) == os.path.dirname(top) or len(found) >= _MAX_FILES:
            break
        folder = parent
    return list(found.items())[:_MAX_FILES]


def _runs_module(run: ProgramRun, script: str, path: str, read_text) -> bool:
    """Whether a run's `-m MODULE` is the module at `path` by its dotted name from the folder that
    holds its top package, or its script path names it (from the script's folder, or a path with
    folders that ends the module's)."""
    if run.module is not None:
        top = import_root(read_text, path) or os.path.dirname(path)
        dotted = os.path.splitext(os.path.relpath(path, top or os.curdir))[0].replace(os.sep, ".")
        return dotted == run.module
    written = os.path.normpath(run.path or "")
    beside = os.path.normpath(os.path.join(os.path.dirname(script), written))
    here = os.path.normpath(path)
    return beside == here or (os.sep in written and not written.startswith(os.pardir) and here.endswith(os.sep + written))
