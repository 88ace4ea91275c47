"""The value-flow reader of the Python frontend: the arguments that really reach each engine
construction of a file, followed through the code as people write it (helpers that return the
arguments, dicts built and changed in steps, `self` attributes, `partial`, config objects and
command-line defaults, Ray actors, names imported from other modules of the tree).

Read with CPython's parser, only for files whose text both names an engine and asks for replay.
Its launches take the place of the libcst pass's for the same call where that pass could not
read everything (`merge`), and the dicts it read are no longer launches found by content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Iterator

from ....model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ....records import record
from ....source import ExtractContext, SourceFile
from ..names import REPLAY_WORDS, RUNNER_ENV, matches_from, set_after_call
from .airflow_pods import WORDS as AIRFLOW_WORDS, pod_launches
from .engine_subclasses import imported_engine_classes, may_import_engine_class
from .engines import engine_launches
from .importers import (
    imported_launches,
    importer_launches,
    mask_field,
    mask_names,
    mask_outside_parametrize,
    notebook_launches,
    turns_mask_on,
)
from .module import parse
from .placing import FlowHandle, render
from .pulumi_containers import WORDS as PULUMI_WORDS, pulumi_launches
from .reader import Reader
from .requests import reaching_engines
from .server_argv import server_launches
from .spawns import spawn_words, spawned_launches
from .tree import Tree
from .vertex_models import CDK_WORDS, WORDS as VERTEX_WORDS, cdk_launches, uploaded_launches

__all__ = [
    "FlowHandle",
    "Flowed",
    "candidate",
    "flowed",
    "from_importers",
    "imports_engine_class",
    "imports_mask",
    "mask_field",
    "merge",
    "render",
    "turns_mask_on",
]

_ENGINE_WORDS = ("LLM", "EngineArgs")
_SERVER_PARSER = "make_arg_parser"


@record(unsafe_hash=True)
class Flowed:
    launches: list[Launch]
    sources: frozenset[Span]  # dicts and calls whose keys reached an engine
    not_run: frozenset[Span] = frozenset()  # constructions on a branch the tree's own values never take


# vLLM's engines imported (`import vllm`, `from vllm import LLM`, `from vllm.engine.arg_utils import (\n AsyncEngineArgs,`),
# or a library config that builds one (`from ray.data.llm import vLLMEngineProcessorConfig`)
_IMPORTS_ENGINE = re.compile(
    r"import\s+vllm(?:\s+as\s+\w+)?\s*(?:$|[;#])|import\s+vllm\.(?:entrypoints\.llm|engine\.arg_utils)\b|from\s+(?:lmcache_vllm\.)?vllm[\w.]*\s+import\s+\(?[\w\s,]*?\b(?:LLM|EngineArgs|AsyncEngineArgs)\b"
    r"|from\s+ray\.data\.llm\s+import\s+\(?[\w\s,]*?\bvLLMEngineProcessorConfig\b",
    re.MULTILINE,
)


def _imports_no_engine(text: str) -> bool:
    return next(matches_from(_IMPORTS_ENGINE, text, ("import", "from")), None) is None


def candidate(text: str) -> bool:
    """Whether a file may construct one of vLLM's engines with the mask in reach, or start a
    server with it (cheap: the file's own text; vLLM's sources that define the engines import
    none of them)."""
    if spawn_words(text) and (any(word in text for word in REPLAY_WORDS[:3]) or RUNNER_ENV in text):
        return True  # a helper's `subprocess.Popen(command, ...)` of its callers' words (`spawns`), or a command's runner variable
    if _SERVER_PARSER in text and "vllm.entrypoints" in text and any(word in text for word in REPLAY_WORDS[:3]):
        return True  # vLLM's server parser given a word list (`server_argv`)
    if VERTEX_WORDS in text and "aiplatform" in text and any(word in text for word in REPLAY_WORDS[:3]):
        return True  # a Vertex AI model's serving container (`vertex_models`)
    if CDK_WORDS in text and "Container" in text and any(word in text for word in REPLAY_WORDS[:3]):
        return True  # an AWS CDK ECS container (`vertex_models`)
    if PULUMI_WORDS in text and "Container(" in text and any(word in text for word in REPLAY_WORDS[:3]):
        return True  # a Docker container of a Pulumi program (`pulumi_containers`)
    if AIRFLOW_WORDS in text and any(word in text for word in REPLAY_WORDS[:3]):
        return True  # an Airflow pod's container (`airflow_pods`)
    if not any(word in text for word in _ENGINE_WORDS) or _imports_no_engine(text):
        from ... import loads_config_by_path  # a server whose flags come from a config file it reads by path

        return spawn_words(text) and loads_config_by_path(text.encode("utf-8", "surrogateescape"))
    if any(word in text for word in REPLAY_WORDS[:3]) or RUNNER_ENV in text:
        return True  # the runner variable written where the engine starts is judged without the mask
    from ... import builds_from_config  # the mask may be in a config file it reads by path, or a helper of the tree loads

    return builds_from_config(text.encode("utf-8", "surrogateescape"))


def imports_mask(source: SourceFile, context: ExtractContext) -> bool:
    """Whether a file that builds an engine without naming the mask imports a name from a module
    of the tree that turns it on (`from rollout_config import ENGINE_ARGS` in a notebook, or in a
    file the prefilter passes for another word: the settings module does not read those)."""
    text = source.text
    if not any(word in text for word in _ENGINE_WORDS) or _imports_no_engine(text):
        from ... import loads_config_by_path  # a server whose flags come from a config file it reads by path

        return spawn_words(text) and loads_config_by_path(text.encode("utf-8", "surrogateescape"))
    module = parse(source)
    if module is None:
        return False
    tree = Tree(module, context)
    return any(turns_mask_on(text) for qualified in set(module.imports.values()) for text in _texts(tree, qualified))


def imports_engine_class(source: SourceFile, context: ExtractContext) -> bool:
    """Whether a file that names the mask but no engine of vLLM's calls a class it imports from a
    module of the tree that subclasses the engine and keeps its `__init__` (LongCite's demo:
    `from vllm_inference import LongCiteModel`, then `LongCiteModel(..., return_sampling_mask=True)`)."""
    unparsed = _Unparsed(source.path)  # the modules it imports are found by its path, and vetted by their texts first
    if not may_import_engine_class(Tree(unparsed, context), unparsed, source.text):  # type: ignore[arg-type]
        return False
    module = parse(source)
    return module is not None and bool(imported_engine_classes(Reader(Tree(module, context)), module))


@record(unsafe_hash=True)
class _Unparsed:
    """A file not parsed yet, as `Tree` finds the modules it imports: by its path."""

    path: str


def _texts(tree: Tree, qualified: str) -> Iterator[str]:
    """The text of the module a dotted name is in, then of the module it names whole
    (`from myproj import settings`: `myproj/settings.py`), each read only if the one before says nothing."""
    text = tree.text_of(qualified)
    if text is not None:
        yield text
    whole = tree.module_text(qualified)
    if whole is not None:
        yield whole[1]


def flowed(source: SourceFile, context: ExtractContext, alone: bool = False) -> Flowed:
    """`alone`: the libcst pass found no launch in the file, so `merge` keeps only the engines
    that name the mask or the runner variable (the requests of the others are not read)."""
    module = parse(source)
    if module is None:
        return Flowed([], frozenset())
    tree = Tree(module, context)
    reader = Reader(tree)
    launches, sources = [], set()
    engines = list(engine_launches(reader, module))
    if alone and not any(_kept_alone(launch) for _, launch, _ in engines):
        reaching = ((launch, kwargs) for _, launch, kwargs in engines)  # none stays: what requests send cannot matter
    else:
        reaching = reaching_engines(reader, module, engines)
    for launch, kwargs in reaching:
        launches.append(launch)
        sources |= kwargs.sources
    texts = {path: m.source.text for path, m in tree.modules().items()}
    for launch in launches:
        launch.handle.texts.update(texts)
    if _SERVER_PARSER in source.text:
        launches += server_launches(reader, module)
    if spawn_words(source.text):  # a helper that starts `vllm serve` with its callers' words
        launches += spawned_launches(reader, module)
    if VERTEX_WORDS in source.text:
        launches += uploaded_launches(reader, module)
    if CDK_WORDS in source.text:
        launches += cdk_launches(reader, module)
    if PULUMI_WORDS in source.text:
        launches += pulumi_launches(reader, module)
    if AIRFLOW_WORDS in source.text:
        launches += pod_launches(reader, module)
    return Flowed(launches, frozenset(sources), frozenset(reader.not_run - {launch.span for launch in launches}))


def from_importers(source: SourceFile, context: ExtractContext) -> Flowed:
    """The launches of the tree's modules that build an engine from this file's mask-bearing
    dicts without naming the mask themselves (`importers`)."""
    module = parse(source)
    if module is None or not mask_outside_parametrize(module):
        return Flowed([], frozenset())
    from ... import relevant  # the prefilter: a module it passes is checked on its own

    checked = lambda text: relevant("python", text.encode("utf-8", "surrogateescape"))  # noqa: E731
    launches, sources = imported_launches(module, context, checked)
    names = mask_names(module)
    if names:
        used, more = importer_launches(module, context, names, checked)
        seen = {launch.span for launch in launches}  # an imported module that also imports this one is read once
        launches += [launch for launch in used if launch.span not in seen]
        sources |= more
        launches += notebook_launches(module, context, names, lambda text: relevant("notebook", text.encode("utf-8", "surrogateescape")))
    return Flowed(launches, frozenset(sources))


def merge(found: list[Launch], flow: Flowed) -> list[Launch]:
    """The libcst pass's launches, each replaced by the flowed launches of the same call when
    those read more (it could not read a spread, a value, or did not see the call at all)."""
    by_span: dict[Span, list[Launch]] = {}
    for launch in flow.launches:
        by_span.setdefault(launch.span, []).append(launch)
    strings = _string_commands(found, by_span)
    result = []
    for launch in found:
        if launch.span in flow.not_run:
            continue
        better = by_span.pop(launch.span, None) or strings.get(launch.span)
        if better is not None and launch.kind is LaunchKind.CLI:
            result.extend(_filled(launch, better))
            continue
        if better is None or not _reads_more(better, launch):
            result.append(launch)
            continue
        result.extend(_keeping(flowed_launch, launch) for flowed_launch in better)
    for rest in by_span.values():
        if any(_kept_alone(launch) for launch in rest):
            result.extend(rest)
    return result


def _kept_alone(launch: Launch) -> bool:
    """Whether `merge` keeps a flowed launch the libcst pass did not find: it names the mask or the runner variable."""
    return launch.get("return_sampling_mask") is not None or RUNNER_ENV in launch.env


def _string_commands(found: list[Launch], by_span: dict[Span, list[Launch]]) -> dict[Span, list[Launch]]:
    """The commands of a string a call runs (`os.system(f"vllm serve {MODEL} {flags}")`), which the
    libcst pass places at their words in the string and the flow at the call: the flow's launches
    of a call, taken out of `by_span`, each for the libcst pass's command in the same order when both
    found as many (else neither is taken: the libcst pass's stand)."""
    paired: dict[Span, list[Launch]] = {}
    for call in [span for span, launches in by_span.items() if launches[0].kind is LaunchKind.CLI]:
        inside = [
            launch.span for launch in found if launch.kind is LaunchKind.CLI and launch.span not in by_span and _within(launch.span, call)
        ]
        if not inside:
            continue
        flowed_launches = by_span.pop(call)
        if len(inside) == len(flowed_launches):
            paired.update((span, [flowed_launch]) for span, flowed_launch in zip(inside, flowed_launches))
    return paired


def _within(span: Span, outer: Span) -> bool:
    return span.path == outer.path and outer.start <= span.start and span.end <= outer.end and span != outer


def _filled(launch: Launch, flowed_launches: list[Launch]) -> list[Launch]:
    """A command line the libcst pass read (its words' places and fixes), with each value it
    could not read that the flow read (a word another module gives: `str(PORT)`), once per
    reading of the flow that fills one; the flow's own reading where only it read every word
    (`f"--port={PORT}"`: an option the libcst pass could not name)."""
    if launch.open_ended:
        whole = [flowed_launch for flowed_launch in flowed_launches if not flowed_launch.open_ended]
        return whole if len(whole) == len(flowed_launches) else [launch]
    filled = []
    for flowed_launch in flowed_launches:
        # a word the libcst pass read under a branch the flow decided against (`if logprobs_mode is not None:`
        # with the default None) is not on the command line the flow read whole
        settings = {
            name: _fill(setting, flowed_launch.settings.get(name))
            for name, setting in launch.settings.items()
            if name in flowed_launch.settings or flowed_launch.open_ended
        }
        if _values_of(settings) != _values(launch) and all(_values_of(settings) != _values(other) for other in filled):
            resting = tuple(dict.fromkeys((*launch.assumptions, *flowed_launch.assumptions)))  # the defaults the values rest on
            filled.append(replace(launch, settings=settings, assumptions=resting))
    return filled or [launch]


def _fill(setting: Setting, flowed: Setting | None) -> Setting:
    """The libcst pass's word, with the value the flow read for it; placed where the flow found
    it decided when that is another line (a config field's default, not `config.logprobs_mode`)."""
    if setting.value is not UNKNOWN or flowed is None or flowed.value is UNKNOWN:
        return setting
    decided, written = flowed.value_span, setting.value_span
    if decided is not None and written is not None and (decided.path, decided.start_line) != (written.path, written.start_line):
        return flowed
    return replace(setting, value=flowed.value)


def _reads_more(flowed_launches: list[Launch], launch: Launch) -> bool:
    """Whether the flowed launches tell the libcst pass's apart: another value or key (the
    libcst pass reads names bound once in the statements `focus` kept), open where it was not,
    a condition, requests it did not follow."""
    if launch.open_ended or any(setting.value is UNKNOWN for setting in launch.settings.values()):
        return True
    return any(
        _values(f) != _values(launch)
        or f.open_ended
        or f.condition
        or len(f.requests) > len(launch.requests)
        or _env(f) != _env(launch)
        or _asked(f) != _asked(launch)  # `SamplingParams(**cfg)`: a spread the libcst pass left open
        for f in flowed_launches
    )


def _asked(launch: Launch) -> list:
    """What the launch's requests send (the flow may know a value the libcst pass does not, or the
    values of a conditional expression)."""
    return [
        (
            {
                name: (setting.value, _values_of({str(n): c for n, c in enumerate(setting.choices)}))
                for name, setting in request.settings.items()
            },
            request.open_ended,
        )
        for request in launch.requests
    ]


def _env(launch: Launch) -> dict:
    return {name: setting.value for name, setting in launch.env.items()}


def _values(launch: Launch) -> dict:
    return _values_of(launch.settings)


def _values_of(settings: Mapping[str, Setting]) -> dict:
    return {name: setting.value for name, setting in settings.items()}


def _keeping(flowed_launch: Launch, launch: Launch) -> Launch:
    """The flowed launch with what only the libcst pass reads: the environment, the requests."""
    handle = flowed_launch.handle
    env_statements = getattr(launch.handle, "env_statements", None)
    callers = isinstance(handle, FlowHandle) and handle.callers
    if isinstance(handle, FlowHandle) and env_statements and not callers:
        handle.env_statements.update(env_statements)
    # What the libcst pass saw beyond the arguments (attributes set after the call) stays, unless
    # the flow read those writes itself (an unreadable one is its own reason).
    read_after = set_after_call(handle.writes_read) if isinstance(handle, FlowHandle) and handle.writes_read else None
    kept = [reason for reason in launch.open_reasons if not reason.startswith("*") and reason != read_after]
    reasons = [reason for reason in (*flowed_launch.open_reasons, *kept) if reason]
    return replace(
        flowed_launch,
        env=flowed_launch.env if callers else _env_kept(launch.env, flowed_launch.env, handle) or flowed_launch.env,
        requests=flowed_launch.requests or launch.requests,
        open_reasons=tuple(reasons),
    )


def _env_kept(read: Mapping[str, Setting], flowed: Mapping[str, Setting], handle: object) -> dict[str, Setting]:
    """The libcst pass's environment, with the values it could not read that the flow did
    (`os.environ[...] = str(0)`, a module constant), less the writes the flow found never run
    there (under a branch its construction decides against)."""
    not_run = handle.env_not_run if isinstance(handle, FlowHandle) else ()
    return {
        name: flowed[name] if setting.value is UNKNOWN and name in flowed and flowed[name].value is not UNKNOWN else setting
        for name, setting in read.items()
        if not any(_inside(setting.span, skipped) for skipped in not_run)
    }


def _inside(span: Span, statement: Span) -> bool:
    return span.path == statement.path and statement.start <= span.start < statement.end
