"""Which commands start vLLM: the launcher after any wrappers, and what the wrappers add.

`vllm serve`, `python -m vllm.entrypoints.openai.api_server`, `python -m dynamo.vllm` (through
`programs.split_launcher`, which also knows the RL framework launchers: `trl vllm-serve`, verl,
SkyRL, NeMo-RL), behind `exec`, `nohup`, `env`, `time`, `sudo`, `setsid`, `numactl`,
`taskset`, `nice`, `timeout`, `stdbuf`, `srun`, `uv run`, `uvx`, `pipx run` ...; `docker run` / `podman run` of the
official image (the words after the image are appended to `vllm serve`); `sh -c SCRIPT` and
`bash -lc SCRIPT` (the script is read again), `bash FILE ARGS` and `./FILE.sh ARGS` (`script_files`), a `tmux` session's
command. A wrapper whose options we cannot tell apart from its command stops the search: no launch is better than a wrong one.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from ...model import UNKNOWN
from ...programs import Unread, script_name, split_launcher
from ...records import record
from ...shells import SHELLS
from ...vllm.images import is_vllm_image, release_from_image
from .ray_jobs import RayJobOptions, job_options
from .script_files import ScriptFile, ShellScript, script_file_word
from .tmux import tmux_command
from .values import Chunk, Field, Hole
from .wrapper_options import option_name, skip_options
from .wrappers import (
    DOCKER_EXEC_VALUES,
    DOCKER_FLAGS,
    DOCKER_RUN_VALUES,
    DOCKERS,
    RUNNER_VALUES,
    SUDO_STOP,
    SUDO_VALUES,
    UV_TOOL_RUN,
    WRAPPERS,
)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)
# `${X:+X=$X}`: nothing, or an assignment (vLLM's scripts hand optional variables to `env` so).
_OPTIONAL_ASSIGNMENT = re.compile(r"^\$\{\w+:?\+[\"']?([A-Za-z_]\w*)=.*\}$", re.DOTALL)


@record(unsafe_hash=True)
class EnvWord:
    """An environment variable a wrapper sets for its command (`env X=1`, `docker run -e X=1`)."""

    name: str
    value: Any  # text; UNKNOWN (`X="$Y"`); None: `-e NAME` passes the caller's value on, `env -u NAME` unsets
    words: tuple[Field, ...]  # the words that set it (`-e`, `X=1`)
    value_span: tuple[int, int] | None
    unset: bool = False


@record
class Found:
    """What the wrappers in front of a launcher add to it."""

    env_words: list[EnvWord] = field(default_factory=list)
    env_mode: str = "inherit"  # inherit | clear | container | reset (sudo without -E)
    env_open: bool = False  # an env file we cannot read
    env_files: list[str] = field(default_factory=list)  # `docker run --env-file PATH`, in order
    image: Field | None = None
    ray_job: RayJobOptions | None = None  # `ray job submit`: the job runs with its runtime env
    published: list[tuple[str, str | None]] = field(default_factory=list)  # `docker run -p`/`--network`, with their values


@record
class Invocation:
    entrypoint: str
    args: list[Field]
    label: str
    found: Found


def _base(text: str | None) -> str | None:
    return None if text is None else text.rstrip("/").rsplit("/", 1)[-1]


def find(words: list[Field]) -> Invocation | ShellScript | ScriptFile | None:
    """The vLLM launch, shell script or script file a command runs, looking through wrappers."""
    return _find(words, Found())


def _find(words: list[Field], found: Found) -> Invocation | ShellScript | ScriptFile | None:
    position = 0
    for _ in range(32):
        if position >= len(words):
            return None
        if _unknown_prefix(words[position]) is not None:
            position = _prefix_assignments(words, position, found)
            continue
        base = _base(words[position].text)
        if base == "env":
            next_position = _env(words, position + 1, found)
        elif base == "sudo":
            next_position = _sudo(words, position + 1, found)
        elif base in DOCKERS:
            return _docker(words[position + 1 :], found, base)
        elif base in SHELLS:
            return _shell(words, position + 1, found)
        elif base == "tmux":  # a session's command: one word is a script for the shell
            run = tmux_command(words, position + 1)
            return None if run is None else ShellScript(run[0][0], [], found) if run[1] else _find(run[0], found)
        elif base in _RUNNERS:
            next_position = _runner(words, position, found)
            if next_position is not None and words[next_position].text == "-m":
                return _launcher([_python(words[next_position]), *words[next_position:]], 0, found, label_prefix="uv run")
        elif base is not None and base in WRAPPERS:
            next_position = skip_options(words, position + 1, WRAPPERS[base])
        else:
            return script_file_word(words, position, found) or _launcher(words, position, found)
        if next_position is None:
            return None
        position = next_position
    return None


def _prefix_assignments(words: list[Field], position: int, found: Found) -> int:
    """The assignments before a command that a script read again parsed as words, since one
    of them was a placeholder (`${X:+NAME=$X} VLLM_PORT=$P vllm serve`): index of the command."""
    while position < len(words):
        word = words[position]
        unknown = _unknown_prefix(word)
        match = _ASSIGNMENT.match(word.text) if word.text is not None else None
        name = _assigned_name(word) if word.text is None else None
        if unknown is not None:
            for env_word in unknown:
                _add_env(found, env_word)
        elif match is not None:
            _add_env(found, _assignment_word(match.group(1), match.group(2), (word,)))
        elif name is not None:  # not split, whatever its value: bash reads it as an assignment
            _add_env(found, EnvWord(name, UNKNOWN, (word,), None))
        else:
            break
        position += 1
    return position


def _unknown_prefix(word: Field) -> list[EnvWord] | None:
    """What a placeholder word of a script read again (`eval "$CMD"`, `bash -c "$CMD"`) assigns
    when the outer shell can only have made it nothing or assignments, so that this shell parses
    it before the command, never as the command (outside such a script bash would run the
    text): `${X:+NAME=$X}`, X unknown; `VLLM_PORT=$P` on one path and `VLLM_DP_MASTER_PORT=$P`
    on another (`Hole.assigns`). None for any other word."""
    hole = word.chunks[0] if word.chunks else None
    if not isinstance(hole, Hole) or not hole.reparsed:
        return None
    if hole.assigns:
        return [EnvWord(name, UNKNOWN, (word,), None) for name in hole.assigns]
    match = _OPTIONAL_ASSIGNMENT.match(hole.raw) if len(word.chunks) == 1 else None
    return [EnvWord(match.group(1), UNKNOWN, (word,), None)] if match is not None else None


def _python(word: Field) -> Field:
    return Field("python", word.start, word.start, "", word.container)


def _launcher(words: list[Field], position: int, found: Found, label_prefix: str = "") -> Invocation | None:
    texts: list[Any] = [word.text if word.text is not None or word.spread else Unread(word.raw) for word in words[position:]]
    first = words[position] if position < len(words) else None
    if first is None:
        return None
    unknown_variable = first.text is None and first.variable is not None and not first.spread
    if unknown_variable and len(texts) > 1 and texts[1] == "serve" and "VLLM" in str(first.variable).upper():
        texts[0] = "vllm"  # `"$VLLM_BIN" serve` with VLLM_BIN set outside the script
    result = split_launcher(texts, python_unknown_first=unknown_variable)
    if result is None:
        return None
    entrypoint, after = result
    found.ray_job = job_options(words[position:])
    label = " ".join([label_prefix] * bool(label_prefix) + [word.raw for word in words[position : position + after] if word.raw])
    return Invocation(entrypoint, words[position + after :], label, found)


def _env(words: list[Field], position: int, found: Found) -> int | None:
    """`env [-i] [-u NAME] [NAME=value ...] command`."""
    while position < len(words):
        word = words[position]
        text = word.text
        if text is None:
            name = _assigned_name(word)
            if name is not None:
                _add_env(found, EnvWord(name, UNKNOWN, (word,), None))
            elif any(isinstance(piece, Chunk) and "=" in piece.text for piece in word.chunks) or _OPTIONAL_ASSIGNMENT.match(word.raw):
                found.env_open = True  # `"$NAME=$VALUE"`, `${X:+X=$X}`: env sets variables nobody can name
            else:
                return None  # `$X` alone may be an option, an assignment or the command
            position += 1
            continue
        if text in ("-i", "-", "--ignore-environment"):
            found.env_mode = "clear"
            found.env_words = []
        elif text in ("-u", "--unset") or text.startswith("--unset="):
            name = text[len("--unset=") :] if "=" in text else (words[position + 1].text if position + 1 < len(words) else None)
            if name is None:
                return None
            taken = (word,) if "=" in text else (word, words[position + 1])
            found.env_words = [w for w in found.env_words if w.name != name]
            found.env_words.append(EnvWord(name, None, taken, None, unset=True))
            position += len(taken)
            continue
        elif text in ("-C", "--chdir"):
            position += 2
            continue
        elif text.startswith("-") and text not in ("-0", "--null", "-v", "--debug"):
            return None  # -S and friends: the command is no longer a plain word list
        elif not text.startswith("-"):
            match = _ASSIGNMENT.match(text)
            if match is None:
                return position
            _add_env(found, _assignment_word(match.group(1), match.group(2), (word,)))
        position += 1
    return None


def _assigned_name(word: Field) -> str | None:
    """The name of `NAME="$VALUE"`, whose text is not known: its literal head names it."""
    head = word.chunks[0] if word.chunks and isinstance(word.chunks[0], Chunk) else None
    match = _ASSIGNMENT.match(head.text) if head is not None else None
    return match.group(1) if match is not None else None


def _add_env(found: Found, word: EnvWord) -> None:
    found.env_words = [w for w in found.env_words if w.name != word.name]
    found.env_words.append(word)


def _assignment_word(name: str, value: str, words: tuple[Field, ...]) -> EnvWord:
    last = words[-1]
    value_span = None
    if last.text is not None and last.raw == last.text and not last.shared:
        value_span = (last.end - len(value), last.end)
    return EnvWord(name, value, words, value_span)


def _sudo(words: list[Field], position: int, found: Found) -> int | None:
    preserve = False
    while position < len(words):
        text = words[position].text
        if text is None:
            return None
        if text == "--":
            position += 1
            break
        if not text.startswith("-"):
            match = _ASSIGNMENT.match(text)
            if match is None:
                break
            _add_env(found, _assignment_word(match.group(1), match.group(2), (words[position],)))
            position += 1
            continue
        name = option_name(text)
        if name in SUDO_STOP:
            return None
        if name in ("-E", "--preserve-env"):
            preserve = True
            position += 1
        elif name in SUDO_VALUES:
            position += 1 if "=" in text else 2
        elif re.match(r"^-[A-Za-z]+$", text) and not any(letter in "ugCDhprtUTR" for letter in text[1:]):
            preserve = preserve or "E" in text
            position += 1
        else:
            return None
    if not preserve and found.env_mode == "inherit":
        found.env_mode = "reset"
    return position if position < len(words) else None


_RUNNERS = {"uv", "conda", "micromamba", "mamba", "poetry", "pdm", "pipenv", "hatch", "rye", "pixi"}


def _runner(words: list[Field], position: int, found: Found) -> int | None:
    """`uv run [options] CMD`, `conda run -n ENV CMD`, `poetry run CMD`, `uv tool run CMD` ...:
    index of CMD (or of `-m` for `uv run -m MODULE`)."""
    base = _base(words[position].text)
    if base == "uv" and position + 1 < len(words) and words[position + 1].text == "tool":
        return skip_options(words, position + 2, UV_TOOL_RUN)
    if position + 1 >= len(words) or words[position + 1].text != "run":
        return None
    position += 2
    values = RUNNER_VALUES.get(base or "", frozenset())
    while position < len(words):
        text = words[position].text
        if text is None:  # `uv run $ROOT/examples/run_grpo.py`: a script, whatever folder holds it
            return position if not words[position].spread and (script_name(Unread(words[position].raw)) or "").endswith(".py") else None
        if text == "--":
            return position + 1 if position + 1 < len(words) else None
        if text == "-m" and base == "uv":
            return position
        if not text.startswith("-"):
            return position
        position += 1 if option_name(text) not in values or "=" in text else 2
    return None


def _shell(words: list[Field], position: int, found: Found) -> ShellScript | ScriptFile | None:
    """`bash [-l] [-e] -c SCRIPT [NAME ARGS...]`, `bash [-x] FILE [ARGS...]`; not stdin (`-s`)."""
    command_string = stdin = False
    while position < len(words):
        text = words[position].text
        if text is None:
            if words[position].spread:
                return None
            break
        if text == "--":
            position += 1
            break
        if re.match(r"^[-+][A-Za-z]+$", text):
            command_string = command_string or (text.startswith("-") and "c" in text)
            stdin = stdin or (text.startswith("-") and "s" in text)
            position += 2 if "o" in text or "O" in text else 1  # `-o option` takes a name
            continue
        if text.startswith("--"):
            position += 2 if text in ("--rcfile", "--init-file") else 1
            continue
        break
    if position >= len(words) or (not command_string and stdin):
        return None
    return (ShellScript if command_string else ScriptFile)(words[position], words[position + 1 :], found)


def _docker(words: list[Field], found: Found, program: str = "docker") -> Invocation | ShellScript | None:
    """`docker run [options] IMAGE [ARGS]` and `docker exec [options] CONTAINER COMMAND`."""
    position = 1 if words and words[0].text == "container" else 0
    if position >= len(words) or words[position].text not in ("run", "exec"):
        return None
    action = words[position].text
    values = DOCKER_RUN_VALUES if action == "run" else DOCKER_EXEC_VALUES
    found.env_mode = "container"
    found.env_words = []
    entrypoint: Field | None = None
    position += 1
    while position < len(words):
        word = words[position]
        text = word.text
        if text is None:
            if action == "exec" and not word.spread:
                break  # the container, named by a variable
            return None
        if text == "--":
            position += 1
            break
        if not text.startswith("-") or text == "-":
            break
        name = option_name(text)
        inline = text[len(name) + 1 :] if text.startswith("--") and "=" in text else None
        following = words[position + 1] if position + 1 < len(words) else None
        if name in values and inline is None and (following is None or following.spread):
            return None  # no value, or one that may be several words
        if name in ("-e", "--env"):
            setting = inline if inline is not None else following.text  # type: ignore[union-attr]
            if setting is None:
                found.env_open = True  # `-e "$SETTING"`: any variable
            _docker_env(found, setting, (word,) if inline is not None else (word, following))  # type: ignore[arg-type]
        elif name == "--env-file":
            path = inline if inline is not None else following.text  # type: ignore[union-attr]
            if path is None or "$" in path:
                found.env_open = True
            else:
                found.env_files.append(path)
        elif name in ("-p", "--publish", "--network", "--net"):
            found.published.append((name, inline if inline is not None else following.text))  # type: ignore[union-attr]
        elif name == "--entrypoint":
            entrypoint = following if inline is None else Field(inline, word.start, word.end, word.raw, word.container, shared=True)
        if name in values:
            position += 1 if inline is not None else 2
        elif text.startswith("-e") and not text.startswith("--"):
            _docker_env(found, text[2:], (word,))
            position += 1
        elif name in DOCKER_FLAGS or (re.match(r"^-[A-Za-z]+$", text) and all(letter in "itdPq" for letter in text[1:])):
            position += 1  # -it, -d, --rm, --privileged, --init ...
        else:
            return None  # an option we do not know: its value could be taken for the image
    if position >= len(words):
        return None
    target, rest = words[position], words[position + 1 :]
    if action == "exec":  # any container, even one a variable names: the command is what runs
        return _find(rest, found) if rest and not target.spread else None
    if target.text is None:
        return None
    if entrypoint is not None:
        return _find([entrypoint, *rest], found)
    if is_vllm_image(str(target.text)):
        found.image = target
        return Invocation("serve", rest, f"{program} run {target.raw}", found)
    return _find(rest, found) if rest else None


def _docker_env(found: Found, setting: str | None, words: tuple[Field, ...]) -> None:
    if setting is None:
        return
    name, eq, value = setting.partition("=")
    if not _NAME.match(name):
        return
    _add_env(found, _assignment_word(name, value, words) if eq else EnvWord(name, None, words, None))


def image_release(image: Field) -> str | None:
    if image.text is None:
        return None
    release = release_from_image(image.text)
    return None if release is None else str(release)
