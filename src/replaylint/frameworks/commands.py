"""The launch a command line starts, whoever reads its words: vLLM's parser for vLLM's own
launchers (with Dynamo's additions for `python -m dynamo.vllm`), or the adapter of the RL
framework whose launcher `programs.split_launcher` found (`trl vllm-serve`, verl, NeMo-RL,
SkyRL, OpenRLHF, open-instruct: each `framework_registry.EntryPoint`). Every frontend that finds a command line calls `command_launch` here."""

from __future__ import annotations

from dataclasses import replace

from ..command import WordSyntax, command_launch as vllm_command_launch
from ..edits import Sequence as Elements
from ..framework_registry import entry_points, script_readers
from ..launch_context import LaunchContext
from ..model import Launch, Span
from ..served import ServerClient
from ..vllm.command_line import Token

_FRAMEWORKS = entry_points()


def command_launch(
    context: LaunchContext, span: Span, tokens: list[Token], elements: Elements, syntax: WordSyntax, entrypoint: str = "serve"
) -> Launch | None:
    """`command.command_launch`, for every launcher: None when a framework launcher starts no
    vLLM engine we can see. An adapter reads the files of the tree (a framework's own
    entrypoint module, `frameworks.skyrl`) with `context.read_text`."""
    if entrypoint in _FRAMEWORKS:
        launch = _framework_launch(context, span, tokens, elements, syntax, entrypoint)
        return replace(launch, env_open=True) if launch is not None and context.env_open else launch
    launch = vllm_command_launch(context, span, tokens, elements, syntax, entrypoint)
    if entrypoint == "dynamo":
        from . import dynamo

        launch = dynamo.adapt(launch)
    return launch


def _framework_launch(
    context: LaunchContext, span: Span, tokens: list[Token], elements: Elements, syntax: WordSyntax, entrypoint: str
) -> Launch | None:
    """The launch the adapter of `entrypoint` reads from the words (the registry says which
    function of which module, and what it takes)."""
    adapter, entry = _FRAMEWORKS[entrypoint]
    options = dict(entry.options)
    if entry.users_program:
        return _program_launch(context, span, tokens, elements, syntax)
    function = adapter.function_of(entry)
    if entry.words:
        return function(context, span, tokens, elements, syntax, **options)
    return function(context, span, tokens, **options)


def _program_launch(context: LaunchContext, span: Span, tokens: list[Token], elements: Elements, syntax: WordSyntax) -> Launch | None:
    """The launch of a Python program of the user's, as the first adapter that knows it reads it.
    A module (`python -m pkg.server`) is read for vLLM's parser, else as a program that builds
    vLLM's engine itself: the other readers read files."""
    if _runs_module(tokens):
        from .engine_parser_programs import script_launch as module_launch
        from .engine_programs import script_launch as engine_launch

        return module_launch(context, span, tokens, elements, syntax) or engine_launch(context, span, tokens)
    for reader in script_readers():
        launch = getattr(reader.load(), reader.script_reader)(context, span, tokens)
        if launch is not None:
            return launch
    from .engine_parser_programs import script_launch as parser_launch  # vLLM's engine parser reads its words

    launch = parser_launch(context, span, tokens, elements, syntax)
    if launch is not None:
        return launch
    from .engine_programs import script_launch  # no framework's: a program that builds vLLM's engine itself

    return script_launch(context, span, tokens)


def command_client(context: LaunchContext, span: Span, tokens: list[Token], entrypoint: str) -> ServerClient | None:
    """The HTTP client of a replay server that a command line starts where it starts no engine:
    a TRL trainer in server mode (`frameworks.trl_server_mode`), else None."""
    if entrypoint not in ("trl-train", "trl-script") or (entrypoint == "trl-script" and _runs_module(tokens)):
        return None
    from .trl_server_mode import command_client as trainer_client

    return trainer_client(span, tokens, context.load_config, context.read_text, program=entrypoint == "trl-script")


def _runs_module(tokens: list[Token]) -> bool:
    """Whether a program of the user's is a module `python -m` runs, not a file."""
    return bool(tokens) and tokens[0].known and not str(tokens[0].text).endswith(".py")
