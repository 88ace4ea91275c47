"""NVIDIA Dynamo: `python -m dynamo.vllm` takes vLLM's engine flags plus its own.

Source: ai-dynamo 1.6.1. `dynamo/vllm/args.py` parses Dynamo's flags with its own parser and
hands what is left to a `FlexibleArgumentParser` built by `AsyncEngineArgs.add_cli_args`
(so vLLM's argv semantics apply to the rest). `dynamo/vllm/backend_args.py` defines
`--enable-rl` (env `DYN_ENABLE_RL`, read by `dynamo/common/configuration/utils.py`
`env_or_default`: true/1/yes/on, any case); `dynamo/vllm/main.py` `configure_rl_logprobs_mode`
then turns `logprobs_mode` `raw_logprobs` (the default or explicit) into `processed_logprobs`
and rejects any other non-processed mode before vLLM starts (`ValueError: --enable-rl requires
logprobs_mode=processed_logprobs; got '...'.`): that is recorded as a `framework-rejected`
issue of the launch, with Dynamo's words, for a rule to report.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import ArgIssue, Launch, Setting

_TRUE = {"true", "1", "yes", "on"}
_OWN_FLAGS = ("enable_rl", "no_enable_rl")


def _enable_rl(launch: Launch) -> Setting | None:
    flag = launch.settings.get("enable_rl")
    negated = launch.settings.get("no_enable_rl")
    if flag is not None or negated is not None:
        last = max((s for s in (flag, negated) if s is not None), key=lambda s: s.span.start)
        return last if last.name == "enable_rl" else None
    env = launch.env.get("DYN_ENABLE_RL")
    if env is not None and isinstance(env.value, str) and env.value.strip().lower() in _TRUE:
        return env
    return None


def adapt(launch: Launch) -> Launch:
    """Dynamo's own flags are not vLLM's; `--enable-rl` makes processed logprobs the default."""
    settings = {name: s for name, s in launch.settings.items() if name not in _OWN_FLAGS}
    issues = tuple(i for i in launch.issues if not (i.kind == "unrecognized" and i.name in _OWN_FLAGS))
    enable = _enable_rl(launch)
    mode = settings.get("logprobs_mode")
    if enable is not None and (mode is None or mode.value == "raw_logprobs"):
        settings["logprobs_mode"] = Setting(
            "logprobs_mode", "processed_logprobs", enable.span, f"{enable.spelling} (Dynamo sets processed_logprobs)", enable.value_span
        )
    elif enable is not None and mode is not None and isinstance(mode.value, str) and mode.value != "processed_logprobs":
        # Dynamo stops before vLLM starts; recorded for a rule that reports framework errors.
        detail = f"ValueError: --enable-rl requires logprobs_mode=processed_logprobs; got {mode.value!r}."
        issues = (*issues, ArgIssue("framework-rejected", mode.value_span or mode.span, mode.spelling, "logprobs_mode", detail))
    return replace(launch, settings=settings, issues=issues)
