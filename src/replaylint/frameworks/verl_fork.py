"""A verl fork in the checked tree (`frameworks/verl.py`, "A fork"): its own defaults and its own
engine arguments, read in place of the edition's.

- `verl/trainer/config/rollout/rollout.yaml`: the rollout defaults (typed keys, requests,
  `engine_kwargs.vllm`).
- `verl/workers/rollout/vllm_rollout/vllm_async_server.py`: its `os.environ` writes of `VLLM_*`
  variables (`fork_source.environment_writes`), and the `args` dict `vLLMHttpServer.launch_server`
  builds (verl 0.7.1 to 0.9.1), read with `built_dicts`. A key the fork writes with a literal is
  what vLLM gets: above `**engine_kwargs` in the literal, under the user's `engine_kwargs.vllm`;
  after it, or written into `args` later, over them; a dict's literal keys each at its own line
  (`args["speculative_config"] = {..., "enable_adaptive_verification": True}`). A typed key whose value is no longer
  `self.config.<key>` is the fork's; one the fork no longer passes (`"logprobs_mode": ...`
  removed) leaves vLLM's default. A write under `if self.config.get("key", default):` (or
  `self.config.key`) is decided by the launch's `actor_rollout_ref.rollout.key`, else the fork's
  rollout.yaml, else the code's default (`fork_conditions.decided`). A value the server reads from
  the environment into an attribute (`self.return_sampling_mask = os.environ.get("V", "0") == "1"`
  in `__init__`, the module's one binding of it; `"return_sampling_mask": self.return_sampling_mask`
  in `args`) is decided by what the launch exports; one it does not export stays unknown. A replay key written with a value
  not read here, or under an `if` not decided here, and a write not read here that verl's own code
  does not make, keep the launch open. A hook spread into `args` (`**self.extra_engine_args()`)
  is the dict its one `return` gives on the server class the replica starts (`ray.remote(Subclass)`:
  the subclass's override wins; `fork_classes.method_dicts`); a replica that starts one of two
  classes by a test (`ray.remote(A if replay else B)`) has each class's dict under its test
  (`fork_classes.method_choices`), a test of an environment variable decided by what the launch
  exports. The `VLLM_*` `env_vars` of the server
  actor's `.options(runtime_env=...)` are the engine's environment (`fork_source.actor_environment`).
  What the fork writes into the user's `engine_kwargs` before `args` spreads it
  (`built_dicts.passed_through`): a `setdefault` under the user's keys (the launch's and the fork's
  rollout.yaml `engine_kwargs.vllm`), a write or `update` over them; the dict handed on or bound
  anew before the spread keeps the launch open.
  A rollout key verl does not pass that the fork's `args` passes (`self.config.get("key", d)`, also merged in
  by `args = dict(**args, **replay_args)`) is typed as verl's own: the launch's value, else the fork's
  rollout.yaml's (its line), else d. A subclass of `vLLMHttpServer` the replica starts (`ray.remote(Sub)`) that
  sets vLLM's parsed namespace in `run_server` (`args.return_sampling_mask = True`, before
  `super().run_server(args)`) wins over every other write; one of its statements that uses `args` otherwise
  keeps the launch open (`fork_classes.parameter_writes`).
  What `generate` does to each request before `SamplingParams(**sampling_params)` (a clamp under a
  test of the request's own values, a `setdefault`) is applied to verl's requests (`request_writes`).
"""

from __future__ import annotations

import ast
from dataclasses import field, replace
from typing import Any, Callable, Iterable, Mapping

import yaml

from ..model import UNKNOWN, Setting, Span
from ..records import record
from . import request_writes
from .built_dicts import BuiltDict, Written, passed_through, read
from .default_spelling import WrittenDefault
from .fork_classes import parameter_writes
from .fork_conditions import config_value, decided, env_test, environment_attributes, exported
from .fork_source import environment_settings, literal, parse, placed
from .nearby import found_upward
from .request_writes import RequestPath

ROLLOUT_YAML = "verl/trainer/config/rollout/rollout.yaml"
SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
SERVER_CLASS = "vLLMHttpServer"
_SUBCLASS_HOOK = "a subclass's run_server"
OWNER = "the forked verl"
FRAMEWORK = "verl"
_OWN_UNREAD = frozenset(("profiler_args",))  # `args.update(profiler_args)`: verl's own, profiler settings only
_REPLAY_KEYS = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "speculative_config"))
_OWN_TEXTS = ("build_mtp_speculative_config(", "speculative_config")  # verl's MTP, which the editions model


