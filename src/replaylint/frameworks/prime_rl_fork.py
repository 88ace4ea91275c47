"""A prime-rl fork in the checked tree (`frameworks/prime_rl.py`): where prime-rl's own package is
there, its code decides in place of the built-in edition for the tree's `rl.toml`/`inference.toml`.

Read with CPython's parser (nothing of the tree is imported or run), as of main @ 559b447:

- `src/prime_rl/inference/server.py` `setup_vllm_env`: its unconditional `os.environ` writes of
  `VLLM_*` (`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` gives way to
  `[inference.env_vars]`, a plain assignment does not); a server.py without that line sets no runner.
- `packages/prime-rl-configs/src/prime_rl/configs/inference.py` (`src/prime_rl/configs/inference.py`
  in older trees): `InferenceConfig.to_namespace`'s writes of replay arguments (`namespace.X =
  literal`, a default when under `if not hasattr(namespace, "X")`), its key table
  (`if self.KEY: namespace.X = literal` and `namespace.X = self.KEY`: an `[inference]` key of the
  fork's own, with its field's default), and the literal defaults of `VllmConfig`'s pydantic fields
  that name a replay setting (`return_sampling_mask: bool = True`), which reach the server as every
  other field does, and what the table's own validators set (`prime_rl_table`).
- `.../configs/orchestrator.py`: the train requests' defaults, `TrainSamplingConfig.temperature`'s
  default and `resolve_env_config`'s `extra_body.setdefault("top_k", ...)` (a fork without that
  line sends no `top_k`: the server's generation config decides, the request is open-ended), and
  `to_sampling_args` when it builds `extra_body` as a dict display (`{"top_k": self.top_k,
  **self.extra_body}`): the last entry giving `top_k` wins, as in Python.

Messages say "the forked prime-rl's FILE:LINE", and the finding sits on that line.
"""

from __future__ import annotations

import ast
from dataclasses import field
from typing import Any, Callable, Iterator, Mapping

from ..model import UNKNOWN, LineIndex, Setting
from ..records import record
from . import fork_conditions, fork_source, prime_rl_table
from .nearby import found_upward
from .prime_rl_table import OWNER, Line, Table, field_defaults, vllm_classes

SERVER = "src/prime_rl/inference/server.py"
CONFIGS = ("packages/prime-rl-configs/src/prime_rl/configs/inference.py", "src/prime_rl/configs/inference.py")
ORCHESTRATORS = ("packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py", "src/prime_rl/configs/orchestrator.py")
# VllmConfig fields whose literal default decides replay (others pass through as prime-rl's own).
_REPLAY_FIELDS = frozenset(
    (
        "return_sampling_mask",
        "logprobs_mode",
        "logits_processors",
        "speculative_config",
        "enable_batch_sharded_sampling",
        "enable_trace_replay",
    )
)


@record(unsafe_hash=True)
class Switch:
    """An `[inference]` key of the fork's own that `to_namespace` turns into an engine argument:
    `if self.KEY: namespace.NAME = value`, or `namespace.NAME = self.KEY` (`value` UNKNOWN: the
    key's own value); `default`: the `InferenceConfig` field's literal default, at its line."""

    key: str
    name: str
    value: Any
    default: Line | None


@record(unsafe_hash=True)
class EnvSwitch:
    """`if TEST: namespace.NAME = value` in `to_namespace` where TEST reads environment variables
    (`os.environ.get("X", "0") == "1"`): the server's environment decides (`holds`)."""

    test: str
    variables: tuple[str, ...]
    name: str
    line: Line

    def holds(self, env: Mapping[str, Any], defaults: bool = True) -> bool | None:
        """Whether TEST holds where `env` (name -> value) gives the variables it reads, a variable it
        lacks read with a literal default taking that default where the launch's environment is
        known (`defaults`: a script's, not the file's on its own) (None: not told)."""
        test = ast.parse(self.test, mode="eval").body
        read = fork_conditions.env_read_or_default if defaults else fork_conditions.env_read
        found = fork_conditions.evaluated(test, lambda inner: read(inner, env), {})
        return None if found is UNKNOWN else bool(found)

    def by_default(self) -> Setting:
        """What the fork writes where the launch leaves the variables unset (the read's default holds)."""
        said = f"{self.line.text} ({self.line.owner_line()}, with {', '.join(self.variables)} unset: the default of its read)"
        return Setting(self.name, self.line.value, self.line.span, said, implied=True)


