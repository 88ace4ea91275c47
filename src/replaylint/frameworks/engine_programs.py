"""A Python program of the user's that builds vLLM's engine itself (`LLM(...)` in math-evaluation-harness's
`math_eval.py`), run by a command line with the runner variable in its environment
(`VLLM_USE_V2_MODEL_RUNNER=0 python3 -u math_eval.py ...`): the engine starts in the process the
command starts, so that environment is the engine's, as around `vllm serve`. vLLM 0.34.0 checks the
variable before it builds any engine config (`Platform.validate_environ`, called first by
`EngineArgs.create_engine_config`), whatever the engine's settings.

The program is a file or a module `python -m` runs (`python3 -m tools.data_generation.generate`, a
namespace package's module found from the script's folder up, as the script is run from the repository's
root). Followed only when the tree holds the program (`nearby.program_upward`) and its text says all of it: it
imports vLLM's engine, calls one (`LLM(`, `AsyncLLMEngine.from_engine_args(`...), and never names the
runner variable (a program that reads, sets or pops it decides it itself). The launch holds the
environment only: the engine's settings are the program's, read where the program builds it, so the
launch stays open-ended and no finding rests on a setting it lacks."""

from __future__ import annotations

import re

from ..launch_context import LaunchContext
from ..model import Launch, LaunchKind, Span
from ..vllm.command_line import Token
from ..vllm.engine_fields import RUNNER_ENV
from .nearby import program_upward

_IMPORTS_VLLM = re.compile(r"^\s*(?:from\s+vllm(?:\.[\w.]+)?\s+import\b|import\s+vllm\b)", re.MULTILINE)
_BUILDS_ENGINE = re.compile(r"\b(?:LLM|AsyncLLMEngine|LLMEngine|AsyncLLM)\s*(?:\(|\.from_engine_args\s*\()")


def script_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python3 -u math_eval.py ...` (or `python3 -m pkg.generate ...`) with the runner variable set: the environment of the engine the
    program builds, or None (no runner variable, a program the tree does not hold or that says less)."""
    script = tokens[0] if tokens else None
    if RUNNER_ENV not in context.env or script is None or not script.known or context.read_text is None:
        return None
    found = program_upward(str(script.text), span.path, context.read_text)
    text = found[1] if found is not None else None
    if text is None or RUNNER_ENV in text or not (_IMPORTS_VLLM.search(text) and _BUILDS_ENGINE.search(text)):
        return None
    return Launch(
        LaunchKind.CLI,
        span,
        {},
        dict(context.env),
        open_reasons=(*context.open_reasons, f"the engine {script.text} builds (its settings are read there)"),
        version_hint=context.version_hint,
        condition=context.condition,
        label=f"{context.label or 'command'}: the vLLM engine {script.text} builds",
    )
