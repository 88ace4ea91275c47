"""The state of the shell on one run-time path: variables, exported environment, `$@`."""

from __future__ import annotations

import itertools
import re
from dataclasses import field, replace
from itertools import groupby
from typing import Any, Iterable, Mapping

from ...command import EnvPlace
from ...model import UNKNOWN, Setting, VersionHint
from ...records import record
from .bindings import Bindings
from .values import Array, Assumed, Chunk, Container, Field, Hole, Partial, Scalar, Scope, Value

MAX_WORLDS = 8
_MAX_JOIN = 40_000  # pieces x pieces: two strings longer than this are not aligned, only forgotten
MAX_VALUE = 4_096  # words or pieces in one value: a bigger one is unknown (`set -- "$@" "$@"` in a loop)
MAX_TEXT = 1 << 20  # characters in one value whose pieces `fitted` joined
TOO_BIG = f"a value of more than {MAX_VALUE:,} pieces is not followed"  # RPL902 of a launch that reads it
OVERSIZED = object()
_NAME_EQUALS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)=\S*$")
MISSING = object()
# Environment variables launches carry: vLLM's own, Dynamo's (its worker reads DYN_ENABLE_RL), and
# those whose names say replay, which a fork's code may read to turn the mask on
# (`PRIME_RL_RETURN_SAMPLING_MASK=1`: `frameworks.prime_rl_fork.EnvSwitch`).
RELEVANT_ENV = ("VLLM_", "DYN_")
_SWITCH_WORDS = ("SAMPLING_MASK", "REPLAY")


def relevant_env(name: str) -> bool:
    return name.startswith(RELEVANT_ENV) or any(word in name for word in _SWITCH_WORDS)


@record(unsafe_hash=True)
class EnvEntry:
    setting: Setting
    place: EnvPlace | None


@record(unsafe_hash=True)
class Frame:
    """What a function call saves: variables made `local`, the caller's positional parameters."""

    saved: tuple[tuple[str, Any], ...]
    positional: tuple[Field, ...] | None


@record(unsafe_hash=True)
class RayCluster:
    """The Ray cluster a script started (`ray start`): the `VLLM_*` variables its processes, and
    so the jobs submitted to it, inherit; `env_open`: others we cannot name may be set."""

    env: Mapping[str, EnvEntry]
    env_open: bool = False


