"""## What it does
Flags `VLLM_USE_V2_MODEL_RUNNER` in a launch judged against vLLM 0.34.0 or newer, where Model
Runner V1 is gone and V2 is the only runner. Any value but `1` is an error, in every launch;
`1` is a warning (it does nothing any more) in launches with replay, whose recipe asked for it. The variable is flagged wherever the launch sets it: a shell prefix
or `export`, Dockerfile `ENV`, Kubernetes and compose `env`, `os.environ` in Python, the `env`
of a subprocess. A framework's own `1` (NeMo-RL's replay switch) is not flagged; a framework's
own other value is an error without a fix (prime-rl main sets `0` unless the variable is set),
and a user's `1` that keeps such a framework value away is not flagged either.

## Why is this bad?
The replay recipe for vLLM 0.28-0.33 said to set `VLLM_USE_V2_MODEL_RUNNER=1` (or warned about
`=0`). From 0.34.0, vLLM checks the variable before it builds any engine config: `=0` (or
`true`, or an empty value) stops the start with
`VLLM_USE_V2_MODEL_RUNNER=0 is no longer supported: Model Runner V1 has been removed. Unset this
variable.`, and `=1` logs that it is redundant.

## Example
```shell
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B --return-sampling-mask \\
  --logprobs-mode processed_logprobs
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs
```

## Fix safety
Removing the variable is safe on 0.34.0 and newer: Model Runner V2 is the only runner, and
the variable's only remaining effect is the error or the warning.

## References
- vLLM 0.34.0 `Platform.validate_environ` (`vllm/platforms/interface.py`), called first by
  `EngineArgs.create_engine_config`; `VLLM_USE_V2_MODEL_RUNNER` is no longer in `vllm/envs.py`
- docs/releases/0.34.0.md
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Applicability, Fix, Launch, RemoveEnv
from ..vllm import messages
from ..vllm.engine_fields import RUNNER_ENV
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

_V2_ONLY = Release(0, 34)


def _environ_text(value: object) -> str | None:
    """The variable as `os.environ` holds it, or None when that text is not known."""
    if value is UNKNOWN or isinstance(value, bool):
        return None
    if isinstance(value, (str, int)):
        return str(value)
    return None


class RunnerVariableRemoved(Rule):
    code = "RPL206"
    name = "runner-variable-removed"
    summary = "VLLM_USE_V2_MODEL_RUNNER is set, but vLLM 0.34.0 removed Model Runner V1"
    since = _V2_ONLY
    vllm_message = messages.RUNNER_ENV_REMOVED
    fix_applicability = Applicability.SAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        setting = launch.env.get(RUNNER_ENV)
        if setting is None:
            return
        value = _environ_text(setting.value)
        if value is None or (setting.implied and value == "1"):
            return
        if setting.implied:  # a framework sets it (prime-rl main's setdefault "0"): the user cannot remove it
            yield Report(
                setting.span,
                f"{quote(setting)} asks for a runner that no longer exists (set {RUNNER_ENV}=1 where the framework takes "
                f"environment variables to keep it away)",
                says(self.vllm_message.format(value=value)),
            )
            return
        fix = Fix(self.fix_applicability, f"Remove {RUNNER_ENV}", (RemoveEnv(RUNNER_ENV),))
        if value == "1":
            if sampling_mask(launch) is None:
                return  # harmless, and only the replay recipe asked for it
            if setting.replaces is not None and _environ_text(setting.replaces.value) != "1":
                return  # without it the framework would set another value
            message = f"{quote(setting)} has no effect any more", says(messages.RUNNER_ENV_REDUNDANT)
            yield Report(setting.span, *message, fix, severity="warning")
        else:
            message = f"{quote(setting)} asks for a runner that no longer exists", says(self.vllm_message.format(value=value))
            yield Report(setting.span, *message, fix)

    VALID = (
        Valid(
            "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",
            filename="serve.sh",
            release="0.33.0",
        ),
        Valid("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n", filename="serve.sh", release="0.34.0"),
        Valid("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m\n", filename="serve.sh", release="0.34.0"),
        # The variable comes from the environment at run time: nothing here sets it.
        Valid('export VLLM_USE_V2_MODEL_RUNNER="$RUNNER"\nvllm serve m\n', filename="serve.sh", release="0.34.0"),
        # prime-rl sets the variable itself when the mask is on; the user cannot remove it.
        Valid('[model]\nname = "m"\n\n[inference]\nenable_return_sampling_mask = true\n', filename="rl.toml", release="0.34.0"),
        # NeMo-RL's replay switch sets 1 itself.
        Valid(
            "policy:\n  sampling_mask_replay:\n    enabled: true\n  generation:\n    temperature: 1.0\n    top_k: 20\n",
            filename="grpo.yaml",
            release="0.34.0",
        ),
    )
    INVALID = (
        Invalid(
            "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",
            filename="serve.sh",
            release="0.34.0",
            message=messages.RUNNER_ENV_REMOVED.format(value="0"),
            fixed="vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            release="0.34.0",
            message=messages.RUNNER_ENV_REDUNDANT,
            fixed='import os\nfrom vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        # Not a replay launch, and still refused: the check runs before any engine config.
        Invalid(
            'FROM vllm/vllm-openai:v0.34.0\nENV VLLM_USE_V2_MODEL_RUNNER=true\nCMD ["m"]\n',
            filename="Dockerfile",
            release="0.34.0",
            message="VLLM_USE_V2_MODEL_RUNNER=true is no longer supported",
            fixed='FROM vllm/vllm-openai:v0.34.0\nCMD ["m"]\n',
        ),
        Invalid(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: r}\nspec:\n  template:\n    spec:\n      containers:\n"
            "        - name: vllm\n          image: vllm/vllm-openai:v0.34.0\n          args: [m, --return-sampling-mask]\n"
            '          env:\n            - name: VLLM_USE_V2_MODEL_RUNNER\n              value: "0"\n',
            filename="deployment.yaml",
            release="0.34.0",
            message="Model Runner V1 has been removed",
        ),
        # A release newer than the newest known one is judged by the newest one's rules.
        Invalid(
            "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m\n",
            filename="serve.sh",
            release="0.35.0",
            message="judged by vLLM 0.34.0's rules, the newest replaylint knows",
        ),
    )
