"""A vLLM server a helper of the tree starts with the words and the environment its callers give
(AReaL's launcher: `def launch_server_cmd(command, custom_env=None)`, `_env = os.environ.copy()`,
`_env.update(custom_env)`, `subprocess.Popen(command, env=_env)`). The libcst pass reads a spawn
whose words its own scope spells; this reads one whose words come from a parameter, in each
context the tree calls the helper in (the call sites' arguments followed: `build_cmd(...)`'s list,
`custom_env={...}`). The environment is the copy's keys as written before the call; one the
reader cannot see (an update with an unknown mapping) leaves it open. A helper no call site in
the tree reaches is left to the libcst pass. A command string run with `shell=True` (also from a dict of options the call
spreads: TapeAgents' `Popen(cmd, **process_args)`), `os.system`
or `os.popen`, or split by `shlex.split`, that the program puts together (a helper's f-string,
`+`, `cmd += " --flag"`, also an f-string the call spells: `os.system(f"vllm serve {MODEL} {flags}")`)
is split by `shell_strings`, placed at the f-string, where the libcst pass finds its commands
(`flow.merge` pairs them), read with each call's arguments where it is built from its function's
parameters (llama-cookbook's `start_vllm(cuda_devices, model_name)`); a literal the call spells is
the libcst pass's alone."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from typing import Iterator

from ....command import WordSyntax, token_elements
from ....launch_context import LaunchContext
from ....model import UNKNOWN, Assumption, Launch, LaunchKind, Setting, Span
from ....programs import split_launcher, submits_a_job
from ....vllm.command_line import Token
from ....vllm.engine_fields import RUNNER_ENV
from ..names import matches_from
from ..strings import python_quote
from .callsites import calls, reads_parameter, reads_stored_parameter, words_of_parameter
from .class_order import init_of
from .dicts import written
from .engines import contexts
from .environ import runner_variable
from .facts import Kwargs
from .frames import Frame, reaching
from .loop_turns import turn_frames
from .module import FUNCTIONS, Module
from .reader import Qualified, Reader
from .script_flags import is_run_as, rests_on_environment
from .shell_strings import Word, assignments, commands, pieces

_SPAWNS = frozenset(("subprocess.Popen", "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"))
_SHELLS = frozenset(("os.system", "os.popen"))  # run their string with `sh -c`
_EXEC = "asyncio.create_subprocess_exec"  # the program and its words as arguments: olmOCR's `create_subprocess_exec(*cmd)`
_WORDS = ("Popen(", "run(", "call(", "check_output(", "system(", "popen(", "create_subprocess_exec(")
# Where `_NAMED_WORDS` is tried (`search` tries its `\b` at every character: 6 -> 1 ms on a 60 KB module).
_CALLED = ("Popen(", "run(", "call(", "check_call(", "check_output(", "system(", "popen(", "create_subprocess_exec(")
# the words a name, a list literal or a call of a named function gives (`run(build_command(), shell=True)`), or
# a command string the call puts together (`system(f"... {flags}")`, `system("vllm serve " + flags)`), or
# words spelt before a spread (`create_subprocess_exec("vllm", *args.argv())`)
_NAMED_WORDS = re.compile(
    r"\b(?:Popen|run|call|check_call|check_output|system|popen|create_subprocess_exec)\(\s*(?:args\s*=\s*)?\*?"
    r"(?:[A-Za-z_][\w.]*\s*[,()]|\[|[rR]?[fF][rR]?[\"']|(?:\"[^\"\n]*\"|'[^'\n]*')\s*\+"
    r"|(?:(?:\"[^\"\n]*\"|'[^'\n]*')\s*,\s*)+\*)"
)
_COPIES = ("os.environ.copy", "copy.copy", "copy.deepcopy", "dict")  # a copy of `os.environ`


def spawn_words(text: str) -> bool:
    """Whether a file may start a process with `subprocess` whose words a name, a list literal or
    a call holds (`Popen(command, ...)`, `Popen(["vllm", ...])`, `run(build_command(), shell=True)`;
    cheap: its text)."""
    spawns = "subprocess" in text or "os.system" in text or "os.popen" in text or "import system" in text
    return spawns and next(matches_from(_NAMED_WORDS, text, _CALLED), None) is not None


def spawned_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    """The servers the module's helpers start with their callers' words, and those it starts
    with words of its own: the libcst pass reads the words, `flow.merge` gives it the values it
    could not read (`str(PORT)` of `settings.PORT`, a JSON text of keys, the `flag, value` of a
    loop over a dict the program spells out: MiniCPM's `for flag, value in SERVER_OPTIONS.items():
    cmd += [flag, value]`)."""
    for call in calls(module, _WORDS):
        scope, node = call.scope, call.node
        plain = Frame(module, scope, call.cls, None, call.placed)
        spawns = reader.evaluate(node.func, plain).ref
        if not (isinstance(spawns, Qualified) and spawns.name in _SPAWNS | _SHELLS | {_EXEC}):
            continue
        words = _exec_words(node) if spawns.name == _EXEC else _words_given(node)
        if words is None:
            continue
        from_caller = isinstance(scope, FUNCTIONS) and (reads_parameter(scope, node) or words_of_parameter(scope, words))
        # a method whose words its object's construction decides (`self.config` of `__init__(self, config)`)
        from_caller = from_caller or (call.cls is not None and reads_stored_parameter(call.cls, init_of(module, call.cls), scope))
        if spawns.name in _SHELLS or _in_shell(reader, node, plain):  # a command string put together (`f"{cmd} {server_args}"`)
            for frame in _caller_frames(reader, module, call) if from_caller else (plain,):
                yield from _shell_launches(reader, module, node, words, frame)
            continue
        split = _shlex_split(reader, words, plain)
        if split is not None:  # `Popen(shlex.split(cmd))`: the string split as a POSIX shell splits words
            for frame in _caller_frames(reader, module, call) if from_caller else (plain,):
                yield from _shell_launches(reader, module, node, split, frame, shell=False)
            continue
        own = reader.evaluate(words, plain).ref
        if _known(own) and (not from_caller or all(getattr(item, "known", False) for item in own)):
            launch = _launch(reader, module, node, words, plain, own_words=True)
            yield from (launch,) if launch is not None else ()
            continue
        if not from_caller:
            continue
        # `for name, spec in self.roles.items(): Popen([..., *spec.extra])`: one server per turn
        for frame in turn_frames(reader, contexts(reader, module, call)):
            launch = _launch(reader, module, node, words, frame) if frame.args is not None or frame.init is not None else None
            if launch is not None:
                yield launch


def _caller_frames(reader: Reader, module: Module, call) -> list[Frame]:
    """A command string built from its function's parameters (llama-cookbook's `start_vllm(cuda_devices,
    model_name)`: `f"vllm serve {model_path} ..."`), read with each call's arguments; alone where none is seen."""
    frames = [f for f in turn_frames(reader, contexts(reader, module, call)) if f.args is not None or f.init is not None]
    return frames or [Frame(module, call.scope, call.cls, None, call.placed)]


def _words_given(node: ast.Call) -> ast.expr | None:
    return node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "args"), None)


def _exec_words(node: ast.Call) -> ast.expr | None:
    """The list `create_subprocess_exec(*cmd)` spreads, or the list its arguments spell with a
    spread among them (`create_subprocess_exec("vllm", *args.argv())`, read as `["vllm", *args.argv()]`);
    words all spelt in the call are the libcst pass's."""
    only = node.args[0] if len(node.args) == 1 else None
    if isinstance(only, ast.Starred):
        return only.value
    if not any(isinstance(arg, ast.Starred) for arg in node.args):
        return None
    return ast.copy_location(ast.List(elts=list(node.args), ctx=ast.Load()), node)


def _in_shell(reader: Reader, node: ast.Call, frame: Frame) -> bool:
    """`shell=True`, spelt in the call or in a dict of options it spreads (TapeAgents' `Popen(cmd,
    **process_args)` of `process_args = {"shell": True, ...}`, known whole)."""
    for keyword in node.keywords:
        if keyword.arg == "shell":
            return isinstance(keyword.value, ast.Constant) and keyword.value.value is True
        if keyword.arg is None:
            options = reader.evaluate(keyword.value, frame).kwargs
            held = options.entries.get("shell") if options is not None and options.whole else None
            if held is not None:
                return held.setting.value is True
    return False


def _shlex_split(reader: Reader, words: ast.expr, frame: Frame) -> ast.expr | None:
    """The string of `shlex.split(cmd)` (its one argument)."""
    if not (isinstance(words, ast.Call) and len(words.args) == 1 and not words.keywords):
        return None
    func = reader.evaluate(words.func, frame).ref
    return words.args[0] if isinstance(func, Qualified) and func.name == "shlex.split" else None


def _shell_launches(reader: Reader, module: Module, node: ast.Call, words: ast.expr, frame: Frame, shell: bool = True) -> Iterator[Launch]:
    """The servers a command string starts that the program puts together from pieces (a literal
    string, or one name bound to it, is the libcst pass's); a word resting on a default of the
    run is not known. `shell` False: `shlex.split`'s words, one command."""
    spelt = _spelt_here(words, frame)
    if isinstance(spelt, ast.Constant) or (isinstance(spelt, ast.JoinedStr) and not _replaces(spelt)):
        return  # the libcst pass reads a literal the call is given (an f-string's replacements it takes as expansions)
    at = module.span(spelt) if spelt is not None else None  # where the libcst pass finds the commands of an f-string
    read = reader.evaluate(words, frame)
    modules = reader.tree.modules()
    put_together = read.parts or (isinstance(words, ast.Call) and isinstance(read.value, str))  # `build_command()`'s text
    found = pieces(read, {path: home.source.text for path, home in modules.items()}) if put_together else None
    for spelt in (commands(found, shell) or ()) if found else ():
        prefix, command = assignments(spelt) if shell else ({}, spelt)
        spans = [_word_span(modules, word) or module.span(words) for word in command]
        texts = [None if rests_on_environment(word.assumptions) else word.text for word in command]
        located = split_launcher(texts, python_unknown_first=True)
        if located is None:
            continue
        entrypoint, after = located
        tokens = [
            Token(text, span, _raw(text, span, modules), spread=word.spread, keys=word.keys)
            for text, span, word in list(zip(texts, spans, command))[after:]
        ]
        launch = _command(reader, module, node, tokens, frame, entrypoint, texts, _prefix_runner(modules, prefix), at)
        runs = dict.fromkeys(Assumption(said, where) for word in command for said, where in word.assumptions if is_run_as(said))
        yield from (replace(launch, assumptions=(*launch.assumptions, *runs)),) if launch is not None else ()


def _raw(text: str | None, span: Span, modules: dict) -> str:
    """A word as a message shows it: a script's word as the script writes it, else as Python spells the text."""
    if text is None:
        return ""
    return text if span.path not in modules and span.path.endswith((".sh", ".bash")) else python_quote('"')(text)


def _prefix_runner(modules: dict, prefix: dict[str, Word]) -> dict[str, Setting]:
    """The runner variable a command's `NAME=value` prefix gives it, placed at its word."""
    word = prefix.get(RUNNER_ENV)
    if word is None:
        return {}
    value = word.text.partition("=")[2] if word.text is not None and not word.assumptions else UNKNOWN
    span = _word_span(modules, word)
    return {RUNNER_ENV: Setting(RUNNER_ENV, value, span, word.text or word.head)} if span is not None else {}


def _spelt_here(words: ast.expr, frame: Frame) -> ast.Constant | ast.JoinedStr | None:
    """A string literal or f-string, written in the call or bound once to the name it is given."""
    binding = reaching(frame, words.id) if isinstance(words, ast.Name) else None
    value = binding.value if binding is not None and binding.kind == "value" else words
    if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return value
    return None


def _replaces(text: ast.JoinedStr) -> bool:
    return any(isinstance(value, ast.FormattedValue) for value in text.values)


def _word_span(modules: dict, word: Word) -> Span | None:
    if word.exact is None or word.exact[0] not in modules:
        return word.span
    path, start, end = word.exact
    return modules[path].source.index.span(start, end)


def _known(items: object) -> bool:
    return isinstance(items, tuple) and bool(items)


def _launch(reader: Reader, module: Module, node: ast.Call, words: ast.expr, frame: Frame, own_words: bool = False) -> Launch | None:
    """`own_words`: the module's own list, whose words resting on a default of the run (`os.getenv`'s)
    stay unknown, but for a text put together from such defaults (`json.dumps(spec)` of a dict of
    `os.environ.get(NAME, default)`s), which holds when they are unset, said at each default."""
    items = reader.evaluate(words, frame).ref
    if not _known(items):
        return None
    texts = [item_text(item, own_words and not getattr(item, "keys", None)) for item in items]
    found = split_launcher(texts, python_unknown_first=True)
    if found is None:
        return None
    entrypoint, after = found
    tokens = [
        Token(
            text,
            item.span or module.span(words),
            item_raw(reader, item, text),
            keys=getattr(item, "keys", {}) or json_keys(reader, item, text),
        )
        for text, item in zip(texts[after:], items[after:])
    ]
    launch = _command(reader, module, node, tokens, frame, entrypoint, texts)
    resting = [Assumption(c, span) for item, text in zip(items, texts) if text is not None for c, span in getattr(item, "assumptions", ())]
    return replace(launch, assumptions=(*launch.assumptions, *_file_conditions(items), *resting)) if launch is not None else None


def _file_conditions(items: tuple) -> list[Assumption]:
    """What the words a config file gives rest on (the file chosen as `--config` is not given:
    llama-cookbook's `args.config or find_config_file()`), at each word of that file."""
    by_file: dict[str, list[str]] = {}
    for item in items:
        span = getattr(item, "span", None)
        if span is not None and span.path.endswith((".yaml", ".yml", ".json")):
            conditions = by_file.setdefault(span.path, [])
            conditions += [c for c, _ in getattr(item, "assumptions", ()) if c not in conditions]
    spans = [getattr(item, "span", None) for item in items]
    return [Assumption(c, span) for span in spans if span is not None for c in by_file.get(span.path, ())]


def _command(
    reader: Reader,
    module: Module,
    node: ast.Call,
    tokens: list[Token],
    frame: Frame,
    entrypoint: str,
    texts: list[str | None],
    prefix: dict[str, Setting] | None = None,
    at: Span | None = None,
) -> Launch | None:
    env, env_open = _environment(reader, node, frame)
    if submits_a_job(texts):  # the cluster's environment, not the call's
        env, env_open = {}, True
    env = {**env, **(prefix or {})}  # `NAME=value cmd`: the command's own
    context = LaunchContext(LaunchKind.CLI, env=env, label=f"{module.text(node.func)}(...)", read_text=reader.tree.context.read_text)
    syntax = WordSyntax(python_quote('"'), separator=",")
    from ....frameworks.commands import command_launch  # the frameworks' launchers too: loaded for a server found only

    launch = command_launch(context, at or module.span(node), tokens, token_elements(tokens, None, ","), syntax, entrypoint)
    return replace(launch, env_open=env_open, handle=None) if launch is not None else None  # no fix: the words may be anywhere


def item_raw(reader: Reader, item: object, text: str | None) -> str:
    """The word as written where it is decided (`"raw_logprobs"` of a config field), else as a
    Python text of the word (a flag the program builds: `"--logprobs-mode"`)."""
    span = getattr(item, "span", None)
    home = reader.tree.modules().get(span.path) if span is not None else None
    if home is not None and span is not None and span.end - span.start <= len(text or "") + 2:
        return home.source.text[span.start : span.end]
    return python_quote('"')(text) if text is not None else ""


def json_keys(reader: Reader, item: object, text: str | None) -> dict[str, Setting]:
    """The keys of a JSON object a string literal spells (also in pieces over lines), each placed
    at its own `"key": value` text there (where it is written so)."""
    span = getattr(item, "span", None)
    home = reader.tree.modules().get(span.path) if span is not None and text is not None and text.lstrip()[:1] == "{" else None
    if home is None:
        return {}
    try:
        parsed = json.loads(text)  # type: ignore[arg-type]
    except ValueError:
        return {}
    written_text = home.source.text[span.start : span.end]  # type: ignore[union-attr]
    keys = {}
    for name, value in parsed.items() if isinstance(parsed, dict) else ():
        entry = f"{json.dumps(name)}: {json.dumps(value)}"
        at = written_text.find(entry)
        if at >= 0:
            start = span.start + at  # type: ignore[union-attr]
            keys[name] = Setting(name, value, home.source.index.span(start, start + len(entry)), entry)
    return keys


def item_text(item: object, own_words: bool) -> str | None:
    value = getattr(item, "value", UNKNOWN)
    if own_words and rests_on_environment(getattr(item, "assumptions", ())):
        return None
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None


def _environment(reader: Reader, node: ast.Call, frame: Frame) -> tuple[dict[str, Setting], bool]:
    """The runner variable the child starts with, and whether its environment is open."""
    given = next((k.value for k in node.keywords if k.arg == "env"), None)
    inherited = runner_variable(frame, reader)[0]  # what `os.environ` holds when the call is made
    if given is None:
        return inherited, False
    mapping = _copy_written(reader, given, frame)
    if mapping is None:
        read = reader.evaluate(given, frame).kwargs
        mapping = read.copy() if read is not None else None
    if mapping is None:
        return {}, True
    entry = mapping.entries.get(RUNNER_ENV)
    copies = all(reason.startswith(("**os.environ", "os.environ")) for reason in mapping.reasons)
    if entry is None:
        return (inherited if copies and mapping.reasons else {}), not copies
    setting = entry.setting if not entry.guards else replace(entry.setting, value=UNKNOWN)
    return {RUNNER_ENV: setting}, not copies


def _copy_written(reader: Reader, given: ast.expr, frame: Frame) -> Kwargs | None:
    """`env` bound to a copy of `os.environ` (`os.environ.copy()`), with the writes into it before the call."""
    binding = reaching(frame, given.id) if isinstance(given, ast.Name) else None
    value = binding.value if binding is not None and binding.kind == "value" and binding.placed is not None else None
    if not isinstance(value, ast.Call) or not _copies_environ(reader, value, frame):
        return None
    assert isinstance(given, ast.Name) and binding is not None
    return written(reader, Kwargs(reasons=["os.environ"]), given.id, frame, binding.placed, frame.at)


def _copies_environ(reader: Reader, value: ast.Call, frame: Frame) -> bool:
    func = reader.evaluate(value.func, frame).ref
    name = func.name if isinstance(func, Qualified) else ""
    if name == "os.environ.copy":
        return not value.args
    held = reader.evaluate(value.args[0], frame).ref if len(value.args) == 1 and not value.keywords else None
    return name in _COPIES and isinstance(held, Qualified) and held.name == "os.environ"
