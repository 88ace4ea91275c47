"""Editions of an RL framework: the releases and commits whose code an adapter followed, as data.

A framework's defaults change between releases (verl 0.9.0 merges the user's
`speculative_config` into MTP's, 0.8.0 replaced it; NeMo-RL 0.7.0 hard-codes
`processed_logprobs`, its main branch leaves vLLM's default). Each edition is a frozen record: the
adapter's subclass of `Edition` (`VerlEdition`, `NemoRlEdition`, `PrimeRlEdition`, `TrlEdition`)
holds what that release or commit does (its defaults, the keys and flags it has, what it forces),
cited, and the adapter reads those facts instead of comparing edition names. An adapter builds its
launch once per edition (`build`). Which edition runs is chosen by evidence:

- a key only one edition has (NeMo-RL's `policy.sampling_mask_replay`, prime-rl's
  `enable_return_sampling_mask`), given to `build` by the adapter;
- the project's pin of the framework's package (`choose`, called by the engine once the
  project's pins are known): an exact version, a range whose known releases all belong to one
  edition, a git tag or branch, or a commit replaylint read. A pin beats a key: it is what runs.

Without evidence the launch holds what every edition agrees on (`unite`): a setting the editions
disagree about is unknown, so no rule reports on it (precision first), and a note says so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Collection, Generic, Iterable, Protocol, Sequence, TypeVar

from ..framework_registry import ADAPTERS, pinned_packages
from ..model import UNKNOWN, Framework, Launch, Request, Setting
from ..records import record
from ..vllm.releases import Release


@record(unsafe_hash=True)
class Edition:
    """One release or commit of a framework whose code was read.

    `releases`: the published versions read that behave as this edition (a range of versions
    between two editions' releases is judged by the older one); `refs`: git tags, branches and
    commits (full SHAs) read that behave as it; `source`: where its behaviour was read (files and
    lines at that release or commit). An adapter's subclass adds the facts its code reads."""

    name: str
    releases: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    source: str = ""


E = TypeVar("E", bound=Edition)


@record(unsafe_hash=True)
class Editions(Generic[E]):
    """The editions of one framework, newest first; `package` is the name its pins use."""

    framework: str
    package: str
    passes: str
    editions: tuple[E, ...]

    def named(self, name: str) -> E:
        return next(edition for edition in self.editions if edition.name == name)

    def owner(self, edition: Edition) -> str:
        """`verl 0.9.1`: whose defaults a message names."""
        return f"{self.framework} {edition.name}"


class PackagePin(Protocol):
    """What a project pins of one package (`project.evidence.PackagePin`)."""

    versions: tuple[str, ...]
    refs: tuple[str, ...]

    def admits(self, release: Release) -> bool: ...

    def ranged(self) -> bool: ...

    def describe(self) -> str: ...


def build(
    family: Editions[E], make: Callable[[E], Launch | None], key: tuple[str, str] | None = None, united_from: Collection[str] | None = None
) -> Launch | None:
    """The launch of `make` under every edition, united (see the module docstring). `key`:
    (edition name, the key only it has, as written) when the configuration shows one;
    `united_from`: the editions the launch is written for, which alone are united when no pin
    chooses one (a pin still chooses among all)."""
    made = [(edition, make(edition)) for edition in family.editions]
    launches = {edition.name: launch for edition, launch in made if launch is not None}
    if not launches:
        return None
    framed = {name: _framed(launch, family, name, "", launches) for name, launch in launches.items()}
    if key is not None and key[0] in framed:
        name, written = key
        return _with_evidence(framed[name], f"{written} (only {family.owner(family.named(name))} has it)")
    united = [launch for name, launch in framed.items() if united_from is None or name in united_from]
    return _framed(unite(united or list(framed.values())), family, "", "", framed)


def _framed(launch: Launch, family: Editions, edition: str, evidence: str, launches: dict[str, Launch]) -> Launch:
    framework = Framework(family.framework, family.package, edition, family.passes, evidence, launches)
    return replace(launch, framework=framework)


def _with_evidence(launch: Launch, evidence: str) -> Launch:
    assert launch.framework is not None
    return replace(launch, framework=replace(launch.framework, evidence=evidence))


# -- choosing by the project's pin ---------------------------------------------------------------


def editions_for(family: Editions, pin: PackagePin) -> list[Edition]:
    """The editions a pin admits: one for a version, a tag or a commit read; those whose
    releases a range admits (a range above every release read: the newest edition)."""
    for ref in pin.refs:
        for edition in family.editions:
            if any(_same_ref(ref, known) for known in edition.refs):
                return [edition]
    found = [edition for edition in (_by_version(family, version) for version in pin.versions) if edition is not None]
    if pin.ranged() and not pin.versions:
        found = [edition for edition in family.editions if any(pin.admits(release) for release in _releases(edition))]
        newest = max((release for edition in family.editions for release in _releases(edition)), default=None)
        if not found and newest is not None and _above(pin, newest):
            found = [edition for edition in [_by_version(family, str(newest))] if edition is not None]
    return [edition for edition in family.editions if edition in found]


def _same_ref(written: str, known: str) -> bool:
    """A tag or branch by name, a commit by a prefix of at least seven hex digits."""
    if written == known:
        return True
    hexadecimal = all(c in "0123456789abcdef" for c in written.lower())
    return hexadecimal and len(written) >= 7 and known.lower().startswith(written.lower())


def _releases(edition: Edition) -> list[Release]:
    return [release for release in (Release.parse(text) for text in edition.releases) if release is not None]


def _by_version(family: Editions, version: str) -> Edition | None:
    """The edition whose releases hold `version`: the newest edition with a release at or
    below it (a release newer than every one read is judged by the newest edition, one older
    than every one read by the oldest)."""
    release = Release.parse(version)
    dated = [(min(_releases(edition)), edition) for edition in family.editions if _releases(edition)]
    if release is None or not dated:
        return None
    below = [(first, edition) for first, edition in dated if first <= release]
    return max(below, key=lambda pair: pair[0])[1] if below else min(dated, key=lambda pair: pair[0])[1]


def _above(pin: PackagePin, newest: Release) -> bool:
    """A range that admits no known release but some newer one (`verl>=0.10`)."""
    return any(pin.admits(Release(newest.major, newest.minor + step, patch)) for step in range(1, 4) for patch in (0, 1))


def choose(launch: Launch, pin: PackagePin | None) -> tuple[Launch, str]:
    """The launch as the editions the project pins build it (what they agree on when a range
    admits several), and a note when the editions disagree and nothing chose among them."""
    framework = launch.framework
    if framework is None or not framework.editions:
        return launch, ""
    family = family_of(framework.package)
    admitted = [e.name for e in editions_for(family, pin) if e.name in framework.editions] if family and pin else []
    if admitted:
        built = [framework.editions[name] for name in admitted]
        chosen = replace(unite(built), framework=replace(framework, edition=admitted[0] if len(built) == 1 else ""))
        chosen = replace(
            chosen,
            handle=launch.handle,
            env_open=launch.env_open,
            condition=launch.condition,
            kind=launch.kind,
            span=launch.span,
            assumptions=launch.assumptions,  # the defaults of the script that started it
            config_alone=launch.config_alone,
            source_lines_by_launchers=launch.source_lines_by_launchers,
        )
        return _with_evidence(chosen, pin.describe()), ""  # type: ignore[union-attr]
    built = list(framework.editions.values())
    if framework.edition or family is None or not any(_replays(each) for each in built) or _agree(built):
        return launch, ""
    known = [edition for edition in reversed(family.editions) if edition.name in framework.editions]
    names = ", ".join(edition.name for edition in known)
    releases = sorted(release for edition in known for release in _releases(edition))
    if len(known) > 4 and releases:  # OpenRLHF's 24
        names = f"{releases[0]} to {releases[-1]}, {len(known)} in all"
    return launch, (
        f"{framework.name}: no pin of {framework.package} was found, and its editions ({names}) build this launch "
        "differently: only what they agree on is checked"
    )


def _replays(launch: Launch) -> bool:
    """Whether an edition's launch is one replay rules have anything to say of: it asks for the
    mask, or the framework refuses it (a launch without either is not worth a note)."""
    mask = launch.settings.get("return_sampling_mask")
    return bool(launch.issues) or (mask is not None and mask.value is not False and mask.value is not None)


def _agree(launches: Sequence[Launch]) -> bool:
    """Whether the editions build the same values (their spellings name each edition)."""

    def values(settings: Any) -> dict[str, Any]:
        return {name: setting.value for name, setting in settings.items()}

    def facts(launch: Launch) -> tuple:
        requests = [values(request.settings) for request in launch.requests]
        return values(launch.settings), values(launch.env), requests, [(i.kind, i.name, i.detail) for i in launch.issues]

    return all(facts(launch) == facts(launches[0]) for launch in launches[1:])


# The packages whose pins choose an edition (the registry's `Adapter.packages`): a result cache
# keys files by them.
PINNED_PACKAGES = pinned_packages()


def family_of(package: str) -> Editions[Any] | None:
    """The editions of the framework a project pins by `package`: the attribute its registry
    entry names (`Adapter.editions`) of its adapter module (imported now, if no launch of it has
    been read yet)."""
    for adapter in ADAPTERS:
        if adapter.editions and package in adapter.packages:
            return getattr(adapter.load(), adapter.editions)
    return None


# -- what every edition agrees on ----------------------------------------------------------------


def unite(launches: Sequence[Launch]) -> Launch:
    """One launch holding what every launch agrees on: a setting they disagree about (or that
    only some hold) keeps its first place and spelling with an unknown value; requests likewise;
    an issue is kept when every launch has it; the launch is open-ended when any is."""
    first = launches[0]
    if all(launch == first for launch in launches[1:]):
        return first
    reasons = dict.fromkeys(launch.open_reasons for launch in launches)  # each launch's reasons once, as they were
    return replace(
        first,
        settings=_unite_settings([launch.settings for launch in launches]),
        env=_unite_settings([launch.env for launch in launches]),
        open_reasons=tuple(reason for reasons_of_one in reasons for reason in reasons_of_one),
        issues=tuple(issue for issue in first.issues if all(issue in launch.issues for launch in launches[1:])),
        requests=_unite_requests([launch.requests for launch in launches]),
    )


_ABSENT = object()


def _unite_settings(groups: Sequence[Any]) -> dict[str, Setting]:
    names = list(dict.fromkeys(name for group in groups for name in group))
    united = {}
    for name in names:
        found = [group.get(name) for group in groups]
        present = [setting for setting in found if setting is not None]
        values = [setting.value if setting is not None else _ABSENT for setting in found]
        value = _unite_value(values)
        replaces = next((setting.replaces for setting in present if setting.replaces is not None), None)
        choices = present[0].choices if all(setting is not None and setting.choices == present[0].choices for setting in found) else ()
        united[name] = replace(present[0], value=value, replaces=replaces, choices=choices)  # run-time choices only where all agree
    return united


def _unite_value(values: Sequence[Any]) -> Any:
    first = values[0]
    if all(_equal(value, first) for value in values[1:]):
        return first
    if all(isinstance(value, dict) for value in values):
        keys = list(dict.fromkeys(key for value in values for key in value))
        return {key: _unite_value([value.get(key, _ABSENT) for value in values]) for key in keys}
    return UNKNOWN


def _equal(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _unite_requests(groups: Sequence[Iterable[Request]]) -> tuple[Request, ...]:
    lists = [tuple(group) for group in groups]
    if any(len(group) != len(lists[0]) for group in lists):
        # requests only some editions send (prime-rl main's train requests): nothing is agreed
        unknown = [
            {name: replace(setting, value=UNKNOWN, choices=()) for name, setting in request.settings.items()} for request in lists[0]
        ]
        return tuple(replace(request, settings=settings, open_ended=True) for request, settings in zip(lists[0], unknown))
    united = []
    for requests in zip(*lists):
        settings = _unite_settings([request.settings for request in requests])
        united.append(replace(requests[0], settings=settings, open_ended=any(request.open_ended for request in requests)))
    return tuple(united)
