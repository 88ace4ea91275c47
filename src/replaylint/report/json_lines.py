"""`--output-format json-lines`: the objects of `json`, one per line (streamable, `jq -c`-friendly)."""

from __future__ import annotations

import json

from .json import finding_dict
from .run import Run


def render(run: Run) -> str:
    return "".join(json.dumps(finding_dict(finding, run.texts)) + "\n" for finding in run.findings)
