"""The words of what starts an engine or a process in a Python file, shared by `prescan` (on
the text) and `focus` (on CPython's ast): the replay words, the engine names and the names a
file imports them by, the spawning modules and calls, and the environment calls that may write
the runner variable."""

from __future__ import annotations

import re
from typing import Iterator

RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"
# An engine or a process only matters with one of these in reach (the prefilter's words).
REPLAY_WORDS = ("sampling_mask", "sampling-mask", "SAMPLING_MASK", "--return", RUNNER_ENV, "--config")
ENGINE_NAMES = frozenset(("LLM", "EngineArgs", "AsyncEngineArgs"))
SPAWNING_CALLS = frozenset(
    (
        "run",
        "Popen",
        "call",
        "check_call",
        "check_output",
        "system",
        "popen",
        "create_subprocess_exec",
        "create_subprocess_shell",
        "execv",
        "execve",
        "execvp",
        "execvpe",
        "execl",
        "execle",
        "execlp",
        "execlpe",
        "spawnv",
        "spawnve",
        "spawnvp",
        "spawnvpe",
        "spawnl",
        "spawnle",
        "spawnlp",
        "spawnlpe",
        "split",
    )
)
ENV_CALLS = frozenset(("setdefault", "putenv", "pop", "update"))
SPAWNING_MODULES = frozenset(("subprocess", "os", "asyncio", "shlex"))
_VLLM_ALIAS = re.compile(
    r"import\s+(?:[\w.]+\s+as\s+\w+\s*,\s*)*(?:LLM|EngineArgs|AsyncEngineArgs)\s+as\s+(\w+)"
    r"|from\s+(?:lmcache_vllm\.)?vllm[\w.]*\s+import\s+[^\n;]*?\bas\s+(\w+)"
)
# LMCache's `lmcache_vllm` installs an import hook that serves `lmcache_vllm.vllm.X` as vLLM's
# own `vllm.X` (lmcache_vllm/__init__.py, `ProxyModule`): the same engines and params.
_VLLM_PROXIES = ("lmcache_vllm.vllm",)


def vllm_module(dotted: str) -> str:
    """The module of vLLM a dotted name stands for (`lmcache_vllm.vllm.sampling_params` ->
    `vllm.sampling_params`), else the name as written."""
    for proxy in _VLLM_PROXIES:
        if dotted == proxy or dotted.startswith(proxy + "."):
            return "vllm" + dotted[len(proxy) :]
    return dotted


# The names imported: within parentheses over lines, else to the end of the line (they once ran
# on into the next line: `from subprocess import run` then `def main():` imported "run\ndef main").
_SPAWN_IMPORTS = re.compile(r"from\s+(?:subprocess|os|asyncio|shlex)\s+import\s+(?:\(([\w\s,]+)|([\w \t,]+))")


def set_after_call(name: str) -> str:
    """The libcst pass's open reason for an object whose attributes are set after its construction
    (the value flow reads those writes and drops it)."""
    return f"attributes of `{name}` are set after the call"


def vllm_aliases(text: str) -> set[str]:
    """The names a file imports vLLM's engines by (`from vllm import LLM as Engine`)."""
    return {name for match in matches_from(_VLLM_ALIAS, text, ("import", "from")) for name in match.groups() if name}


def imported_spawners(text: str) -> set[str]:
    """The names a file imports from the spawning modules (`from subprocess import run`)."""
    return {
        name.strip() for match in _SPAWN_IMPORTS.finditer(text) for name in (match.group(1) or match.group(2)).split(",") if name.strip()
    }


def matches_from(pattern: re.Pattern[str], text: str, starts: tuple[str, ...]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern whose every match starts with one of `starts`, tried
    only where `str.find` finds one: an expression that starts with an alternation or `\\b` is
    tried at every character (about a millisecond on a 60 KB module)."""
    end = 0
    for offset in sorted(occurrences(text, starts)):
        if offset >= end and (match := pattern.match(text, offset)) is not None:
            end = match.end()
            yield match


def occurrences(text: str, words) -> list[int]:
    """The offset of every occurrence of each of `words` in `text` (str.find: a file has few)."""
    found = []
    for word in words:
        offset = text.find(word)
        while offset != -1:
            found.append(offset)
            offset = text.find(word, offset + 1)
    return found
