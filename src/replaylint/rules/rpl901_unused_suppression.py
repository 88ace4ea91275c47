"""## What it does
Reports a `# replaylint: ignore[...]` (any file type) or `# noqa: RPL...` (Python) comment that
silenced nothing: no finding it names is reported on its line or on the line below it. Only
codes this run checks count, so a comment for a rule you `--ignore` is left alone. YAML files
are not checked for it: their comments may serve launches in other files (a `--config` file).

## Why is this bad?
Stale suppressions hide the next real problem written on that line, and they make readers
believe a launch has a known issue it no longer has.

## Example
```python
llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: RPL003
```

## Use instead
```python
llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
The fix removes the comment (its whole line when it stands alone). It is safe.

## References
- ruff's RUF100 (unused-noqa)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Launch
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid

GOOD = 'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")'


class UnusedSuppression(Rule):
    """Reported by the engine after suppressions are applied, not by looking at launches."""

    code = "RPL901"
    name = "unused-suppression"
    summary = "A suppression comment that silenced nothing"
    severity = "warning"
    since = Release(0, 0)
    fix_applicability = Applicability.SAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        return iter(())

    VALID = (
        Valid('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)  # noqa: RPL003\n'),
        Valid(GOOD + "  # noqa: E501\n"),
        Valid('from vllm import LLM\n# replaylint: ignore[RPL003] -- logprobs come from the trainer\nLLM("m", return_sampling_mask=True)\n'),
    )
    INVALID = (
        Invalid(GOOD + "  # noqa: RPL003\n", message="suppresses nothing", fixed=GOOD + "\n"),
        Invalid("# replaylint: ignore[sampling-mask-requires-processed-logprobs]\n" + GOOD + "\n", message="suppresses nothing",
                fixed=GOOD + "\n"),
    )
