"""## What it does
Reports a `# replaylint: ignore[...]` (any file type) or `# noqa: RPL...` (Python) comment that
silenced nothing: no finding it names is reported on its line or on the line below it. In a
comment that lists several codes, each code that silenced nothing is reported. Only codes this
run checks count, so a code for a rule you `--ignore` is left alone, and so are other linters'
codes (`E501`) and a blanket `# noqa`. Text inside a Python or shell string is not a
comment, so it is not a suppression either. In a Dockerfile only comment lines are suppressions:
Docker has no trailing comments (text after `CMD ["m"]` makes it a shell-form command). YAML
files are not checked for it: their comments may serve launches in other files (a `--config`
file).

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
The fix removes the comment with its `-- reason` (its whole line when it stands alone; text
after it in the same comment stays a comment), or only the unused codes when the comment
lists others, keeping its reason: `# noqa: E501, RPL003` becomes `# noqa: E501`, and
`# replaylint: ignore[RPL001, RPL003] -- why` becomes `# replaylint: ignore[RPL003] -- why`.
It edits comments only, so it is safe.

## References
- ruff's RUF100 (unused-noqa)
"""

from __future__ import annotations

from ..model import Applicability
from .base import EngineRule, Invalid, Valid

GOOD = 'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")'
MASK_ONLY = 'LLM("m", return_sampling_mask=True)\n'


class UnusedSuppression(EngineRule):
    code = "RPL901"
    name = "unused-suppression"
    summary = "A suppression comment that silenced nothing"
    severity = "warning"
    fix_applicability = Applicability.SAFE

    VALID = (
        Valid('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)  # noqa: RPL003\n'),
        Valid(GOOD + "  # noqa: E501\n"),
        Valid(
            'from vllm import LLM\n# replaylint: ignore[RPL003] -- logprobs come from the trainer\nLLM("m", return_sampling_mask=True)\n'
        ),
        Valid(GOOD + "  # noqa\n"),
        Valid('print("add # noqa: RPL003 to silence it")\n' + GOOD + "\n"),
        Valid('FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--return-sampling-mask"]  # replaylint: ignore[RPL003]\n', filename="Dockerfile"),
    )
    INVALID = (
        Invalid(GOOD + "  # noqa: RPL003\n", message="suppresses nothing", fixed=GOOD + "\n"),
        Invalid(
            "# replaylint: ignore[sampling-mask-requires-processed-logprobs]\n" + GOOD + "\n",
            message="suppresses nothing",
            fixed=GOOD + "\n",
        ),
        Invalid(GOOD + "  # noqa: RPL003 -- moved to eval.py\n", message="suppresses nothing", fixed=GOOD + "\n"),
        Invalid(GOOD + "  # noqa: E501, RPL003\n", message="suppresses nothing", fixed=GOOD + "  # noqa: E501\n"),
        Invalid(
            "from vllm import LLM\n# replaylint: ignore[RPL001, RPL003] -- set by the trainer\n" + MASK_ONLY,
            message="suppresses nothing",
            fixed="from vllm import LLM\n# replaylint: ignore[RPL003] -- set by the trainer\n" + MASK_ONLY,
        ),
        Invalid(
            'FROM vllm/vllm-openai:v0.33.0\n# replaylint: ignore[RPL003]\nCMD ["m", "--return-sampling-mask", "--logprobs-mode", '
            '"processed_logprobs"]\n',
            filename="Dockerfile",
            message="suppresses nothing",
            fixed='FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n',
        ),
    )
