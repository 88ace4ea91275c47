"""The format-free facts every frontend produces and every rule reads.

A frontend turns one file into `Launch` objects: the engine settings and environment of one vLLM start, each
fact with the `Span` of the text that produced it. Rules read launches and yield `Finding`s whose `Fix` holds
abstract intents; the frontend that made the launch turns intents back into text `Edit`s in its own syntax.
"""

from __future__ import annotations

import enum
from dataclasses import field, replace
from itertools import accumulate
from typing import Any, Mapping

from .records import record
from .regexes import on_use


class _Unknown:
    """A value that exists but cannot be known statically (a variable, a call, `$X`)."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        raise TypeError("UNKNOWN has no truth value; test `value is UNKNOWN` first")

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


@record(frozen=True, order=True)
class Span:
    """A region of one file. Lines and columns are 1-based; `end_col` is exclusive.

    Offsets index the decoded text of the file (`str` positions), which is what fixes edit.
    """

    path: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    start: int
    end: int

    def cover(self, other: Span) -> Span:
        """The smallest span of the same file holding both spans."""
        first, last = (self, other) if self.start <= other.start else (other, self)
        end = self if self.end >= other.end else other
        return Span(self.path, first.start_line, first.start_col, end.end_line, end.end_col, first.start, end.end)


class LineIndex:
    """Turns offsets of one text into `Span`s. Lines end at `\r\n`, `\n` or a lone `\r`, as
    in Python's tokenizer, libcst and editors (a lone `\r` is rare, but libcst counts it)."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self._starts = _line_starts(text)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of an offset."""
        import bisect

        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def offset(self, line: int, col: int) -> int:
        """Offset of a 1-based (line, column)."""
        return self._starts[line - 1] + col - 1

    def span(self, start: int, end: int) -> Span:
        start_line, start_col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(self.path, start_line, start_col, end_line, end_col, start, end)

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def lines(self) -> list[str]:
        """The lines with their line breaks, numbered as `position` numbers them."""
        return [self.text[start:end] for start, end in zip(self._starts, self._starts[1:] + [len(self.text)]) if end > start]

    def line_text(self, line: int) -> str:
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


_LINE_BREAK = on_use(r"\r\n?|\n")


def _line_starts(text: str) -> list[int]:
    """The offset of each line of `text` (a text without `\r` split in C: 5x faster on a large module)."""
    if "\r" in text:
        return [0] + [match.end() for match in _LINE_BREAK.finditer(text)]
    return [0, *accumulate(len(line) + 1 for line in text.split("\n")[:-1])]


_WORD_END = on_use(r"\w(?=\W)")


def snippet(text: str, limit: int = 60) -> str:
    """`text` on one line for a message, about `limit` characters, never cut inside a word: a longer text
    ends with the word that crosses the limit, then ` ...`, unless little is left (a dotted key such as
    `actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask: true` stays whole); only a word
    over twice the limit is cut, where a name meets punctuation."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    end = text.find(" ", limit - 4)
    if end < 0 or len(text) - end <= 10:  # a short value after the key (`: true`) is kept
        end = len(text)
    if end <= 2 * limit:
        return text if end == len(text) else text[:end] + " ..."
    ends = [match.end() for match in _WORD_END.finditer(text[: limit - 2])]
    return text[: ends[-1] if ends else limit - 3] + "..."


@record(frozen=True)
class Setting:
    """One engine argument (or environment variable) as the launch gives it.

    `name` is the engine-arg field (`logprobs_mode`) or the variable name; `spelling` is the text as written
    (`--logprobs_mode`, `logprobs_mode=`, `logprobs-mode:`), so messages can quote the user. `keys` holds
    sub-settings of a dict value that have their own spans (dotted flags, YAML maps, dict literals), keyed by
    the normalised key name; `choices`, the values of a test decided at run time (`4096 if hard else 1024`:
    `value` is then UNKNOWN)."""

    name: str
    value: Any
    span: Span
    spelling: str
    value_span: Span | None = None
    keys: Mapping[str, Setting] = field(default_factory=dict)
    condition: str | None = None
    implied: bool = False  # set by a framework or a default, not written by the user
    replaces: Setting | None = None  # what the framework would set were this not written (prime-rl's setdefault)
    via: tuple[Span, ...] = ()  # the places the value passed through to reach the launch (a call, a return, an import)
    choices: tuple[Setting, ...] = ()

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN

    def quoted(self) -> str:
        """The user's own text for this setting, as a short inline-code snippet for messages."""
        return f"`{snippet(self.spelling)}`"


class LaunchKind(str, enum.Enum):
    PYTHON_CALL = "python-call"
    CLI = "cli"
    DOCKERFILE = "dockerfile"
    KUBERNETES = "kubernetes"
    COMPOSE = "compose"
    HELM = "helm"
    VLLM_CONFIG = "vllm-config"
    FRAMEWORK = "framework"


