"""TRL's trainers in server mode on a command line, as the HTTP client of `trl vllm-serve` they
are: `trl grpo|rloo|distillation ...` (TRL's CLI, which runs its script under `accelerate
launch`), `accelerate launch trl/scripts/grpo.py ...`, and a program of the user's that parses its
trainer config from the command line, each with `--use_vllm --vllm_mode server`, given on the
command line or in its `--config FILE.yaml` (TrlParser: the file's keys are the fields' defaults,
the command line wins).

Source: trl 1.16.0. `GRPOConfig`, `RLOOConfig` and `DistillationConfig` fields: `use_vllm` (False),
`vllm_mode` ("colocate"), `vllm_server_base_url` (None; when given, host and port are ignored),
`vllm_server_host` ("0.0.0.0"), `vllm_server_port` (8000) (`trl/trainer/grpo_config.py:587-639`),
`repetition_penalty` (1.0), `top_k`, `temperature` and `generation_kwargs` (a dict, or its JSON
on the command line: `_VALID_DICT_FIELDS`), which `VLLMClient.generate` sends with every request
to `/v1/completions`, every key of `generation_kwargs` last (`sampling_params.update(...)`, then
`**sampling_params` in the payload: `trl/generation/vllm_client.py:431-455`).

A program of the user's is read only when the tree holds it and its text says its config comes
from the command line: it imports from `trl`, names a trainer config and parses it with
`TrlParser` or `HfArgumentParser`, and never writes a sent field or a switch itself. A word we
cannot read that is not the value of the option before it, or a `--config` we cannot read, may
set any field: then no client. The script's forwarded arguments are judged as absent.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable
from urllib.parse import urlsplit

from ..model import Request, Setting, Span
from ..served import ServerClient
from ..vllm.command_line import Token
from .nearby import upward
from .trl import SENT_FIELDS, SERVER_HOST, SERVER_PORT, TRAINER_CONFIGS, TRAINER_ROUTE
from .trl_colocate import a_value, config_words, option, truth

_PARSED = re.compile(r"\b(TrlParser|HfArgumentParser)\s*\(")
_FROM_TRL = re.compile(r"^\s*(from\s+trl(\.[\w.]+)?\s+import|import\s+trl)\b", re.MULTILINE)
_WRITES = re.compile(r"\.\s*(" + "|".join(("use_vllm", "vllm_mode", "vllm_server_\\w+", "generation_kwargs", *SENT_FIELDS)) + r")\s*=[^=]")


def command_client(
    span: Span, tokens: list[Token], load_config: Any = None, read_text: Callable[[str], str | None] | None = None, program: bool = False
) -> ServerClient | None:
    """The client a TRL training command line starts (`program`: the first word is a program of
    the user's), or None: not server mode, or words we cannot read."""
    if program:
        script = tokens[0] if tokens else None
        if script is None or not script.known or read_text is None or not _parses_config(upward(str(script.text), span.path, read_text)):
            return None
        tokens = tokens[1:]
    words = [token for token in tokens if not token.forwarded]
    if any(not token.known and not a_value(words, index) for index, token in enumerate(words)):
        return None
    config = config_words(words, load_config)
    if config is None:
        return None

    def field(name: str, switch: bool = False) -> tuple[Any, Token] | None:
        return option(words, name, switch) or option(config, name, switch)

    use_vllm, mode = field("use_vllm", switch=True), field("vllm_mode")
    if use_vllm is None or truth(use_vllm[0]) is not True or mode is None or mode[0] != "server":
        return None
    address = _address(field)
    if address is None:
        return None
    settings = {name: _setting(name, found, span) for name in SENT_FIELDS if (found := field(name)) is not None}
    extra = field("generation_kwargs")
    if extra is not None:
        replaced = _generation_kwargs(_setting("generation_kwargs", extra, span))
        if replaced is None:
            return None
        settings.update(replaced)
    return ServerClient(*address, Request("http", span, settings, False, TRAINER_ROUTE), "trl")


def _parses_config(text: str | None) -> bool:
    return (
        text is not None
        and _FROM_TRL.search(text) is not None
        and _PARSED.search(text) is not None
        and any(name in text for name in TRAINER_CONFIGS)
        and _WRITES.search(text) is None
    )


def _address(field: Callable[[str], tuple[Any, Token] | None]) -> tuple[str, int] | None:
    """(host, port) the trainer sends to: the base URL's, else the host and port fields'."""
    url = field("vllm_server_base_url")
    if url is not None:
        try:
            parts = urlsplit(str(url[0]).strip())
            port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        except ValueError:
            return None
        return (parts.hostname, port) if parts.hostname and port is not None else None
    host, port = field("vllm_server_host"), field("vllm_server_port")
    try:
        number = int(port[0]) if port is not None else SERVER_PORT
    except ValueError:
        return None
    return (str(host[0]) if host is not None else SERVER_HOST), number


def _setting(name: str, found: tuple[Any, Token], span: Span) -> Setting:
    """A field as written: on the command line (`--name value`), or as a key of its `--config` file."""
    value, token = found
    if token.span.path != span.path:
        return Setting(name, value, token.span, f"{name}: {token.raw}")
    return Setting(name, value, token.span, str(token.raw) if str(token.raw).startswith("-") else f"--{name} {token.raw}")


def _generation_kwargs(given: Setting) -> dict[str, Setting] | None:
    """What `--generation_kwargs '{"repetition_penalty": 1.1}'` sends, over the fields; None when
    its value is not a JSON object (TRL would stop, or it is not known)."""
    value = given.value
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if not isinstance(value, dict):
        return None
    return {str(name): Setting(str(name), item, given.span, given.spelling) for name, item in value.items()}