@record
class World:
    variables: Bindings[Value] = field(default_factory=Bindings)
    env: dict[str, EnvEntry] = field(default_factory=dict)  # in the environment of commands
    assigned: dict[str, EnvEntry] = field(default_factory=dict)  # last assignment (for `export NAME`)
    exported: frozenset[str] = frozenset()
    allexport: bool = False
    positional: tuple[Field, ...] | None = None
    conditions: tuple[str, ...] = ()
    env_open: bool = False
    pin: VersionHint | None = None
    frames: tuple[Frame, ...] = ()
    # Names the scripts read so far may assign (other than `X=${X:-v}`): a variable outside them,
    # neither known nor exported, is taken as unset for its default (`${X:-v}`). None: never.
    assigns: frozenset[str] | None = None
    # Variables whose value grew too big to follow (`fitted`), and where: unknown, and said
    # (RPL902) when a launch reads them. Replaced, never changed in place: copies share it.
    oversized: Mapping[str, int] = field(default_factory=dict)
    ray_cluster: RayCluster | None = None  # started by `ray start` (see `ray_jobs`)

    def copy(self, **changes: Any) -> World:
        copied = World.__new__(World)
        copied.__dict__.update(self.__dict__)  # `dataclasses.replace` costs ten times more, and copies are many
        copied.variables, copied.env, copied.assigned = self.variables.copy(), dict(self.env), dict(self.assigned)
        if "conditions" in changes:  # a condition met again adds nothing (it grew with every `if`)
            changes["conditions"] = tuple(dict.fromkeys(changes["conditions"]))
        for name, value in changes.items():
            setattr(copied, name, value)
        return copied

    def same_state(self, other: World) -> bool:
        """The same shell state (what the conditions that led here aside), in time proportional
        to what the two worlds changed since they parted."""
        return (
            self.positional == other.positional
            and (self.exported is other.exported or self.exported == other.exported)
            and (self.allexport, self.env_open, self.pin, self.frames) == (other.allexport, other.env_open, other.pin, other.frames)
            and self.env.keys() == other.env.keys()
            and all(entry is other.env[name] or _same_entry(entry, other.env[name]) for name, entry in self.env.items())
            and self.variables == other.variables
            and self.ray_cluster == other.ray_cluster
            and self.oversized == other.oversized
        )

    def scope(self, off: object = frozenset()) -> Scope:
        """What the expander reads; `off`: the defaults not to take (`Scope.off`), for the words
        as they would be without them (then nothing is assigned)."""
        if off:
            return Scope(self.variables, self.positional, unset=self._unset, off=off, oversized=self.oversized)
        return Scope(self.variables, self.positional, assign=self._assign_default, unset=self._unset, oversized=self.oversized)

    def _assign_default(self, name: str, value: Value) -> None:
        self.variables[name] = value

    def _unset(self, name: str) -> Assumed | None:
        """`name` is taken as unset, on that condition, when nothing the script runs may set it:
        no assignment in the scripts read, not exported, and nothing unread ran (`source`)."""
        if self.assigns is None or self.env_open or name in self.assigns or name in self.exported or name in self.variables:
            return None
        return Assumed(f"`{name}` is unset")

    def forget(self, arguments: bool = False) -> World:
        """Something we cannot read ran in this shell: every variable may have changed (with
        `arguments`, the positional parameters too: `eval` may run `set --`)."""
        return self.copy(variables=Bindings(), oversized={}, env_open=True, positional=None if arguments else self.positional)

    def grow(self, names: Mapping[str, bool], start: int, end: int) -> World:
        """A loop that appends to these strings, between `start` and `end`, ran any number of
        times: each keeps what it held before, followed by what nobody can tell (after a blank
        when every append starts with one: a word already there is not lengthened)."""
        copied = self.copy()
        for name, blank in names.items():
            value = copied.variables.get(name)
            if isinstance(value, (Scalar, Partial)):
                pieces = value.chunks if isinstance(value, Scalar) else value.parts
                separator = (Chunk(" ", start, start, False, True, True, None),) if blank else ()
                copied.variables[name] = Partial((*pieces, *separator, Hole(start, end, f"${{{name}}}", True)))
            else:
                copied.variables.pop(name, None)
            if name in copied.env:
                copied.env[name] = unknown_entry(copied.env[name])
        return copied

    def kill(self, names: Iterable[str]) -> World:
        names = set(names)
        if "*" in names:
            return self.forget()
        copied = self.copy()
        for name in names:
            copied.variables.pop(name, None)
            if name in copied.env:
                copied.env[name] = unknown_entry(copied.env[name])
        return copied


def _same_entry(one: EnvEntry, other: EnvEntry) -> bool:
    return one.setting.span == other.setting.span and repr(one.setting.value) == repr(other.setting.value)


def fitted(value: Value | None) -> Value | object | None:
    """`value` as the interpreter keeps it. One of more than `MAX_VALUE` pieces has the adjacent
    chunks written in one place joined (`S="$S$S"` thirteen times doubles one space into 8,192
    chunks: one chunk again, no longer exact); OVERSIZED when it is still too big."""
    if isinstance(value, Array):
        return value if len(value.elements) <= MAX_VALUE else OVERSIZED
    if not isinstance(value, (Scalar, Partial)):
        return value
    pieces = value.chunks if isinstance(value, Scalar) else value.parts
    if len(pieces) <= MAX_VALUE:
        return value
    joined = tuple(_joined_run(list(run)) for _, run in groupby(pieces, _origin))
    if len(joined) > MAX_VALUE or sum(len(piece.text) for piece in joined if isinstance(piece, Chunk)) > MAX_TEXT:
        return OVERSIZED
    return Scalar(joined) if isinstance(value, Scalar) else Partial(joined)  # type: ignore[arg-type]


def _origin(piece: Chunk | Hole) -> object:
    """What a chunk keeps once expanded again (how it is quoted is the new expansion's); a
    hole joins nothing."""
    return (piece.container, piece.assumed) if isinstance(piece, Chunk) else object()


def _joined_run(run: list[Chunk | Hole]) -> Chunk | Hole:
    first = run[0]
    if len(run) == 1 or not isinstance(first, Chunk):
        return first
    text = "".join(piece.text for piece in run)  # type: ignore[union-attr]
    start, end = min(piece.start for piece in run), max(piece.end for piece in run)
    return Chunk(text, start, end, False, first.quoted, first.expanded, first.container, None, first.assumed)


def unknown_entry(entry: EnvEntry) -> EnvEntry:
    return EnvEntry(replace(entry.setting, value=UNKNOWN), entry.place)


