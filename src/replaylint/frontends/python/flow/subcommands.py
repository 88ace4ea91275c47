"""Functions a command line runs as a subcommand's handler: `generate.set_defaults(func=cmd_generate)`
on a parser made by `subparsers.add_parser("generate")`, then `args.func(args)`. The handler gets
the namespace parsed with that subcommand chosen: the parser's options' defaults, then the
subcommand's (each saying which option it comes from)."""

from __future__ import annotations

import ast

from .callsites import calls
from .facts import Val
from .frames import Evaluates, Frame, parameters
from .module import FUNCTIONS, Module
from .objects import Class, Instance
from .parsers import Parser, options

MAX_HANDLED = 6  # subcommands one handler is read for


def handler_args(reader: Evaluates, module: Module, function: ast.AST) -> list[dict[str, Val]]:
    """The arguments of each subcommand that runs `function` (its first parameter: the namespace)."""
    if not isinstance(function, FUNCTIONS) or "set_defaults(" not in module.source.text or not parameters(function):
        return []
    found = []
    for site in calls(module, ("set_defaults(",)):
        func = site.node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "set_defaults" and _runs(site.node, function.name)):
            continue
        parser = reader.evaluate(func.value, Frame(module, site.scope, site.cls, None, site.placed)).ref
        if isinstance(parser, Parser):
            namespace = Instance(Class(module, ast.ClassDef()), options(reader, parser), cli=True)
            found.append({parameters(function)[0].arg: Val(ref=namespace)})
    return found[:MAX_HANDLED]


def _runs(node: ast.Call, name: str) -> bool:
    return any(k.arg == "func" and isinstance(k.value, ast.Name) and k.value.id == name for k in node.keywords)
