"""## What it does
Flags a vLLM command line whose backslash continuation is followed by a space and a comment
(`--return-sampling-mask \\  # keep masks`). The backslash then escapes the space, the comment
ends the command, and the following lines run as commands of their own.

## Why is this bad?
vLLM starts without every flag written below that line, without any message; bash then tries
to run the next line (`--logprobs-mode processed_logprobs ...`) as a command and fails with
`command not found` only after the server exits. For replay this usually means the launch runs
with the default `raw_logprobs` or without the mask.

## Example
```shell
vllm serve Qwen/Qwen3-8B \\
  --return-sampling-mask \\  # masks for the trainer
  --logprobs-mode processed_logprobs
```

## Use instead
```shell
# masks for the trainer
vllm serve Qwen/Qwen3-8B \\
  --return-sampling-mask \\
  --logprobs-mode processed_logprobs
```

## Fix safety
No automatic fix: the comment would have to move, and the flags after it have never run.

## References
- bash(1), QUOTING: a backslash followed by a newline is a line continuation; followed by anything else it quotes that character
"""

from __future__ import annotations

from typing import Iterator

from ..model import Launch
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid


class BrokenLineContinuation(Rule):
    code = "RPL203"
    name = "broken-line-continuation"
    summary = "A `\\` before a comment ends the vLLM command: the flags on the following lines are not passed"
    severity = "warning"
    since = Release(0, 0)
    vllm_message = "(no message: the flags after the comment never reach vLLM)"

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        for issue in launch.issues:
            if issue.kind == "broken-continuation":
                yield Report(
                    issue.span,
                    f"`{issue.spelling.strip()}` ends the command",
                    "the backslash escapes the space, so the lines after it are not passed to vLLM and run as commands of their own",
                    speaker="",
                )

    VALID = (
        Valid("vllm serve m \\\n  --return-sampling-mask \\\n  --logprobs-mode processed_logprobs\n", filename="serve.sh"),
        Valid(
            "# the mask is for the trainer\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs  # ok\n",
            filename="serve.sh",
        ),
    )
    INVALID = (
        Invalid(
            "vllm serve m \\\n  --return-sampling-mask \\  # masks for the trainer\n  --logprobs-mode processed_logprobs\n",
            filename="serve.sh",
            message="ends the command",
        ),
    )
