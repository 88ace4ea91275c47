"""## What it does
Flags replay-related options vLLM cannot parse: a value given to the `--return-sampling-mask`
switch (`--return-sampling-mask=true`, or `true` as the next word), a `logprobs_mode` that is
not one of vLLM's four choices (`processed-logprobs`, `PROCESSED_LOGPROBS`), a
`return_sampling_mask` keyword value that is not a boolean, an abbreviation argparse cannot
resolve because it also starts another option (`--return` is `--return-sampling-mask` or
`--return-tokens-as-token-ids`), and a `VLLM_USE_V2_MODEL_RUNNER` that is not an integer
(`true`, `yes`, an empty string) up to vLLM 0.33 (0.34.0 refuses the variable itself: RPL206).

## Why is this bad?
vLLM fails before any replay check runs: argparse exits with
`argument --return-sampling-mask/--no-return-sampling-mask: ignored explicit argument 'true'` or
`invalid choice: 'processed-logprobs'` or `ambiguous option: --return could match ...`;
pydantic rejects a wrong keyword value
(`Input should be 'raw_logits', 'raw_logprobs', 'processed_logits' or 'processed_logprobs'`); and
`VLLM_USE_V2_MODEL_RUNNER=true` raises
`ValueError: invalid literal for int() with base 10: 'true'` in every launch.

## Example
```shell
VLLM_USE_V2_MODEL_RUNNER=true vllm serve Qwen/Qwen3-8B --return-sampling-mask=true \\
  --logprobs-mode processed-logprobs
```

## Use instead
```shell
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B --return-sampling-mask \\
  --logprobs-mode processed_logprobs
```

## Fix safety
Respelling is safe: the fix writes what the launch meant (`--return-sampling-mask`,
`processed_logprobs`, `1`/`0`).

## References
- The replay spec, section 6 (parser rules, `maybe_convert_bool`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Applicability, ArgIssue, Fix, Launch, LaunchKind, SetEnv, SetSetting
from ..vllm import messages
from ..vllm.engine_fields import LOGPROBS_MODES, RUNNER_ENV
from ..vllm.lax_values import as_bool, runner_env
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

# From 0.34.0 the platform refuses every value but `1` before reading it as an integer (RPL206).
RUNNER_ENV_CHECKED_BY_PLATFORM = Release(0, 34)
_ENV_SPELLINGS = {"true": "1", "yes": "1", "on": "1", "false": "0", "no": "0", "off": "0"}
_MASK_ISSUES = ("switch-with-value", "switch-followed-by-value")
# pydantic's texts for the ModelConfig fields (`LogprobsMode` lists the literals in this order).
_NOT_A_BOOLEAN = "Input should be a valid boolean"
_UNREADABLE_BOOLEAN = "Input should be a valid boolean, unable to interpret input"
_NOT_A_LOGPROBS_MODE = "Input should be 'raw_logits', 'raw_logprobs', 'processed_logits' or 'processed_logprobs'"


def _choice_for(value: str) -> str | None:
    candidate = value.strip().lower().replace("-", "_")
    return candidate if candidate in LOGPROBS_MODES else None


def _names_replay_option(issue: ArgIssue, asks_for_replay: bool) -> bool:
    candidates = issue.name.split(",")
    return "return_sampling_mask" in candidates or ("logprobs_mode" in candidates and asks_for_replay)


class MalformedReplayOption(Rule):
    code = "RPL201"
    name = "malformed-replay-option"
    summary = "A replay-related option vLLM cannot parse"
    vllm_message = messages.IGNORED_EXPLICIT_ARGUMENT
    fix_applicability = Applicability.SAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        yield from self._mask_issues(launch)
        yield from self._ambiguous(launch)
        yield from self._mask_value(launch)
        yield from self._logprobs_mode(launch)
        if release < RUNNER_ENV_CHECKED_BY_PLATFORM:
            yield from self._runner_env(launch)

    def _mask_issues(self, launch: Launch) -> Iterator[Report]:
        for issue in launch.issues:
            if issue.name == "return_sampling_mask" and issue.kind in _MASK_ISSUES:
                yield Report(
                    issue.span,
                    f"`{issue.spelling}`: --return-sampling-mask is a switch and takes no value",
                    says(issue.detail),
                    Fix(self.fix_applicability, "Write the switch alone", (SetSetting("return_sampling_mask", True),)),
                )

    def _ambiguous(self, launch: Launch) -> Iterator[Report]:
        """An abbreviation argparse cannot resolve, where one candidate is a replay option."""
        for issue in launch.issues:
            if issue.kind == "ambiguous" and _names_replay_option(issue, sampling_mask(launch) is not None):
                yield Report(
                    issue.span,
                    f"`{issue.spelling}` is an ambiguous abbreviation",
                    says(issue.detail),
                )

    def _mask_value(self, launch: Launch) -> Iterator[Report]:
        mask = launch.get("return_sampling_mask")
        if mask is None or launch.kind is not LaunchKind.PYTHON_CALL or mask.value is UNKNOWN:
            return
        if mask.value is None or as_bool(mask.value) is UNKNOWN:
            # pydantic parses strings and numbers it cannot read as booleans with its own wording;
            # None is no boolean either (the field has no None default to fall back to).
            text = _UNREADABLE_BOOLEAN if isinstance(mask.value, (str, int, float)) else _NOT_A_BOOLEAN
            yield Report(mask.value_span or mask.span, f"{quote(mask)} is not a boolean", says(text))

    def _logprobs_mode(self, launch: Launch) -> Iterator[Report]:
        mode = launch.get("logprobs_mode")
        if sampling_mask(launch) is None or mode is None or mode.value in LOGPROBS_MODES:
            return
        python = launch.kind is LaunchKind.PYTHON_CALL
        if not isinstance(mode.value, str) and not (python and mode.value is None):
            return
        respelled = _choice_for(mode.value) if mode.value is not None else None
        fix = None
        if respelled is not None:
            fix = Fix(self.fix_applicability, f"Write '{respelled}'", (SetSetting("logprobs_mode", respelled),))
        if python:
            text = _NOT_A_LOGPROBS_MODE
        else:
            choices = ", ".join(repr(choice) for choice in LOGPROBS_MODES)
            text = f"invalid choice: {mode.value!r} (choose from {choices})"
        yield Report(mode.value_span or mode.span, f"{quote(mode)} is not a logprobs mode", says(text), fix)

    def _runner_env(self, launch: Launch) -> Iterator[Report]:
        env = launch.env.get(RUNNER_ENV)
        if env is None or not isinstance(runner_env(env.value), ValueError):
            return
        meant = _ENV_SPELLINGS.get(str(env.value).strip().lower())
        fix = Fix(self.fix_applicability, f"Write {RUNNER_ENV}={meant}", (SetEnv(RUNNER_ENV, meant),)) if meant else None
        yield Report(
            env.value_span or env.span,
            f"{quote(env)} is not an integer",
            says(messages.INVALID_INT.format(value=env.value)),
            fix,
        )

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask="yes", logprobs_mode="processed_logprobs")\n'),
        Valid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "2"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
        ),
        Valid("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --spec ngram\n", filename="serve.sh"),
    )
    INVALID = (
        # The Python API goes through pydantic, not argparse (vLLM judge, 0.33.0).
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed-logprobs")\n',
            message=_NOT_A_LOGPROBS_MODE,
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "true"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            message="invalid literal for int() with base 10: 'true'",
            fixed='import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask="enabled", logprobs_mode="processed_logprobs")\n',
            message=_UNREADABLE_BOOLEAN,
        ),
        # vLLM judge: None is not the default for either field, pydantic refuses it.
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=None, logprobs_mode="processed_logprobs")\n',
            message=f'says "{_NOT_A_BOOLEAN}"',
        ),
        Invalid(
            'from vllm import EngineArgs\nEngineArgs(model="m", return_sampling_mask=True, logprobs_mode=None)\n',
            message=_NOT_A_LOGPROBS_MODE,
        ),
        Invalid(
            "vllm serve m --logprobs-mode processed-logprobs --return-s\n",
            filename="serve.sh",
            message="invalid choice: 'processed-logprobs' (choose from 'processed_logits', 'processed_logprobs', "
            "'raw_logits', 'raw_logprobs')",
        ),
        Invalid(
            "vllm serve m --return --logprobs-mode processed_logprobs  # not --return-sampling-mask\n",
            filename="serve.sh",
            message="ambiguous option: --return could match --return-sampling-mask, --return-tokens-as-token-ids",
        ),
    )
