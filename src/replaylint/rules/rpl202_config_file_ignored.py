"""## What it does
Flags `--config=FILE.yaml` written as one word. vLLM loads a config file only when `--config`
and the path are two separate words; the one-word form passes argparse and is then ignored
without a message, so none of the file's settings (the mask, the logprobs mode, ...) apply.

## Why is this bad?
The server starts with a configuration the user did not write. For replay that typically means
no sampling masks at all, or a `logprobs_mode` other than the one in the file, discovered only
when the trainer reads the responses.

## Example
```shell
vllm serve Qwen/Qwen3-8B --config=replay.yaml
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --config replay.yaml
```

## Fix safety
The fix writes the two words (`--config replay.yaml`) in shell scripts, Dockerfiles, Python
argument lists and YAML commands (a list gets one more item). It is unsafe: the file's settings then apply for the first time, which starts a
different server than the one running today. Review the file before applying it.

## References
- vLLM `FlexibleArgumentParser.parse_args` (`if "--config" in args`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SplitWord
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid

LAUNCHER = 'import subprocess\nsubprocess.run([\n    "vllm", "serve", "m",\n    {}\n])\n'


class ConfigFileIgnored(Rule):
    code = "RPL202"
    name = "config-file-ignored"
    summary = "`--config=FILE` is silently ignored by vLLM; only `--config FILE` loads the file"
    severity = "warning"
    since = Release(0, 0)
    vllm_message = "(no message: the file is ignored)"
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        for issue in launch.issues:
            if issue.kind == "config-equals-ignored":
                yield Report(
                    issue.span,
                    f"`{issue.spelling}`",
                    f"ignores it silently: only `--config {issue.detail}` (two words) loads the file",
                    Fix(self.fix_applicability, f"Write `--config {issue.detail}` as two words", (SplitWord(issue.span),)),
                )

    VALID = (Valid(LAUNCHER.format('"--config", "replay.yaml",')),)
    INVALID = (
        Invalid(
            LAUNCHER.format('"--config=replay.yaml",'),
            message="ignores it silently",
            fixed=LAUNCHER.format('"--config", "replay.yaml",'),
        ),
        Invalid(
            "vllm serve m --config='my replay.yaml' --port 8000\n",
            filename="serve.sh",
            message="ignores it silently",
            fixed="vllm serve m --config 'my replay.yaml' --port 8000\n",
        ),
        Invalid(
            'FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--config=replay.yaml"]\n',
            filename="Dockerfile",
            message="ignores it silently",
            fixed='FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--config", "replay.yaml"]\n',
        ),
        Invalid(
            "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command:\n      - m\n      - --config=replay.yaml\n",
            filename="compose.yaml",
            message="ignores it silently",
            fixed="services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command:\n      - m\n      - --config\n      - replay.yaml\n",
        ),
    )