def join(worlds: list[World]) -> list[World]:
    """Worlds with the same state become one (keeping the conditions they share)."""
    merged: list[World] = []
    for world in worlds:
        kept = next((kept for kept in merged if kept.same_state(world)), None)
        if kept is None:
            merged.append(world)
        else:
            theirs = set(world.conditions)
            kept.conditions = tuple(c for c in kept.conditions if c in theirs)
    return merged if len(merged) <= MAX_WORLDS else [collapse(merged)]


def collapse(worlds: list[World]) -> World:
    """One world standing for many: what they do not agree on is unknown (strings built alike keep
    the pieces they share)."""
    first = worlds[0].copy()
    for other in worlds[1:]:
        for name in first.variables.differing(other.variables):
            if name not in first.variables:
                continue  # unknown here already
            common = _joined_string(first.variables[name], other.variables.get(name, MISSING), name)
            if common is None:
                first.variables.pop(name)
            else:
                first.variables[name] = common
        for name in set(first.env) | set(other.env):
            mine, theirs = first.env.get(name), other.env.get(name)
            if mine is None or theirs is None or mine.setting.value != theirs.setting.value or mine.setting.span != theirs.setting.span:
                first.env[name] = unknown_entry(mine or theirs)  # type: ignore[arg-type]
        if other.positional != first.positional:
            first.positional = None
        first.env_open = first.env_open or other.env_open
        first.oversized = {**other.oversized, **first.oversized}
        first.conditions = tuple(c for c in first.conditions if c in other.conditions)
        first.ray_cluster = _joined_cluster(first.ray_cluster, other.ray_cluster)
    return first


def _joined_cluster(one: RayCluster | None, other: RayCluster | None) -> RayCluster | None:
    """The cluster of paths that part: the variables they do not agree on are unknown."""
    if one == other:
        return one
    mine, theirs = (one.env if one else {}), (other.env if other else {})
    env = {name: entry if theirs.get(name) == mine.get(name) else unknown_entry(entry) for name, entry in {**theirs, **mine}.items()}
    return RayCluster(env, bool((one and one.env_open) or (other and other.env_open)))


def _joined_string(mine: Value, theirs: object, name: str) -> Partial | None:
    """Two strings built alike on two paths (`C="... vllm serve m ..."`, with `--enforce-eager`
    appended on one of them): the pieces both hold, in order (a longest common subsequence of
    their texts), with what nobody can tell where they part; None when they share nothing."""
    if not isinstance(mine, (Scalar, Partial)) or not isinstance(theirs, (Scalar, Partial)):
        return None
    ours = mine.chunks if isinstance(mine, Scalar) else mine.parts
    other = theirs.chunks if isinstance(theirs, Scalar) else theirs.parts
    if len(ours) * len(other) > _MAX_JOIN:
        return None
    longest = [[0] * (len(other) + 1) for _ in range(len(ours) + 1)]
    for i in range(len(ours) - 1, -1, -1):
        for j in range(len(other) - 1, -1, -1):
            same = _same_text(ours[i], other[j])
            longest[i][j] = longest[i + 1][j + 1] + 1 if same else max(longest[i + 1][j], longest[i][j + 1])
    if not longest[0][0]:
        return None
    joined: list[Chunk | Hole] = []
    runs: tuple[list[Chunk | Hole], list[Chunk | Hole]] = ([], [])
    i = j = 0
    while i < len(ours) or j < len(other):
        if i < len(ours) and j < len(other) and _same_text(ours[i], other[j]):
            joined.extend(_unknown_run(runs, name))
            runs = ([], [])
            joined.append(ours[i] if ours[i] == other[j] else replace(ours[i], exact=False))  # type: ignore[type-var]
            i, j = i + 1, j + 1
        elif j >= len(other) or (i < len(ours) and longest[i + 1][j] >= longest[i][j + 1]):
            runs[0].append(ours[i])
            i += 1
        else:
            runs[1].append(other[j])
            j += 1
    joined.extend(_unknown_run(runs, name))
    return Partial(tuple(joined))


def _unknown_run(runs: tuple[list[Chunk | Hole], list[Chunk | Hole]], name: str) -> list[Chunk | Hole]:
    """Where two strings part: one hole, after a blank when each side starts with one (or is
    empty), so the word before it is not lengthened."""
    if not runs[0] and not runs[1]:
        return []
    at = (runs[0] or runs[1])[0]
    blank = all(not run or (isinstance(run[0], Chunk) and run[0].text[:1].isspace()) for run in runs)
    separator: list[Chunk | Hole] = [Chunk(" ", at.start, at.start, False, True, True, None)] if blank else []
    return [*separator, Hole(at.start, at.end, f"${{{name}}}", True, assigns=_assigned_names(runs))]


