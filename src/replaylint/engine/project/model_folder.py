"""The vocabulary of a launch's model when the tree holds the model's folder: the `vocab_size`
of its `config.json`, read as data; and the sampling fields its `generation_config.json` sets.

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

from ...json_document import JsonError, placed, values
from ...model import UNKNOWN, Launch, Setting
from ...source import SourceFile

CONFIG = "config.json"
GENERATION_CONFIG = "generation_config.json"
# The fields of a model's generation config that become request defaults under
# `--generation-config auto` (vLLM 0.34.0 `config/model.py:1905-1915`, `get_diff_sampling_param`).
SAMPLING_FIELDS = (
    "repetition_penalty",
    "presence_penalty",
    "frequency_penalty",
    "temperature",
    "top_k",
    "top_p",
    "min_p",
    "max_new_tokens",
    "skip_special_tokens",
)
MAX_CHARS = 1_000_000  # the largest `config.json` of a model is a few hundred kB
MAX_LEVELS = 8
MAX_NAME = 4096  # PATH_MAX: a longer name is no folder

ReadText = Callable[[str], "str | None"]


def with_vocabulary(launch: Launch, read_text: ReadText) -> Launch:
    """The launch with its model's vocabulary (`Launch.vocabulary`), read only when a request to
    a replay engine sets `top_k` (RPL304 is the one to ask)."""
    requests = (*launch.requests, *launch.clients)
    override = launch.value("override_generation_config")  # a server's default top_k
    asked = any("top_k" in request.settings for request in requests) or isinstance(override, dict) and "top_k" in override
    if launch.get("return_sampling_mask") is None or not asked:
        return launch
    return replace(launch, vocabulary=vocabulary(launch, read_text))


def with_model_folder(launch: Launch, read_text: ReadText) -> Launch:
    """The launch with what its model folder says (`Launch.vocabulary`, `Launch.generation_defaults`),
    read for replay launches only."""
    launch = with_vocabulary(launch, read_text)
    if launch.get("return_sampling_mask") is None:
        return launch
    return replace(launch, generation_defaults=generation_defaults(launch, read_text))


def generation_defaults(launch: Launch, read_text: ReadText) -> tuple[Setting, ...] | None:
    """The sampling fields the `generation_config.json` beside the model's `config.json` sets, each
    placed in it; None when the tree holds no such file or it is no JSON object (vLLM then
    builds one from `config.json`, `transformers_utils/config.py:1334-1344`, not read here)."""
    model = launch.get("model")
    if model is None or not isinstance(model.value, str):
        return None
    found = _config(model.value.strip(), launch.span.path, read_text)
    path = os.path.join(os.path.dirname(found[0]), GENERATION_CONFIG) if found is not None else None
    text = read_text(path) if path is not None else None
    data = _object(text) if path is not None and text is not None and len(text) <= MAX_CHARS else None
    if data is None:
        return None
    document = placed(SourceFile(path, text), data, {()})  # type: ignore[arg-type]
    spans = {name: document.span(name) for name in SAMPLING_FIELDS if name in data}
    return tuple(Setting(name, data[name], span, document.text(span)) for name, span in spans.items() if span is not None)


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


def _object(text: str) -> dict | None:
    """The JSON object a file holds, else None."""
    try:
        data = values(text)
    except JsonError:
        return None
    return data if isinstance(data, dict) else None


def _vocab_size(path: str, text: str) -> Setting | None:
    data = _object(text)
    if data is None:
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
