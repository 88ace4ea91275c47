"""The requests a program of the tree sends to the engine it builds from its own command line,
for a launch of that program another file makes: openchat's `serve.sh` runs
`python -m ochat.serving.openai_api_server --model M --return-sampling-mask ...`, and the server
builds `AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))` under
`if __name__ == "__main__":`, whose chat route sends `engine.generate(..., sampling_params)`.
The launch is the script's (its words are the engine's options, `frameworks.engine_parser_programs`);
the requests are the program's, read here with the value flow and judged with that launch.

The program is read whether the prefilter passes it or not (it need not name the mask: the words
turn it on), only for a launch that turns the mask on. Its engines are those built at the
`from_cli_args` calls the launch names; the requests are those that reach them as the module's
own engines' do (`requests.reaching_engines`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Assumption, Request
from ....source import ExtractContext, SourceFile
from .engines import engine_launches
from .module import parse
from .reader import Reader
from .requests import reaching_engines
from .tree import Tree

# Why the program's engine settings are not its own: the launch's words give them. An engine with
# its settings open has its requests read (`reaching_engines` reads none for an engine without replay).
_GIVEN = "the words a launch of the program gives"


def command_line_requests(path: str, lines: tuple[int, ...], context: ExtractContext) -> tuple[tuple[Request, ...], tuple[Assumption, ...]]:
    """The requests the program at `path` sends to the engines built at its `from_cli_args` calls on
    `lines`, and the defaults they rest on."""
    text = context.read_text(path)
    module = parse(SourceFile(path, text)) if text is not None else None
    if module is None:
        return (), ()
    reader = Reader(Tree(module, context))
    built = [
        (node, replace(launch, open_reasons=(*launch.open_reasons, _GIVEN)), kwargs)
        for node, launch, kwargs in engine_launches(reader, module)
        if _from_command_line(node, lines)
    ]
    found: list[Request] = []
    assumed: dict[Assumption, None] = {}
    for (_, before, _), (launch, _) in zip(built, reaching_engines(reader, module, built)):
        found += [request for request in launch.requests if request not in found]  # an engine built in several frames
        assumed.update((assumption, None) for assumption in launch.assumptions if assumption not in before.assumptions)
    return tuple(found), tuple(assumed)


def _from_command_line(node: ast.Call, lines: tuple[int, ...]) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr == "from_cli_args" and node.lineno in lines
