"""The shape the request rules share: a replay launch's requests, each with what a message says
it was sent to, and the one field a rule reads of each. A rule keeps only its own facts: the
field, which requests it reads, which values are wrong and what to say of them."""

from __future__ import annotations

import enum
from typing import ClassVar, Iterator

from ..model import UNKNOWN, Launch, Request, Setting, Span
from ..records import record
from ..vllm.releases import Release
from ..vllm.unusable_masks import clients_of, is_server, own_requests
from .base import Report, Rule, sampling_mask


class Reads(enum.Enum):
    """Which requests of a launch a rule reads."""

    ALL = "all"  # every request: a framework's configured ones too (they stand in for what it sends), and `SENT`'s clients
    OWN = "own"  # those the tree writes to an engine it builds: a framework may not send its settings
    SENT = "sent"  # those, and what reaches a server over HTTP: the file's clients, or the framework's own


@record(unsafe_hash=True)
class Addressed:
    """A request and, for messages, what it goes to ("a replay engine", "the replay server
    started at line 4"), with the places to show beside it; `sender`: the framework that sends
    it (its configuration holds the fields), "" for a request the tree writes itself."""

    request: Request
    to: str
    related: tuple[Span, ...] = ()
    sender: str = ""


def server_mask(launch: Launch) -> Setting | None:
    """The setting that turns the mask on in a launch of vLLM's HTTP server whose words are all
    known; None for any other launch."""
    mask = sampling_mask(launch)
    return mask if mask is not None and is_server(launch) and not launch.open_ended else None


def replay_requests(launch: Launch, reads: Reads) -> Iterator[Addressed]:
    """The requests of a launch with sampling distribution replay on (none without it)."""
    if sampling_mask(launch) is None:
        return
    requests = launch.requests if reads is Reads.ALL else own_requests(launch)
    for request in requests:
        yield Addressed(request, "a replay engine")
    if reads is not Reads.OWN:
        yield from sent_requests(launch)


def sent_requests(launch: Launch) -> Iterator[Addressed]:
    """The requests the tree's HTTP clients send to a replay server (none for another launch)."""
    if sampling_mask(launch) is None or not (is_server(launch) or launch.framework is not None):
        return
    # A framework's own clients send what its configuration holds (TRL's trainers); any HTTP
    # client of a framework's server (SkyRL's standalone one) sends what it writes itself.
    sender = launch.framework.name if launch.framework is not None and clients_of(launch) else ""
    for request in launch.clients:
        yield Addressed(request, f"the replay server started at {started_at(launch, request)}", (launch.span,), sender)


# The request fields `--override-generation-config` can set (vLLM 0.34.0 `config/model.py:1905-1915`,
# `get_diff_sampling_param`): the server fills them into requests that leave them unset
# (`entrypoints/openai/completion/protocol.py:367-375`, `scale_out/render/serving.py:107-178`).
_SERVER_DEFAULTS = ("repetition_penalty", "presence_penalty", "frequency_penalty", "temperature", "top_k", "top_p", "min_p")


def server_default(launch: Launch, name: str) -> Setting | None:
    """The value a replay server's `--override-generation-config` gives a request field, placed
    at its key when the key has its own place; None when it sets none (or is not known)."""
    return override_defaults(launch).get(name) if name in _SERVER_DEFAULTS else None


def override_defaults(launch: Launch) -> dict[str, Setting]:
    """The keys a replay server's `--override-generation-config` sets to a known value, each
    placed at its key when the key has its own place (else at the flag's value, the word written,
    spelled as the flag)."""
    override = launch.get("override_generation_config")
    if override is None or not isinstance(override.value, dict) or sampling_mask(launch) is None or not is_server(launch):
        return {}
    where = override.value_span or override.span
    placed = {name: override.keys.get(name) or Setting(name, value, where, override.spelling) for name, value in override.value.items()}
    return {name: setting for name, setting in placed.items() if setting.known and override.value[name] is not UNKNOWN}


def started_at(launch: Launch, request: Request, port: int = 0, condition: str = "") -> str:
    """Where a server starts, as a message on its client's request says it: the line, and the
    file when the client is in another one; with the defaults the tie rests on (`condition`:
    the server's, on `port`; the request's own: its address read with an environment default)."""
    where = launch.span
    said = f"line {where.start_line}" if where.path == request.span.path else f"{where.path}:{where.start_line}"
    notes = [f"on port {port} when {condition}"] if condition else []
    if request.condition and request.condition == condition:
        notes = [f"on port {port} when {condition}, the server's and the client's default"]
    elif request.condition:
        notes.append(f"the client's address is its default when {request.condition}")
    return f"{said} ({'; '.join(notes)})" if notes else said


def resting_on(setting: Setting) -> tuple[str, ...]:
    """What a request's value rests on, for its message: "when `THINK_BUDGET` is unset"."""
    return (f"when {setting.condition}",) if setting.condition else ()


class RequestFieldRule(Rule):
    """A rule on one field of the requests a replay engine receives: `flags` says which of its
    values are wrong, `describe` what to say of one (`to`: what the request goes to), `evidence`
    the places besides the request that decide (the model's config)."""

    field: ClassVar[str]
    reads: ClassVar[Reads] = Reads.ALL

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        for addressed in replay_requests(launch, self.reads):
            setting = addressed.request.settings.get(self.field)
            if setting is not None and self.wrong(setting, launch):
                subject, verdict = self.describe(setting, addressed.to, launch)
                related = (*addressed.related, *self.evidence(launch))
                place = self.place(setting, launch)
                related = related if place == setting.span else (setting.span, *related)
                yield Report(place, subject, verdict, related=related, absent=setting.implied, conditions=resting_on(setting))
        default = server_default(launch, self.field)
        if default is not None and self.flags(default, launch):
            subject, verdict = self.describe(default, "this replay server", launch)
            subject += " (--override-generation-config makes it the default of every request the server renders)"
            yield Report(default.span, subject, verdict, related=self.evidence(launch))

    def flags(self, setting: Setting, launch: Launch) -> bool:
        raise NotImplementedError

    def wrong(self, setting: Setting, launch: Launch) -> bool:
        """Whether the value a request sends is wrong: for one of several values by a test decided at
        run time (`4096 if hard else 1024`), whether every one is."""
        if setting.choices:
            return all(self.flags(choice, launch) for choice in setting.choices)
        return self.flags(setting, launch)

    def place(self, setting: Setting, launch: Launch) -> Span:
        """Where a finding on the request's value sits: where the value is decided."""
        return setting.span

    def describe(self, setting: Setting, to: str, launch: Launch) -> tuple[str, str]:
        """The subject and vLLM's verdict."""
        raise NotImplementedError

    def evidence(self, launch: Launch) -> tuple[Span, ...]:
        return ()
