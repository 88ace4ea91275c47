"""Which program a command's words start: vLLM (`vllm serve`, `python -m
vllm.entrypoints.openai.api_server`, `python -m dynamo.vllm`) or an RL framework that starts
vLLM (`trl vllm-serve`, verl, SkyRL, NeMo-RL's scripts), behind `uv run`-style runners and
Python's own options. Words only: what the words mean is `command`'s and `frameworks`'.
"""

from __future__ import annotations

import re
from typing import Any, Sequence as Seq

# Launchers whose words are a framework's own (frameworks/ turns them into vLLM settings).
FRAMEWORK_ENTRYPOINTS = frozenset(("trl", "verl", "nemo-rl", "skyrl"))

_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PYTHON_OPTIONS_WITH_VALUE = {"-X", "-W", "-c"}
# `python -m MODULE` launchers: vLLM's own, and RL frameworks that start vLLM (frameworks/).
_MODULE_ENTRYPOINTS = {
    "vllm.entrypoints.openai.api_server": "api_server",
    "dynamo.vllm": "dynamo",
    "trl.scripts.vllm_serve": "trl",
    "verl.trainer.main_ppo": "verl",
    "skyrl.train.entrypoints.main_base": "skyrl",
}
# `PROGRAM SUBCOMMAND` launchers.
_PROGRAMS = {("vllm", "serve"): "serve", ("trl", "vllm-serve"): "trl"}
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pdm", "run"), ("pipenv", "run"), ("hatch", "run")}
# Options of those runners that take a value (`uv run --with vllm vllm serve ...`).
_RUNNER_OPTIONS_WITH_VALUE = {
    "--with",
    "-w",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--extra",
    "--group",
    "--env-file",
    "--index",
    "--index-url",
    "-e",
    "--env",
}


def _basename(word: str) -> str:
    return word.rstrip("/").rsplit("/", 1)[-1]


def split_launcher(words: Seq[str | None], python_unknown_first: bool = False) -> tuple[str, int] | None:
    """Find a launcher of vLLM at the start of a command's words.

    Returns (entrypoint, index of the first word after the launcher): `vllm serve` -> "serve",
    `python[3] [-u ...] -m vllm.entrypoints.openai.api_server` -> "api_server",
    `python -m dynamo.vllm` -> "dynamo", and the RL frameworks' launchers (`trl vllm-serve`,
    `python -m verl.trainer.main_ppo`, SkyRL's and NeMo-RL's scripts; see `frameworks`).
    `uv run`, `poetry run` ... in front are skipped. A first word we cannot read counts as a
    Python interpreter only when `python_unknown_first` (`sys.executable` in argv lists).
    """
    position = 0
    while position + 1 < len(words) and (words[position], words[position + 1]) in _RUNNERS:
        position += 2
        while position < len(words) and (words[position] or "").startswith("-"):
            takes_value = words[position] in _RUNNER_OPTIONS_WITH_VALUE
            position += 2 if takes_value else 1
    if position >= len(words):
        return None
    first = words[position]
    if first is not None and position + 1 < len(words) and (_basename(first), words[position + 1]) in _PROGRAMS:
        return _PROGRAMS[(_basename(first), words[position + 1])], position + 2
    if first is not None and nemo_rl_script(first):
        return nemo_rl_script(first, words, position + 1)
    if first is None and not python_unknown_first:
        return None
    if first is not None and not _PYTHON.match(_basename(first)):
        return None
    position += 1
    while position < len(words):
        word = words[position]
        if word == "-m" and position + 1 < len(words):
            module = words[position + 1]
            if module in _MODULE_ENTRYPOINTS:
                return _MODULE_ENTRYPOINTS[module], position + 2
            if module == "vllm.entrypoints.cli.main" and position + 2 < len(words) and words[position + 2] == "serve":
                return "serve", position + 3
            return None
        if word is not None and nemo_rl_script(word):
            return nemo_rl_script(word, words, position + 1)
        if word is None or not word.startswith("-"):
            return None
        position += 2 if word in _PYTHON_OPTIONS_WITH_VALUE else 1
    return None


_NEMO_SCRIPT = re.compile(r"^run_\w+\.py$")
_NEMO_KEY = re.compile(r"^\+{0,2}policy\.")


def nemo_rl_script(word: str, words: Seq[str | None] = (), after: int = 0) -> Any:
    """NeMo-RL's `examples/run_*.py`: called with the word alone, whether it names such a
    script; with the command's words, ("nemo-rl", `after`) when NeMo-RL overrides (`policy.*`)
    or a `--config` follow, else None (`split_launcher` asks both)."""
    if not words:
        return bool(_NEMO_SCRIPT.match(word.rstrip("/").rsplit("/", 1)[-1]))
    rest = [w for w in words[after:] if w is not None]
    if "--config" in rest or any(_NEMO_KEY.match(w) for w in rest):
        return "nemo-rl", after
    return None
