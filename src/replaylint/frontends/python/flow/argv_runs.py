"""`sys.argv[i]` of a module that another Python program of the tree runs as a child process
(llm-compressor's e2e test: `subprocess.run([sys.executable, str(RUN_FILE), json.dumps(llm_kwargs)])`
with `RUN_FILE = Path(__file__).parent / "run_vllm.py"`, read there by `json.loads(sys.argv[1])`):
the word those runs give, read where the runner writes it (a mapping `json.dumps` makes keeps
each key where the dict writes it); where no Python program runs it, the word the shell scripts
near it give (`script_flags.script_word`).

The runs looked for are the `subprocess` calls in the Python files near the module that name its
file: a list spelt out whose program is Python (`sys.executable`, `python3`) and whose script is a
path the runner's own place decides (`__file__`). The word is unknown where no such run is
found, where two runs give different words or one gives a word not known there, or where the
module changes `sys.argv` itself."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import replace

from .argv_changes import changes_argv
from .callsites import calls
from .environment_defaults import environment_fallback
from .facts import NOTHING, Val
from .frames import Evaluates, Frame, reaching
from .module import Module
from .parsed_texts import DumpedMapping
from .program_environment import environment_read
from .refs import Qualified
from .script_flags import script_word
from .yaml_configs import path_of

CHILD_PROCESSES = frozenset(("subprocess.Popen", "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"))
_CALLED = ("Popen(", "run(", "call(", "check_call(", "check_output(")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_CHANGES = (".append(", ".extend(", ".insert(", ".remove(", ".pop(", ".clear(", "+=", "[")


def argv_word(reader: Evaluates, index: int, frame: Frame) -> Val:
    """`sys.argv[index]` (index 1 or more) where `frame`'s module runs as a program."""
    runs = module_runs(reader, frame.module)
    if runs == []:  # no Python program of the tree runs it: the shell scripts near it may
        return script_word(reader, frame.module, index)
    words = [run[index - 1] if index - 1 < len(run) else NOTHING for run in runs or ()]
    if len(words) == 1 and isinstance(words[0].ref, DumpedMapping):
        return words[0]  # `json.dumps(kwargs)` of a dict with a value not known (the model's path)
    if not words or any(word.value != words[0].value or not word.known for word in words):
        return NOTHING
    return words[0]


def module_runs(reader: Evaluates, module: Module) -> list[list[Val]] | None:
    """The words each run of `module` by a Python file near it gives after the script (None: the
    module changes `sys.argv` itself, or a runner reads back into it)."""
    if any(changes_argv(module, placed) for placed in module.statements(module.tree)):
        return None
    found: dict = reader.__dict__.setdefault("_argv_runs", {})
    if module.path not in found:
        found[module.path] = None  # a runner that reads back into this module finds no word
        found[module.path] = _runs(reader, module)
    return found[module.path]


def _runs(reader: Evaluates, module: Module) -> list[list[Val]]:
    """The words after the script of each run of `module` by a Python file near it."""
    name = os.path.basename(module.path)
    runs = []
    for path, text in reader.tree.nearby_texts(module.path):  # type: ignore[attr-defined]
        if name not in text or os.path.normpath(path) == os.path.normpath(module.path):
            continue
        home = reader.tree.open_file(path, text)  # type: ignore[attr-defined]
        runs += [words for script, words in program_runs(reader, home) if os.path.normpath(script) == os.path.normpath(module.path)]
    return runs


def program_runs(reader: Evaluates, home: Module | None) -> list[tuple[str, list[Val]]]:
    """The Python programs of the tree `home` runs as child processes: each script's path and
    the words after it."""
    found = []
    for call in calls(home, _CALLED) if home is not None else ():
        frame = Frame(home, call.scope, call.cls, None, call.placed)
        callee = reader.evaluate(call.node.func, frame).ref
        if isinstance(callee, Qualified) and callee.name in CHILD_PROCESSES and _script_words(reader, call.node, frame) is not None:
            found += _each_context(reader, home, call)
    return found


def _each_context(reader: Evaluates, home: Module, call) -> list[tuple[str, list[Val]]]:
    """The run read in each context the tree calls its function in (a helper's words from its
    callers' arguments: speculators' `run_vllm_engine(..., speculative_config={...})`)."""
    frames = reader.call_contexts(home, call)  # type: ignore[attr-defined]  (`engines.contexts`, given to the reader there)
    runs = [_script_words(reader, call.node, frame) for frame in frames]
    return [run for run in runs if run is not None]


def _script_words(reader: Evaluates, node: ast.Call, frame: Frame) -> tuple[str, list[Val]] | None:
    """The script a run gives Python and the words after it (None: a run of another program, or one not spelt out)."""
    argv = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "args"), None)
    items = _spelt(argv, frame) if argv is not None else None
    if items is None or len(items) < 2 or not _python(reader, items[0], frame):
        return None
    path = path_of(items[1], frame)
    if path is None:
        return None
    words = []
    for item in items[2:]:
        read = reader.evaluate(item, frame)
        words.append(read if read.span is not None or not read.known else replace(read, span=frame.module.span(item)))
    return path, words


def _spelt(argv: ast.expr, frame: Frame) -> list[ast.expr] | None:
    """The items of a list spelt out (or of a name bound once to one, not changed in place)."""
    if isinstance(argv, ast.Name):
        if any(argv.id + change in frame.module.source.text for change in _CHANGES):
            return None
        binding = reaching(frame, argv.id)
        argv = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None  # type: ignore[assignment]
    if not isinstance(argv, (ast.List, ast.Tuple)) or any(isinstance(item, ast.Starred) for item in argv.elts):
        return None
    return list(argv.elts)


def _python(reader: Evaluates, program: ast.expr, frame: Frame) -> bool:
    if isinstance(program, ast.Name):
        binding = reaching(frame, program.id)
        bound = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
        program = bound if isinstance(bound, ast.Call) else program
    if isinstance(program, ast.Call):
        # the interpreter a variable may name, this Python where it is unset (`os.environ.get("VLLM_PYTHON", sys.executable)`):
        # whichever it is runs the same script with the same words
        program = environment_fallback(program, frame.module) or program
    read = reader.evaluate(program, frame)
    if isinstance(read.ref, Qualified):
        return read.ref.name == "sys.executable"
    return isinstance(read.value, str) and _PYTHON.fullmatch(os.path.basename(read.value)) is not None


def run_input(reader: Evaluates, name: str, key: object, node: ast.Subscript, frame: Frame) -> Val | None:
    """What a program is given, read by name: `os.environ[key]` (the module's own `os.environ[key] = ...`, else
    what its runs give it) and `sys.argv[i]` (what the tree's Python programs that run this one give it)."""
    if name == "os.environ" and isinstance(key, str):
        return environment_read(reader, key, node, frame)
    if name == "sys.argv" and type(key) is int and key >= 1:
        return argv_word(reader, key, frame)
    return None
