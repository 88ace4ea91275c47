"""curl as an HTTP client of a replay server: `curl -sS http://localhost:8000/inference/v1/generate
-H 'Content-Type: application/json' -d @requests/generate.json` (curl's manual: `-d @FILE` reads the
body from a file, `--json` sets the JSON content type itself). The body's sampling fields are read
as the request (`sampling_params`' under `/inference/v1/generate`), each where it is written: at
its key in the body file, or at the `-d` word itself.

Read only where curl's words are all known and understood: one URL, one body (`-d`, `--data`,
`--data-binary`, `--data-raw`, `--json`) that is a JSON object, sent as JSON (`--json`, or a
`Content-Type: application/json` header: vLLM's routes refuse a form body) with POST. An option not
in the table below, `-G`, `--resolve`, `--connect-to`, a unix socket, or a body read from stdin
leaves the command unread.
"""

from __future__ import annotations

from typing import Any

from ...frameworks.engine_mappings import nested_settings
from ...model import Request, Setting, Span
from ...served import ServerClient, url_address
from ...source import ExtractContext, SourceFile
from .file_words import json_object, tree_file
from .values import Field

_FLAGS = frozenset("-s --silent -S --show-error -f --fail --fail-with-body -L --location -v --verbose -i --include".split())
_FLAGS |= frozenset("-k --insecure -N --no-buffer --compressed -4 -6 --http1.1 --http2".split())
_SHORT_FLAGS = frozenset("sSfLvikN46")  # `-sS`
_VALUED = frozenset("-o --output -m --max-time --connect-timeout --retry --retry-delay --retry-max-time -w --write-out".split())
_VALUED |= frozenset("-u --user -A --user-agent -e --referer -b --cookie -c --cookie-jar --cacert --cert --key -x --proxy".split())
_BODIES = {
    "-d": True,
    "--data": True,
    "--data-binary": True,
    "--data-ascii": True,
    "--data-raw": False,
    "--json": True,
}  # True: `@FILE` reads a file


def curl_client(words: list[Field], span: Span, context: ExtractContext, spans: Any, launching_path: str) -> ServerClient | None:
    """The request of a `curl` command's words (the first is `curl`), else None."""
    url, body, method, json_type = None, None, None, False
    rest = words[1:]
    index = 0
    while index < len(rest):
        word = rest[index].text
        if word is None:
            return None
        taken = rest[index + 1] if index + 1 < len(rest) else None
        if word in _FLAGS or (word.startswith("-") and not word.startswith("--") and len(word) > 2 and set(word[1:]) <= _SHORT_FLAGS):
            index += 1
            continue
        if not word.startswith("-") or word == "--url":
            if url is not None or (word == "--url" and taken is None):
                return None
            url, index = (word, index + 1) if word != "--url" else (taken.text, index + 2)  # type: ignore[union-attr]
            continue
        if taken is None or taken.text is None:
            return None
        if word in ("-H", "--header"):
            json_type = json_type or taken.text.replace(" ", "").lower() == "content-type:application/json"
        elif word in ("-X", "--request"):
            method = taken.text
        elif word in _BODIES:
            if body is not None:
                return None  # several bodies are joined with `&`
            body = (word, taken)
            json_type = json_type or word == "--json"
        elif word not in _VALUED:
            return None
        index += 2
    address = url_address(url if url is None or "://" in url else f"http://{url}")
    if address is None or body is None or not json_type or (method is not None and method.upper() != "POST"):
        return None
    settings = _body_settings(*body, context, spans, launching_path)
    if settings is None:
        return None
    host, port, path = address
    return ServerClient(host, port, Request("http", span, settings, False, path.rstrip("/")))


def _body_settings(option: str, word: Field, context: ExtractContext, spans: Any, launching_path: str) -> dict[str, Setting] | None:
    text = word.text or ""
    if _BODIES[option] and text.startswith("@"):
        source = tree_file(text[1:], context, launching_path, word.start) if text != "@-" else None
    else:
        source = SourceFile(launching_path, text)  # placed at the word below
    found = json_object(source) if source is not None else None
    if source is None or found is None:
        return None
    keys = nested_settings(found[1], (), found[0])
    if source.path == launching_path:  # an inline body: every key at the `-d` word
        at = spans.span(word.start, word.end)
        keys = {name: _at(setting, at) for name, setting in keys.items()}
    inner = keys.pop("sampling_params", None)
    if inner is not None:
        if not isinstance(inner.value, dict):
            return None
        keys.update(inner.keys)
    return keys


def _at(setting: Setting, span: Span) -> Setting:
    from dataclasses import replace

    return replace(setting, span=span, value_span=span, keys={name: _at(key, span) for name, key in setting.keys.items()})
