"""The state of the shell on one run-time path: variables, exported environment, `$@`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from ...command import EnvPlace
from ...model import UNKNOWN, Setting, VersionHint
from .values import Field, Scope, Value

MAX_WORLDS = 8
MAX_VALUE = 4_096  # words or pieces in one value: a bigger one is unknown (`set -- "$@" "$@"` in a loop)
MISSING = object()
# Environment variables launches carry: vLLM's own, and Dynamo's (its worker reads DYN_ENABLE_RL).
RELEVANT_ENV = ("VLLM_", "DYN_")


@dataclass(frozen=True)
class EnvEntry:
    setting: Setting
    place: EnvPlace | None


@dataclass(frozen=True)
class Frame:
    """What a function call saves: variables made `local`, the caller's positional parameters."""

    saved: tuple[tuple[str, Any], ...]
    positional: tuple[Field, ...] | None


@dataclass
class World:
    variables: dict[str, Value] = field(default_factory=dict)
    env: dict[str, EnvEntry] = field(default_factory=dict)  # in the environment of commands
    assigned: dict[str, EnvEntry] = field(default_factory=dict)  # last assignment (for `export NAME`)
    exported: frozenset[str] = frozenset()
    allexport: bool = False
    positional: tuple[Field, ...] | None = None
    conditions: tuple[str, ...] = ()
    env_open: bool = False
    pin: VersionHint | None = None
    frames: tuple[Frame, ...] = ()

    def copy(self, **changes: Any) -> World:
        copied = replace(self, variables=dict(self.variables), env=dict(self.env), assigned=dict(self.assigned))
        if "conditions" in changes:  # a condition met again adds nothing (it grew with every `if`)
            changes["conditions"] = tuple(dict.fromkeys(changes["conditions"]))
        for name, value in changes.items():
            setattr(copied, name, value)
        return copied

    def state(self) -> tuple:
        env = tuple(sorted((name, repr(entry.setting.value), entry.setting.span) for name, entry in self.env.items()))
        return (
            frozenset(self.variables.items()),
            env,
            self.exported,
            self.allexport,
            self.positional,
            self.env_open,
            self.pin,
            self.frames,
        )

    def scope(self) -> Scope:
        return Scope(self.variables, self.positional, assign=self._assign_default)

    def _assign_default(self, name: str, value: Value) -> None:
        self.variables[name] = value

    def forget(self) -> World:
        """Something we cannot read ran in this shell: every variable may have changed."""
        return self.copy(variables={}, env_open=True, positional=None)

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


def unknown_entry(entry: EnvEntry) -> EnvEntry:
    return EnvEntry(replace(entry.setting, value=UNKNOWN), entry.place)


def join(worlds: list[World]) -> list[World]:
    """Worlds with the same state become one (keeping the conditions they share)."""
    merged: dict[tuple, World] = {}
    for world in worlds:
        key = world.state()
        if key in merged:
            kept = merged[key]
            theirs = set(world.conditions)
            kept.conditions = tuple(c for c in kept.conditions if c in theirs)
        else:
            merged[key] = world
    result = list(merged.values())
    return result if len(result) <= MAX_WORLDS else [collapse(result)]


def collapse(worlds: list[World]) -> World:
    """One world standing for many: what they do not agree on is unknown."""
    first = worlds[0].copy()
    for other in worlds[1:]:
        for name in list(first.variables):
            if other.variables.get(name, MISSING) != first.variables[name]:
                del first.variables[name]
        for name in set(first.env) | set(other.env):
            mine, theirs = first.env.get(name), other.env.get(name)
            if mine is None or theirs is None or mine.setting.value != theirs.setting.value or mine.setting.span != theirs.setting.span:
                first.env[name] = unknown_entry(mine or theirs)  # type: ignore[arg-type]
        if other.positional != first.positional:
            first.positional = None
        first.env_open = first.env_open or other.env_open
        first.conditions = tuple(c for c in first.conditions if c in other.conditions)
    return first


def child_shell(world: World, env: dict[str, EnvEntry], positional: tuple[Field, ...] | None, env_open: bool) -> World:
    """A new shell started by this one (`bash -c`, `bash <<EOF`): it sees exported variables only."""
    return World(
        variables={name: value for name, value in world.variables.items() if name in world.exported},
        env=env,
        exported=world.exported | frozenset(env),
        positional=positional,
        env_open=env_open,
        pin=world.pin,
    )


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
    if name.startswith(RELEVANT_ENV):
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
