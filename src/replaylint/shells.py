"""The shells a launch is handed to as a string: `sh -c "vllm serve ..."`.

One list for every reader: shell scripts, Dockerfiles, Kubernetes and Compose commands,
justfile recipes and shebangs, notebook `%%script` cells, Python argv lists and a file's `#!`
line. A program named here (by its base name: `/bin/ash` is `ash`) runs its `-c` string, or a
script fed to it, in the shell grammar replaylint reads:

- `sh`, `bash`, `dash`; `ash` (BusyBox's shell, `/bin/sh` of Alpine images); `ksh` and
  `mksh` (Korn shells; mksh is Android's `/system/bin/sh`): POSIX shells.
- `zsh`, which is not POSIX by default (an unquoted `$VAR` stays one word), but the command
  lines a launch is written with (quoted words, one-word variables, `&&`, `exec`) mean the same.

Not here: `busybox sh -c` (a multi-call program whose first argument names the shell: a
wrapper, as `env` is); fish, csh and tcsh (other grammars); GitHub Actions' `shell:` keywords
(frontends/yaml/workflows.py), Jupyter kernel languages and the shells `replaylint completions`
writes for, which are other lists.
"""

from __future__ import annotations

from typing import Sequence

from .regexes import on_use

SHELLS = frozenset(("sh", "bash", "dash", "ash", "ksh", "mksh", "zsh"))

# `-e`, `-lc`, `+x`, `-euo` (its `o` takes an option name: `-euo pipefail`).
_OPTION = on_use(r"^[-+][A-Za-z]+$")


def is_shell(program: str | None) -> bool:
    """`program` (a path or a name) is one of SHELLS."""
    return program is not None and program.rsplit("/", 1)[-1] in SHELLS


def command_string_at(words: Sequence[str | None]) -> int | None:
    """Where the string to run is in `SHELL [OPTION...] -c STRING [NAME [ARG...]]` (`sh -c`,
    `bash -lc`, `sh -euo pipefail -c`, `bash --login -c`, `bash -c -e STRING`); None when the
    words name no shell of SHELLS, give no `-c`, or end before the string. A word not known
    (None) ends the options."""
    if not words or not is_shell(words[0]):
        return None
    command_string = False
    position = 1
    while position < len(words):
        word = words[position]
        if word is None:
            break
        if word == "--":
            position += 1
            break
        if _OPTION.match(word):
            command_string = command_string or (word.startswith("-") and "c" in word)
            position += 2 if "o" in word or "O" in word else 1
        elif word.startswith("--"):
            position += 1
        else:
            break
    return position if command_string and position < len(words) else None