def _assigned_names(runs: tuple[list[Chunk | Hole], list[Chunk | Hole]]) -> tuple[str, ...]:
    """`VLLM_PORT=$P` on one path, `VLLM_DP_MASTER_PORT=$P` on the other (or paths joined
    before): the names, when each side is one word that starts so; else none."""
    names: list[str] = []
    for run in runs:
        if run and isinstance(run[0], Hole) and run[0].assigns:
            names.extend(run[0].assigns)
        else:
            head = "".join(piece.text for piece in itertools.takewhile(lambda piece: isinstance(piece, Chunk), run))  # type: ignore[union-attr]
            match = _NAME_EQUALS.match(head)
            if match is None:
                return ()
            names.append(match.group(1))
        if any(isinstance(piece, Chunk) and any(c.isspace() for c in piece.text.lstrip()) for piece in run[1:]):
            return ()  # a second word
    return tuple(dict.fromkeys(names))


def _same_text(one: Chunk | Hole, other: Chunk | Hole) -> bool:
    """The same text (a piece of the file, or the same unknown), wherever it was written or
    expanded: the two branches of an `if` spell `VLLM_PORT=` twice."""
    if isinstance(one, Chunk) and isinstance(other, Chunk):
        return one.text == other.text
    return one == other


def child_shell(world: World, env: dict[str, EnvEntry], positional: tuple[Field, ...] | None, env_open: bool) -> World:
    """A new shell started by this one (`bash -c`, `bash <<EOF`): it sees exported variables only."""
    return World(
        variables=Bindings((name, value) for name, value in world.variables.items() if name in world.exported),
        env=env,
        exported=world.exported | frozenset(env),
        positional=positional,
        env_open=env_open,
        pin=world.pin,
        assigns=world.assigns,
        ray_cluster=world.ray_cluster,  # a job the new shell submits runs there too
    )


# The positional parameters of a script run as a file: its own arguments, which a launch that
# hands them on (`"$@"`) is judged without (`Field.forwarded`).
ARGUMENTS = (Field(None, 0, 0, '"$@"', Container(("arguments",), None, "words"), spread=True, forwarded=1),)


def make_local(world: World, name: str) -> World:
    frame = world.frames[-1]
    if any(saved_name == name for saved_name, _ in frame.saved):
        return world
    saved = (*frame.saved, (name, world.variables.get(name, MISSING)))
    return world.copy(frames=(*world.frames[:-1], Frame(saved, frame.positional)))


def leave(world: World) -> World:
    """Back from a function: its locals and `$@` are the caller's again."""
    if not world.frames:
        return world
    frame = world.frames[-1]
    left = world.copy(positional=frame.positional, frames=world.frames[:-1])
    for name, value in frame.saved:
        if value is MISSING:
            left.variables.pop(name, None)
        else:
            left.variables[name] = value
    return left


def export_name(world: World, name: str) -> World:
    world = world.copy(exported=world.exported | {name})
    if relevant_env(name):
        entry = world.assigned.get(name)
        if entry is not None:
            world.env[name] = entry
    return world


def set_builtin(world: World, arguments: list[Field]) -> World:
    texts = [f.text for f in arguments]
    if "--" in texts:
        positional = tuple(arguments[texts.index("--") + 1 :])
        return world.copy(positional=positional if len(positional) <= MAX_VALUE else None)
    allexport = world.allexport
    for position, text in enumerate(texts):
        if text is None:
            return world
        if text.startswith("-") and "a" in text[1:] and not text.startswith("--"):
            allexport = True
        elif text.startswith("+") and "a" in text[1:]:
            allexport = False
        elif text in ("-o", "+o") and position + 1 < len(texts) and texts[position + 1] == "allexport":
            allexport = text == "-o"
    return world.copy(allexport=allexport)


def describe(worlds: list[World]) -> str | None:
    shared = [c for c in worlds[0].conditions if all(c in world.conditions for world in worlds[1:])]
    if shared:
        return "when " + " and ".join(shared)
    described = [" and ".join(world.conditions) for world in worlds if world.conditions]
    return "when " + " or ".join(described) if described else None