@record(unsafe_hash=True)
class TrainDefaults:
    """What the fork's orchestrator sends with each policy-sourced train request when the
    configuration does not say: `temperature` (the field's default) and `top_k` (the
    `extra_body.setdefault("top_k", ...)`; None: the fork sets none); `eval_as_upstream`: its
    `EvalSamplingConfig.to_sampling_args` sends `temperature` and `top_k` as prime-rl's own does."""

    temperature: Line | None
    top_k: Line | None
    eval_as_upstream: bool = False


@record(unsafe_hash=True)
class PrimeRlFork:
    """What the tree's prime-rl does: `environment` (name -> (value, whether only when unset)),
    `namespace` (`to_namespace`'s literal writes of replay arguments: name -> (value, whether only
    when the configuration does not set it)), `switches` (its key table), `fields` (replay fields'
    defaults of `VllmConfig` or of the subclass the table is typed with), `table` and `inference`
    (what the table's validators and `InferenceConfig`'s set in it, `prime_rl_table`), `reads_config` (its configs/inference.py
    was read: what it does not write is vLLM's default, not the edition's), `train` (its orchestrator's request defaults);
    `edition`: the built-in edition whose text the tree's configuration is (only the
    sampling-mask edition has `enable_return_sampling_mask`), with the file that shows it."""

    server: str | None
    edition: tuple[str, str] | None = None
    environment: dict[str, tuple[Line, bool]] = field(default_factory=dict)
    namespace: dict[str, tuple[Line, bool]] = field(default_factory=dict)
    switches: tuple[Switch, ...] = ()
    env_switches: tuple[EnvSwitch, ...] = ()
    fields: dict[str, Line] = field(default_factory=dict)
    table: Table | None = None  # what the table's own code (validators, `model_post_init`) sets
    inference: Table | None = None  # what `InferenceConfig`'s own code sets in the table (`self.vllm.X`)
    reads_config: bool = False
    train: TrainDefaults | None = None


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> PrimeRlFork | None:
    """The tree's prime-rl package above the launching file (None: not there, the edition's)."""
    if read_text is None:
        return None
    server = found_upward(SERVER, launching, read_text)
    config = _first(CONFIGS, launching, read_text)
    if server is None and config is None:
        return None
    environment = _environment(*server) if server is not None else {}
    module = fork_source.parse(config[1]) if config is not None else None
    edition = None
    if config is not None:
        name = "sampling-mask" if "enable_return_sampling_mask" in config[1] else "main"
        edition = (name, f"{OWNER}'s {config[0].rsplit('/', 1)[-1]}")
    orchestrator = _first(ORCHESTRATORS, launching, read_text)
    return PrimeRlFork(
        server[0] if server is not None else None,
        edition,
        environment,
        reads_config=module is not None and _has_to_namespace(module),
        train=_train(*orchestrator) if orchestrator is not None else None,
        **(_config(module, LineIndex(*config)) if module is not None and config is not None else {}),
    )


def _has_to_namespace(module: ast.Module) -> bool:
    """Whether the fork's `InferenceConfig` builds vLLM's namespace itself (what it leaves unset is
    then vLLM's default, not the edition's)."""
    return any(isinstance(node, ast.ClassDef) and node.name == "InferenceConfig" and _method(node, "to_namespace") for node in module.body)


def _first(paths: tuple[str, ...], launching: str, read_text: Callable[[str], str | None]) -> tuple[str, str] | None:
    return next((found for path in paths if (found := found_upward(path, launching, read_text)) is not None), None)


def _environment(path: str, text: str) -> dict[str, tuple[Line, bool]]:
    module = fork_source.parse(text)
    if module is None:
        return {}
    index = LineIndex(path, text)
    return {
        name: (Line(written.value, fork_source.line_span(index.path, index.text, written.line), written.text), only_unset)
        for name, (written, only_unset) in fork_source.environment_writes(module).items()
    }


