"""Python frontend: CPython's parser decides what libcst must read (`focus`), then libcst reads
it (`launches`, with `collect`, `values` and `argv`); fixes are written back by `rendering`. A file
whose statements start nothing, or start only what asks for no replay (`verdict`), is decided
without libcst, which is imported only for the first file that needs it (it costs a process 0.2 s).
Engine-argument mappings that reach vLLM through calls replaylint cannot follow are found by
content (`mappings`, with CPython's parser)."""

from __future__ import annotations

from ...model import Edit, Fix, Launch
from ...regexes import on_use
from ...source import ExtractContext, SourceFile
from . import flow
from .flow.clients import with_clients
from .flow.tree import in_vllm_package
from .focus import focus
from .mappings import candidate, mapping_launches
from .named_configs import may_hold_mask
from .names import REPLAY_WORDS, RUNNER_ENV
from .verdict import Settled

MASK_WORDS = REPLAY_WORDS[:3]  # the mask's own spellings (`flow.candidate` looks for them first)


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    launches = _starting_calls(source, context)
    mapped = mapping_launches(source) if candidate(source.text) else []
    own = in_vllm_package(source.path)  # vLLM's implementation: what its functions build, their callers start
    found = flow.flowed(source, context, alone=not launches) if not own and _flows(source, context) else None
    if found is not None and (found.launches or found.not_run):
        launches = flow.merge(launches, found)
        mapped = [launch for launch in mapped if launch.span not in found.sources]
    elif not own and (flow.turns_mask_on(source.text) or flow.mask_field(source.text, source.path)):
        # a dict, helper, config class or partial another module starts an engine with
        used = flow.from_importers(source, context)
        launches += used.launches
        mapped = [launch for launch in mapped if launch.span not in used.sources]
    # a Python file's clients wait for a replay server of the tree (`cross_file` reads them again); a notebook's cells are
    # read with the notebook's other servers, so theirs are read now
    deferred = not source.path.endswith(".ipynb")
    return with_clients(_with_trainers(launches, source, context), source, context, deferred=deferred) + mapped


def _flows(source: SourceFile, context: ExtractContext) -> bool:
    """Whether the value flow may find the mask: the file names it, or a config file it opens from
    its own place may hold it (`named_configs`), or it imports a name that turns it on; or the
    runner variable, which is judged without the mask (the file writes it before an engine starts)."""
    text = source.text
    live = _live_words(text)
    if flow.candidate(text) and (live or may_hold_mask(source, context)):
        return True
    if live and flow.imports_engine_class(source, context):
        return True  # `LongCiteModel(..., return_sampling_mask=True)` of `class LongCiteModel(LLM)` of another module
    return flow.imports_mask(source, context)


def _live_words(text: str) -> bool:
    """Whether the file's own words may turn the mask on or the V1 runner back: each of the mask's words is
    not `...=False` (`return_sampling_mask=False`, `"return_sampling_mask": False`), or the runner variable is
    not only read, removed or given `1` (vLLM's test_logprobs.py: `monkeypatch.setenv(..., "1")`)."""
    mentions = sum(text.count(word) for word in MASK_WORDS)
    if mentions and mentions > len(_MASK_OFF.findall(text)):
        return True
    return RUNNER_ENV in text and text.count(RUNNER_ENV) > len(_RUNNER_KEPT.findall(text))


_MASK_OFF = on_use(r"""(?:sampling_mask|sampling-mask|SAMPLING_MASK)["']?[ \t]*(?::[ \t]*bool[ \t]*)?[=:][ \t]*False\b""")
_RUNNER_KEPT = on_use(
    r"""(?:(?:\.get|getenv|delenv|\.pop|unsetenv)\([ \t]*["']VLLM_USE_V2_MODEL_RUNNER["']"""
    r"""|["']VLLM_USE_V2_MODEL_RUNNER["'][ \t]*(?:,|:|\][ \t]*=(?!=))[ \t]*["'](?:1|true|True)["']"""
    r"""|\benvs\.VLLM_USE_V2_MODEL_RUNNER\b(?![ \t]*=[^=]))"""
)


def _with_trainers(launches: list[Launch], source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The launches, a `trl vllm-serve` among them with what the file's TRL trainers send it (the
    others are left for a server another file starts)."""
    if not any(launch.framework is not None and launch.framework.package == "trl" for launch in launches) and not _builds_trainer(
        source.text
    ):
        return launches
    from .flow.trl_trainers import with_trainers  # imports TRL's adapter: only for a file that may use its server

    return with_trainers(launches, source, context)


def clients(source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The HTTP clients of a file the prefilter turned away (it starts no replay engine), left in
    `context` for the servers other files start (no launch is read)."""
    with_clients(_with_trainers([], source, context), source, context)
    return []


def config_readers(source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The engines the tree's Python builds from a config file (YAML, JSON, TOML) that turns the
    mask on, read through the modules near it that load it (`flow.config_loaders`)."""
    from .. import relevant  # the prefilter: a module it passes is checked on its own
    from .flow.config_loaders import reading_launches

    return reading_launches(source.path, context, lambda text: relevant("python", text.encode("utf-8", "surrogateescape")))


def script_runs(source: SourceFile, context: ExtractContext, read: list) -> list[Launch]:
    """The servers the tree's Python programs start with the words a shell script's runs give them
    (`flow.script_programs`; `read`: the spans of the launches the script's own reading found)."""
    from .flow.script_programs import spawned_by_runs

    return spawned_by_runs(source, context, read)


def _builds_trainer(text: str) -> bool:
    """Whether a file may build a TRL trainer config in server mode (`GRPOConfig(vllm_mode="server")`)."""
    return "Config(" in text and "trl" in text and "vllm_mode" in text


def _starting_calls(source: SourceFile, context: ExtractContext) -> list[Launch]:
    focused = focus(source.text, context.budget)
    if focused is None:
        return []
    if isinstance(focused, Settled):
        return focused.launches(source)
    # libcst takes about a millisecond a line: what it would cost is charged before it starts,
    # since its parse and positions cannot be interrupted.
    context.budget.charge(_read_by_libcst(focused) * _LIBCST_COST)
    from .launches import extract_focused

    return extract_focused(source, focused, context)


_LIBCST_COST = 10  # budget units (about a microsecond each) per character libcst reads


def _read_by_libcst(focused: str) -> int:
    """The characters of the focus libcst reads node by node (blanked lines cost it nothing)."""
    return len(focused) - focused.count(" ") - focused.count("\n")


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    from .rendering import render as render_fix

    return render_fix(launch, fix, source)


def parses(text: str) -> bool:
    from .launches import parses as libcst_parses

    return libcst_parses(text)


def program_requests(path: str, lines: tuple[int, ...], context: ExtractContext) -> tuple:
    """The requests the program at `path` sends to the engines it builds from its command line at
    `lines` (`from_cli_args`), and the defaults they rest on: for a launch of it another file makes
    (`frontends.program_requests`)."""
    from .flow.cli_args_requests import command_line_requests

    return command_line_requests(path, lines, context)
