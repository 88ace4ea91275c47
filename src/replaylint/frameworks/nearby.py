"""Files of the checked tree near a launching file: a command's working folder is not known, so a
path it names (a program, a module, a framework's own source) is looked for from the launching
file's folder and each folder above it, as the frameworks' scripts run from their repository's
root. Read through the checker's `read_text` (only files inside the tree, each read bounded).
`tree_root` names that root: the nearest folder above the launching file that holds `.git` or a
framework's package (a fork's root), whichever folder replaylint runs in. How a script names its
own folder (`names_own_folder`) and moves into it before a launch (`script_cd_folder`) is read from
its text, for the shell reader and the framework adapters alike."""

from __future__ import annotations

import os
import re
from typing import Callable, Iterator

from ..regexes import on_use

MAX_LEVELS = 8  # folders above the launching file where the path may start
MAX_CHARS = 1_000_000

ReadText = Callable[[str], "str | None"]
ListFolder = Callable[[str], "list[str]"]

_SELF = r"\$(?:0|\{0\}|BASH_SOURCE|\{BASH_SOURCE(?:\[0\])?\})"
_RESOLVED_SELF = rf"(?:{_SELF}|\$\((?:realpath|readlink -f) {_SELF}\))"
_DIRNAME = rf"\$\(dirname (?:-- )?{_RESOLVED_SELF}\)|\$\{{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}}"
# The script's own folder, as bash scripts spell it (quotes dropped, blanks made single).
_OWN_FOLDER = on_use(
    rf"^(?:{_DIRNAME}|\$\((?:realpath|readlink -f) (?:{_DIRNAME})\)"
    rf"|\$\(cd (?:-- )?(?:{_DIRNAME})(?: ?&?>/dev/null)?(?: 2>&1)? ?(?:&&|;) ?pwd(?: -P)?\))$"
)
_VARIABLE = on_use(r"^\$\{?([A-Za-z_]\w*)\}?$")
_DIRNAME_OF = on_use(r"^\$\(dirname (?:-- )?(\S+|\$\(.+\))\)$")  # `$(dirname X)`, X a word or another `$(...)`
_MAX_HOPS = 6  # variables and `dirname`s followed from a word to the script's own folder
# A script's own `cd` into its folder or one above it, on a line of its own before the launch:
# `cd "$(dirname "$0")/.."`, `cd "$(dirname "${BASH_SOURCE[0]}")"`, `cd $(dirname $0)/../..`.
_CD_TO_SCRIPT = on_use(
    r"""^[ \t]*cd[ \t]+"?\$\(\s*dirname\s+"?\$(?:0|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)((?:/\.\.)*)/?"?[ \t]*(?:$|&&|;)""",
    re.MULTILINE,
)
_CD = on_use(r"^[ \t]*cd[ \t]", re.MULTILINE)


def upward(relative: str, launching: str, read_text: ReadText) -> str | None:
    """The text of `relative` from the nearest folder at or above the launching file's that holds
    it; None when none does, or the file is larger than a program is."""
    found = found_upward(relative, launching, read_text)
    return None if found is None else found[1]


def paths_upward(relative: str, launching: str) -> Iterator[str]:
    """`relative` from the launching file's folder and each folder above it, nearest first."""
    for folder in _folders(launching, (relative,)):
        yield os.path.normpath(os.path.join(folder, relative))


def found_upward(relative: str, launching: str, read_text: ReadText) -> tuple[str, str] | None:
    """`upward`, with the path the text was read from."""
    for folder in _folders(launching, (relative,)):
        path = os.path.normpath(os.path.join(folder, relative))
        text = read_text(path)
        if text is not None:
            return (path, text) if len(text) <= MAX_CHARS else None
    return None


def program_upward(word: str, launching: str, read_text: ReadText) -> tuple[str, str] | None:
    """`found_upward` of the program a Python command runs: a file (`pred/serve_vllm.py`), or a
    module `python -m` imports (`a.b.c`: `a/b/c.py`, else the package's `a/b/c/__main__.py`)."""
    if word.endswith(".py"):
        return found_upward(word, launching, read_text)
    base = word.replace(".", "/")
    return found_upward(base + ".py", launching, read_text) or found_upward(base + "/__main__.py", launching, read_text)


