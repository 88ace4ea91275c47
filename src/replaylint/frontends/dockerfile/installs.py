"""The packaging commands of a `RUN` (`pip install`, `uv pip install`, `pip wheel`,
`python -m build`, `uv build`, in shell or exec form) and the logits-processor plugins they put
into the image or into distributions (`frontends.packaging` reads the packaging).

An image path is traced back through the stage's COPYs (`stages.trace`), also `COPY --from`
an earlier stage, to a folder of the build context (next to the Dockerfile, or the folder
replaylint runs in), or to distributions a RUN of some stage built: `pip wheel -w /wheels
./ban` in one stage, `COPY --from=build /wheels /tmp/wheels` and `pip install
/tmp/wheels/*.whl` (or `--find-links /tmp/wheels ban-words`) in the next. A path that comes
from an image, a `--from=$STAGE` or a RUN replaylint does not follow is unknown: nothing is
counted.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Callable, Iterator

from ...model import Plugin, Span
from ...records import record
from ...source import ExtractContext, SourceFile
from .. import packaging
from .stages import Built, Distribution, Installed, Stage, trace
from .variables import UNKNOWN_PART

Resolve = Callable[[str], str]  # a word's value; `UNKNOWN_PART` in it when it cannot be known

# Options that take a value, by the long name the short one stands for (per command kind).
_VALUED = frozenset(
    (
        "--requirement", "--constraint", "--target", "--prefix", "--root", "--index-url", "--extra-index-url", "--index",
        "--default-index", "--find-links", "--src", "--python", "--config-settings", "--config-setting", "--platform",
        "--python-version", "--implementation", "--abi", "--upgrade-strategy", "--progress-bar", "--cache-dir", "--log",
        "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert", "--no-binary",
        "--only-binary", "--report", "--root-user-action", "--use-feature", "--use-deprecated", "--override", "--editable",
        "--index-strategy", "--keyring-provider", "--resolution", "--prerelease", "--exclude-newer", "--link-mode",
        "--python-platform", "--directory", "--project", "--config-file", "--group", "--extra", "--torch-backend",
        "--upgrade-package", "--reinstall-package", "--wheel-dir", "--outdir", "--out-dir", "--package", "--installer",
        "--build-constraint", "--color", "--no-install-package", "--no-group",
    )
)  # fmt: skip
_SHORT = {
    "install": {"-r": "--requirement", "-c": "--constraint", "-t": "--target", "-i": "--index-url", "-f": "--find-links",
                "-e": "--editable", "-C": "--config-settings", "-p": "--python", "-P": "--upgrade-package"},
    "wheel": {"-r": "--requirement", "-c": "--constraint", "-w": "--wheel-dir", "-i": "--index-url", "-f": "--find-links",
              "-e": "--editable", "-C": "--config-settings"},
    "build": {"-o": "--outdir", "-w": "--wheel", "-s": "--sdist", "-C": "--config-setting", "-p": "--python"},
    "venv": {"-p": "--python"},
}  # fmt: skip
_REPEATED = ("--requirement", "--editable", "--find-links", "--no-install-package")
_PIP = re.compile(r"pip3?(?:\.\d+)?")
_PYTHON = re.compile(r"python3?(?:\.\d+)?")
_PREFIX_WORDS = frozenset(("sudo", "env", "time", "exec", "command", "nohup"))
_SEGMENT = re.compile(r"[^;&|\n()]+")
_WORD = re.compile(r"""(['"]?)([^\s'";&|()]+)\1""")
_ARCHIVE = re.compile(r"\.(whl|tar\.gz|zip|tgz)$")


@record(unsafe_hash=True)
class Packaging:
    """One packaging command: `install` (`pip install`, `uv pip install`), `wheel` (`pip wheel`),
    `build` (`python -m build`, `uv build`), `sync` (`uv sync`) or `venv` (`python -m venv`,
    `virtualenv`, `uv venv`); the words that name it (`python -m pip
    install`), the values of its arguments, where it is written, and the script text before it
    (for `. /opt/venv/bin/activate &&`)."""

    verb: str
    head: tuple[str, ...]
    values: tuple[str, ...]
    span: Span
    before: str = ""


@record(unsafe_hash=True)
class Arguments:
    options: dict[str, str]
    repeated: dict[str, list[str]]
    positional: list[str]


def split_command(words: list[str]) -> tuple[str, int, int] | None:
    """(verb, index of the program, index of its first argument) when `words` run a packaging
    command, perhaps behind `VAR=x`, `sudo` or `env`."""
    for start, word in enumerate(words):
        found = _command_at(words, start)
        if found is not None:
            return found
        if not (word in _PREFIX_WORDS or re.match(r"[A-Za-z_][A-Za-z0-9_]*=", word)):
            return None
    return None


def _command_at(words: list[str], start: int) -> tuple[str, int, int] | None:
    name = words[start].rsplit("/", 1)[-1]
    rest = words[start + 1 : start + 4]
    if _PIP.fullmatch(name) and rest[:1] in (["install"], ["wheel"]):
        return rest[0], start, start + 2
    if _PYTHON.fullmatch(name) and rest[:2] == ["-m", "pip"] and rest[2:3] in (["install"], ["wheel"]):
        return rest[2], start, start + 4
    if _PYTHON.fullmatch(name) and rest[:2] == ["-m", "build"]:
        return "build", start, start + 3
    if _PYTHON.fullmatch(name) and rest[:2] in (["-m", "venv"], ["-m", "virtualenv"]):
        return "venv", start, start + 3
    if name == "virtualenv" or (name == "uv" and rest[:1] == ["venv"]):
        return "venv", start, start + (2 if name == "uv" else 1)
    if name == "uv" and rest[:2] == ["pip", "install"]:
        return "install", start, start + 3
    if name == "uv" and rest[:1] == ["build"]:
        return "build", start, start + 2
    if name == "uv" and rest[:1] == ["sync"]:
        return "sync", start, start + 2
    if name == "pyproject-build":
        return "build", start, start + 1
    return None


def script_commands(text: str) -> Iterator[tuple[list[str], list[tuple[int, int]], int]]:
    """The simple commands of a shell script, roughly: its words (quotes removed), their
    bounds in `text`, and where the command starts (`&&`, `;`, `|` and lines separate them)."""
    text = text.replace("\\\n", "  ")
    for segment in _SEGMENT.finditer(text):
        matches = list(_WORD.finditer(text, segment.start(), segment.end()))
        if matches:
            yield [match.group(2) for match in matches], [match.span() for match in matches], matches[0].start()


def parse(verb: str, values: tuple[str, ...]) -> Arguments:
    short = _SHORT.get(verb, {})
    options: dict[str, str] = {}
    repeated: dict[str, list[str]] = {name: [] for name in _REPEATED}
    positional: list[str] = []
    position = 0
    while position < len(values):
        word = values[position]
        position += 1
        if not word.startswith("-") or word == "-":
            positional.append(word)
            continue
        name, equals, value = word.partition("=")
        if not word.startswith("--") and word[:2] in short and len(word) > 2:  # `-e.`, `-fhttps://x`
            name, equals, value = word[:2], "=", word[2:]
        name = short.get(name, name)
        if not equals and name in _VALUED and position < len(values):
            value = values[position]
            position += 1
        if name in _REPEATED:
            repeated[name].append(value)
        else:
            options[name] = value
    return Arguments(options, repeated, positional)


class Installs:
    """What the packaging commands of one Dockerfile put where (`frontends.packaging` reads the
    packaging of the folders they name)."""

    def __init__(self, source: SourceFile, context: ExtractContext) -> None:
        self.source = source
        self.context = context

    def run(self, stage: Stage, command: Packaging) -> None:
        """Record what `command` installs into the stage or builds there."""
        arguments = parse(command.verb, command.values)
        if command.verb == "install":
            from .sites import install_sites

            plugins = tuple(dict.fromkeys(self._installed(stage, command, arguments)))
            if plugins:
                sites = install_sites(stage, command.head, arguments.options, command.before)
                stage.installs = (*stage.installs, Installed(plugins, sites))
        elif command.verb == "sync":
            self._synced(stage, command, arguments)
        elif command.verb == "venv":
            folder = (arguments.positional or [".venv"])[0]
            if UNKNOWN_PART not in folder and (folder.startswith("/") or stage.workdir is not None):
                stage.venvs = (*stage.venvs, _image_path(stage, folder))
        else:
            stage.built = (*stage.built, *self._built(stage, command, arguments))

    def _how(self, what: str, command: Packaging, *words: str) -> str:
        """`installed by Dockerfile:4 `pip install /opt/ban`` (the command with the words that matter)."""
        return f"{what} by {self.source.path}:{command.span.start_line} `{' '.join((*command.head, *words))}`"

    # pip install

    def _installed(self, stage: Stage, command: Packaging, arguments: Arguments) -> Iterator[Plugin]:
        at = command.span
        for name in arguments.repeated["--requirement"]:
            yield from self._requirement_file_plugins(stage, name, self._how("installed", command, "-r", name), at)
        names = [word for word in arguments.positional if not _is_path(word) and not _ARCHIVE.search(word)]
        for word in [*arguments.repeated["--editable"], *arguments.positional]:
            if UNKNOWN_PART in word or not (_is_path(word) or (_ARCHIVE.search(word) and "://" not in word)):
                continue
            how = self._how("installed", command, word)
            if _ARCHIVE.search(word) or re.search(r"[*?]", posixpath.basename(word)):  # files the shell's glob picks
                yield from self._distribution_plugins(stage, _image_path(stage, word), lambda d, w=word: _file_matches(w, d), how, at)
            else:
                yield from self._folder_plugins(stage, word, how, at)
        for links in arguments.repeated["--find-links"]:
            if names and UNKNOWN_PART not in links and links.startswith(("/", ".")):
                how = self._how("installed", command, "--find-links", links, *names)
                folder = posixpath.join(_image_path(stage, links), "*")
                yield from self._distribution_plugins(stage, folder, lambda d: _named(names, d), how, at)

    def _requirement_file_plugins(self, stage: Stage, name: str, how: str, at: Span) -> Iterator[Plugin]:
        """The folders a requirements file names, which pip takes from the working directory."""
        if UNKNOWN_PART in name or (stage.workdir is None and not name.startswith("/")):
            return
        for built in self._context_paths(stage, _image_path(stage, name)):
            text = self.context.read_text(built)
            if text is not None:
                for folder in filter(None, map(packaging.local_folder, text.splitlines())):
                    yield from self._folder_plugins(stage, folder, f"{how} (`{folder}`)", at)
                return

    def _folder_plugins(self, stage: Stage, folder: str, how: str, at: Span | None) -> Iterator[Plugin]:
        if stage.workdir is None and not folder.startswith("/"):
            return
        for built in self._context_paths(stage, _image_path(stage, re.sub(r"\[[^\]]*\]$", "", folder))):
            found = self._declared(built)
            if found:
                yield from (replace(plugin, installed_by=how, installed_at=at) for plugin in found)
                return

    def _distribution_plugins(
        self, stage: Stage, path: str, matches: Callable[[Distribution], bool], how: str, at: Span
    ) -> Iterator[Plugin]:
        """The plugins of the distributions a RUN built into the folder of `path` (a file or a
        glob) that `matches` accepts."""
        for origin, image_path in trace(stage, path):
            for built in origin.built if origin is not None else ():
                if built.directory == posixpath.dirname(image_path) and matches(built.distribution):
                    yield from (replace(p, installed_by=f"{p.installed_by}, {how}", installed_at=at) for p in built.distribution.plugins)

    # uv sync

    def _synced(self, stage: Stage, command: Packaging, arguments: Arguments) -> None:
        from .syncs import sync_sites, synced_folder, synced_plugins

        folder = synced_folder(stage, arguments.options)
        if folder is None or UNKNOWN_PART in folder or any(UNKNOWN_PART in value for value in arguments.options.values()):
            return
        how = self._how("installed", command, *(value for value in command.values if UNKNOWN_PART not in value))
        for root in self._context_paths(stage, folder):
            skipped = arguments.repeated["--no-install-package"]
            plugins = synced_plugins(root, self.context.read_text, self._declared, arguments.options, skipped, how, command.span)
            if plugins:
                stage.installs = (*stage.installs, Installed(tuple(dict.fromkeys(plugins)), sync_sites(stage, folder, arguments.options)))
                return

    # pip wheel, python -m build, uv build

    def _built(self, stage: Stage, command: Packaging, arguments: Arguments) -> Iterator[Built]:
        if command.verb == "wheel":
            folders = [*arguments.positional, *arguments.repeated["--editable"]]
            output = arguments.options.get("--wheel-dir", ".")
            kinds: tuple[str, ...] = ("wheel",)
        else:
            folders = arguments.positional[:1] or ["."]
            output = arguments.options.get("--outdir", arguments.options.get("--out-dir", posixpath.join(folders[0], "dist")))
            kinds = tuple(kind for kind in ("wheel", "sdist") if f"--{kind}" in arguments.options) or ("wheel", "sdist")
        if UNKNOWN_PART in output or (stage.workdir is None and not output.startswith("/")):
            return
        for folder in folders:
            if UNKNOWN_PART in folder or not (_is_path(folder) or folder == "."):
                continue
            how = self._how("built", command, folder)
            for context_folder in self._context_paths(stage, _image_path(stage, folder)):
                plugins = [replace(plugin, installed_by=how, installed_at=command.span) for plugin in self._declared(context_folder)]
                if plugins:
                    distribution = Distribution(self._distribution_name(context_folder), kinds, tuple(plugins))
                    yield Built(_image_path(stage, output), distribution)
                    break

    # the build context

    def _context_paths(self, stage: Stage, target: str) -> Iterator[str]:
        """Paths of the checkout that may hold the image path `target`."""
        for origin, candidate in trace(stage, target):
            if origin is not None or candidate.startswith("/") or candidate.startswith(".."):
                continue
            beside = os.path.normpath(os.path.join(os.path.dirname(self.source.path), candidate))
            yield beside
            if beside != os.path.normpath(candidate):
                yield os.path.normpath(candidate)

    def _declared(self, folder: str) -> list[Plugin]:
        found = []
        for name in packaging.PACKAGING:
            path = os.path.join(folder, name)
            text = self.context.read_text(path)
            if text is not None:
                found += packaging.declared(path, text)
        return found

    def _distribution_name(self, folder: str) -> str | None:
        for name in packaging.PACKAGING:
            path = os.path.join(folder, name)
            text = self.context.read_text(path)
            found = packaging.distribution_name(path, text) if text is not None else None
            if found:
                return found
        return None


def _image_path(stage: Stage, path: str) -> str:
    return posixpath.normpath(posixpath.join(stage.workdir or "/", path))


def _is_path(word: str) -> bool:
    """A word pip reads as a folder or file, not a requirement (`./x`, `/opt/x`, `plugins/x`, `.`)."""
    return word.startswith((".", "/")) or ("/" in word and "://" not in word and "@" not in word and "=" not in word)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _file_matches(pattern: str, distribution: Distribution) -> bool:
    """Whether a file name (or glob) pip is given names a file of the distribution: its name
    part (before the first `-`) is the distribution's, or a glob that takes any name."""
    base = posixpath.basename(pattern)
    suffixes = {"wheel": "-1-py3-none-any.whl", "sdist": "-1.tar.gz"}
    names = [_canonical(distribution.name)] if distribution.name else ["a", "zz9"]
    for kind in distribution.kinds:
        files = [name + suffixes[kind] for name in names]
        if all(fnmatchcase(file, base) for file in files):
            return True
        head, dash, _ = base.partition("-")
        if distribution.name and dash and not re.search(r"[*?\[]", head) and _canonical(head) == names[0]:
            if base.endswith(".whl" if kind == "wheel" else ".tar.gz"):
                return True
    return False


def _named(requirements: list[str], distribution: Distribution) -> bool:
    """Whether a requirement among pip's words names the distribution (`ban-words==1.0`)."""
    if distribution.name is None:
        return False
    wanted = _canonical(distribution.name)
    return any(_canonical(re.split(r"[\[<>=!~;@ ]", requirement, maxsplit=1)[0]) == wanted for requirement in requirements)