@record(frozen=True)
class ArgIssue:
    """Something the argument parser of vLLM would choke on, found while reading a launch.

    `kind` names the problem (`switch-with-value`, `config-equals-ignored`, ...); rules decide what to report.
    `spelling` is the offending text."""

    kind: str
    span: Span
    spelling: str
    name: str = ""
    detail: str = ""


@record(frozen=True)
class VersionHint:
    """Evidence of the vLLM release a launch runs on, found next to it (image tag, pin)."""

    releases: tuple[str, ...]
    source: str
    span: Span | None = None


@record(frozen=True)
class Request:
    """A generate request sent to an engine of a launch (Python: `SamplingParams`)."""

    kind: str  # "sampling" or "beam_search"; "http" for a client's request to a server (`clients`)
    span: Span
    settings: Mapping[str, Setting]
    open_ended: bool = False
    endpoint: str = ""  # the route an HTTP request is sent to (`/v1/completions`)
    condition: str = ""  # what an HTTP client's address rests on ("`VLLM_PORT` is unset": `os.getenv` defaults)


@record(frozen=True)
class Framework:
    """The RL framework that builds a launch from its own configuration, and the edition of its
    code (a release or a commit) whose behaviour the launch follows.

    `passes` is how the settings reach vLLM: `words` (a command line vLLM's parser reads),
    `keywords` (`EngineArgs(**kwargs)`: an unknown name is a TypeError) or `attributes` (set on
    vLLM's argparse namespace: an unknown name is silently ignored). `editions` holds the launch
    as each edition builds it; `edition` is the one this launch follows ("" while the editions
    disagree and no evidence chose one: then only what they agree on is known), `evidence` what
    chose it.
    """

    name: str
    package: str
    edition: str = ""
    passes: str = "words"
    evidence: str = ""
    editions: Mapping[str, Launch] = field(default_factory=dict, compare=False, repr=False)


@record(frozen=True)
class Assumption:
    """A default the launch was built with (`${MODEL:-Qwen/Qwen3-8B}`, `: "${BACKEND:=vllm}"`,
    `${1:-vllm}`), and `condition`, when it holds ("`MODEL` is unset"). What rests on it: the
    words it gave (`span`: findings there); else, with `whole`, the launch itself (without the
    default there would be no launch); else the launch's completeness (an unquoted default that,
    set otherwise, may add any words: findings on an absent setting)."""

    condition: str
    span: Span | None = None
    whole: bool = False
    positional: int = 0  # the script's argument the condition is about (`${1:-vllm}`: 1)


@record(frozen=True)
class Plugin:
    """A `vllm.logits_processors` entry point installed where a launch runs: its name, its
    target (`pkg.procs:BanWords`), the line that declares it (packaging in the tree, or an
    installed distribution's `entry_points.txt`), what installs it there, and the line that
    does (a Dockerfile's `RUN pip install`, a requirements line), when there is one."""

    name: str
    target: str
    span: Span
    installed_by: str
    installed_at: Span | None = None

    def install_spans(self) -> tuple[Span, ...]:
        return () if self.installed_at is None else (self.installed_at,)

    def as_setting(self) -> Setting:
        """The plugin as the custom logits processor setting it amounts to for the runner choice."""
        return Setting(PLUGIN_SETTING, (self.target,), self.span, f"{self.name} = {self.target}", implied=True)


PLUGIN_SETTING = "logits_processor_plugin"  # never an engine argument: a plugin as a setting
UNNAMED_REASON = "a value not known here"  # why a launch is open-ended when what opened it has no text


