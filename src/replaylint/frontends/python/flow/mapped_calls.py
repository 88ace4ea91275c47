"""Calls a data library makes of a function handed to its `map` with `fn_kwargs`: Hugging Face
datasets' `ds.map(generate_batched, batched=True, fn_kwargs={"llm": llm, "params": params})` (also
`filter`, and a `DatasetDict`'s or `IterableDataset`'s) and Ray Data's `ds.map_batches(fn, fn_kwargs=...)`
(also `map`, `flat_map`, `filter`) call it with each row or batch, then `**fn_kwargs`: each such call is
read as `fn(<row>, **fn_kwargs)`, so what `fn_kwargs` gives reaches the engine or request the function
builds. The row is not known; when more positional arguments come (`with_indices`, `with_rank`,
`input_columns`, Ray's `fn_args`) none of them is known."""

from __future__ import annotations

import ast

from .callsites import Call, calls
from .frames import Evaluates, Frame
from .module import Module
from .refs import Function

_METHODS = ("map", "map_batches", "flat_map", "filter")
_WORDS = tuple(f".{method}(" for method in _METHODS)
_MORE_POSITIONAL = ("with_indices", "with_rank", "input_columns", "fn_args")
_ROW = "<each row>"  # a name nothing binds: the row or batch the library passes, not known here


def mapped_sites(reader: Evaluates, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Call]:
    """The module's `.map(function, ..., fn_kwargs=...)` calls, each as the call the library makes."""
    text = module.source.text
    if "fn_kwargs" not in text or function.name not in text:
        return []
    return [made for site in calls(module, _WORDS) if (made := _as_mapped_call(reader, module, site, function)) is not None]


def _as_mapped_call(reader: Evaluates, home: Module, site: Call, function: ast.AST) -> Call | None:
    node, func = site.node, site.node.func
    if not (isinstance(func, ast.Attribute) and func.attr in _METHODS):
        return None
    keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
    handed = node.args[0] if node.args else keywords.get("function", keywords.get("fn"))
    given = keywords.get("fn_kwargs")
    if handed is None or given is None or isinstance(handed, ast.Starred):
        return None
    held = reader.evaluate(handed, Frame(home, site.scope, site.cls, None, site.placed)).ref
    if not (isinstance(held, Function) and held.node is function):
        return None
    row: ast.expr = ast.copy_location(ast.Name(_ROW, ast.Load()), handed)
    if len(node.args) > 1 or any(name in keywords for name in _MORE_POSITIONAL):
        row = ast.copy_location(ast.Starred(row, ast.Load()), handed)  # how many positional arguments follow: not known
    made = ast.copy_location(ast.Call(handed, [row], _keywords(given)), node)
    made.end_lineno, made.end_col_offset = node.end_lineno, node.end_col_offset
    return Call(made, site.placed, site.scope, site.cls)


def _keywords(given: ast.expr) -> list[ast.keyword]:
    """`fn_kwargs` as the keywords of the call: a dict spelt out (`{"llm": llm}`, `dict(llm=llm)`) one by one,
    so each keeps what it holds (an engine, a request), else spread (`**gen_kwargs`)."""
    keys = [key.value if isinstance(key, ast.Constant) else None for key in given.keys] if isinstance(given, ast.Dict) else []
    if isinstance(given, ast.Dict) and all(isinstance(key, str) and key.isidentifier() for key in keys):
        return [ast.copy_location(ast.keyword(key, value), value) for key, value in zip(keys, given.values)]
    if isinstance(given, ast.Call) and isinstance(given.func, ast.Name) and given.func.id == "dict" and not given.args:
        return given.keywords
    return [ast.copy_location(ast.keyword(None, given), given)]
