"""## What it does
Flags a dict-valued option written both as a whole JSON value and with dotted keys, in a
replay launch: `-sc '{"method": "ngram", "num_speculative_tokens": 3}'
-sc.enable_adaptive_verification false`. vLLM does not merge them. It gathers the dotted keys of
each spelling into a new value, appends that after all other arguments, and the last value
wins: only `{"enable_adaptive_verification": false}` reaches the engine, whatever the order on
the command line. A `--config` file's value for the option is replaced the same way.

## Why is this bad?
The dotted key is usually meant as a tweak of the JSON (turning adaptive verification off for
replay), but it throws the JSON away: the server fails at start-up on a speculative config
without a method or token count, or runs with settings nobody wrote.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \
  -sc '{"method": "ngram", "num_speculative_tokens": 3}' -sc.enable_adaptive_verification false
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \
  -sc '{"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": false}'
```

## Fix safety
No automatic fix: which value was meant is the user's call (put every key in the JSON, or every
key as a dotted word).

## References
- vLLM `FlexibleArgumentParser.parse_args`: dotted arguments are merged per spelling and appended
  at the end of argv
"""

from __future__ import annotations

from typing import Iterator

from ..model import Launch
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, sampling_mask

SHELL = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs {}\n"


class DottedKeysReplaceValue(Rule):
    code = "RPL205"
    name = "dotted-keys-replace-value"
    summary = "Dotted keys replace a whole JSON value of the same option instead of merging into it"
    severity = "warning"
    since = Release(0, 0)
    vllm_message = "(no message: the JSON value is dropped)"

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if sampling_mask(launch) is None:
            return
        for issue in launch.issues:
            if issue.kind == "dotted-replaces-value":
                dotted, _, value = issue.detail.partition("|")
                yield Report(
                    issue.span,
                    f"`{issue.spelling}` is replaced entirely by the dotted keys `{dotted}`",
                    f"appends them as a new value after all arguments, so only {value} reaches the engine",
                )

    VALID = (
        Valid(SHELL.format('-sc \'{"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": false}\''), "serve.sh"),
        Valid(SHELL.format("-sc.method ngram -sc.num_speculative_tokens 3 -sc.enable_adaptive_verification false"), "serve.sh"),
        Valid(SHELL.format("-sc null -sc.method ngram -sc.num_speculative_tokens 3"), "serve.sh"),  # nothing is lost
        # not a replay launch: not this tool's business
        Valid('vllm serve m -sc \'{"method": "ngram", "num_speculative_tokens": 3}\' -sc.enable_adaptive_verification false\n', "serve.sh"),
    )
    INVALID = (
        Invalid(
            SHELL.format('-sc \'{"method": "ngram", "num_speculative_tokens": 3}\' -sc.enable_adaptive_verification false'),
            "serve.sh",
            message='only {"enable_adaptive_verification": false} reaches the engine',
        ),
        Invalid(  # the order does not matter, nor the spelling of the whole value
            SHELL.format(
                '-sc.enable_adaptive_verification false --speculative-config \'{"method": "ngram", "num_speculative_tokens": 3}\''
            ),
            "serve.sh",
            message="is replaced entirely by the dotted keys",
        ),
    )
