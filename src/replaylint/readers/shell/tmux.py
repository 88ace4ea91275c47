"""`tmux new-session -d -s NAME "vllm serve ..."`: the command a new tmux session, window or
pane runs (tmux 3.x `new-session`, `new-window`, `split-window`, `respawn-pane`,
`respawn-window` and their aliases). One word is a script tmux hands to the shell (`sh -c`),
several are the command's own words (tmux(1): "If the command is given as several arguments, it
is executed directly"). A session whose environment tmux sets (`-e NAME=VALUE`), an option not
known here and the tmux commands after `;` stop the search: no launch is better than a wrong one.
"""

from __future__ import annotations

from .values import Field
from .wrappers import Wrapper

# tmux's own options before the command (`-L socket`, `-f conf`), then each command's options.
_TMUX = Wrapper(frozenset(("-2", "-C", "-CC", "-D", "-l", "-N", "-u", "-v", "-vv")), frozenset(("-c", "-f", "-L", "-S", "-T")))
_NEW_SESSION = Wrapper(frozenset(("-A", "-d", "-D", "-E", "-P", "-X")), frozenset(("-c", "-F", "-f", "-n", "-s", "-t", "-x", "-y")))
_NEW_WINDOW = Wrapper(frozenset(("-a", "-b", "-d", "-k", "-P", "-S")), frozenset(("-c", "-F", "-n", "-t")))
_SPLIT_WINDOW = Wrapper(frozenset(("-b", "-d", "-f", "-h", "-I", "-v", "-P", "-Z")), frozenset(("-c", "-F", "-l", "-p", "-t")))
_RESPAWN = Wrapper(frozenset(("-k",)), frozenset(("-c", "-t")))
COMMANDS = {
    "new-session": _NEW_SESSION,
    "new": _NEW_SESSION,
    "new-window": _NEW_WINDOW,
    "neww": _NEW_WINDOW,
    "split-window": _SPLIT_WINDOW,
    "splitw": _SPLIT_WINDOW,
    "respawn-pane": _RESPAWN,
    "respawnp": _RESPAWN,
    "respawn-window": _RESPAWN,
    "respawnw": _RESPAWN,
}


def tmux_command(words: list[Field], position: int) -> tuple[list[Field], bool] | None:
    """The words the tmux command at `position` (after `tmux`) runs, and whether they are one
    script for the shell; None when it runs nothing read here."""
    position = _options(words, position, _TMUX)
    if position is None or position >= len(words) or words[position].text not in COMMANDS:
        return None
    position = _options(words, position + 1, COMMANDS[words[position].text or ""])
    if position is None or position >= len(words):
        return None
    command = words[position:]
    ends = [n for n, word in enumerate(command) if word.text is not None and word.text in (";", "\\;")]
    command = command[: ends[0]] if ends else command
    if not command or any(word.text is None and word.spread for word in command):
        return None
    return command, len(command) == 1


def _options(words: list[Field], position: int, wrapper: Wrapper) -> int | None:
    """The index after the options `wrapper` knows; None at one it does not (`-e NAME=VALUE`)."""
    while position < len(words):
        text = words[position].text
        if text is None:
            return None
        if text == "--":
            return position + 1
        if not text.startswith("-") or text == "-":
            return position
        if text in wrapper.values:
            position += 2
        elif text in wrapper.flags or (len(text) > 2 and all(f"-{c}" in wrapper.flags for c in text[1:])):
            position += 1
        elif text[:2] in wrapper.values:
            position += 1  # `-sNAME`: the value attached
        else:
            return None
    return position
