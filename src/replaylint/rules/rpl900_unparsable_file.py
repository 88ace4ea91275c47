"""## What it does
Reports a file that could hold a replay launch (it mentions the sampling mask, or vLLM next to
the runner variable or `--config`) but cannot be read as its language: a Python syntax error, a
shell script `bash -n` rejects, invalid YAML, a Dockerfile Docker would refuse, bytes that are
not text in the file's encoding, or a binary file. Files without such content are never
reported, whatever state they are in.

## Why is this bad?
replaylint cannot see the launches in the file, so a problem there would go unnoticed; and a
launch file that does not parse will not start vLLM either.

## Example
```python
from vllm import LLM
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True,
```

## Use instead
```python
from vllm import LLM
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
No automatic fix.

## References
- The message quotes the parser's own error and position.
"""

from __future__ import annotations

from .base import EngineRule, Invalid, Valid


class UnparsableFile(EngineRule):
    code = "RPL900"
    name = "unparsable-file"
    summary = "A file that could hold a replay launch cannot be read or parsed"

    VALID = (Valid("import vllm  # return_sampling_mask\nx = 1\n"), Valid("def (:\n"))
    INVALID = (Invalid('from vllm import LLM\nLLM("m", return_sampling_mask=True,\n', message="syntax error"),)
