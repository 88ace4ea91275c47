"""What a rule is: code, name, docs, the vLLM message it predicts, `check`, and examples.

A rule reads one `Launch` for one vLLM release and yields `Report`s. It never looks at syntax:
spans and spellings come from the frontend, and fixes are abstract intents.
"""

from __future__ import annotations

import sys
from dataclasses import field, replace
from typing import ClassVar, Iterator

from ..model import UNKNOWN, VLLM, Applicability, Fix, Launch, Message, Setting, Span
from ..records import record
from ..vllm.lax_values import as_bool
from ..vllm.releases import FIRST_WITH_MASK, Release


def as_number(value: object) -> float | None:
    """A request value as a number (None: not a number; a bool is none)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@record(unsafe_hash=True)
class Report:
    """One problem as a rule sees it, its words in parts (`model.Message`): `subject`, the launch's
    words; `verdict`, what `speaker` says or does with them. The speaker vLLM is named with the
    releases that judged the launch when the finding is made; another speaker (a framework) as
    given, and "" for the launch's own syntax."""

    span: Span
    subject: str
    verdict: str
    fix: Fix | None = None
    related: tuple[Span, ...] = ()
    severity: str | None = None
    absent: bool = False  # it rests on a setting being absent (a default vLLM or the framework applies)
    speaker: str = VLLM
    conditions: tuple[str, ...] = ()

    def words(self, judged_by: str, note: str = "") -> Message:
        """The finding's words, vLLM named with the releases that judged it (`note`: a release newer
        than replaylint knows)."""
        if self.speaker != VLLM:
            return Message(self.subject, self.verdict, self.speaker, self.conditions)
        return Message(self.subject, self.verdict, f"{VLLM} {judged_by}", self.conditions, note)


@record(unsafe_hash=True)
class Example:
    """A file a rule must accept (VALID) or flag (INVALID), run by the test suite.

    `message` is a fragment every finding of the rule on this file must contain; `release`
    is the vLLM release the file is judged against; `fixed` is the file after `--fix`
    (with `--unsafe-fixes` when the rule's fix is unsafe).
    """

    source: str
    filename: str = "launch.py"
    release: str = "0.33.0"
    message: str = ""
    count: int = 1
    fixed: str | None = None
    files: dict[str, str] = field(default_factory=dict)


def Valid(source: str, filename: str = "launch.py", release: str = "0.33.0", **extra: object) -> Example:
    return Example(source, filename, release, count=0, **extra)  # type: ignore[arg-type]


def Invalid(source: str, filename: str = "launch.py", release: str = "0.33.0", **extra: object) -> Example:
    return Example(source, filename, release, **extra)  # type: ignore[arg-type]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    severity: ClassVar[str] = "error"
    since: ClassVar[Release] = FIRST_WITH_MASK
    until: ClassVar[Release | None] = None
    vllm_message: ClassVar[str] = ""
    fix_applicability: ClassVar[Applicability | None] = None
    preview: ClassVar[bool] = False  # off unless selected by its own code or name
    VALID: ClassVar[tuple[Example, ...]] = ()
    INVALID: ClassVar[tuple[Example, ...]] = ()

    def applies_to(self, release: Release) -> bool:
        return release >= self.since and (self.until is None or release.series <= self.until.series)

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        raise NotImplementedError

    def reports(self, launch: Launch, release: Release) -> Iterator[Report]:
        """`check`, each report saying what it rests on (`conditioned`)."""
        for report in self.check(launch, release):
            yield conditioned(report, launch)

    @classmethod
    def documentation(cls) -> str:
        """The rule's user documentation: its module docstring (ruff's headings)."""
        import inspect

        return inspect.cleandoc(sys.modules[cls.__module__].__doc__ or "")


class EngineRule(Rule):
    """A rule the engine reports itself (reading files, applying suppressions), for every
    release, not by looking at launches."""

    since = Release(0, 0)

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        return iter(())


class BesideMaskRule(Rule):
    """A rule on one engine setting that vLLM accepts beside the mask: `setting` names it,
    `flags` says which of its values are wrong, `describe` what to say of one (`mask`: the
    setting that turns the mask on, shown beside it)."""

    setting: ClassVar[str]

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask, found = sampling_mask(launch), launch.get(self.setting)
        if mask is not None and found is not None and self.flags(found):
            yield Report(found.span, *self.describe(found, mask), related=(mask.span,))

    def flags(self, setting: Setting) -> bool:
        raise NotImplementedError

    def describe(self, setting: Setting, mask: Setting) -> tuple[str, str]:
        """The subject and vLLM's verdict."""
        raise NotImplementedError


def sampling_mask(launch: Launch) -> Setting | None:
    """The setting that turns the mask on, or None when it is off, absent or unknowable."""
    setting = launch.get("return_sampling_mask")
    if setting is None or setting.value is UNKNOWN:
        return None
    return setting if as_bool(setting.value) is True else None


def quote(setting: Setting) -> str:
    return setting.quoted()


def says(message: str) -> str:
    """The verdict of a compatibility report: vLLM's own words."""
    return f'says "{message}"'


ARGUMENTS_CAVEAT = "unless the script's arguments set it"


def conditioned(report: Report, launch: Launch) -> Report:
    """The report with what it rests on, before vLLM's words: the defaults the launch was built
    with (`${MODEL:-Qwen/Qwen3-8B}`: "when `MODEL` is unset") whose words it points at, or without
    which there would be no launch, or, for a report on an absent setting, no complete launch;
    and, for a report on an absent setting, the script's forwarded arguments (`"$@"`), which the
    launch was judged without: "unless the script's arguments set it"."""
    spans = (report.span, *report.related)
    resting = [
        assumption
        for assumption in launch.assumptions
        if assumption.whole
        or (assumption.span is None and report.absent)
        or (assumption.span is not None and any(_overlap(assumption.span, span) for span in spans))
    ]
    when = list(dict.fromkeys(assumption.condition for assumption in resting))
    # Run without arguments, the script forwards none: that condition says it all.
    unless = report.absent and launch.forwarded and not any(assumption.positional == 1 for assumption in resting)
    if not when and not unless:
        return report
    said = ("when " + " and ".join(when) if when else "", ARGUMENTS_CAVEAT if unless else "")
    return replace(report, conditions=(*report.conditions, *filter(None, said)))


def _overlap(one: Span, other: Span) -> bool:
    return one.path == other.path and one.start < max(other.end, other.start + 1) and other.start < max(one.end, one.start + 1)
