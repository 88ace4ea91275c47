"""The vLLM servers a Python program of the tree starts with the words a shell script's run gives
it: NeMo-Skills' start script runs `python -m nemo_skills.inference.server.serve_vllm --model M
--num_gpus 1 --enable-scale-out --return-sampling-mask`, and `serve_vllm.py` takes its own options
with `parser.parse_known_args()` and hands the rest to `python -m vllm.entrypoints.openai.api_server`
in a command string it runs. The program never names the mask, so its own check reads nothing of
it; the script, which does, asks for the servers its run starts (the shell frontend calls
`spawned_by_runs`).

Read: each run of a program of the tree (`-m` a module, or a file, found from the script's folder
up) whose words name the mask, for a program that may hand its words on (it parses them with
`parse_known_args` and starts a process); the program's value flow reads its command line as this
run gives it (`script_flags.as_run`). A server is kept when one of its settings is written in the
script; a run the script's own reading already turned into a launch is left to it."""

from __future__ import annotations

import re

from ....frameworks.nearby import program_upward
from ....model import Launch, Span
from ....readers.python_runs import ANY_RUN
from ....source import ExtractContext, SourceFile
from ..names import REPLAY_WORDS
from .engines import engine_launches
from .module import parse
from .program_environment import runs_module
from .reader import Reader
from .requests import reaching_engines
from .script_flags import as_run
from .spawns import spawn_words, spawned_launches
from .tree import Tree

_MASK_WORDS = REPLAY_WORDS[:2]  # the mask's spellings in a script's words
_HANDS_ON = "parse_known_args("  # a program that keeps the words it does not know


def spawned_by_runs(source: SourceFile, context: ExtractContext, read: list[Span]) -> list[Launch]:
    """The servers the programs the script runs start with its words (`read`: the spans of the
    launches the script's own reading found, whose runs are not read again)."""
    from ....readers.shell.program_runs import program_words  # the shell interpreter

    located = _handing_on(source, context)
    if not located:
        return []  # no program the script names keeps words it does not know: nothing to read it again for
    found: list[Launch] = []
    for run in program_words(source, context) or ():
        if run.run == ANY_RUN or not any(text is not None and any(w in text for w in _MASK_WORDS) for text, _ in run.words):
            continue
        spans = [span for _, span in run.words if span is not None]
        if any(_within(span, launch) for span in spans[:1] for launch in read):
            continue
        program = _program(run, source.path, context, located)
        if program is None:
            continue
        module = parse(program)
        if module is None:
            continue
        reader = Reader(Tree(module, context))
        as_run(reader, module, run)
        made = _engines(reader, module) if _fire_keywords(program.text) else []
        made += spawned_launches(reader, module) if _HANDS_ON in program.text else []
        found += [launch for launch in made if _given_here(launch, source.path)]
    return found


def _fire_keywords(text: str) -> bool:
    """Whether a program may hand a run's words to an engine as keywords: `fire.Fire(main)` of a
    `main(..., **vllm_kwargs)` building `LLM(...)` (EvolveCoder's `step2.1_vllm_gen.py`)."""
    return "Fire(" in text and "**" in text and ("LLM(" in text or "EngineArgs(" in text)


def _engines(reader: Reader, module) -> list[Launch]:
    """The engines the program builds, with the requests sent to them."""
    engines = list(engine_launches(reader, module))
    launches = [launch for launch, _ in reaching_engines(reader, module, engines)]
    texts = {path: m.source.text for path, m in reader.tree.modules().items()}
    for launch in launches:
        launch.handle.texts.update(texts)
    return launches


def _handing_on(source: SourceFile, context: ExtractContext) -> dict[str, tuple[str, str] | None]:
    """The programs the script's text names (`-m module`, `path.py`), each as found from its folder up
    (None: not in the tree), when one of them parses with `parse_known_args`; empty otherwise: the
    script is read again for its runs only then (a 1 MB CI script read twice ran past its budget)."""
    named = list(dict.fromkeys(match.group(1) or match.group(2) for match in _NAMED.finditer(source.text)))[:_MAX_NAMED]
    located = {word: program_upward(word, source.path, context.read_text) for word in named}
    return located if any(found is not None and _hands_on(found[1]) for found in located.values()) else {}


def _hands_on(text: str) -> bool:
    return (_HANDS_ON in text and spawn_words(text)) or _fire_keywords(text)


# what a run may name as its program (a path starts where a word does: inside a long word, no backtracking over every start)
_NAMED = re.compile(r"-m[ \t]+([A-Za-z_][\w.]*)|(?<![\w./-])([\w./-]+\.py)\b")
_MAX_NAMED = 32


def _program(run, script: str, context: ExtractContext, named: dict[str, tuple[str, str] | None]) -> SourceFile | None:
    """The program a run names, from the script's folder up (`named`: those its text names, found
    already), when it may hand its words on."""
    word = run.run.module or run.run.path
    located = (named[word] if word in named else program_upward(word, script, context.read_text)) if word else None
    if located is None:
        return None
    path, text = located
    if not _hands_on(text) or not runs_module(run.run, script, path, context.read_text):
        return None
    return SourceFile(path, text)


def _within(span: Span, launch: Span) -> bool:
    return span.path == launch.path and launch.start <= span.start <= launch.end


def _given_here(launch: Launch, script: str) -> bool:
    return any(setting.span.path == script for setting in launch.settings.values())