@record(unsafe_hash=True)
class Fork:
    """The rollout defaults and the server's engine arguments of a verl fork in the checked tree."""

    path: str  # its rollout.yaml (or its server module), as the tree spells it
    rollout: Mapping[str, Any]
    server: BuiltDict | None = None
    rollout_text: str = field(default="", repr=False, compare=False)  # its rollout.yaml, for `default_span`
    generate: RequestPath | None = None  # what the server's `generate` does to each request
    passed: BuiltDict | None = None  # its writes into `engine_kwargs` before `args` spreads it
    # `self.X = os.environ.get("V", "0") == "1"` in the server module: `self.X` -> the test's text
    env_attributes: tuple[tuple[str, str], ...] = ()
    # a started subclass's `run_server(args)`: `args.X = v` before `super().run_server(args)`, over every other write
    namespace: tuple[Written, ...] = ()

    def request_settings(self, settings: Mapping[str, Setting], anchor: Span) -> dict[str, Setting]:
        """A request's settings as the fork's server hands them to `SamplingParams`."""
        return self.generate.applied(settings, anchor, OWNER) if self.generate is not None else dict(settings)

    def default(self, key: str, built_in: Any) -> Any:
        return _resolved(self.rollout.get(key, built_in))

    def requests(self, built_in: dict[str, Any], *under: str) -> dict[str, Any]:
        section: Any = self.rollout
        for key in under:
            section = section.get(key) if isinstance(section, dict) else None
        section = section if isinstance(section, dict) else {}
        return {key: _resolved(section.get(key, value)) for key, value in built_in.items()}

    def request_places(self, keys: Iterable[str], *under: str) -> dict[str, WrittenDefault]:
        """Where the fork's rollout.yaml writes the request defaults among `keys` (`val_kwargs.temperature: 0`)."""
        found = {}
        for key in keys:
            lines = _key_lines(self.rollout_text, (*under, key)) if self.rollout_text else []
            if len(lines) == len(under) + 1:
                found[key] = WrittenDefault(FRAMEWORK, ROLLOUT_YAML, lines[-1])
        return found

    def engine_defaults(self) -> dict[str, Any]:
        """`engine_kwargs.vllm` of the fork's rollout.yaml."""
        engine = self.default("engine_kwargs", {})
        vllm = engine.get("vllm") if isinstance(engine, dict) else None
        return {key: value for key, value in vllm.items() if value is not None} if isinstance(vllm, dict) else {}

    def typed(self, verl_key: str, name: str) -> str:
        """How the fork's server passes a typed key: "config" (`self.config.<key>`, as verl does),
        "fork" (another value: `server_args` gives it) or "dropped" (not at all)."""
        if self.server is None:
            return "config"
        written = self.server.always(name)
        if written is None or name in self.server.removed and not self.server.removed[name].condition:
            return "dropped"
        return "config" if _read_key(written.text) == verl_key else "fork"

    def own_typed(self, known: Iterable[str], engine: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        """The fork's own typed keys: (rollout key, vLLM argument, default) of each write of a replay
        argument into the server's dict that passes a rollout key verl does not (`"return_sampling_mask":
        self.config.get("return_sampling_mask", False)`) and that the fork's rollout.yaml declares
        (its default), or that `.get` gives a default; `known`: the vLLM arguments verl's own typed
        keys give; `engine`: the user's `engine_kwargs.vllm`, which a late write would win over."""
        found = []
        for written in self.server.every() if self.server is not None else ():
            read = config_read(written.text) if not written.condition and written.value is UNKNOWN else None
            if read is None or written.key not in _REPLAY_KEYS or written.key in known or written.late and written.key in engine:
                continue
            key, default = read
            if key in self.rollout or default is not _NO_DEFAULT:
                found.append((key, written.key, self.default(key, None if default is _NO_DEFAULT else default)))
        return found

    def server_args(
        self, typed: Mapping[str, str], value_of: Callable[[str, Any], Any], env: Mapping[str, Setting]
    ) -> tuple[list[tuple[Written, str]], list[str]]:
        """The fork's own engine arguments ((written, what a message says), early ones first)
        and the reasons the launch is open (`typed`: vLLM name -> verl key of the typed keys;
        `value_of`: a rollout key's value in the launch, by its key and the code's default, which
        decides an `if self.config.get("key", False):` the fork writes under; `env`: what the
        launch exports, which decides a test of a variable: the server class a replica starts by
        `os.environ.get("X", "0") == "1"`)."""
        if self.server is None:
            return [], []
        found, reasons = _fork_args(self.server, typed, self._tested(value_of, env), self._from_environment(env))
        for written in self.namespace:  # set on vLLM's parsed namespace: the last word
            where = self.server.where(written.line, short=True)
            if written.value is not UNKNOWN:
                found.append((written, f"{OWNER}'s {where}: {written.text} in {_SUBCLASS_HOOK}"))
            elif not written.key or written.key in _REPLAY_KEYS:
                reasons.append(f"{written.text} in {_SUBCLASS_HOOK} of {OWNER}, not read here ({self.server.where(written.line)})")
        return found, reasons

    def _from_environment(self, env: Mapping[str, Setting]) -> Callable[[Written], Written]:
        """A value the server reads from the environment into an attribute (`"return_sampling_mask":
        self.return_sampling_mask`, set in `__init__` from `os.environ.get("V", "0") == "1"`), by
        what the launch exports; a variable it does not export stays unknown."""
        tests = dict(self.env_attributes)
        values = exported(env)

        def resolved(written: Written) -> Written:
            test = tests.get(written.text) if written.value is UNKNOWN else None
            value = env_test(ast.parse(test, mode="eval").body, values) if test is not None else UNKNOWN
            return written if value is UNKNOWN else replace(written, value=value, note=f"{written.text} = {test}")

        return resolved

    def _tested(self, value_of: Callable[[str, Any], Any], env: Mapping[str, Setting]) -> Callable[[Any], Any]:
        values = exported(env)  # a branch not known

        def tested(node: Any) -> Any:
            value = config_value(node, ("self.config",), value_of, self.default)
            return value if value is not UNKNOWN else env_test(node, values)

        return tested

    def passed_args(self, typed: Mapping[str, str], value_of: Callable[[str, Any], Any]) -> tuple[list[tuple[Written, str]], list[str]]:
        """What the fork's server writes into the user's `engine_kwargs` before `args` spreads it
        (`engine_kwargs.setdefault("return_sampling_mask", True)`): `late` False under the user's
        keys (a `setdefault`), True over them; as `server_args`. A replay key it removes from them
        keeps the launch open."""
        if self.passed is None:
            return [], []
        found, reasons = _fork_args(self.passed, typed, lambda node: config_value(node, ("self.config",), value_of, self.default))
        reasons += [
            f"{key} removed from engine_kwargs by {OWNER} ({self.passed.where(written.line)})"
            for key, written in self.passed.removed.items()
            if key in _REPLAY_KEYS
        ]
        return found, reasons

    def default_span(self, anchor: Span, *keys: str) -> Span:
        """Where a finding about a default of the fork's rollout.yaml sits: its key's line there."""
        lines = _key_lines(self.rollout_text, keys) if self.rollout_text else []
        line = lines[-1] if lines else None
        return placed(self.path, self.rollout_text, line, anchor) if line else anchor

    def span(self, written: Written, anchor: Span) -> Span:
        """Where a finding about a value the fork's server writes sits: its line there."""
        return self.server.span(written.line, anchor) if self.server is not None else anchor

    def keys(self, written: Written, anchor: Span) -> dict[str, Setting]:
        """The literal keys of a dict the fork's server writes, each at its own line (a finding
        about `enable_adaptive_verification` sits on that key)."""
        return self.server.setting(written, anchor, OWNER).keys if self.server is not None else {}

    def environment(self, env: Mapping[str, Setting]) -> dict[str, Setting]:
        """`env` with the `VLLM_*` variables the fork's server module writes (the vLLM server runs
        in that actor's process)."""
        if self.server is None:
            return dict(env)
        return environment_settings(self.server.path, self.server.text, env, OWNER)

    def removed(self) -> list[str]:
        """Keys the fork's server removes from the engine arguments on every launch."""
        return [key for key, written in self.server.removed.items() if not written.condition] if self.server is not None else []


def _fork_args(
    built: BuiltDict, typed: Mapping[str, str], tested: Callable[[Any], Any], resolved: Callable[[Written], Written] = lambda w: w
) -> tuple[list[tuple[Written, str]], list[str]]:
    """The literal keys a dict of the fork's server gets (early ones first), and the reasons the
    launch is open; `tested` gives the value of a rollout key a test reads (`self.config.get("key",
    d)`: the launch's, else the fork's rollout.yaml's, else d); `resolved` a value the server reads
    from the launch's environment."""
    found, reasons = [], []
    for written in map(resolved, built.every()):
        where = built.where(written.line)
        holds = decided(written.condition, tested)
        if holds is False:
            continue
        if holds is True and written.condition and written.value is not UNKNOWN:
            found.append(
                (written, f"{OWNER}'s {built.where(written.line, short=True)}: {written.key}={written.value!r}, when {written.condition}")
            )
            continue
        if written.condition or written.value is UNKNOWN:
            if (
                written.key not in _REPLAY_KEYS
                or written.text.startswith(_OWN_TEXTS)
                or (written.key in typed and _read_key(written.text) == typed[written.key])
            ):
                continue
            why = f"when {written.condition}" if written.condition else "a value not read here"
            reasons.append(f"{written.key} written by {OWNER} {why} ({where})")
            continue
        how = f" ({written.note})" if written.note else ""
        found.append((written, f"{OWNER}'s {built.where(written.line, short=True)}: {written.key}={written.value!r}{how}"))
    for written in built.unread:
        if written.text not in _OWN_UNREAD:
            reasons.append(f"{written.text} (written into verl's engine arguments at {built.where(written.line)}, not read here)")
    return sorted(found, key=lambda item: item[0].late), reasons


_NO_DEFAULT = object()


def config_read(text: str) -> tuple[str, Any] | None:
    """The rollout key a value of the server's reads, and the default its `.get` gives
    (`self.config.K`, `self.config["K"]`: none; `self.config.get("K", d)`); None for any other text."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if isinstance(node, ast.Attribute) and ast.unparse(node.value) == "self.config":
        return node.attr, _NO_DEFAULT
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "self.config" and isinstance(node.slice, ast.Constant):
        return (node.slice.value, _NO_DEFAULT) if isinstance(node.slice.value, str) else None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and not node.keywords):
        return None
    if ast.unparse(node.func.value) != "self.config" or not 1 <= len(node.args) <= 2:
        return None
    key = node.args[0].value if isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) else None
    default = literal(node.args[1]) if len(node.args) == 2 else None
    return (key, default) if key is not None and default is not UNKNOWN else None


def _read_key(text: str) -> str | None:
    read = config_read(text)
    return read[0] if read is not None else None


def _key_lines(text: str, keys: tuple[str, ...]) -> list[int]:
    """The lines of `keys` in a YAML text (PyYAML's composer: nodes with their marks, no object
    is built), as far as they are written in block style."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return []
    lines = []
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            break
        found = next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)
        if found is None:
            break
        lines.append(found[0].start_mark.line + 1)
        node = found[1]
    return lines


