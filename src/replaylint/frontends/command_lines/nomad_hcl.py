"""HashiCorp Nomad job specifications in HCL (`*.nomad.hcl`, `*.nomad`): each `task` becomes the
command line its driver runs, as the JSON form's reader (`frontends/yaml/nomad`) reads a job.

- A `docker` (or `podman`) task runs `config { image, entrypoint, command, args }` as Docker does:
  `entrypoint` (a list) replaces the image's entrypoint, `command` its `CMD`, and `args` follow. The
  `vllm/vllm-openai` image's entrypoint is `vllm serve`, which stands at the `image` value; another
  image without `entrypoint` is not read.
- An `exec` (or `raw_exec`) task runs `config { command, args }` as written.
- A word Nomad interpolates (`${NOMAD_PORT_http}`, `${var.x}`, `%{ if ... }`) or an item of the list
  that is an expression (`var.model`) is one word not known here; a value that is not a string or a
  list spelt out (`args = var.args`, a function call, a `for` expression) leaves the task unread.
- The task's `env` is its environment; a `template` with `env = true` (a rendered env file) can
  set any variable.

The file is read with tree-sitter-hcl (`hcl_tree`): only literal syntax (strings, heredocs, lists,
maps, blocks); a file with a syntax error is not read (RPL902 at the error). Fixes are not written
into HCL.
"""

from __future__ import annotations

import re
import shlex

from ...model import UNKNOWN, Setting, VersionHint
from ...readers.host_scripts import Expanded, Script
from ...source import Budget, SourceFile
from ...vllm.images import is_vllm_image, release_from_image
from .hcl_tree import HclFile, Token, attributes, blocks

_CONTAINERS = ("docker", "podman")
_PROCESSES = ("exec", "raw_exec")
_PLAIN = re.compile(r"[\w@%+=:,./-]+\Z")  # a word the shell reads as written


def scripts(source: SourceFile, budget: Budget | None = None) -> list[Script]:
    """The command line each task runs; raises NotAnalysed for a file with a syntax error."""
    found = []
    for _, _, _, items in blocks(HclFile(source, budget).items, "task"):
        script = _task(source, items)
        if script is not None:
            found.append(script)
    return found


def _task(source: SourceFile, items: list[tuple]) -> Script | None:
    driver = attributes(items).get("driver")
    configs = [block[3] for block in items if block[0] == "block" and block[1] == "config"]
    if not isinstance(driver, Token) or driver.kind != "string" or len(configs) != 1:
        return None
    config = attributes(configs[0])
    given = {key: config[key] for key in ("entrypoint", "command", "args") if key in config}
    if any(value is None for value in given.values()):
        return None  # `args = var.args`: words not known here
    command = given.get("command")
    words = [*_listed(given.get("entrypoint")), *([command] if command is not None else []), *_listed(given.get("args"))]
    if not all(isinstance(word, Token) and word.kind in ("string", "expression") for word in words):
        return None
    expanded, hint = Expanded(), None
    if driver.value in _CONTAINERS and "entrypoint" not in given:
        image = config.get("image")
        if not isinstance(image, Token) or image.value is None or not is_vllm_image(image.value):
            return None
        expanded.standing_for("vllm serve", image.start, image.end)  # the image's entrypoint
        release = release_from_image(image.value)
        hint = VersionHint((str(release),), f"image {image.value}", source.index.span(image.start, image.end)) if release else None
    elif driver.value not in (*_CONTAINERS, *_PROCESSES) or not words:
        return None
    for word in words:
        _add_word(expanded, source.text, word)  # type: ignore[arg-type]
    env, env_open = _environment(source, items)
    return Script(expanded, env, env_open=env_open, version_hint=hint)


def _listed(value: object) -> list:
    return [] if value is None else value if isinstance(value, list) else [None]


def _add_word(expanded: Expanded, text: str, word: Token) -> None:
    if expanded.parts:
        expanded.standing_for(" ", word.start, word.start)
    if word.value is None:
        expanded.unknown(word.start, word.end, one_word=True)
    elif _PLAIN.match(word.value) and text[word.start + 1 : word.end - 1] == word.value:
        expanded.exact(word.value, word.start + 1)  # each character where it is written
    else:
        expanded.standing_for(shlex.quote(word.value), word.start, word.end)


def _environment(source: SourceFile, items: list[tuple]) -> tuple[dict[str, Setting], bool]:
    """The task's `env` (a block or a map), and whether a `template` with `env = true` may add to it."""
    templates = [attributes(block[3]) for block in items if block[0] == "block" and block[1] == "template"]
    rendered = any(not (isinstance(held, Token) and held.value == "false") for held in (t["env"] for t in templates if "env" in t))
    pairs: dict = {}
    for item in items:
        if item[0] == "block" and item[1] == "env":
            pairs.update({entry[1]: (entry[3], entry[2]) for entry in item[3] if entry[0] == "attribute"})
            rendered = rendered or any(entry[0] == "block" for entry in item[3])
        elif item[0] == "attribute" and item[1] == "env":
            if not isinstance(item[2], dict):
                return {}, True
            pairs.update(item[2])
    env = {}
    for name, (key, value) in pairs.items():
        known = isinstance(value, Token) and value.kind == "string" and value.value is not None
        shown = f"{name}={value.value if known else '<unknown>'}"  # type: ignore[union-attr]
        value_span = source.index.span(value.start + 1, value.end - 1) if known else None  # type: ignore[union-attr]
        env[name] = Setting(name, value.value if known else UNKNOWN, source.index.span(key.start, key.end), shown, value_span)  # type: ignore[union-attr]
    return env, rendered