def first_folder(relatives: tuple[str, ...], launching: str, read_text: ReadText) -> list[str | None] | None:
    """The texts of `relatives` in the nearest folder at or above the launching file's that holds
    any of them (None for each it does not hold, or too large); None when no folder does."""
    for folder in _folders(launching, relatives):
        texts = [read_text(os.path.normpath(os.path.join(folder, path))) for path in relatives]
        if any(text is not None for text in texts):
            return [text if text is not None and len(text) <= MAX_CHARS else None for text in texts]
    return None


def tree_root(launching: str, list_folder: ListFolder, packages: tuple[str, ...]) -> str | None:
    """The root of the tree the launching file sits in: the nearest folder at or above its own
    that holds `.git` (the repository) or one of `packages` (the folder a fork's package sits
    in, `fork_files.PACKAGES`); None when none does within MAX_LEVELS."""
    for folder in _folders(launching, ()):
        names = set(list_folder(folder))
        if ".git" in names or not names.isdisjoint(packages):
            return folder
    return None


def _folders(launching: str, relatives: tuple[str, ...]) -> Iterator[str]:
    """The launching file's folder and those above it, at most MAX_LEVELS (none for a path that
    is absolute or names a variable); past the folder replaylint runs in too (`..`), so that
    what is found does not depend on where it runs."""
    if any(os.path.isabs(path) or "$" in path for path in relatives):
        return
    folder = os.path.dirname(launching) or os.curdir
    for _ in range(MAX_LEVELS):
        yield folder
        parent = os.path.normpath(os.path.join(folder, os.pardir))
        if parent == folder:
            break
        folder = parent


def names_own_folder(raw: str, text: str) -> bool:
    """Whether a script's word `raw` (`$(dirname "$0")`, `"$SCRIPT_DIR"`) is the folder of the
    script `text`: written so, or a variable the script assigns once, so."""
    if _OWN_FOLDER.match(_plain(raw)):
        return True
    variable = _VARIABLE.match(raw)
    if variable is None:
        return False
    pattern = rf"(?m)^[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)?)[ \t]+)?{variable.group(1)}=(.*)$"
    values = re.findall(pattern, text)
    return len(values) == 1 and _OWN_FOLDER.match(_plain(values[0].split(" #")[0].strip().rstrip(";"))) is not None


def folder_from_own(raw: str, text: str, depth: int = _MAX_HOPS) -> str | None:
    """The folder, relative to the script's own, that its word `raw` names: `.` for its own folder
    (`names_own_folder`), `..` for `$(dirname "$SCRIPT_DIR")`, `../..` for RLinf's
    `REPO_PATH=$(dirname $(dirname "$CONFIG_PATH"))` after `CONFIG_PATH="$( cd "$( dirname
    "${BASH_SOURCE[0]}" )" && pwd )"`, each variable one the script assigns once; None: another."""
    plain = _plain(raw)
    if _OWN_FOLDER.match(plain):
        return os.curdir
    inner = _DIRNAME_OF.match(plain)
    variable = _VARIABLE.match(raw.strip('"'))
    if depth <= 0 or (inner is None and variable is None):
        return None
    if inner is not None:
        below = folder_from_own(inner.group(1), text, depth - 1)
        return os.path.normpath(os.path.join(below, os.pardir)) if below is not None else None
    assert variable is not None
    pattern = rf"(?m)^[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)?)[ \t]+)?{variable.group(1)}=(.*)$"
    values = re.findall(pattern, text)
    return folder_from_own(values[0].split(" #")[0].strip().rstrip(";"), text, depth - 1) if len(values) == 1 else None


def _plain(text: str) -> str:
    """The word without its quotes, its blanks single, and none inside `$( ... )`'s parentheses."""
    return re.sub(r"\s+\)", ")", re.sub(r"\$\(\s+", "$(", re.sub(r"\s+", " ", text.replace('"', "")))).strip()


def script_cd_folder(text: str, offset: int) -> str | None:
    """The folder, relative to the script's, that the script's last `cd` to its own place before
    `offset` moves into (`..` for `cd "$(dirname "$0")/.."`); None without one, or when another
    `cd` follows it before the launch (the working folder is then not known here)."""
    before = text[:offset]
    found = list(_CD_TO_SCRIPT.finditer(before))
    if not found or _CD.search(before[found[-1].end() :]):
        return None
    return os.path.join(os.curdir, *([os.pardir] * found[-1].group(1).count("/..")))


def changes_folder(text: str, offset: int) -> bool:
    """Whether the script `text` has a `cd` line before `offset`."""
    return _CD.search(text, 0, offset) is not None
