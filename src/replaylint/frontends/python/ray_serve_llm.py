"""Ray Serve LLM (`ray.serve.llm`): an `LLMConfig(engine_kwargs={...})` is a vLLM engine, built by
Ray's `LLMServer` from those keyword arguments (ray-project/ray `python/ray/serve/llm/`), and
`build_openai_app({"llm_configs": [config]})` serves it behind `OpenAiIngress`, whose routes are
OpenAI's and Ray's own (`vllm.unusable_masks.OPENAI_INGRESS_ROUTES`, Ray's `DEFAULT_ENDPOINTS`):
no vLLM API server, so no `/inference/v1/generate` whatever the engine's keywords say.

A config with `server_cls` or `llm_engine` may run another engine (SGLang): not read. A config
that reaches no `build_openai_app` (`build_llm_deployment` with an ingress of the user's own) is
an engine only; its route is the user's.
"""

from __future__ import annotations

import ast

from ...regexes import on_use
from ...vllm.unusable_masks import RAY_SERVE_OPENAI

_IMPORT = on_use(r"from\s+ray\.serve\.llm\s+import\s+(?:\(([\w\s,]+)\)|([\w \t,]+))")
_OTHER_ENGINES = ("server_cls", "llm_engine")
ENGINE_KWARGS = "engine_kwargs"


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
