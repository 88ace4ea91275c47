"""The environment of a Ray job: `ray job submit [OPTIONS] -- ENTRYPOINT` runs the entrypoint on
the Ray cluster, not in the shell that submits it.

Ray's CLI reference (docs.ray.io/en/latest/cluster/running-applications/job-submission/cli.html)
says `ray job submit` "Submits a job to be run on the cluster", its environment given by
`--runtime-env` ("Path to a runtime_env YAML file") or `--runtime-env-json` ("JSON-serialized
runtime_env dictionary"); its `env_vars` are, in Ray's words (docs.ray.io/en/latest/ray-core/
handling-dependencies.html), "Environment variables to set. Environment variables already set on
the cluster will still be visible to the Ray workers", and "override the same name environment
variables on the cluster"; `${ENV_VAR}` in a value reads the cluster's. What the submitting shell
exports does not travel ("Environment variables aren't passed from the Driver process to Worker
processes", Ray's debugging guide).

So the job sees the cluster's environment, then the runtime env's `env_vars`. The cluster's is
the environment `ray start` saw when this script started it (`RayCluster`, kept in the `World`),
else nothing we know of, as for any program run from outside. A runtime env we cannot read (a
YAML file outside the tree, `--runtime-env-json "$ENV"`) leaves the job's environment open.
"""

from __future__ import annotations

import json
import os
import re
from typing import Callable

from ...model import UNKNOWN, LineIndex, Setting, Span
from ...programs import Unread, ray_job
from ...records import record
from ...source import SourceFile
from .values import Chunk, Field
from .world import EnvEntry, RayCluster, World, relevant_env, unknown_entry

_RAY_FLAGS = ("--no-wait", "-v", "--verbose")  # `ray job submit` options without a value
_PLACEHOLDER = "\ufffcunknown\ufffc"  # a piece of the JSON the shell cannot read, inside a JSON string
_CLUSTER_REFERENCE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}")


@record(unsafe_hash=True)
class RayJobOptions:
    """The runtime environment option of `ray job submit`, as the shell read it: `option`
    (`--runtime-env`, `--runtime-env-json`; None: none given), the word that holds its value, and
    the length of the `--option=` in front of the value in that word (0: a word of its own).
    `unread`: an option word we cannot read may give one."""

    option: str | None
    word: Field | None
    prefix: int
    unread: bool


def job_options(words: list[Field]) -> RayJobOptions | None:
    """The runtime environment options of a command that submits a Ray job (None: it does not).
    A word that may be several (`"'$working_dir'"` unquoted) is read as written, unless it may
    be an option of its own: neither an option nor the value of one."""
    job = ray_job([word.text if word.text is not None else Unread(word.raw) for word in words])
    if job is None:
        return None
    unread = any(_may_be_options(words, index) for index in range(3, len(words)) if words[index].text != "--")
    if job.runtime_env is None:
        return RayJobOptions(None, None, 0, unread)
    option, index, inline = job.runtime_env
    return RayJobOptions(option, words[index], len(option) + 1 if inline else 0, unread)


def _may_be_options(words: list[Field], index: int) -> bool:
    """A word of unknown count before `--` that is not an option's value (`--address $ADDR`)."""
    if "--" not in [word.text for word in words[3 : index + 1]] and words[index].spread and not words[index].raw.startswith("-"):
        before = words[index - 1].text or ""
        return not (before.startswith("-") and "=" not in before and before not in _RAY_FLAGS)
    return False


def started_cluster(fields: list[Field], world: World, command_env: Callable[[], dict[str, EnvEntry]]) -> World:
    """`ray start` starts (or joins) the cluster whose processes see this command's environment;
    `ray stop` stops it."""
    if len(fields) < 2 or fields[0].text != "ray" or fields[1].text not in ("start", "stop"):
        return world
    if fields[1].text == "stop":
        return world.copy(ray_cluster=None)
    return world.copy(ray_cluster=RayCluster(command_env(), world.env_open))


