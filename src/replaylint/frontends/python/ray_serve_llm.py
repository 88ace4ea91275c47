"""Ray Serve LLM (`ray.serve.llm`): an `LLMConfig(engine_kwargs={...})` is a vLLM engine, built by
Ray's `LLMServer` from those keyword arguments (ray-project/ray `python/ray/serve/llm/`), and
`build_openai_app({"llm_configs": [config]})` serves it behind `OpenAiIngress`, whose routes are
OpenAI's and Ray's own (`vllm.unusable_masks.OPENAI_INGRESS_ROUTES`, Ray's `DEFAULT_ENDPOINTS`):
no vLLM API server, so no `/inference/v1/generate` whatever the engine's keywords say.

A config with `server_cls` or `llm_engine` may run another engine (SGLang): not read. A config
that reaches no `build_openai_app` (`build_llm_deployment` with an ingress of the user's own) is
an engine only; its route is the user's.

`LLMConfig(runtime_env={"env_vars": {...}})` (or `dict(env_vars=dict(...))`, as Ray's docs spell
it) is the environment Ray starts the replica and the engine's workers with
(`LLMConfig.runtime_env`): vLLM reads its variables as the process's.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterator

from ...model import UNKNOWN, Setting, Span
from ...regexes import on_use
from ...vllm.engine_fields import RUNNER_ENV
from ...vllm.unusable_masks import RAY_SERVE_OPENAI

_IMPORT = on_use(r"from\s+ray\.serve\.llm\s+import\s+(?:\(([\w\s,]+)\)|([\w \t,]+))")
_OTHER_ENGINES = ("server_cls", "llm_engine")
ENGINE_KWARGS = "engine_kwargs"
RUNTIME_ENV = "runtime_env"


def imported(text: str) -> dict[str, str]:
    """The names `from ray.serve.llm import ...` binds, to what they are (`LLMConfig`, `build_openai_app`)."""
    found = {}
    for match in _IMPORT.finditer(text):
        for item in (match.group(1) or match.group(2)).split(","):
            name, _, alias = item.strip().partition(" as ")
            if name:
                found[(alias or name).strip()] = name.strip()
    return found


def config_names(text: str) -> set[str]:
    """The names a file calls Ray Serve LLM's `LLMConfig` by (cheap: most files import none)."""
    if "ray.serve.llm" not in text:
        return set()
    return {alias for alias, name in imported(text).items() if name == "LLMConfig"}


def engine_kwargs(call: ast.Call) -> ast.expr | None:
    """The `engine_kwargs` of a config that runs vLLM, or None."""
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    if any(name in keywords for name in _OTHER_ENGINES):
        return None
    return keywords.get(ENGINE_KWARGS)


def entrypoint(tree: ast.AST, text: str, call: ast.Call, bound_to: set[str]) -> str:
    """RAY_SERVE_OPENAI when the config (the call itself, or a name it is bound to) is an argument
    of `build_openai_app(...)`; "" otherwise."""
    builders = {alias for alias, name in imported(text).items() if name == "build_openai_app"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not _calls(node, builders):
            continue
        for argument in ast.walk(node):
            if argument is call or (isinstance(argument, ast.Name) and argument.id in bound_to):
                return RAY_SERVE_OPENAI
    return ""


def _calls(node: ast.Call, builders: set[str]) -> bool:
    func = node.func
    return (isinstance(func, ast.Name) and func.id in builders) or (isinstance(func, ast.Attribute) and func.attr == "build_openai_app")


def bound_names(tree: ast.AST, call: ast.Call) -> set[str]:
    """The names a statement binds the config to (`llm_config = LLMConfig(...)`)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is call:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            return {target.id for target in targets if isinstance(target, ast.Name)}
    return set()


def runner_env(call: ast.Call, span: Callable[..., Span], text: Callable[[Span], str]) -> dict[str, Setting]:
    """The runner variable of the config's `runtime_env` literal, as vLLM reads it: Ray takes only
    text values; a `**more` after it may replace it."""
    env: dict[str, Setting] = {}
    for name, key, value in env_vars(call):
        if name is None and RUNNER_ENV in env:
            env[RUNNER_ENV] = replace(env[RUNNER_ENV], value=UNKNOWN)
        elif name == RUNNER_ENV:
            known = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else UNKNOWN
            spelling = text(span(key, value) if isinstance(key, ast.expr) else span(key))
            env[RUNNER_ENV] = Setting(RUNNER_ENV, known, span(key), spelling, span(value))
    return env


def env_vars(call: ast.Call) -> Iterator[tuple[str | None, ast.AST, ast.expr]]:
    """The entries of the config's literal `runtime_env`'s `env_vars`, in order: (name, the key
    or keyword, value); name None for `**more` (keys nobody can see). A `runtime_env` given by
    name or built by a call yields nothing: its variables are not known."""
    runtime_env = next((keyword.value for keyword in call.keywords if keyword.arg == RUNTIME_ENV), None)
    given = _entries(runtime_env) if runtime_env is not None else ()
    seen = False
    for name, key, value in given:
        if name == "env_vars":
            seen = True
            yield from _entries(value)
        elif name is None and seen:  # `{"env_vars": {...}, **more}`: `more` may replace them all
            yield None, key, value


def _entries(node: ast.expr) -> list[tuple[str | None, ast.AST, ast.expr]]:
    """A dict literal's or a `dict(...)` call's entries (a key that is not a literal: name None)."""
    if isinstance(node, ast.Dict):
        return [(_text(key), key if key is not None else value, value) for key, value in zip(node.keys, node.values)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        return [(keyword.arg, keyword, keyword.value) for keyword in node.keywords]
    return []


def _text(key: ast.expr | None) -> str | None:
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
