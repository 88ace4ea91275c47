"""The vocabulary of a launch's model when the tree holds the model's folder: the `vocab_size`
of its `config.json`, read as data.

vLLM loads a model from a local folder when the name it is given is one (a relative name from
the folder the program runs in), and samples over `ModelConfig.get_vocab_size()`, the
`vocab_size` of the text config: `text_config.vocab_size` in a multimodal model's
`config.json`, else the top-level one. The folder the program runs in is not known here, so a
relative name is looked for from the launching file's folder and each folder above it
(`frameworks.nearby`'s walk). `hf_overrides` may change the config, so a launch that sets it
has no vocabulary here. A file too large, not JSON, or without a whole-number vocabulary gives
none, silently: the rules then fall back to what holds for every model.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Callable

from ..json_document import JsonError, placed, values
from ..model import UNKNOWN, Launch, Setting
from ..source import SourceFile

CONFIG = "config.json"
MAX_CHARS = 1_000_000  # the largest `config.json` of a model is a few hundred kB
MAX_LEVELS = 8
MAX_NAME = 4096  # PATH_MAX: a longer name is no folder

ReadText = Callable[[str], "str | None"]


def with_vocabulary(launch: Launch, read_text: ReadText) -> Launch:
    """The launch with its model's vocabulary (`Launch.vocabulary`), read only when a request to
    a replay engine sets `top_k` (RPL304 is the one to ask)."""
    requests = (*launch.requests, *launch.clients)
    if launch.get("return_sampling_mask") is None or not any("top_k" in request.settings for request in requests):
        return launch
    return replace(launch, vocabulary=vocabulary(launch, read_text))


def vocabulary(launch: Launch, read_text: ReadText) -> Setting | None:
    """The `vocab_size` the launch's model folder in the tree declares, placed in its
    `config.json`; None when the model is no folder the tree holds, or says none."""
    model = launch.get("model")
    if model is None or not isinstance(model.value, str) or launch.get("hf_overrides") is not None:
        return None
    found = _config(model.value.strip(), launch.span.path, read_text)
    return None if found is None else _vocab_size(*found)


def _config(name: str, launching: str, read_text: ReadText) -> tuple[str, str] | None:
    """(path, text) of the model's `config.json`: an absolute name as it is, a relative one in
    the nearest folder at or above the launching file's that holds it."""
    if not name or len(name) > MAX_NAME or any(mark in name for mark in ("$", "://", "\0")):
        return None  # a NUL is no path (`open` raises ValueError)
    if os.path.isabs(name):
        candidates = [os.path.join(name, CONFIG)]
    else:
        folder = os.path.dirname(launching)
        candidates = []
        for _ in range(MAX_LEVELS):
            candidates.append(os.path.normpath(os.path.join(folder, name, CONFIG)))
            if folder in ("", ".", os.sep):
                break
            folder = os.path.dirname(folder)
    for path in candidates:
        text = read_text(path)
        if text is not None:
            return (path, text) if len(text) <= MAX_CHARS else None
    return None


def _vocab_size(path: str, text: str) -> Setting | None:
    try:
        data = values(text)
    except JsonError:
        return None
    if not isinstance(data, dict):
        return None
    text_config = data.get("text_config")
    where: tuple[Any, ...] = (
        ("text_config", "vocab_size") if isinstance(text_config, dict) and "vocab_size" in text_config else ("vocab_size",)
    )
    size = text_config["vocab_size"] if len(where) == 2 else data.get("vocab_size", UNKNOWN)  # type: ignore[index]
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        return None
    document = placed(SourceFile(path, text), data, {where[:-1]})
    span = document.span(*where)
    return None if span is None else Setting("vocab_size", size, span, document.text(span))
