"""## What it does
Flags a request for sampling distribution replay that vLLM cannot understand: any spelling of
`return_sampling_mask` in a launch judged against vLLM 0.27 or older (the feature arrived in
0.28.0), and the pre-release name `enable_return_sampling_mask` (used by the draft of vLLM PR
#49577, never shipped in a release) in any release.

## Why is this bad?
vLLM stops before it even loads the model: `vllm serve` exits with
`unrecognized arguments: --return-sampling-mask`, and `LLM(...)`/`EngineArgs(...)` raise
`TypeError: ... got an unexpected keyword argument 'return_sampling_mask'` (so does NeMo-RL's
`vllm_kwargs`, which it hands to `vllm.LLM`). Frameworks that set the name as an attribute of
vLLM's argument namespace (SkyRL's `engine_init_kwargs`, prime-rl's `[inference.vllm]`) get no
error at all: vLLM never reads the attribute, and the engine starts without a sampling mask.

## Example
```python
LLM("Qwen/Qwen3-8B", enable_return_sampling_mask=True)
```

## Use instead
```python
LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```
and run vLLM 0.28.0 or newer.

## Fix safety
Renaming `enable_return_sampling_mask` to `return_sampling_mask` is safe: it is what the
launch asked for. Upgrading vLLM is left to the user.

## References
- vLLM PR #49577 "[Feature] Mask Replay" (first shipped in 0.28.0)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, LaunchKind, RenameSetting
from ..vllm import messages
from ..vllm.engine_fields import PRE_RELEASE_MASK_NAME
from ..vllm.releases import Release, has_sampling_mask
from .base import Invalid, Report, Rule, Valid, quote


def _rejection(launch: Launch, name: str, flag: str) -> str:
    """What vLLM says of `name`, as the launch hands it over."""
    if launch.kind is LaunchKind.PYTHON_CALL:
        return f'says "got an unexpected keyword argument {name!r}"'
    framework = launch.framework
    if framework is not None and framework.passes == "keywords":  # vllm.LLM(**kwargs) -> EngineArgs(**kwargs)
        return f'says "EngineArgs.__init__() got an unexpected keyword argument {name!r}"'
    if framework is not None and framework.passes == "attributes":
        return f"says nothing: {framework.name} sets `{name}` on vLLM's argument namespace, which vLLM never reads, so the engine starts without a sampling mask"
    return f'says "{messages.UNRECOGNIZED_ARGUMENTS.format(args=flag)}"'


def _flag(spelling: str, name: str) -> str:
    """The option as argparse names it, without the quotes of the container it was written in; a
    framework key (verl's `engine_kwargs.vllm.return_sampling_mask`) becomes `--<key>`, the word
    the framework renders."""
    word = spelling.split()[0].strip("'\"")
    return word if word.startswith("-") else f"--{name}"


class SamplingMaskUnavailable(Rule):
    code = "RPL007"
    name = "sampling-mask-unavailable"
    summary = "The sampling mask is asked for in a vLLM release without it, or under its pre-release name"
    since = Release(0, 0)
    vllm_message = messages.UNRECOGNIZED_ARGUMENTS.format(args="--return-sampling-mask")
    fix_applicability = Applicability.SAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        draft = launch.get(PRE_RELEASE_MASK_NAME)
        if draft is not None:
            yield Report(
                draft.span,
                f"{quote(draft)} is the pre-release name of return_sampling_mask",
                _rejection(launch, PRE_RELEASE_MASK_NAME, "--enable-return-sampling-mask"),
                Fix(
                    self.fix_applicability,
                    "Rename to return_sampling_mask",
                    (RenameSetting(PRE_RELEASE_MASK_NAME, "return_sampling_mask"),),
                ),
            )
        mask = launch.get("return_sampling_mask")
        if mask is not None and not has_sampling_mask(release):
            yield Report(
                mask.span,
                f"{quote(mask)} needs vLLM 0.28.0 or newer",
                _rejection(launch, "return_sampling_mask", _flag(mask.spelling, "return_sampling_mask")),
            )

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n', release="0.28.0"),
        Valid('from vllm import LLM\nLLM("m", logprobs_mode="processed_logprobs")\n', release="0.27.1"),
        Valid('config = {"enable_return_sampling_mask": True}\n'),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            release="0.27.1",
            message="got an unexpected keyword argument 'return_sampling_mask'",
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", enable_return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            message="pre-release name",
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
    )
