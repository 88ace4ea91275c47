"""## What it does
Reports a file that could hold a replay launch (it passes the same prefilter as every other
rule) but that replaylint did not analyse completely, so a launch in it may have gone unchecked:

- a construct nested beyond what replaylint reads, reported where it starts: shell statements
  more than 100 deep (`if` inside `if`...), scripts inside scripts more than 16 deep (`sh -c`,
  a heredoc fed to `bash`, `eval`), function calls more than 32 deep, a call of a function that
  starts vLLM, from a new call site, after its first 16 calls; a Python expression nested more
  than 500 deep, YAML deeper than its reader takes (1,000), a file deeper than Python's stack;
- a file above the size limit (8 MiB), when its first 8 MiB pass the prefilter (nothing past
  them is read);
- a value that grows past what replaylint follows, reported where it grew: a Dockerfile or
  Kubernetes `$(VAR)` expansion longer than 65,536 characters, a shell value of more than 4,096
  pieces that a launch reads, YAML aliases and merge keys that stand for more than 4,000,000
  nodes, merge keys nested more than 64 deep;
- a file over its budget: more work than 4,000,000 units (about four seconds of analysis:
  shell statements, tokens and word parts, Dockerfile lines and expanded characters, YAML nodes,
  the Python libcst must read), more than 30 seconds, or more than 1 GiB of memory, parsing
  included (a shell script the bash parser would take gigabytes or minutes to recover is parsed
  first in a child process held to the file's memory and time), reported where the analysis
  stopped.

The limits are far beyond what launch files need: a file that reaches one was most likely
generated or written to exhaust the checker. Other findings in a file whose construct was too
deep are still reported; a file over its size or budget gets only this finding.

## Why is this bad?
bash runs what replaylint skipped: a `vllm serve --return-sampling-mask` 64 `if`s deep starts
vLLM like any other. A checker that passes such a file silently tells you a launch is fine when
nobody looked at it. ruff reports a file it cannot read (E902) and hadolint one it cannot parse
(DL1000) as errors rather than skip them; this rule is an error for the same reason, so the run
exits 1.

## Example
```sh
# serve.sh, generated: the launch sits 101 `if`s deep
if true; then
  if true; then
    # ... 99 more
    vllm serve Qwen/Qwen3-8B --return-sampling-mask
```

## Use instead
```sh
if true; then
  vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs
fi
```
Flatten the nesting or split the file. A file you know starts nothing can be excluded
(`exclude`), or the finding silenced with `per-file-ignores = {"gen/*.sh" = ["RPL902"]}`.

## Fix safety
No automatic fix.

## References
- ruff's E902 (io-error) and hadolint's DL1000 (invalid Dockerfile): a file the tool could not
  read is an error, never a silent pass.
"""

from __future__ import annotations

from .base import EngineRule, Invalid, Valid

DEEP = 101
LAUNCH = "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs\n"


class IncompleteAnalysis(EngineRule):
    code = "RPL902"
    name = "incomplete-analysis"
    summary = "A file that could hold a replay launch was not fully analysed"

    VALID = (
        Valid("#!/bin/bash\n" + "if true; then\n" * 63 + LAUNCH + "fi\n" * 63, filename="serve.sh"),
        # Nothing in it could start a replay launch: the prefilter turns it away unread.
        Valid("#!/bin/bash\n" + "if true; then\n" * DEEP + "make wheel\n" + "fi\n" * DEEP, filename="build.sh"),
    )
    INVALID = (
        Invalid(
            "#!/bin/bash\n" + "if true; then\n" * DEEP + LAUNCH + "fi\n" * DEEP,
            filename="serve.sh",
            message="statements nested deeper than 100 levels are not read",
        ),
    )