def _resolved(value: Any) -> Any:
    """A value as the fork's config gives it; an OmegaConf interpolation (`${...}`) is not read here."""
    return UNKNOWN if isinstance(value, str) and "${" in value else value


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> Fork | None:
    """verl's own rollout defaults and server in the tree, None without either (or unreadable:
    the edition's are then used, as for an installed verl)."""
    if read_text is None:
        return None
    rollout = _rollout(launching, read_text)
    found = found_upward(SERVER, launching, read_text)
    server = read(found[1], found[0], "launch_server", "args", "engine_kwargs") if found is not None else None
    if rollout is None and server is None:
        return None
    path = rollout[0] if rollout is not None else server.path  # type: ignore[union-attr]
    generate = request_writes.read(found[1], found[0], "generate") if found is not None else None
    passed = passed_through(found[1], found[0], "launch_server", "args", "engine_kwargs") if server is not None else None
    module = parse(found[1]) if found is not None else None
    attributes = tuple((name, ast.unparse(test)) for name, test in environment_attributes(module).items()) if module is not None else ()
    rollout_text = rollout[2] if rollout is not None else ""
    namespace = _namespace_writes(module) if module is not None and server is not None else ()
    return Fork(path, rollout[1] if rollout is not None else {}, server, rollout_text, generate, passed, attributes, namespace)


def _namespace_writes(module: ast.Module) -> tuple[Written, ...]:
    """What the started server subclass's `run_server(args)` sets on vLLM's parsed namespace before
    `super().run_server(args)` (`args.return_sampling_mask = True`); a statement that uses `args`
    otherwise is a write not read (key "")."""
    found = parameter_writes(module, SERVER_CLASS, "run_server")
    if found is None:
        return ()
    writes, others = found
    read = [Written(key, literal(value), f"args.{key} = {ast.unparse(value)}", line, True) for key, value, line in writes]
    return (*read, *(Written("", UNKNOWN, ast.unparse(s).split("\n", 1)[0], s.lineno, True) for s in others))


def _rollout(launching: str, read_text: Callable[[str], str | None]) -> tuple[str, dict, str] | None:
    found = found_upward(ROLLOUT_YAML, launching, read_text)
    if found is None:
        return None
    try:
        rollout = yaml.safe_load(found[1])
    except yaml.YAMLError:
        return None
    return (found[0], rollout, found[1]) if isinstance(rollout, dict) else None


def forked_label(label: str, forked: Fork | None) -> str:
    return label + (f" (the fork's {forked.path})" if forked is not None else "")
