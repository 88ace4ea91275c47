"""What a build stage carries from one instruction to the next: its `ARG`s and `ENV`s (with
where to edit each), its entrypoint and command (written, or the base image's), shell,
working directory, copied files, and the vLLM release evidence.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase

from ...command import EnvPlace
from ...model import Plugin, Setting, VersionHint
from .lines import Instruction, Logical
from .variables import Lookup
from .words import ExecForm

_VLLM_SERVE = ("vllm", "serve")


# -- stages ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    """An ENV or ARG value as a launch sees it: None when it cannot be known."""

    value: str | None
    setting: Setting
    place: EnvPlace


@dataclass(frozen=True)
class Command:
    """A CMD or ENTRYPOINT: exec-form words or shell-form text."""

    instruction: Instruction
    exec_form: ExecForm | None
    script: Logical | None


@dataclass(frozen=True)
class ImageEntrypoint:
    """The entrypoint a base image brings: its words, or None when we cannot know them."""

    words: tuple[str, ...] | None


SERVE_IMAGE = ImageEntrypoint(_VLLM_SERVE)
UNKNOWN_IMAGE = ImageEntrypoint(None)
NO_ENTRYPOINT = ImageEntrypoint(())
Entrypoint = Command | ImageEntrypoint


@dataclass
class Stage:
    name: str | None
    entrypoint: Entrypoint
    cmd: Command | None = None
    cmd_set: bool = False
    env: dict[str, Variable] = field(default_factory=dict)
    args: dict[str, Variable] = field(default_factory=dict)
    env_open: bool = False
    shell: tuple[str, ...] = ("/bin/sh", "-c")
    hint: VersionHint | None = None
    built_on: bool = False
    workdir: str | None = "/"
    copies: tuple[Copy, ...] = ()
    image: str | None = None  # the FROM image (not a stage)
    plugins: tuple[Plugin, ...] = ()  # logits-processor plugins its `RUN pip install`s put in
    written: list[str] = field(default_factory=list)  # the names its ENV and ARG set, in order (`StageLaunches`)

    def child(self, name: str | None) -> Stage:
        return replace(self, name=name, cmd_set=False, env=dict(self.env), args={}, built_on=False, written=[])

    def lookup(self) -> Lookup:
        """Values for substitution: ENV wins over an ARG of the same name."""

        def find(name: str) -> str | None:
            variable = self.env.get(name) or self.args.get(name)
            return None if variable is None else variable.value

        return find


@dataclass(frozen=True)
class Copy:
    """`COPY SRC... DEST` from the build context: where its files land in the image."""

    sources: tuple[str, ...]
    destination: str
    into_directory: bool

    def candidates(self, target: str) -> list[str]:
        """Build-context paths that may hold the image file `target`: a file copied to DEST
        or into the directory DEST, or a file inside a directory whose contents went to DEST."""
        found = []
        prefix = self.destination if self.destination.endswith("/") else self.destination + "/"
        for source in self.sources:
            name = posixpath.basename(source.rstrip("/"))
            if self.into_directory and posixpath.dirname(target) == self.destination and fnmatchcase(posixpath.basename(target), name):
                found.append(posixpath.join(posixpath.dirname(source), posixpath.basename(target)))
            elif not self.into_directory and target == self.destination:
                found.append(source)
            if target.startswith(prefix):
                found.append(posixpath.join(source, target[len(prefix) :]))
        return found
