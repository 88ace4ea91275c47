"""What the other frontends ask the Python frontend about the tree's Python programs a command runs.

- `spawned_by_programs`: the servers such a program starts with the words a script's run gives it,
  when those words name the mask (the Python frontend's value flow reads them: `flow.script_programs`).
- `with_program_requests`: the requests of a program of the tree that a command line runs with vLLM's
  engine options (`python -m ochat.serving.openai_api_server --model M --return-sampling-mask ...`:
  the program builds its engine with `AsyncEngineArgs.from_cli_args(args)`,
  `frameworks.engine_parser_programs`). The launch is the command's; the requests the program sends
  that engine are read by the value flow (`python.program_requests`) and judged with it, so a finding
  on a request is reported at the program's line, whether the prefilter passes the program or not.
  Asked only for a launch whose words turn the mask on (the request rules judge no other), once per
  program and engine lines in a file.

The Python frontend is imported only when one of them has something to ask."""

from __future__ import annotations

from dataclasses import replace

from ..model import Launch
from ..source import ExtractContext, SourceFile

_MASK_WORDS = ("sampling-mask", "sampling_mask")


def spawned_by_programs(source: SourceFile, context: ExtractContext, launches: list[Launch]) -> list[Launch]:
    """The servers the tree's Python programs a script runs start with its words, which name the mask
    (`launches`: what the script's own reading found, left to it)."""
    text = source.text
    if not any(word in text for word in _MASK_WORDS) or "python" not in text:
        return []
    from . import load

    python = load("python")
    return python.script_runs(source, context, [launch.span for launch in launches]) if python is not None else []


def with_program_requests(launches: list[Launch], context: ExtractContext) -> list[Launch]:
    """`launches`, each one a program of the tree builds from its words with the requests that
    program sends its engine."""
    if not any(_asks(launch) for launch in launches):
        return launches
    from . import load

    python = load("python")
    if python is None:
        return launches
    read: dict[tuple, tuple] = {}
    found = []
    for launch in launches:
        if _asks(launch):
            built_by = launch.handle.built_by
            if built_by not in read:
                read[built_by] = python.program_requests(*built_by, context)
            requests, assumptions = read[built_by]
            assumed = tuple(dict.fromkeys((*launch.assumptions, *assumptions)))
            launch = replace(launch, requests=(*launch.requests, *requests), assumptions=assumed)
        found.append(launch)
    return found


def _asks(launch: Launch) -> bool:
    return getattr(launch.handle, "built_by", None) is not None and launch.value("return_sampling_mask") is True