def _config(module: ast.Module, index: LineIndex) -> dict[str, Any]:
    classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)}
    found: dict[str, Any] = {}
    chain = vllm_classes(classes)
    if chain:
        found["fields"] = {name: line for cls in chain for name, line in field_defaults(cls, index, _REPLAY_FIELDS).items()}
        found["table"] = prime_rl_table.read(chain, index, _REPLAY_FIELDS)
    if "InferenceConfig" in classes:
        found["namespace"], found["switches"], found["env_switches"] = _to_namespace(classes["InferenceConfig"], index)
        if chain:
            found["inference"] = prime_rl_table.read_inference(classes["InferenceConfig"], index, _REPLAY_FIELDS, found["table"])
    return found


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == name), None)


_NESTED = ast.Constant(False)  # a write under a loop, an `else` or a nested condition: not read


def _guarded(body: list[ast.stmt], guard: ast.expr | None = None) -> Iterator[tuple[ast.stmt, ast.expr | None]]:
    """Each statement of a method with the condition it runs under (None: always)."""
    for statement in body:
        if isinstance(statement, ast.If):
            yield from _guarded(statement.body, statement.test if guard is None else _NESTED)
            yield from _guarded(statement.orelse, _NESTED)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _guarded(statement.body, guard)
        elif isinstance(statement, (ast.For, ast.While, ast.Try)):
            yield from _guarded(statement.body, _NESTED)
        else:
            yield statement, guard


