"""The options `parser.parse_args()` gives a program that reads vLLM's engine options from its
command line (`AsyncEngineArgs.add_cli_args(parser)`) where the tree's shell scripts run it:
openchat's `serve.sh` running `python -m ochat.serving.openai_api_server --model M
--return-sampling-mask --logprobs-mode processed_logprobs`, whose engine
(`AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))`) then holds those flags,
and whose routes' requests go to that engine. Each option a run gives is decided on the script's
word: the program's own options (`parser.add_argument("--port", ...)`) as argparse reads them, the
others as vLLM's engine parser does (`vllm.command_line`). Those no run gives keep their defaults,
as before.

The scripts are those `script_flags` reads for a fire program (near the module, naming it), each
run of the module counted; runs that give an option differently leave it present with its value
unknown. Nothing is read (the defaults stand) where no script runs the module, where a run's words
are not all known (`"$@"`, `$1`), where a word is neither a flag of the program nor of vLLM's
engine, or where another file that may run the module is not read for its words."""

from __future__ import annotations

import os

from ....model import Span
from ....vllm import command_line
from ....vllm.command_line import Token
from .facts import Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .parsers import Parser, defaults_and_flags
from .refs import handed_engine_options
from .run_options import agreed, given_options
from .script_flags import script_runs

Words = tuple[tuple[str | None, Span | None], ...]


def script_options(reader: Evaluates, parser: Parser, frame: Frame) -> Kwargs | None:
    """The options the runs of `frame`'s module by the tree's shell scripts give a parser that holds
    vLLM's engine options; None: none read."""
    if parser.parent is not None:
        return None
    found, flags = defaults_and_flags(reader, parser)
    if handed_engine_options(found.assumed) is None:
        return None
    runs = script_runs(reader, frame.module)
    if not runs or any(words is None or not all(text is not None and span is not None for text, span in words) for words in runs):
        return None
    given = []
    for words in runs:
        one = found.copy()
        if not _given(one, flags, words, frame.module.path):
            return None
        given.append(one)
    return agreed(given)


def _given(found: Kwargs, flags: dict, words: Words, path: str) -> bool:
    """`found` with what one run's words give: the program's own options, then vLLM's engine
    options from the rest; False where a word is read by neither."""
    own, engine = _split(flags, words)
    if own is None or not given_options(found, flags, [Val(text, span=span) for text, span in own]):
        return False
    tokens = [Token(text, span, text) for text, span in engine]  # type: ignore[arg-type]
    parsed = command_line.parse(tokens)
    if parsed.open_reasons or parsed.issues or parsed.forwarded or parsed.config_file is not None:
        return False
    for name, setting in parsed.settings.items():
        found.entries.pop(name, None)
        found.entries[name] = Entry(setting, None, assumptions=(_whose(path, words),))
    return True


def _split(flags: dict, words: Words) -> tuple[list, list]:
    """The words of the program's own options (each flag with the value it takes) and the others;
    (None, []) where an own option's value is missing."""
    own: list = []
    engine: list = []
    position = 0
    while position < len(words):
        text = str(words[position][0])
        spelt, equals, _ = text.partition("=")
        if spelt not in flags:
            engine.append(words[position])
            position += 1
            continue
        takes_value = flags[spelt][1] is None and not equals
        if takes_value and position + 1 >= len(words):
            return None, []  # type: ignore[return-value]
        own += words[position : position + 1 + takes_value]
        position += 1 + takes_value
    return own, engine


def _whose(path: str, words: Words) -> tuple[str, Span]:
    """What an option a run gives rests on: that run, at its first word (a run that gives one has one)."""
    span = words[0][1]
    assert span is not None
    return f"{os.path.basename(path)} runs as {os.path.basename(span.path)}:{span.start_line} runs it", span
