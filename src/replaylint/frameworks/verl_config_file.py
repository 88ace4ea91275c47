"""verl's `--config-path=DIR --config-name=NAME`: a Hydra config file of the checked tree that
`python -m verl.trainer.main_ppo` composes in place of its packaged `ppo_trainer` (hydra-core 1.3).

Where DIR is (`hydra/_internal/utils.py` `compute_search_path_dir`): an absolute path is the
machine's, a relative one is read from main_ppo.py's folder (`verl/trainer/` of the verl fork in
the tree; an installed verl's is outside it). A word the shell fills in is read when its head is
the working folder (`$(pwd)/...`, `$PWD/...`: the folder the script's own `cd "$(dirname "$0")"`
moves to, else the nearest folder at or above the script that holds the file, as verl's scripts
run from the repository's root; another `cd` before the launch leaves it unknown) or the script's
own folder (`$(dirname "$0")/...`, `$SCRIPT_DIR/...` assigned once so).

How Hydra composes it (`_internal/defaults_list.py`, `config_loader_impl.py`): its `defaults:`
list in order, `_self_` (appended when missing) where the file's own keys go; `ppo_trainer`,
not held by DIR, is verl's packaged one, found through `hydra.searchpath`'s
`pkg://verl.trainer.config` (its defaults the edition's or the fork's, as for a plain command
line); the command line's overrides over all. The file's keys are read, and the launch is open (nothing rests on a
default) when its defaults list holds more: an `override` entry, a config group, another config.
Not read (the launch open, as for any config not read): DIR outside the tree or unknown, NAME not
in DIR, a `# @package` other than `_global_`, `_self_` before `ppo_trainer` (its values win over
the file's), no `ppo_trainer` or no way to find it, `--config-dir` (a folder searched first).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Sequence

from ..records import record
from ..vllm.command_line import Token
from .nearby import changes_folder, names_own_folder, paths_upward, script_cd_folder
from .views import ConfigView, Inherited, Layered, Overrides, token_tree

ReadText = Callable[[str], "str | None"]

_PATH_OPTIONS = ("--config-path", "-cp")
_NAME_OPTIONS = ("--config-name", "-cn")
_SEARCH_FIRST = ("--config-dir", "-cd")
PACKAGED = "ppo_trainer"
_PACKAGED_SEARCH = "pkg://verl.trainer.config"
_MAIN_FOLDER = "verl/trainer"  # main_ppo.py's, inside the package root
_PACKAGE_FILES = ("verl/trainer/config/rollout/rollout.yaml", "verl/workers/rollout/vllm_rollout/vllm_async_server.py")
_WORKING_FOLDER = re.compile(r"^(?:\$\(pwd\)|`pwd`|\$PWD|\$\{PWD\})(/[^$`]*)?$")
# Hydra reads `# @key value` lines until the first other line that is not blank (`_get_header_dict`).
_PACKAGE_HEADER = re.compile(r"\A(?:[ \t]*(?:#\s*@[^\n]*)?\n)*?[ \t]*#\s*@package[ \t]+(\S+)")


@record
class Composed:
    """The file under the command line's overrides as Hydra composes them (`view`), and what
    keeps the launch open; `view` None: the file is not read (`reasons` say why)."""

    view: ConfigView | None
    reasons: list[str]


def names_config(tokens: Sequence[Token]) -> bool:
    """Whether the command line chooses Hydra's config (`--config-path`, `--config-name`)."""
    return any(_option(token) in _PATH_OPTIONS + _NAME_OPTIONS for token in tokens)


def without_config_options(tokens: Sequence[Token]) -> list[Token]:
    """The words without `--config-path` and `--config-name` and their values (read by `composed`)."""
    kept: list[Token] = []
    skip = False
    for token in tokens:
        if skip:
            skip = False
        elif _option(token) in _PATH_OPTIONS + _NAME_OPTIONS:
            skip = "=" not in str(token.text if token.text is not None else token.raw)
        else:
            kept.append(token)
    return kept


def composed(
    tokens: Sequence[Token],
    launching: str,
    offset: int,
    overrides: Overrides,
    load_config: Any,
    read_text: ReadText | None,
    package_root: str | None,
) -> Composed:
    """The config the command line names, composed (see the module's words). `launching`: the
    file the command is written in, `offset` where; `package_root`: the folder the tree's verl
    package sits in (None: verl is not in the tree)."""
    chosen = _chosen(tokens, launching)
    if chosen is None or read_text is None or load_config is None:
        return Composed(None, ["a Hydra config not read here"])
    folder_word, name = chosen
    folder = _folder(folder_word, launching, offset, read_text, package_root, name)
    if folder is None:
        return Composed(None, [f"--config-path {folder_word.raw} (a Hydra config folder not read here)"])
    path = os.path.normpath(os.path.join(folder, name))
    text = read_text(path)
    if text is None:
        return Composed(None, [f"{path} (not in the tree)"])
    header = _PACKAGE_HEADER.match(text)
    if header is not None and header.group(1) != "_global_":
        return Composed(None, [f"{path}: # @package {header.group(1)} (not read here)"])
    relative = os.path.relpath(path, os.path.dirname(launching) or os.curdir)  # the loader looks beside the launching file first
    loaded = load_config(relative, Token(relative, None, relative))  # type: ignore[arg-type]  (no place: no `cd` searched)
    if not loaded or any(os.path.normpath(token.span.path) != path for token in loaded):
        return Composed(None, [f"{path} (not readable here)"])  # (a container's loader reads the image's files)
    tree = token_tree(loaded)
    packaged = os.path.normpath(folder) == _packaged_folder(package_root)  # the fork's own config folder
    reasons = _defaults(tree.value("defaults"), folder, read_text, packaged)
    if reasons is None:
        return Composed(None, [f"{path}: defaults (_self_ before {PACKAGED}, or no {PACKAGED}: not read here)"])
    searched = overrides.value("hydra", "searchpath", default=tree.value("hydra", "searchpath"))
    if not packaged and _PACKAGED_SEARCH not in (searched if isinstance(searched, list) else [searched]):
        return Composed(None, [f"{path}: {PACKAGED} (Hydra's search path is not known to hold it)"])
    return Composed(Layered([Inherited(tree, launching, "loaded by"), overrides]), reasons)


