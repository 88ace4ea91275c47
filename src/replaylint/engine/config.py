"""The resolved settings: command line over configuration file over defaults.

Each file uses the nearest configuration file above it (`hierarchy.ConfigPerFile`), as ruff does:
`.replaylint.toml`, `replaylint.toml`, or `pyproject.toml` with a `[tool.replaylint]` table,
in that order within one folder. `--config FILE` names one for every file; `--isolated` ignores
them all. The search stops at the repository's root, and above the checked tree at the first
folder another user could have put a file in (`find_config_file`).
Unknown keys and unknown rule codes are errors that name the key and the file.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Callable

from .. import files
from ..report import FORMATS
from ..workspace.discovery import CONFIG_NAMES, DEFAULT_EXCLUDES

if TYPE_CHECKING:
    from ..vllm.releases import Release


def _toml():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    return tomllib


_CONFIG_BYTES = 8 * 1024 * 1024
MAX_PATTERNS = 10_000
OUTPUT_FORMATS = FORMATS
SEVERITIES = ("error", "warning")
# A script's forwarded arguments (`"$@"`): judged as the script is written, run without them
# (findings on an absent setting say the arguments may set it), or "open": the launch is
# open-ended and those findings are not made.
FORWARDED_ARGUMENTS = ("as-written", "open")


class ConfigError(Exception):
    """A configuration problem, said in one line that names the file and the key."""


class Config:
    """The settings of one configuration. A plain class, not a dataclass: a pre-commit run that
    the prefilter settles imports no `dataclasses` (with `inspect`, a quarter of its time). The
    class attributes are the defaults; `replaced` is `dataclasses.replace`."""

    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]]  # {} (made for each instance)
    target_vllm: Release | None = None
    target_vllm_forced: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    fixable: tuple[str, ...] = ("ALL",)
    unfixable: tuple[str, ...] = ()
    ignore_noqa: bool = False  # --ignore-noqa: suppression comments count for nothing
    output_format: str = "full"
    severity: dict[str, str]  # {} (made for each instance)
    forwarded_arguments: str = "as-written"
    max_file_bytes: int = 8 * 1024 * 1024
    source: str = "defaults"
    root: str = "."
    _compiled_ignores: tuple | None = None  # (not compared, not shown)

    def __init__(self, **values: Any) -> None:
        unknown = values.keys() - _FIELDS
        if unknown:
            raise TypeError(f"Config() got an unexpected keyword argument {sorted(unknown)[0]!r}")
        self.per_file_ignores, self.severity = {}, {}
        self.__dict__.update(values)

    def replaced(self, **changes: Any) -> Config:
        """A copy with `changes` (as `dataclasses.replace`)."""
        return Config(**{**{name: getattr(self, name) for name in FIELDS}, **changes})

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    def __repr__(self) -> str:
        return f"Config({', '.join(f'{name}={getattr(self, name)!r}' for name in _COMPARED)})"

    def enabled_codes(self) -> frozenset[str]:
        from ..rules import resolve, selected

        codes: set[str] = set()
        for selector in (*self.select, *self.extend_select):
            codes.update(selected(selector))
        for selector in self.ignore:
            codes.difference_update(resolve(selector))
        return frozenset(codes)

    def fixable_codes(self) -> frozenset[str]:
        from ..rules import resolve

        codes: set[str] = set()
        for selector in self.fixable:
            codes.update(resolve(selector))
        for selector in self.unfixable:
            codes.difference_update(resolve(selector))
        return frozenset(codes)

    def ignored_for(self, path: str) -> frozenset[str]:
        """Codes `per-file-ignores` turns off for `path` (globs relative to the config's folder)."""
        if not self.per_file_ignores:
            return frozenset()
        from ..rules import resolve

        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)).replace(os.sep, "/")
        name = os.path.basename(path)
        codes: set[str] = set()
        for pattern, selectors in self._per_file_patterns():
            if pattern.match(relative) or pattern.match(name):
                for selector in selectors:
                    codes.update(resolve(selector))
        return frozenset(codes)

    def _per_file_patterns(self) -> list[tuple[re.Pattern, tuple[str, ...]]]:
        """`per-file-ignores` compiled once (fnmatch's own cache holds only 32,768 patterns)."""
        key = tuple(self.per_file_ignores.items())
        if self._compiled_ignores is None or self._compiled_ignores[0] != key:
            compiled = [(re.compile(fnmatch.translate(glob)), selectors) for glob, selectors in key]
            self._compiled_ignores = (key, compiled)
        return self._compiled_ignores[1]

    @property
    def excludes(self) -> tuple[str, ...]:
        return (*self.exclude, *self.extend_exclude)

    def fingerprint(self) -> str:
        """What the results of a file depend on, for the cache key. The selectors as written, not
        the codes they resolve to: the rule table is part of replaylint's version, which the cache
        key holds too, and a warm run then never imports the rules."""
        return repr(
            (
                (self.select, self.extend_select, self.ignore),
                (self.fixable, self.unfixable, self.ignore_noqa),
                sorted((k, sorted(v)) for k, v in self.per_file_ignores.items()),
                str(self.target_vllm),
                self.target_vllm_forced,
                sorted(self.severity.items()),
                self.forwarded_arguments,
                os.path.abspath(self.root),
            )
        )


