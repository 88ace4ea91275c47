"""Engine mappings of a data file (YAML, JSON, TOML: `frameworks.engine_mappings`) followed into
the tree's Python that reads the file. Found by content, such a mapping is open-ended (judged
only by rules that need no absent setting); where a Python module near the file loads it from
its own place and an engine of the tree is built from it, the Python frontend's value flow reads
that engine with every argument it gets (`python.config_readers`), and its launch takes the
mapping's place. A file whose mappings do not turn the mask on asks for nothing."""

from __future__ import annotations

from ..frameworks.engine_mappings import MASK, OPEN_REASON
from ..model import Edit, Fix, Launch, LaunchKind
from ..source import ExtractContext, SourceFile


def followed(launches: list[Launch], source: SourceFile, context: ExtractContext) -> list[Launch]:
    """`launches`, each engine mapping that turns the mask on replaced by the engines the tree's
    Python builds from it (kept where none is found)."""
    if not any(_mapping_turning_mask_on(launch) for launch in launches):
        return launches + _read_unrecognised(launches, source, context)
    from . import load  # the Python frontend: imported only for a file whose mapping turns the mask on

    python = load("python")
    read = python.config_readers(source, context) if python is not None else []
    if not read:
        return launches
    reached = {setting.span for launch in read for setting in launch.settings.values()}
    kept = [launch for launch in launches if not (_mapping_turning_mask_on(launch) and launch.settings[MASK].span in reached)]
    return sorted([*kept, *read], key=lambda launch: (launch.span.path != source.path, launch.span.start))


def _read_unrecognised(launches: list[Launch], source: SourceFile, context: ExtractContext) -> list[Launch]:
    """The engines the tree's Python builds from a mapping of this file that names the mask but is
    too small to be told an engine's by content (FlashRAG's `generator_engine_kwargs:` with the
    mask and `logprobs_mode` only): read by the value flow, precise as any flowed launch; none
    when a launch of the file already holds the mask."""
    if MASK not in source.text or any(MASK in launch.settings for launch in launches):
        return []
    from . import load

    python = load("python")
    return python.config_readers(source, context) if python is not None else []


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The edits of a fix to a launch `followed` found, as the Python frontend writes them; None
    for any other launch."""
    from . import load

    python = load("python")
    return python.render(launch, fix, source) if python is not None else None


def is_followed(launch: Launch) -> bool:
    """Whether a data file's launch is one `followed` found (a Python engine's, its handle the flow's)."""
    return launch.kind is LaunchKind.PYTHON_CALL and launch.handle is not None


def _mapping_turning_mask_on(launch: Launch) -> bool:
    setting = launch.settings.get(MASK)
    return OPEN_REASON in launch.open_reasons and setting is not None and setting.value is True
