"""A launch given as words, with the environment it runs in, written as the shell script that
does the same: one `export` a variable, then the words. Every word is quoted, so the shell
reader sees the values as they are (nothing expanded) and the findings point into this text.
"""

from __future__ import annotations

import shlex
from typing import Mapping, Sequence


def launch_script(words: Sequence[str], environ: Mapping[str, str]) -> str:
    exports = [f"export {name}={shlex.quote(value)}\n" for name, value in environ.items() if name.isidentifier()]
    return "".join(exports) + " ".join(shlex.quote(word) for word in words) + "\n"