def package_root(fork_path: str | None) -> str | None:
    """The folder the tree's verl package sits in, from the path of a file of the fork (`verl_fork.Fork.path`)."""
    for suffix in _PACKAGE_FILES:
        if fork_path is not None and fork_path.replace(os.sep, "/").endswith(suffix):
            return fork_path[: -len(suffix)] or os.curdir
    return None


def _packaged_folder(root: str | None) -> str | None:
    return None if root is None else os.path.normpath(os.path.join(root, _MAIN_FOLDER, "config"))


@record
class _Word:
    """An option's value: its text (None: the shell fills it in), as written, and the file it is written in."""

    text: str | None
    raw: str
    path: str


def _option(token: Token) -> str:
    return str(token.text if token.text is not None else token.raw).partition("=")[0]


def _value(tokens: Sequence[Token], position: int, launching: str) -> _Word | None:
    """The value of the option at `position`: after its `=`, else the next word."""
    token = tokens[position]
    written = token.text if token.text is not None else token.raw
    if "=" not in written:
        if position + 1 >= len(tokens):
            return None
        token = tokens[position + 1]
        return _Word(token.text, token.raw, token.span.path if token.span is not None else launching)
    text = None if token.text is None else token.text.partition("=")[2]
    return _Word(text, token.raw.partition("=")[2], token.span.path if token.span is not None else launching)


def _chosen(tokens: Sequence[Token], launching: str) -> tuple[_Word, str] | None:
    """The folder (its word; Hydra's default `config`) and the file name the words choose; None
    when one is not readable or `--config-dir` adds a folder searched first."""
    folder = _Word("config", "config", launching)
    name = None
    for position, token in enumerate(tokens):
        option = _option(token)
        if option in _SEARCH_FIRST:
            return None
        if option not in _PATH_OPTIONS + _NAME_OPTIONS:
            continue
        value = _value(tokens, position, launching)
        if value is None or (option in _NAME_OPTIONS and not value.text):
            return None
        if option in _PATH_OPTIONS:
            folder = value
        else:
            name = value.text if value.text.endswith(".yaml") else f"{value.text}.yaml"  # (`.yml` is not Hydra 1.2's)  # type: ignore[union-attr]
    return (folder, name) if name is not None else None


def _folder(folder: _Word, launching: str, offset: int, read_text: ReadText, root: str | None, name: str) -> str | None:
    """The config folder's path in the tree; None when it is outside the tree or not known."""
    if folder.text is not None:
        if os.path.isabs(folder.text) or "://" in folder.text or root is None:
            return None  # the machine's, a package's, or an installed verl's main_ppo.py folder
        return os.path.normpath(os.path.join(root, _MAIN_FOLDER, folder.text))
    plain = folder.raw.replace('"', "").replace("'", "").strip()
    working = _WORKING_FOLDER.match(plain)
    if working is not None:
        return _from_working_folder((working.group(1) or "/").lstrip("/"), launching, offset, read_text, name)
    script = read_text(folder.path) or ""
    for cut in [i for i, c in enumerate(plain) if c == "/"] + [len(plain)]:
        rest = plain[cut:]
        if "$" not in rest and "`" not in rest and names_own_folder(plain[:cut], script):
            return os.path.normpath(os.path.join(os.path.dirname(folder.path) or os.curdir, rest.lstrip("/")))
    return None


def _from_working_folder(rest: str, launching: str, offset: int, read_text: ReadText, name: str) -> str | None:
    """`$(pwd)/rest`: from the folder the script runs in (see the module's words)."""
    script = read_text(launching) or ""
    moved = script_cd_folder(script, offset)
    if moved is not None:
        return os.path.normpath(os.path.join(os.path.dirname(launching) or os.curdir, moved, rest))
    if changes_folder(script, offset):
        return None
    for path in paths_upward(os.path.join(rest, name), launching):
        if read_text(path) is not None:
            return os.path.dirname(path)
    return None


def _defaults(defaults: Any, folder: str, read_text: ReadText, packaged: bool) -> list[str] | None:
    """What the file's `defaults:` list leaves open (Hydra reads each entry; see the module's
    words); None when the file is not read: `_self_` before verl's packaged config, none of it,
    or a file of that name in the folder itself, chosen first (unless the folder is verl's own,
    `packaged`)."""
    if defaults is None or isinstance(defaults, (str, dict)):
        entries = [] if defaults is None else [defaults]  # a list of one item, as `token_tree` reads it
    elif isinstance(defaults, list):
        entries = defaults
    else:
        return None
    names = [entry.lstrip("/").removesuffix(".yaml") if isinstance(entry, str) else entry for entry in entries]  # `/x`: from the root
    if "_self_" not in names:
        names.append("_self_")  # Hydra appends it to a primary config's list
    if names.count(PACKAGED) != 1 or names.index("_self_") < names.index(PACKAGED):
        return None
    if not packaged and read_text(os.path.join(folder, PACKAGED + ".yaml")) is not None:
        return None
    return [f"defaults: {entry} (not read here)" for entry in names if entry not in (PACKAGED, "_self_")]
