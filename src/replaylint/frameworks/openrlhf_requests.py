"""The rollout requests of an OpenRLHF fork in the checked tree (`frameworks/openrlhf.py`): what its
`samples_generator.py` puts in each `SamplingParams`, with the values the fork's train_ppo_ray.py
passes in the trainer's generate kwargs.

OpenRLHF's `_dispatch_prompts_to_vllm` (3c3be62 `samples_generator.py:203-209`) builds
`SamplingParams(temperature=generate_kwargs.get("temperature", 1.0), top_k=generate_kwargs.get(
"top_k", -1), ...)`; train_ppo_ray.py's `PPOTrainer.remote(..., temperature=args.rollout.temperature,
top_p=args.rollout.top_p)` gives the generate kwargs, with no `top_k`. A fork that adds an option of
its own (`parser.add_argument("--rollout.top_k", type=int, default=-1)`) and passes it there
(`top_k=args.rollout.top_k`) sends the launch's word, else that default, a value the fork wrote, at
the `add_argument` line. Anything else that names `top_k` in train_ppo_ray.py leaves it unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Mapping

from ..model import UNKNOWN, Request, Setting, Span
from ..vllm.command_line import Token
from .fork_source import callee_name, literal, parse, placed, snippet
from .nearby import found_upward
from .openrlhf_fork import CLI, OWNER, ForkOptions

SAMPLES = "openrlhf/trainer/ppo_utils/samples_generator.py"  # `_dispatch_prompts_to_vllm`'s `SamplingParams`
_GENERATE = ("temperature", "args.rollout.temperature")  # the keyword that marks the trainer's generate kwargs
_OPTION_KEYS = ("top_k",)  # what a fork's own option may give there


def sent_by(
    launching: str,
    read_text: Callable[[str], str | None] | None,
    forked: ForkOptions,
    parsed: Mapping[str, tuple[Token, list[Token]]],
    anchor: Span,
) -> dict[str, Setting]:
    """The request keys the fork's own options give through the generate kwargs: the launch's
    word, else the option's default at its `add_argument` line."""
    cli = found_upward(CLI, launching, read_text) if read_text is not None else None
    module = parse(cli[1]) if cli is not None else None
    found = {}
    for key, option in _generate_options(module, forked.declared).items() if module is not None else ():
        assert cli is not None
        if option in parsed:
            flag, values = parsed[option]
            value = _integer(values[-1].text) if values and values[-1].known else UNKNOWN
            found[key] = Setting(key, value, flag.span, " ".join(token.raw for token in (flag, *values)))
            continue
        default, line = forked.declared[option]
        value = _integer(default) if isinstance(default, (int, str)) and not isinstance(default, bool) else UNKNOWN
        said = f"{key}={default!r} ({OWNER}'s {CLI.rsplit('/', 1)[-1]}:{line})"
        found[key] = Setting(key, value, placed(cli[0], cli[1], line, anchor), said, implied=True, via=(anchor,))
    return found


def _generate_options(module: ast.Module, options: Mapping[str, Any]) -> dict[str, str]:
    """The request keys the trainer's generate kwargs take from an option the fork adds (`options`):
    a keyword `top_k=args.rollout.top_k` of the call that passes `temperature=args.rollout.temperature`
    (OpenRLHF's `PPOTrainer.remote(...)`), where `top_k` is named nowhere else in the module (but
    that option's string)."""
    found = {}
    for node in ast.walk(module):
        given = {keyword.arg: ast.unparse(keyword.value) for keyword in getattr(node, "keywords", ()) if keyword.arg}
        if not isinstance(node, ast.Call) or given.get(_GENERATE[0]) != _GENERATE[1]:
            continue
        for key in _OPTION_KEYS:
            option = "--" + given.get(key, "").removeprefix("args.")
            named = [n for n in ast.walk(module) if key in (getattr(n, "arg", None), getattr(n, "attr", None), getattr(n, "id", None))]
            said = [n for n in ast.walk(module) if isinstance(n, ast.Constant) and isinstance(n.value, str) and key in n.value]
            if given.get(key, "").startswith("args.") and option in options and len(named) == 2 and len(said) == 1:
                found[key] = option
    return found


def _integer(text: Any) -> Any:
    """argparse's `type=int` of a word or a default (UNKNOWN: it refuses it)."""
    try:
        return int(str(text))
    except ValueError:
        return UNKNOWN


def requests(
    launching: str, read_text: Callable[[str], str | None] | None, given: Mapping[str, Setting], mask: Setting | None, anchor: Span
) -> tuple[Request, ...]:
    """The rollout request of the fork's `_dispatch_prompts_to_vllm` (samples_generator.py in the
    tree; none without it: a file a fork may edit is not assumed): `SamplingParams(top_k=
    generate_kwargs.get("top_k", -1), temperature=generate_kwargs.get("temperature", 1.0), ...)`.
    `generate_kwargs` holds the command line's `temperature` (`--rollout.temperature`) and no
    `top_k` (train_ppo_ray.py; a fork's that names `top_k` leaves it unknown, unless it passes an
    option of its own: `given`, `sent_by`), so the `.get` default is what is sent. A framework
    default sits on the mask's line, a value the fork wrote on its own."""
    found = found_upward(SAMPLES, launching, read_text) if read_text is not None else None
    module = parse(found[1]) if found is not None else None
    calls = [node for node in ast.walk(module) if isinstance(node, ast.Call) and callee_name(node) == "SamplingParams"] if module else []
    if found is None or len(calls) != 1 or read_text is None:
        return ()
    cli = found_upward(CLI, launching, read_text)
    keywords = {keyword.arg: keyword.value for keyword in calls[0].keywords if keyword.arg}
    settings = {}
    for key, upstream in (("top_k", -1), ("temperature", 1.0)):
        node = keywords.get(key)
        if node is None:
            continue
        default = _get_default(node, key)
        if key in given and default is not None:
            settings[key] = given[key]
            continue
        value = literal(default if default is not None else node)
        if key == "top_k" and default is not None and cli is not None and "top_k" in cli[1]:
            value = UNKNOWN  # the fork's command line may pass it
        said = f"{key}={snippet(found[1], node)} ({OWNER}'s {SAMPLES.rsplit('/', 1)[-1]}:{node.lineno})"
        own = value != upstream or mask is None
        span = placed(found[0], found[1], node.lineno, anchor) if own else mask.span  # type: ignore[union-attr]
        settings[key] = Setting(key, value, span, said, implied=True, via=(anchor,))
    return (Request("sampling", placed(found[0], found[1], calls[0].lineno, anchor), settings),)


def _get_default(node: ast.expr, key: str) -> ast.expr | None:
    """`generate_kwargs.get("key", DEFAULT)` -> DEFAULT."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and len(node.args) == 2:
        return node.args[1] if literal(node.args[0]) == key else None
    return None