def _namespace_write(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    """`namespace.NAME = value` or `setattr(namespace, "NAME", value)`."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Attribute) and _is_name(target.value, "namespace"):
            return target.attr, statement.value
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call):
        if _is_name(call.func, "setattr") and len(call.args) == 3 and _is_name(call.args[0], "namespace"):
            name = fork_source.literal(call.args[1])
            return (name, call.args[2]) if isinstance(name, str) else None
    return None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _self_key(node: ast.expr | None) -> str | None:
    """`self.KEY` -> KEY."""
    return node.attr if isinstance(node, ast.Attribute) and _is_name(node.value, "self") else None


def _unset_guard(node: ast.expr | None, name: str) -> bool:
    """`not hasattr(namespace, "NAME")`."""
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and isinstance(call := node.operand, ast.Call)):
        return False
    return _is_name(call.func, "hasattr") and len(call.args) == 2 and fork_source.literal(call.args[1]) == name


def _to_namespace(cls: ast.ClassDef, index: LineIndex) -> tuple[dict[str, tuple[Line, bool]], tuple[Switch, ...], tuple[EnvSwitch, ...]]:
    """`to_namespace`'s writes of replay arguments: literals (always, or only when unset), the
    `[inference]` keys it turns into them, and the environment variables that do."""
    method = _method(cls, "to_namespace")
    keys = field_defaults(cls, index)
    written: dict[str, tuple[Line, bool]] = {}
    switches = []
    by_env = []
    for statement, guard in _guarded(method.body) if method is not None else ():
        write = _namespace_write(statement)
        if write is None or write[0] not in _REPLAY_FIELDS:
            continue
        name, node = write
        value, key = fork_source.literal(node), _self_key(node) if guard is None else _self_key(guard)
        variables = (
            tuple(dict.fromkeys(v for n in ast.walk(guard) if (v := fork_conditions.env_variable(n)) is not None))
            if guard is not None
            else ()
        )
        if variables and key is None and value is not UNKNOWN:
            line = Line(value, fork_source.line_span(index.path, index.text, statement.lineno), f"{name} = {value!r}")
            by_env.append(EnvSwitch(ast.unparse(guard), variables, name, line))  # type: ignore[arg-type]
        elif key is not None:
            switches.append(Switch(key, name, value if guard is not None else UNKNOWN, keys.get(key)))
        elif value is not UNKNOWN and (guard is None or _unset_guard(guard, name)):
            line = Line(value, fork_source.line_span(index.path, index.text, statement.lineno), f"{name} = {value!r}")
            written[name] = (line, guard is not None)
    return written, tuple(switches), tuple(by_env)


def _train(path: str, text: str) -> TrainDefaults | None:
    """The orchestrator's request defaults (None: the file does not parse or has no
    `TrainSamplingConfig`)."""
    module = fork_source.parse(text)
    classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)} if module is not None else {}
    if "TrainSamplingConfig" not in classes:
        return None
    index = LineIndex(path, text)
    temperature = field_defaults(classes["TrainSamplingConfig"], index, frozenset(("temperature",))).get("temperature")
    top_k = None
    for cls in classes.values():
        method = _method(cls, "resolve_env_config")
        for node in ast.walk(method) if method is not None else ():
            if isinstance(node, ast.Expr) and _extra_body_default(node.value, "top_k"):
                argument = node.value.args[1]  # type: ignore[attr-defined]
                span = fork_source.line_span(index.path, index.text, node.lineno)
                written = f"top_k={fork_source.snippet(text, argument)}"
                top_k = Line(fork_source.literal(argument), span, written)
    evaluated = _eval_as_upstream(classes["EvalSamplingConfig"]) if "EvalSamplingConfig" in classes else False
    return TrainDefaults(temperature, _sent_top_k(classes["TrainSamplingConfig"], index, top_k), evaluated)


# What upstream's `EvalSamplingConfig.to_sampling_args` does with the two fields (559b447,
# configs/orchestrator.py:96-116): each sent when set, `top_k` in `extra_body` over its own.
_EVAL_SENDS = ("args['temperature'] = self.temperature", "extra_body['top_k'] = self.top_k")
_EVAL_TESTS = ("self.temperature is not None", "self.top_k is not None")


def _eval_as_upstream(cls: ast.ClassDef) -> bool:
    """Whether the fork's `to_sampling_args` names `temperature` and `top_k` only as upstream's
    does (a fork that clamps or drops them is not read)."""
    method = _method(cls, "to_sampling_args")
    nodes = list(ast.walk(method)) if method is not None else []
    tests = [ast.unparse(node.test) for node in nodes if isinstance(node, ast.If)]
    writes = [ast.unparse(node) for node in nodes if isinstance(node, ast.stmt) and not isinstance(node, (ast.If, ast.FunctionDef))]
    named = lambda texts: sorted(text for text in texts if "top_k" in text or "temperature" in text)  # noqa: E731
    return bool(nodes) and named(writes) == sorted(_EVAL_SENDS) and named(tests) == sorted(_EVAL_TESTS)


def _sent_top_k(cls: ast.ClassDef, index: LineIndex, extra_body: Line | None) -> Line | None:
    """The `top_k` a train request sends when `to_sampling_args` builds its `extra_body` as a
    dict display (`args["extra_body"] = {"top_k": self.top_k, **self.extra_body}`): the last
    entry that gives it wins, as in Python: `extra_body`'s (`extra_body`: its `setdefault`), a
    literal, or a field of the class at its default. Any other way of building it: `extra_body`'s."""
    method = _method(cls, "to_sampling_args")
    display = next((node.value for node in ast.walk(method) if _extra_body_display(node)), None) if method is not None else None
    if display is None:
        return extra_body
    sent = None
    for key, value in zip(display.keys, display.values):  # type: ignore[attr-defined]
        if key is None and ast.unparse(value) == "self.extra_body":
            sent = extra_body
        elif key is None:
            sent = Line(UNKNOWN, fork_source.line_span(index.path, index.text, value.lineno), ast.unparse(value))
        elif fork_source.literal(key) == "top_k":
            sent = _entry(cls, index, value)
    return sent


def _extra_body_display(node: ast.AST) -> bool:
    """`args["extra_body"] = {...}`."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(target := node.targets[0], ast.Subscript)
        and fork_source.literal(target.slice) == "extra_body"
        and isinstance(node.value, ast.Dict)
    )


def _entry(cls: ast.ClassDef, index: LineIndex, value: ast.expr) -> Line:
    """An `extra_body` entry's value: a literal at its line, `self.FIELD` at the field's default."""
    if isinstance(value, ast.Attribute) and ast.unparse(value.value) == "self":
        found = field_defaults(cls, index, frozenset((value.attr,))).get(value.attr)
        if found is not None:
            return found
    span = fork_source.line_span(index.path, index.text, value.lineno)
    return Line(fork_source.literal(value), span, f"top_k={fork_source.snippet(index.text, value)}")


def _extra_body_default(node: ast.expr, key: str) -> bool:
    """`....extra_body.setdefault("KEY", value)`."""
    if not (isinstance(node, ast.Call) and isinstance(func := node.func, ast.Attribute) and func.attr == "setdefault"):
        return False
    owner = func.value
    return (
        isinstance(owner, ast.Attribute) and owner.attr == "extra_body" and len(node.args) == 2 and fork_source.literal(node.args[0]) == key
    )
