"""`--output-format pylint`: one line per finding, as ruff (and flake8's pylint formatter) print it.

    examples/shell/serve_replay.sh:7: [RPL003] `--return-sampling-mask` without ...

Paths as `concise` prints them; a message's line breaks become spaces, so every finding stays on
its own line for the parsers that read this format, and what else is not printable is escaped
as in `concise`. No summary line. A notebook's finding keeps the file's line (where an editor
jumps; ruff prints line 1 for want of one) and its message starts with the cell's place, as in
`github`: `rollout.ipynb:41: [RPL003] cell 4:6:19: ...`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .notebook_cells import said_in_cell
from .printable import printable, printable_path
from .run import Run

if TYPE_CHECKING:
    from ..model import Finding


def _message(finding: Finding, run: Run) -> str:
    return said_in_cell(finding.message, finding.span, run.texts.get(finding.span.path))


def render(run: Run) -> str:
    return "".join(
        f"{printable_path(f.span.path)}:{f.span.start_line}: [{f.code}] {printable(' '.join(_message(f, run).splitlines()))}\n"
        for f in run.findings
    )
