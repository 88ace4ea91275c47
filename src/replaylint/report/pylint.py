"""`--output-format pylint`: one line per finding, as ruff (and flake8's pylint formatter) print it.

    examples/shell/serve_replay.sh:7: [RPL003] `--return-sampling-mask` without ...

Paths as `concise` prints them; a message's line breaks become spaces, so every finding stays on
its own line for the parsers that read this format, and what else is not printable is escaped
as in `concise`. No summary line.
"""

from __future__ import annotations

from .printable import printable, printable_path
from .run import Run


def render(run: Run) -> str:
    return "".join(
        f"{printable_path(f.span.path)}:{f.span.start_line}: [{f.code}] {printable(' '.join(f.message.splitlines()))}\n"
        for f in run.findings
    )
