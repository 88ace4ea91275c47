"""`--statistics`: the number of findings of each rule, most first, in the output format asked for.

* `full`, `concise`, `grouped`: one line per rule, flake8's layout:

      `    2\tRPL003\t[*] sampling-mask-requires-processed-logprobs`

  `[*]` when `--fix` (with `--unsafe-fixes` when given) applies the fix of one of them.
* `json`: ruff's array: `code`, `name`, `count`, `fixable` (true when the fix of every one of
  them applies, ruff's meaning) and `fixable_count`. A run without findings gives `[]` (ruff
  prints nothing, which no JSON reader accepts).
* Any other format has no statistics, as in ruff: `render` raises `ValueError` with the message
  for the user.
"""

from __future__ import annotations

import json

from ..records import record
from .run import Run, applicable

TEXT_FORMATS = ("full", "concise", "grouped")


@record(unsafe_hash=True)
class RuleCount:
    code: str
    name: str
    count: int
    fixable_count: int


def rule_counts(run: Run) -> list[RuleCount]:
    """One count per rule, most findings first, then by code."""
    counts: dict[tuple[str, str], list[int]] = {}
    for finding in run.findings:
        found = counts.setdefault((finding.code, finding.name), [0, 0])
        found[0] += 1
        found[1] += applicable(finding, run.unsafe_fixes_enabled)
    ordered = sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))
    return [RuleCount(code, name, count, fixable) for (code, name), (count, fixable) in ordered]


def _text(counts: list[RuleCount]) -> str:
    lines = [f"{rule.count:>5}\t{rule.code}\t{'[*]' if rule.fixable_count else '   '} {rule.name}" for rule in counts]
    return "".join(line + "\n" for line in lines)


def _json(counts: list[RuleCount]) -> str:
    rows = [
        {
            "code": rule.code,
            "name": rule.name,
            "count": rule.count,
            "fixable": rule.fixable_count == rule.count,
            "fixable_count": rule.fixable_count,
        }
        for rule in counts
    ]
    return json.dumps(rows, indent=2) + "\n"


def render(name: str, run: Run) -> str:
    if name in TEXT_FORMATS:
        return _text(rule_counts(run))
    if name == "json":
        return _json(rule_counts(run))
    raise ValueError(f"--statistics cannot be shown as {name}: use the full, concise, grouped or json output format")