@record(frozen=True)
class Launch:
    """One vLLM engine start and everything known about it. `forwarded`: the script's own arguments (`"$@"`, `$*`, `"$1"`) the launch was judged
    without: it is complete as written, and a finding on an absent setting says that the
    script's arguments may set it. `assumptions`: the defaults it was built with. `config_alone`: a framework's
    or vLLM's config judged as if a program ran it as written (launches of its tree that read it judge it instead)."""

    kind: LaunchKind
    span: Span
    settings: Mapping[str, Setting]
    env: Mapping[str, Setting] = field(default_factory=dict)
    open_reasons: tuple[str, ...] = ()  # why settings may be set beyond those read (`**kwargs`, `"$@"`, an unread file)
    env_open: bool = False
    version_hint: VersionHint | None = None
    issues: tuple[ArgIssue, ...] = ()
    requests: tuple[Request, ...] = ()
    condition: str | None = None
    label: str = ""
    handle: Any = field(default=None, compare=False, repr=False)
    framework: Framework | None = None
    forwarded: tuple[str, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    plugins: tuple[Plugin, ...] = ()  # logits-processor plugins installed where it runs
    entrypoint: str = ""  # the vLLM program a command starts (`serve`, `api_server`, `dynamo`); "" for the others
    clients: tuple[Request, ...] = ()  # HTTP requests the same file sends to this server (its port)
    vocabulary: Setting | None = None  # the `vocab_size` of its model's config.json, when the tree holds the model
    generation_defaults: tuple[Setting, ...] | None = None  # its model's generation_config.json's sampling fields (() none; None: unknown)
    hosts: tuple[str, ...] = ()  # names besides the local ones that reach this server (a compose service, a Kubernetes Service)
    local: bool = True  # whether its local names (`localhost`) reach it: not a compose service that publishes its port elsewhere
    local_condition: str = ""  # what that rests on: `ports: ["${PORT:-8000}:8000"]` publishes 8000 when "`PORT` is unset"
    config_alone: bool = False
    source_lines_by_launchers: bool = False  # `config_alone` for its findings in the framework's source (a fork's line) only

    def __post_init__(self) -> None:
        if "" in self.open_reasons:  # a word that says nothing of itself (an empty spread) still names a reason
            object.__setattr__(self, "open_reasons", tuple(reason or UNNAMED_REASON for reason in self.open_reasons))

    @property
    def open_ended(self) -> bool:
        """Whether settings not read here may reach vLLM; `open_reasons` say why."""
        return bool(self.open_reasons)

    def get(self, name: str) -> Setting | None:
        return self.settings.get(name)

    def value(self, name: str, default: Any = None) -> Any:
        setting = self.settings.get(name)
        return default if setting is None else setting.value

    def path_to(self, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        """How the settings a finding points at (`spans`) reach the launch: the places their
        values passed through (`Setting.via`), then the launch itself, which a finding placed in
        another file (a fork's line) always names. Empty for settings written in the launch."""
        hops: list[Span] = []
        settings = [*self.settings.values(), *(s for request in self.requests for s in request.settings.values())]
        for setting in settings:
            if setting.via and (setting.span in spans or setting.value_span in spans):
                hops.extend(setting.via)
        if hops or (spans and all(span.path != self.span.path for span in spans)):  # nothing in the launch's file yet
            hops.append(self.span)
        return tuple(span for span in dict.fromkeys(hops) if span not in spans)


class Applicability(str, enum.Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@record(frozen=True)
class SetSetting:
    """Give engine argument `name` the value `value` (replace it in place or add it).

    A dotted name (`speculative_config.enable_adaptive_verification`) sets one key of a
    dict-valued setting. `after` names the setting a new one should follow when added.
    """

    name: str
    value: Any
    after: str = "return_sampling_mask"


@record(frozen=True)
class RemoveSetting:
    name: str


@record(frozen=True)
class RenameSetting:
    """Respell the name of a setting, keeping its value (a pre-release or misspelt name)."""

    name: str
    new_name: str


@record(frozen=True)
class SetEnv:
    name: str
    value: str


@record(frozen=True)
class RemoveEnv:
    name: str


@record(frozen=True)
class SplitWord:
    """Write the word at `span`, `--flag=value`, as the two words `--flag value` (only command
    lines have words to split; other frontends offer no fix)."""

    span: Span


Intent = SetSetting | RemoveSetting | RenameSetting | SetEnv | RemoveEnv | SplitWord


@record(frozen=True)
class Fix:
    applicability: Applicability
    title: str
    intents: tuple[Intent, ...]


@record(frozen=True, order=True)
class Edit:
    """Replace the text of `span` (its offsets) by `content`; insertions have an empty span."""

    span: Span
    content: str


VLLM = "vLLM"  # the speaker of most findings: the releases that judged the launch are named after it


@record(frozen=True)
class Message:
    """A finding's words in their parts, assembled once (`str`), as ruff's `Violation::message()`:
    what the launch writes (`subject`), what that rests on (`conditions`: "when MODEL is unset"),
    who judges it (`speaker`: "vLLM 0.32.0-0.34.0" with the releases that judged it, a framework,
    or nobody for the launch's own syntax) and what they say or do (`verdict`); `note` follows
    (a release newer than replaylint knows)."""

    subject: str
    verdict: str = ""
    speaker: str = ""
    conditions: tuple[str, ...] = ()
    note: str = ""

    def __str__(self) -> str:
        head = f"{self.subject} ({', '.join(self.conditions)})" if self.conditions else self.subject
        said = f"{self.speaker} {self.verdict}" if self.speaker else self.verdict
        return (f"{head}: {said}" if said else head) + self.note

    def on(self, condition: str) -> Message:
        """These words said of one branch of a script only."""
        return replace(self, conditions=(*self.conditions, condition))


@record(frozen=True)
class Finding:
    code: str
    name: str
    words: Message
    span: Span
    severity: str
    fix: Fix | None = None
    related: tuple[Span, ...] = ()
    releases: tuple[str, ...] = ()  # the vLLM releases the launch targets
    judged_by: tuple[str, ...] = ()  # the releases whose rules judged it (code replaylint read)
    launch: Launch | None = field(default=None, compare=False, repr=False)
    edits: tuple[Edit, ...] = field(default=(), compare=False)
    shared_with: tuple[Span, ...] = field(default=(), compare=False, repr=False)  # other launches that make it too

    @property
    def message(self) -> str:
        return str(self.words)

    @property
    def fixable(self) -> bool:
        return self.fix is not None and self.fix.applicability is not Applicability.DISPLAY_ONLY and bool(self.edits)
