"""What a build stage carries from one instruction to the next: its `ARG`s and `ENV`s (with
where to edit each), its entrypoint and command (written, or the base image's), shell,
working directory, copied files (from the build context or another stage), the vLLM release
evidence, and the logits-processor plugins its RUNs install or build into distributions.
"""

from __future__ import annotations

import posixpath
from dataclasses import field, replace
from fnmatch import fnmatchcase
from typing import Iterator

from ...command import EnvPlace
from ...model import Plugin, Setting, VersionHint
from ...records import record
from .exec_form import ExecForm
from .lines import Instruction, Logical
from .variables import Lookup

_VLLM_SERVE = ("vllm", "serve")


# -- stages ----------------------------------------------------------------------------------------


@record(unsafe_hash=True)
class Variable:
    """An ENV or ARG value as a launch sees it: None when it cannot be known."""

    value: str | None
    setting: Setting
    place: EnvPlace


@record(unsafe_hash=True)
class Command:
    """A CMD or ENTRYPOINT: exec-form words or shell-form text."""

    instruction: Instruction
    exec_form: ExecForm | None
    script: Logical | None


@record(unsafe_hash=True)
class ImageEntrypoint:
    """The entrypoint a base image brings: its words, or None when we cannot know them."""

    words: tuple[str, ...] | None


SERVE_IMAGE = ImageEntrypoint(_VLLM_SERVE)
UNKNOWN_IMAGE = ImageEntrypoint(None)
NO_ENTRYPOINT = ImageEntrypoint(())
Entrypoint = Command | ImageEntrypoint


@record
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
    installs: tuple[Installed, ...] = ()  # logits-processor plugins its `RUN pip install`s put in
    built: tuple[Built, ...] = ()  # distributions its RUNs build (`pip wheel -w /wheels ./ban`)
    search_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)  # known entries of PATH, PYTHONPATH
    venvs: tuple[str, ...] = ()  # virtual environments its RUNs create or its COPYs bring
    user: str | None = "root"  # its USER (None: a variable we cannot know)
    written: list[str] = field(default_factory=list)  # the names its ENV and ARG set, in order (`StageLaunches`)

    def child(self, name: str | None) -> Stage:
        return replace(
            self, name=name, cmd_set=False, env=dict(self.env), args={}, built_on=False, search_paths=dict(self.search_paths), written=[]
        )

    def lookup(self) -> Lookup:
        """Values for substitution: ENV wins over an ARG of the same name."""

        def find(name: str) -> str | None:
            variable = self.env.get(name) or self.args.get(name)
            return None if variable is None else variable.value

        return find


@record(unsafe_hash=True)
class Copy:
    """`COPY SRC... DEST`: where its files land in the image. They come from the build context
    (`origin` None), from an earlier stage (`COPY --from=build`, absolute `sources`), or from
    somewhere replaylint cannot read (`known` False: an image, `--from=$STAGE`)."""

    sources: tuple[str, ...]
    destination: str
    into_directory: bool
    origin: Stage | None = field(default=None, compare=False)
    known: bool = True

    def candidates(self, target: str) -> list[str]:
        """Build-context paths that may hold the image file `target`: a file copied to DEST
        or into the directory DEST, or a file inside a directory whose contents went to DEST."""
        if not self.sources and not self.known:
            return [target] if target == self.destination or target.startswith(self.destination.rstrip("/") + "/") else []
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


def trace(stage: Stage, target: str) -> Iterator[tuple[Stage | None, str]]:
    """Where the image path `target` of `stage` comes from: `(None, path)` for paths of the build
    context, `(stage, path)` for a path a stage's RUNs may have made. The latest COPY that put
    something there decides; nothing is yielded when it copied from what cannot be read.
    Distributions a RUN built come after the COPY of their sources: their folder is the stage's."""
    if any(target == built.directory or target.startswith(built.directory.rstrip("/") + "/") for built in stage.built):
        yield stage, target
        return
    for copy in reversed(stage.copies):
        candidates = copy.candidates(target)
        if candidates:
            if not copy.known:
                return
            for candidate in candidates:
                if copy.origin is None:
                    yield None, candidate
                else:
                    yield from trace(copy.origin, candidate)
            return
    yield stage, target


@record(unsafe_hash=True)
class Distribution:
    """A distribution a RUN built from a folder of the build context (`pip wheel`,
    `python -m build`, `uv build`): its project name (None when not written literally), the
    files it made (`wheel`, `sdist`), and the plugins its packaging declares."""

    name: str | None
    kinds: tuple[str, ...]
    plugins: tuple[Plugin, ...]


@record(unsafe_hash=True)
class Built:
    """Distributions written to the image folder `directory`."""

    directory: str
    distribution: Distribution


@record(unsafe_hash=True)
class Installed:
    """Plugins a `pip install` put into the image, and the folders their metadata may be in
    (`site-packages` patterns, `*` for a Python version; empty when unknown)."""

    plugins: tuple[Plugin, ...]
    sites: tuple[str, ...]
