"""The options `parser.parse_args()` gives a program that Python files of the tree run as a child
process, as argparse reads the words of those runs (speculators' e2e helper:
`subprocess.run([VLLM_PYTHON, run_vllm_file, "--llm-args", json.dumps(llm_args_dict), ...])`, read
there by `LLM(**json.loads(args.llm_args))`): each option a run gives decided where the runner
writes its word (a mapping `json.dumps` makes keeps each key where the dict writes it), the others
at their defaults as before, resting on them. A helper's run is read with what each of its callers
passes (`argv_runs`); an option the runs give differently is present with its value unknown.

Nothing is read where the tree has no such run, where the program changes `sys.argv`, or where a
word of a run is not one its parser shows (a flag not known here, a short flag, a positional):
the options stay at their defaults as the run leaves them."""

from __future__ import annotations

from dataclasses import replace

from ....model import UNKNOWN, Setting
from .argv_runs import module_runs
from .facts import Entry, Kwargs, Val, unknown
from .frames import Evaluates, Frame
from .parsers import Parser, defaults_and_flags, option_pairs, option_value


def run_options(reader: Evaluates, parser: Parser, frame: Frame) -> Kwargs | None:
    """The options the runs of `frame`'s module by the Python files near it give; None: none read."""
    if parser.parent is not None:
        return None
    runs = module_runs(reader, frame.module)
    if not runs:
        return None
    given = []
    for words in runs:
        found, flags = defaults_and_flags(reader, parser)
        if not _given(found, flags, words):
            return None
        given.append(found)
    return agreed(given)


def agreed(given: list[Kwargs]) -> Kwargs:
    """The options of several runs (a helper called from several tests): each as the runs agree
    on it, present with its value unknown where they do not."""
    found = given[0]
    for dest, item in list(found.entries.items()):
        if any(other.entries.get(dest) != item for other in given[1:]):
            found.entries[dest] = unknown(item)
    for other in given[1:]:
        found.entries.update((dest, unknown(item)) for dest, item in other.entries.items() if dest not in found.entries)
    return found


def _given(found: Kwargs, flags: dict, words: list[Val]) -> bool:
    """`found` with what the run's words give, as argparse reads them; False where it cannot tell."""
    pairs = option_pairs(flags, words, lambda word: word.value if isinstance(word.value, str) and word.span is not None else None)
    if pairs is None:
        return False
    for dest, word, stored, text, value, convert in pairs:
        if stored is not None:
            value = Val(stored)
        elif value is None:
            value = Val(option_value(text, convert))
        elif convert not in (None, "str"):
            converted = option_value(value.value, convert) if isinstance(value.value, str) else UNKNOWN
            value = replace(value, value=converted, keys={}, ref=None)
        found.entries.pop(dest, None)
        found.entries[dest] = _entry(dest, word, value)
    return True


def _entry(dest: str, flag: Val, value: Val) -> Entry:
    """The option as the run writes it: the flag's word to its value's."""
    span = flag.span if value.span is None or value.span.path != flag.span.path else flag.span.cover(value.span)  # type: ignore[union-attr]
    setting = Setting(dest, value.value, span, flag.value, value.span, value.keys, via=value.hops)  # type: ignore[arg-type]
    return Entry(setting, None, assumptions=value.assumptions, ref=value.ref)
