"""What an OpenRLHF fork's Ray actor writes into the engine's environment under a test of what
its caller passes (`frameworks/openrlhf_fork.py` reads the unconditional writes).

`RolloutRayActor.__init__` hands `self._configure_vllm_env(version, vllm, kwargs.pop(
"full_determinism", False))` a key of the engine dict `create_vllm_engines` builds, which holds
that function's parameter, which train_ppo_ray.py passes from a parsed switch
(`args.train.full_determinism_enable`, `action="store_true"`). A fork's `os.environ["VLLM_X"] =
"v"` under `if full_determinism:` in that method (or under `if kwargs.get("full_determinism"):` in
`__init__` itself) is then decided by the command line: written
when the switch is given (at the fork's line, the flag as `via`), not when it is absent. A test
over anything else, a call under an `if` of `__init__`, a key the dict writes under a condition
or with a value not read here, leave the write out, as before (nothing rests on its absence).
CPython's parser only; nothing of the tree runs.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Mapping

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .built_dicts import BuiltDict
from .fork_conditions import decided, guarded, tested
from .fork_source import callee_name, environment_write, line_span, literal, parse, statements
from .nearby import found_upward
from .openrlhf_fork import CLI, ENGINES, OWNER, ForkOptions

_SWITCHES = {"store_true": True, "store_false": False}  # action -> the value it stores (its default: the other)


@record(unsafe_hash=True)
class EnvSwitch:
    """`os.environ[NAME] = value` in the actor's `__init__` or a method it calls, under `test`,
    which reads its `**kwargs` (`kwargs.get("key")`) or parameters `__init__` passes from them:
    (what the test reads, the key, the `pop`/`get` default)."""

    name: str
    value: str
    only_unset: bool
    line: int
    test: str
    given: tuple[tuple[str, str, Any], ...]


def caller_switches(launching: str, read_text: Callable[[str], str | None] | None) -> ForkOptions:
    """The parameters of `create_vllm_engines` that the tree's train_ppo_ray.py passes from a
    switch it declares (`store_true`/`store_false`), by position or keyword, or a choice of two
    literals by one (`logprobs_mode`): parameter -> (option, its default, the value it stores when
    given)."""
    cli = found_upward(CLI, launching, read_text) if read_text is not None else None
    engines = found_upward(ENGINES, launching, read_text) if cli is not None else None  # type: ignore[arg-type]
    module, signature = parse(cli[1]) if cli else None, _parameters(engines[1]) if engines else []
    if module is None:
        return ForkOptions()
    declared = {}
    for node in ast.walk(module):
        if (
            isinstance(node, ast.Call)
            and callee_name(node) == "add_argument"
            and node.args
            and isinstance(option := literal(node.args[0]), str)
        ):
            given = {keyword.arg: literal(keyword.value) for keyword in node.keywords if keyword.arg}
            if (stored := _SWITCHES.get(given.get("action"))) is not None:  # type: ignore[arg-type]
                declared[option] = (option, given.get("default", not stored), stored)
    passed = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and callee_name(node) == "create_vllm_engines":
            pairs = [*zip(signature, node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
            for parameter, value in pairs:
                switch = _passed_switch(value, declared)
                if switch is not None:
                    passed[parameter] = switch
    return ForkOptions({}, passed)


def _passed_switch(value: ast.expr, declared: Mapping[str, tuple[str, Any, Any]]) -> tuple[str, Any, Any] | None:
    """A switch's (option, default, stored) as the caller passes it: `args.X` as is, and OpenRLHF's
    `"processed_logprobs" if args.algo.advantage.is_correction_enable else None` with each of the
    two literals in place of the value that chooses it; None: anything else."""
    test, chosen = value, None
    if isinstance(value, ast.IfExp):
        test, chosen = value.test, (literal(value.body), literal(value.orelse))
        if any(value is UNKNOWN for value in chosen):
            return None
    text = ast.unparse(test)
    option = "--" + text.removeprefix("args.")
    if not text.startswith("args.") or option not in declared:
        return None
    if chosen is None:
        return declared[option]
    _, default, stored = declared[option]
    return option, chosen[0] if default else chosen[1], chosen[0] if stored else chosen[1]


def switched_environment(
    built: BuiltDict, env: Mapping[str, Setting], switched: Mapping[str, tuple[Any, Setting | None]], anchor: Span
) -> dict[str, Setting]:
    """`env` with the actor's writes under tests the command line decides (`switched`: the
    parameters of `create_vllm_engines` its words give, `openrlhf_fork.switched_by`), each at its
    line, the flag that decides it as `via`."""
    found = dict(env)
    for switch in _env_switches(built.text):
        values = {read: _key_value(built, key, default, switched) for read, key, default in switch.given}
        holds = decided(switch.test, lambda node: values.get(ast.unparse(node), UNKNOWN))
        if holds is not True or (switch.only_unset and switch.name in found):
            continue
        flags = [switched[text][1] for _, key, _ in switch.given if (text := _text(built, key)) in switched and switched[text][1]]
        where = f"{OWNER}'s {built.path.rsplit('/', 1)[-1]}:{switch.line}"
        said = f"{switch.name}={switch.value} ({where}, when {switch.test})"
        via = tuple(flag.span for flag in flags) or (anchor,)  # type: ignore[union-attr]
        found[switch.name] = Setting(switch.name, switch.value, line_span(built.path, built.text, switch.line), said, implied=True, via=via)
    return found


def _text(built: BuiltDict, key: str) -> str | None:
    written = built.entries.get(key)
    return written.text if written is not None else None


def _key_value(built: BuiltDict, key: str, default: Any, switched: Mapping[str, tuple[Any, Setting | None]]) -> Any:
    """The value the actor's `**kwargs` holds at `key`: the engine dict's literal, or the switch
    its parameter is passed from; `default` when the dict has no such key."""
    written = built.entries.get(key)
    if written is None:
        return default
    if written.condition:
        return UNKNOWN
    if written.value is not UNKNOWN:
        return written.value
    return switched[written.text][0] if written.text in switched else UNKNOWN


def _env_switches(text: str) -> list[EnvSwitch]:
    module = parse(text) if text else None
    return [switch for klass in _classes(module) for switch in _class_switches(klass)] if module is not None else []


def _classes(module: ast.Module) -> Iterator[ast.ClassDef]:
    yield from (node for node in ast.walk(module) if isinstance(node, ast.ClassDef))


def _class_switches(klass: ast.ClassDef) -> Iterator[EnvSwitch]:
    """The actor class's environment writes under tests of its `**kwargs`, in `__init__` or in a
    method `__init__` passes them to."""
    methods = {f.name: f for f in klass.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    if init is None or init.args.kwarg is None:
        return
    kwargs = init.args.kwarg.arg
    for inner, test in guarded(init.body):
        written = environment_write(inner)
        if written is not None and test:
            given = tuple((ast.unparse(n), *read) for n in tested(test) if (read := _kwargs_read(n, kwargs)) is not None)
            yield EnvSwitch(written[0], written[1], written[2], inner.lineno, test, given)
    for statement, top in statements(init.body):
        call = statement.value if isinstance(statement, ast.Expr) else None
        call = call.value if isinstance(call, ast.Await) else call
        if not (
            top and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", "") == "self"
        ):
            continue
        method = methods.get(call.func.attr)
        if method is None:
            continue
        parameters = [argument.arg for argument in method.args.args[1:]]
        pairs = [*zip(parameters, call.args), *((k.arg, k.value) for k in call.keywords if k.arg in parameters)]
        given = tuple((parameter, *read) for parameter, value in pairs if (read := _kwargs_read(value, kwargs)) is not None)
        for inner, test in guarded(method.body):
            written = environment_write(inner)
            if written is not None and test:
                yield EnvSwitch(written[0], written[1], written[2], inner.lineno, test, given)


def _kwargs_read(node: ast.expr, kwargs: str) -> tuple[str, Any] | None:
    """`kwargs.pop("k", d)`, `kwargs.get("k", d)` -> ("k", d); `kwargs["k"]` -> ("k", UNKNOWN)."""
    if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == kwargs and isinstance(key := literal(node.slice), str):
        return key, UNKNOWN
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == kwargs:
        if node.func.attr in ("pop", "get") and node.args and isinstance(key := literal(node.args[0]), str):
            return key, literal(node.args[1]) if len(node.args) > 1 else None
    return None


def _parameters(text: str) -> list[str]:
    """The positional parameters of `create_vllm_engines`, in order."""
    module = parse(text)
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.FunctionDef) and node.name == "create_vllm_engines":
            return [argument.arg for argument in (*node.args.posonlyargs, *node.args.args)]
    return []