def job_env(
    options: RayJobOptions, world: World, read_text: Callable[[str], str | None], script: SourceFile, span: Callable[[int, int], Span]
) -> tuple[dict[str, EnvEntry], bool]:
    """The `VLLM_*` variables the job sees, and whether others we cannot name may be set."""
    cluster = world.ray_cluster
    env = dict(cluster.env) if cluster is not None else {}
    open_ended = (cluster is not None and cluster.env_open) or options.unread
    if options.option is None or options.word is None:
        return env, open_ended
    if options.option == "--runtime-env":
        settings = _yaml_env(options, read_text, script.path)
    else:
        settings = _json_env(options, script.text, span)
    if settings is None:
        return {name: unknown_entry(entry) for name, entry in env.items()}, True
    for name, setting in settings.items():
        if relevant_env(name):
            env[name] = EnvEntry(setting, None)
    return env, open_ended


def _json_env(options: RayJobOptions, script: str, span: Callable[[int, int], Span]) -> dict[str, Setting] | None:
    """`--runtime-env-json '{"env_vars": {...}}'`; a piece of it the shell cannot read makes the
    variable it lands in unknown (None: it may name a variable, or it breaks the JSON)."""
    word = options.word
    assert word is not None
    pieces = [piece.text if isinstance(piece, Chunk) else _PLACEHOLDER for piece in word.chunks] if word.text is None else [word.text]
    text = "".join(pieces)[options.prefix :]
    try:
        document = json.loads(text)
    except ValueError:
        return None
    if not isinstance(document, dict) or _PLACEHOLDER in "".join(document):  # `{"'$KEY'": ...}` may be env_vars
        return None
    env_vars = document.get("env_vars", {})
    if not isinstance(env_vars, dict) or _PLACEHOLDER in "".join(env_vars):
        return None
    settings = {}
    for name, value in env_vars.items():
        shown = f'"{name}": {json.dumps(value)}'  # as JSON writes it: mostly as the user did
        settings[name] = Setting(name, _value(value), span(*_written_at(word, shown, script)), shown)
    return settings


def _written_at(word: Field, shown: str, script: str) -> tuple[int, int]:
    """Where the file writes `shown`: in a piece of the word copied from the file as is (the
    quoted JSON, or the string a variable was given), else the whole word."""
    for piece in word.chunks:
        if isinstance(piece, Chunk) and piece.exact and shown in piece.text and script[piece.start : piece.end] == piece.text:
            start = piece.start + piece.text.index(shown)
            return start, start + len(shown)
    return word.start, word.end


def _value(value: object) -> object:
    """A variable's value as the job sees it: the cluster's `${NAME}` and unread pieces unknown."""
    text = value if isinstance(value, str) else json.dumps(value)
    return UNKNOWN if _PLACEHOLDER in text or _CLUSTER_REFERENCE.search(text) else text


def _yaml_env(options: RayJobOptions, read_text: Callable[[str], str | None], script: str) -> dict[str, Setting] | None:
    """`--runtime-env FILE`: Ray opens it from where `ray job submit` runs, which is not known;
    looked for next to the script, then from where replaylint runs. None when it is not in the
    tree (or the path is not known)."""
    from ..yaml_nodes import ComposeError, compose_all, construct, entries, get, source, span

    word = options.word
    path = word.text[options.prefix :] if word is not None and word.text is not None else None
    if not path or os.path.isabs(path):
        return None
    for candidate in dict.fromkeys([os.path.normpath(os.path.join(os.path.dirname(script), path)), os.path.normpath(path)]):
        text = read_text(candidate)
        if text is None:
            continue
        try:
            documents = compose_all(text)
        except ComposeError:
            return None
        index = LineIndex(candidate, text)
        found = entries(get(documents[0], "env_vars")) if documents else []
        return {
            str(key.value): Setting(
                str(key.value), _value(construct(value)), span(index, value, key), f"{key.value}: {source(text, value)}"
            )
            for key, value in found
        }
    return None
