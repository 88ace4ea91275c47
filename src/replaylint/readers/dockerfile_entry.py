"""Whether a Dockerfile of the tree runs a script: it copies the script in and names it in its last
`ENTRYPOINT` or `CMD` (read as text: a reader may not use the Dockerfile frontend)."""

from __future__ import annotations

import re

from ..source import ExtractContext


def image_runs(dockerfile: str, name: str, context: ExtractContext) -> str | None:
    """`ENTRYPOINT` or `CMD`: the instruction that runs the script, when the Dockerfile copies
    it in and names it in its last `ENTRYPOINT` or `CMD` (None: the image does not run it)."""
    text = context.read_text(dockerfile)  # by name: a listing would make the script's result rest on its folder's names
    if text is None:
        return None
    instructions = [line.strip() for line in text.splitlines()]
    copied = any(re.match(r"(?i)(COPY|ADD)\s", line) and re.search(rf"(^|[\s/]){re.escape(name)}(\s|$)", line) for line in instructions)
    commands = [line for line in instructions if re.match(r"(?i)(ENTRYPOINT|CMD)\s", line)]
    if not copied or not commands or not re.search(rf"[\"/\s]{re.escape(name)}[\"\s,\]]", commands[-1] + " "):
        return None
    return commands[-1].split(None, 1)[0].upper()
