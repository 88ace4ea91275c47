"""Where `json_document` places each key and value: the text at a value's span reads back as
the value `json` gives for its path, and a key's span holds that key."""

from __future__ import annotations

import json

import pytest

from replaylint.json_document import placed, values
from replaylint.source import SourceFile

DOCUMENTS = [
    '{"a": 1, "b": [true, null, {"c": "x, y: {z}"}], "d": {"e": -1.5e3, "f": []}}',
    '[{"k": "\\"quoted\\" and \\\\"}, [1, [2, [3]]], "\\u00e9"]',
    '{\n\t"engine" : {\n\t\t"return_sampling_mask" : true ,\n\t\t"max_model_len":8192\n\t}\n}\n',
    '"a string alone"',
    '{"dup": 1, "dup": {"kept": true}}',
]


def _paths(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


@pytest.mark.parametrize("text", DOCUMENTS)
def test_every_value_and_key_is_placed(text: str) -> None:
    document = placed(SourceFile("f.json", text), values(text))
    for path, value in _paths(document.data):
        span = document.value_span(*path)
        assert span is not None, path
        assert json.loads(text[span.start : span.end]) == value
        if path and isinstance(path[-1], str):
            key = document.span(*path)
            assert json.loads(text[key.start : text.index(":", key.start)]) == path[-1]


def test_a_span_has_the_line_and_column_an_editor_shows() -> None:
    text = DOCUMENTS[2]
    span = placed(SourceFile("f.json", text), values(text)).span("engine", "max_model_len")
    assert (span.start_line, span.start_col) == (4, 3)
    assert text[span.start : span.end] == '"max_model_len":8192'


def test_only_the_objects_asked_for_are_placed() -> None:
    text = '{"rows": [' + ", ".join(["1"] * 10_000) + '], "engine": {"a": 1, "b": {"c": 2}}}'
    document = placed(SourceFile("f.json", text), values(text), {("engine",)})
    assert set(document.entries) == {("engine",), ("engine", "a"), ("engine", "b")}