FIELDS = tuple(Config.__annotations__)  # in their order (`describe`)
_FIELDS = frozenset(FIELDS)
_COMPARED = tuple(name for name in FIELDS if name != "_compiled_ignores")


# -- reading configuration files ----------------------------------------------------------


def _codes(value: Any, key: str, source: str) -> tuple[str, ...]:
    from ..rules import resolve

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{source}: `{key}` must be a list of rule codes or names")
    for item in value:
        try:
            resolve(item)
        except ValueError:
            raise ConfigError(f"{source}: `{key}` has an unknown rule code or name: {item!r}") from None
    return tuple(value)


def _strings(value: Any, key: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{source}: `{key}` must be a list of strings")
    return patterns(tuple(value), key, source)


def patterns(globs: tuple[str, ...], key: str, source: str) -> tuple[str, ...]:
    """Globs of one key, at most MAX_PATTERNS of them: every file is matched against them all,
    and a configuration with 100,000 took minutes to compile before the first file was read."""
    if len(globs) > MAX_PATTERNS:
        raise ConfigError(f"{source}: `{key}` has {len(globs)} patterns; at most {MAX_PATTERNS} are accepted")
    return globs


def _boolean(value: Any, key: str, source: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{source}: `{key}` must be true or false")
    return value


def _apply_key(config: Config, key: str, value: Any, source: str) -> None:
    if key in ("select", "extend-select", "ignore", "fixable", "unfixable"):
        setattr(config, key.replace("-", "_"), _codes(value, key, source))
    elif key == "extend-fixable":
        config.fixable = (*config.fixable, *_codes(value, key, source))
    elif key == "extend-per-file-ignores":
        before = config.per_file_ignores
        _apply_key(config, "per-file-ignores", value, source)
        added = config.per_file_ignores
        config.per_file_ignores = {**before, **{glob: (*before.get(glob, ()), *codes) for glob, codes in added.items()}}
    elif key in ("exclude", "extend-exclude"):
        setattr(config, key.replace("-", "_"), _strings(value, key, source))
    elif key in ("respect-gitignore", "force-exclude"):
        setattr(config, key.replace("-", "_"), _boolean(value, key, source))
    elif key == "target-vllm":
        from ..vllm.releases import parse_release

        try:
            config.target_vllm = parse_release(str(value))
        except ValueError as error:
            raise ConfigError(f"{source}: `target-vllm`: {error}") from None
    elif key == "output-format":
        if value not in OUTPUT_FORMATS:
            raise ConfigError(f"{source}: `output-format` must be one of {', '.join(OUTPUT_FORMATS)}, not {value!r}")
        config.output_format = value
    elif key == "forwarded-arguments":
        if value not in FORWARDED_ARGUMENTS:
            choices = " or ".join(f'"{choice}"' for choice in FORWARDED_ARGUMENTS)
            raise ConfigError(f"{source}: `forwarded-arguments` must be {choices}, not {value!r}")
        config.forwarded_arguments = value
    elif key == "per-file-ignores":
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: `per-file-ignores` must be a table of glob = [codes]")
        patterns(tuple(value), "per-file-ignores", source)
        config.per_file_ignores = {glob: _codes(codes, f"per-file-ignores.{glob}", source) for glob, codes in value.items()}
    elif key == "severity":
        if not isinstance(value, dict):
            raise ConfigError(f'{source}: `severity` must be a table of code = "error" | "warning"')
        severities = {}
        for selector, level in value.items():
            if level not in SEVERITIES:
                raise ConfigError(f'{source}: `severity.{selector}` must be "error" or "warning", not {level!r}')
            _codes([selector], f"severity.{selector}", source)
            from ..rules import resolve

            for code in resolve(selector):
                severities[code] = level
        config.severity = severities
    else:
        raise ConfigError(f"{source}: unknown key `{key}` (known: {', '.join(KNOWN_KEYS)})")


KNOWN_KEYS = (
    "select",
    "extend-select",
    "ignore",
    "per-file-ignores",
    "extend-per-file-ignores",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "force-exclude",
    "target-vllm",
    "fixable",
    "unfixable",
    "extend-fixable",
    "output-format",
    "severity",
    "forwarded-arguments",
)


def _table(path: str) -> dict[str, Any] | None:
    """The replaylint table of a config file; None for a pyproject.toml without one."""
    tomllib = _toml()
    from ..toml_document import loads  # a number too long is a TOMLDecodeError there

    try:
        document = loads(files.read_regular(path, _CONFIG_BYTES).decode("utf-8"))
    except files.Unreadable as error:
        raise ConfigError(f"{path}: {error.reason}") from None
    except UnicodeDecodeError as error:
        wide = files.wide_encoding(error.object)
        encoding = wide[0].upper() if wide else f"not UTF-8 (byte 0x{error.object[error.start]:02x} at offset {error.start})"
        raise ConfigError(f"{path}: TOML must be UTF-8; this file is {encoding}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    if os.path.basename(path) == "pyproject.toml":
        tool = document.get("tool", {})
        return tool.get("replaylint") if isinstance(tool, dict) else None
    return document


def _configures_replaylint(pyproject: str) -> bool:
    """A pyproject.toml with a [tool.replaylint] table (the text test spares parsing the rest)."""
    try:
        if b"replaylint" not in files.as_utf8(files.read_regular(pyproject, _CONFIG_BYTES)):
            return False
    except files.Unreadable:
        return False
    return _table(pyproject) is not None


def find_config_file(start: str, known: dict | None = None) -> str | None:
    """The nearest configuration file at or above `start` that configures replaylint, looking
    no higher than the repository the files belong to (the first folder holding `.git`).

    The checked tree is `start`'s folder up to that repository's root, when git would work in
    it (the root is this user's or root's, or git's `safe.directory` names it), else `start`'s
    folder alone: every file in it is the tree's own. Above the tree (a project without `.git`, or a repository another user
    owns), the search goes on only through folders no other user could have put a file in:
    owned by this user or root and not writable by others, unless sticky (`/tmp`), and it takes
    a file there only when it is this user's or root's. A `replaylint.toml` in a shared
    folder above the project never turns its checks off. `known` keeps what the search saw of
    each folder and file for the next (a run looks once per folder), and may hold what a walk
    saw: ("listed", folder) for which of `discovery.LISTED_NAMES` a folder holds."""
    directory = os.path.abspath(start)
    if (known is None or ("listed", directory) not in known) and not os.path.isdir(start):
        directory = os.path.abspath(os.path.dirname(start) or ".")
    top = repository_root(directory, known)
    safe = top is not None and _remembered(known, ("safe", top), lambda: files.trusted(top, folder=False) or _declared_safe(top))
    tree = top if safe else directory
    visited, found = [], None
    while True:
        if known is not None and ("search", directory, tree) in known:
            found = known["search", directory, tree]
            break
        visited.append(directory)
        inside = directory == tree or directory.startswith(tree.rstrip(os.sep) + os.sep)
        if not inside and not files.trusted(directory, folder=True):
            break
        found = _config_in(directory, inside, known)
        parent = os.path.dirname(directory)
        if found is not None or directory == top or parent == directory:
            break
        directory = parent
    for folder in visited if known is not None else ():  # a search from any of them ends the same way
        known["search", folder, tree] = found  # type: ignore[index]
    return found


def _config_in(directory: str, inside: bool, known: dict | None) -> str | None:
    """The configuration file in `directory`, if any: one outside the checked tree only when this user's or root's."""
    listed = known.get(("listed", directory), CONFIG_NAMES) if known is not None else CONFIG_NAMES  # a walk's
    present = _remembered(
        known,
        ("names", directory),
        lambda: [name for name in CONFIG_NAMES if name in listed and os.path.isfile(os.path.join(directory, name))],
    )
    for candidate in (os.path.join(directory, name) for name in present):
        if not (inside or files.trusted(candidate, folder=False)):
            continue
        if not candidate.endswith("pyproject.toml") or _remembered(known, ("table", candidate), lambda: _configures_replaylint(candidate)):
            return candidate
    return None


def _remembered(known: dict | None, key: tuple, compute: Callable[[], Any]) -> Any:
    """`compute()`, kept in `known` (what a run's searches saw) under `key`."""
    if known is None:
        return compute()
    if key not in known:
        known[key] = compute()
    return known[key]


def repository_root(directory: str, known: dict | None = None) -> str | None:
    """The first folder at or above `directory` that holds `.git` (`known`: as find_config_file's)."""
    visited, current, top = [], directory, None
    while True:
        if known is not None and ("top", current) in known:
            top = known["top", current]
            break
        visited.append(current)
        listed = known.get(("listed", current)) if known is not None else None  # a walk's
        if ".git" in listed if listed is not None else os.path.lexists(os.path.join(current, ".git")):
            top = current
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for folder in visited if known is not None else ():  # every folder on the way has the same
        known["top", folder] = top  # type: ignore[index]
    return top


def _declared_safe(top: str) -> bool:
    """Whether the user's or the system's git configuration lists the repository in
    `safe.directory` (as CI checkouts owned by another user are: actions/checkout adds them)."""
    import subprocess

    from ..workspace.discovery import GIT, git_environment

    environment = {name: value for name, value in git_environment().items() if not name.startswith(("GIT_DIR", "GIT_WORK_TREE"))}
    try:
        listed = subprocess.run(
            [*GIT, "config", "--get-all", "-z", "safe.directory"],
            cwd=os.sep,  # outside every repository: no repository's own configuration is read
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=environment,
            timeout=10,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    real = os.path.realpath(top)
    for value in os.fsdecode(listed).split("\0"):
        if value == "*" or (value and os.path.realpath(os.path.expanduser(value)) == real):
            return True
        if value.endswith("/*") and (real + os.sep).startswith(os.path.realpath(value[:-2]) + os.sep):
            return True
    return False


def apply_override(config: Config, text: str) -> None:
    """`--config 'key = value'`: one TOML key of the configuration, over the file's."""
    tomllib = _toml()
    from ..toml_document import loads

    try:
        table = loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"--config {text!r}: neither a file nor a TOML `key = value` ({error})") from None
    for key, value in table.items():
        _apply_key(config, key, value, f"--config {text!r}")


def load(path: str) -> Config:
    """A configuration from one file (raises ConfigError, naming the file and key)."""
    table = _table(path)
    config = Config(source=path, root=os.path.dirname(os.path.abspath(path)))
    if table is None:
        return config
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.replaylint] must be a table")
    for key, value in sorted(table.items(), key=lambda item: item[0].startswith("extend-")):  # an `extend-` key adds to its base key
        _apply_key(config, key, value, path)
    return config


def common_start(paths: list[str]) -> str:
    """Where to look for the configuration of a run over `paths`."""
    if not paths:
        return os.getcwd()
    absolute = [os.path.abspath(path) for path in paths]
    try:
        return os.path.commonpath(absolute)
    except ValueError:
        return os.getcwd()
