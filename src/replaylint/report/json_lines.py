"""`--output-format json-lines`: the objects of `json`, one per line (streamable, `jq -c`-friendly)."""

from __future__ import annotations

import json

from .run import Run
from .json import finding_dict


def render(run: Run) -> str:
    return "".join(json.dumps(finding_dict(finding)) + "\n" for finding in run.findings)
