"""Reading vLLM requirements from the files a project keeps: PEP 508 strings (names, URLs,
archives, git tags), poetry constraints (`^`, `~`, `*`, `||`), `pyproject.toml` tables
(`[project]`, `[dependency-groups]`, `[tool.uv]`, `[tool.poetry]`, `[tool.pdm]`), lock files
(uv, poetry, PEP 751) and requirements files with their `-r`/`-c` includes.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ...records import record
from ...regexes import on_use
from ...vllm.releases import Release
from .evidence import CONSTRAIN, OVERRIDE, REQUIRE, Found
from .specifiers import Clause, Spec, exact, parse_clause, parse_specifier, release_parts, version_key

# Requirements (PEP 508) and poetry constraints -----------------------------------------------

_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*")
_ARCHIVE = on_use(r"(?i)^vllm-(\d[^-/]*?)(?:-[^/]*)?\.(?:whl|tar\.gz|zip)$")
_TAG = on_use(r"@v?(\d+\.\d+(?:\.\d+)?)$")


def normalized_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def is_vllm(name: str) -> bool:
    return normalized_name(name) == "vllm"


def version_from_url(url: str) -> str | None:
    """`.../vllm-0.31.2-cp38-abi3-manylinux1_x86_64.whl` or `git+https://...vllm@v0.31.2`."""
    url = url.strip().split("#", 1)[0]
    archive = _ARCHIVE.match(url.rstrip("/").rsplit("/", 1)[-1])
    if archive:
        return archive.group(1)
    tag = _TAG.search(url)
    return tag.group(1) if tag and "vllm" in url.lower() else None


def parse_requirement(text: str) -> Spec | None:
    """`vllm[audio] (>=0.30, <0.32); python_version >= "3.10"` -> its Spec.

    None when the requirement is not vLLM's or its version cannot be read (`vllm==${V}`).
    """
    match = _NAME.match(text)
    if match is None or not is_vllm(match.group(1)):
        return None
    rest = text[match.end() :]
    if rest.startswith("@"):
        version = version_from_url(re.split(r"\s+;|;\s", rest[1:], maxsplit=1)[0])
        return exact(version) if version else None
    return parse_specifier(rest.split(";", 1)[0])


def _bumped(parts: tuple[int, ...], index: int) -> str:
    return ".".join(str(part) for part in parts[:index] + (parts[index] + 1,))


def _caret(version: str) -> tuple[Clause, ...] | None:
    """Poetry's `^0.31.0`: >=0.31.0,<0.32 (the leftmost non-zero part may not change)."""
    parts = release_parts(version)
    if not parts or version_key(version) is None:
        return None
    index = next((i for i, part in enumerate(parts) if part), len(parts) - 1)
    return (Clause(">=", version), Clause("<", _bumped(parts, index)))


def _tilde(version: str) -> tuple[Clause, ...] | None:
    """Poetry's `~0.31.2`: >=0.31.2,<0.32 (`~1`: <2)."""
    parts = release_parts(version)
    if not parts or version_key(version) is None:
        return None
    return (Clause(">=", version), Clause("<", _bumped(parts, min(1, len(parts) - 1))))


def _poetry_clause(token: str) -> tuple[Clause, ...] | None:
    if token in ("*", ""):
        return ()
    if token.startswith("^"):
        return _caret(token[1:])
    if token.startswith("~") and not token.startswith("~="):
        return _tilde(token[1:])
    if token[0].isdigit():
        token = "==" + token
    clause = parse_clause(token)
    return (clause,) if clause else None


def parse_poetry_constraint(text: str) -> Spec | None:
    """`^0.31.0`, `~0.31`, `0.31.*`, `>=0.30,<0.32`, `0.30.1 || 0.31.2` -> Spec."""
    alternatives = []
    for alternative in re.split(r"\|\|?", text):
        joined = re.sub(r"(~=|===|==|!=|<=|>=|<|>|\^|~)\s+", r"\1", alternative.strip())
        clauses: tuple[Clause, ...] = ()
        for token in re.split(r"[\s,]+", joined):
            parsed = _poetry_clause(token)
            if parsed is None:
                return None
            clauses += parsed
        alternatives.append(clauses)
    return Spec(tuple(alternatives))


def poetry_spec(value: Any) -> Spec | None:
    """A `[tool.poetry.dependencies]` value: a constraint, a table, or a list of tables."""
    if isinstance(value, str):
        return parse_poetry_constraint(value)
    if isinstance(value, dict):
        if isinstance(value.get("version"), str):
            return parse_poetry_constraint(value["version"])
        for key in ("tag", "url", "path", "file"):
            found = version_from_url(f"vllm@{value[key]}" if key == "tag" else value[key]) if isinstance(value.get(key), str) else None
            if found:
                return exact(found)
        return None
    if isinstance(value, list):
        specs = [spec for spec in (poetry_spec(item) for item in value) if spec is not None]
        return Spec(tuple(clauses for spec in specs for clauses in spec.alternatives)) if specs else None
    return None


# pyproject.toml and lock files ------------------------------------------------------------------


def _table(data: Any, *keys: str) -> dict:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _pep508(items: Any, where: str, role: str = REQUIRE) -> Iterator[Found]:
    for text in _strings(items):
        spec = parse_requirement(text)
        if spec is not None:
            yield Found(spec, f"{where}: {text.strip()}", role)


def _inline(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_inline(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _poetry(table: dict, where: str) -> Iterator[Found]:
    for name, value in table.items():
        if is_vllm(name):
            spec = poetry_spec(value)
            if spec is not None:
                yield Found(spec, f"{where}: vllm = {_inline(value)}")


def pyproject_requirements(data: dict, display: str) -> Iterator[Found]:
    """Every vLLM requirement of a parsed pyproject.toml."""
    project = _table(data, "project")
    yield from _pep508(project.get("dependencies"), f"{display} [project] dependencies")
    for extra, items in _table(project, "optional-dependencies").items():
        yield from _pep508(items, f"{display} [project.optional-dependencies] {extra}")
    for group, items in _table(data, "dependency-groups").items():
        yield from _pep508(items, f"{display} [dependency-groups] {group}")
    uv = _table(data, "tool", "uv")
    yield from _pep508(uv.get("dev-dependencies"), f"{display} [tool.uv] dev-dependencies")
    yield from _pep508(uv.get("constraint-dependencies"), f"{display} [tool.uv] constraint-dependencies", CONSTRAIN)
    yield from _pep508(uv.get("override-dependencies"), f"{display} [tool.uv] override-dependencies", OVERRIDE)
    for group, items in _table(data, "tool", "pdm", "dev-dependencies").items():
        yield from _pep508(items, f"{display} [tool.pdm.dev-dependencies] {group}")
    poetry = _table(data, "tool", "poetry")
    yield from _poetry(_table(poetry, "dependencies"), f"{display} [tool.poetry.dependencies]")
    yield from _poetry(_table(poetry, "dev-dependencies"), f"{display} [tool.poetry.dev-dependencies]")
    for group, body in _table(poetry, "group").items():
        yield from _poetry(_table(body, "dependencies"), f"{display} [tool.poetry.group.{group}.dependencies]")


_LOCAL_SOURCES = ("editable", "virtual", "directory")


def _locked_version(package: dict) -> str | None:
    """The version of one `[[package]]`/`[[packages]]` entry; None for local checkouts."""
    source = package.get("source")
    if isinstance(source, dict) and (any(key in source for key in _LOCAL_SOURCES) or source.get("type") == "directory"):
        return None
    if any(key in package for key in ("directory", "vcs")) and not isinstance(package.get("version"), str):
        return None
    if isinstance(package.get("version"), str):
        return package["version"]
    wheels = package.get("wheels")
    archives = [item for item in wheels if isinstance(item, dict)] if isinstance(wheels, list) else []
    for archive in archives + [_table(package, "sdist"), _table(package, "archive")]:
        found = version_from_url(str(archive.get("name") or archive.get("url") or archive.get("path") or ""))
        if found:
            return found
    return None


def locked_versions(data: dict) -> list[str]:
    """vLLM versions in uv.lock/poetry.lock (`[[package]]`) or pylock.toml (`[[packages]]`)."""
    packages = data.get("package", data.get("packages"))
    versions = []
    for package in packages if isinstance(packages, list) else []:
        if isinstance(package, dict) and isinstance(package.get("name"), str) and is_vllm(package["name"]):
            version = _locked_version(package)
            if version and Release.parse(version):
                versions.append(version)
    return versions


# requirements files ----------------------------------------------------------------------------


@record(unsafe_hash=True)
class Line:
    """One logical line of a requirements file that matters here."""

    number: int
    kind: str  # "require", "include" (-r) or "constrain" (-c)
    text: str


_INCLUDES = {"-r": "include", "--requirement": "include", "-c": "constrain", "--constraint": "constrain"}
_COMMENT = re.compile(r"(^|\s)#.*$")
_OPTIONS = re.compile(r"\s+--?[A-Za-z]")


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """Lines joined at trailing backslashes, comments removed, with their first line number."""
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        start = start or number
        if line.endswith("\\") and not _COMMENT.search(line):
            pending += line[:-1] + " "
            continue
        joined = _COMMENT.sub("", pending + line).strip()
        if joined:
            yield start, joined
        pending, start = "", 0
    if pending.strip():
        yield start, _COMMENT.sub("", pending).strip()


def _include(line: str) -> tuple[str, str] | None:
    """(`include`|`constrain`, target) of `-r x`, `-rx`, `--requirement=x`; None otherwise."""
    words = line.split()
    first = words[0]
    name, equals, value = first.partition("=")
    if name in _INCLUDES:
        target = value if equals else (words[1] if len(words) > 1 else "")
        return (_INCLUDES[name], target) if target else None
    if first[:2] in ("-r", "-c") and len(first) > 2 and not first.startswith("--"):
        return _INCLUDES[first[:2]], first[2:]
    return None


def requirement_lines(text: str) -> tuple[Line, ...]:
    lines = []
    for number, line in logical_lines(text):
        include = _include(line)
        if include:
            lines.append(Line(number, include[0], include[1]))
        elif not line.startswith("-"):
            lines.append(Line(number, REQUIRE, _OPTIONS.split(line, maxsplit=1)[0]))
    return tuple(lines)


# A line that may include another file (`_include`): a logical line starts a physical one (after
# the first, a `\n`: a literal start, which the expression skips to in C). Other line breaks
# (`splitlines` knows nine) make `may_hold_vllm` read the lines instead.
_INCLUDES_STARTS = ("-r", "-c", "--requirement", "--constraint")
_INCLUDE_START = re.compile(r"\n\s*-(?:r|c|-requirement|-constraint)")
_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def may_hold_vllm(text: str) -> bool:
    """Whether a requirements file may require vLLM: it names it, or includes another file. A
    project's requirements are mostly other packages (vLLM's own: 900 lines in 14 files), which
    need not be parsed then."""
    return (
        "vllm" in text.lower()
        or text.lstrip().startswith(_INCLUDES_STARTS)
        or _INCLUDE_START.search(text) is not None
        or any(line_break in text for line_break in _OTHER_BREAKS)
    )


def requirement_line_spec(text: str) -> Spec | None:
    """A requirement line's vLLM Spec: `vllm[x]==0.31.2 ; marker` or a bare wheel path/URL."""
    if "://" in text.split(" ")[0] or re.search(r"\.(whl|tar\.gz|zip)$", text.split(";")[0].strip()):
        version = version_from_url(text.split(";")[0])
        return exact(version) if version else None
    return parse_requirement(text)


# Other packages: the RL frameworks whose editions a pin chooses ---------------------------------

_GIT_REF = on_use(r"@([^@/#?\s]+)(?:#.*)?$")


@record(unsafe_hash=True)
class PackageFound:
    """One requirement of a package: a spec (a version or range), or a git ref (tag, branch,
    commit), and where it was written."""

    spec: Spec | None
    ref: str | None
    source: str


def _git_ref(url: str) -> str | None:
    """`git+https://github.com/o/r@v0.7.0` or `...@<sha>` -> the ref; `?rev=X#<sha>` (uv.lock) -> the commit."""
    url = url.strip()
    if "#" in url and "?" in url.split("#", 1)[0]:
        commit = url.rsplit("#", 1)[1]
        return commit or None
    found = _GIT_REF.search(url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else url)
    return found.group(1) if found else None


def package_requirement(text: str, package: str, where: str) -> PackageFound | None:
    """A PEP 508 requirement of `package` (normalised name): its spec or git ref."""
    match = _NAME.match(text)
    if match is None or normalized_name(match.group(1)) != package:
        return None
    rest = text[match.end() :]
    if rest.startswith("@"):
        url = re.split(r"\s+;|;\s", rest[1:], maxsplit=1)[0].strip()
        archive = re.match(
            rf"(?i)^{re.escape(package).replace('-', '[-_]')}-(\d[^-/]*?)(?:-[^/]*)?\.(?:whl|tar\.gz|zip)$", url.rsplit("/", 1)[-1]
        )
        if archive:
            return PackageFound(exact(archive.group(1)), None, f"{where}: {text.strip()}")
        ref = _git_ref(url) if url.startswith("git+") else None
        return PackageFound(None, ref, f"{where}: {text.strip()}") if ref else None
    spec = parse_specifier(rest.split(";", 1)[0])
    return PackageFound(spec, None, f"{where}: {text.strip()}") if spec is not None and spec.pinned else None


def pyproject_package(data: dict, package: str, where: str) -> Iterator[PackageFound]:
    """`package` in a pyproject.toml: PEP 508 lists, poetry tables, `[tool.uv.sources]` git refs."""
    project = _table(data, "project")
    lists = [project.get("dependencies")] + list(_table(project, "optional-dependencies").values())
    lists += list(_table(data, "dependency-groups").values())
    for items in lists:
        for text in _strings(items):
            found = package_requirement(text, package, where)
            if found is not None:
                yield found
    sources = _table(data, "tool", "uv", "sources")
    poetry = _table(data, "tool", "poetry", "dependencies")
    for table, label in ((sources, "[tool.uv.sources]"), (poetry, "[tool.poetry.dependencies]")):
        for name, value in table.items():
            if normalized_name(name) != package:
                continue
            if isinstance(value, dict):
                ref = next((value[key] for key in ("rev", "tag", "branch") if isinstance(value.get(key), str)), None)
                if ref is not None:
                    yield PackageFound(None, ref, f"{where} {label}: {name} = {_inline(value)}")
                elif isinstance(value.get("version"), str):
                    spec = parse_poetry_constraint(value["version"])
                    if spec is not None and spec.pinned:
                        yield PackageFound(spec, None, f"{where} {label}: {name} = {_inline(value)}")
            elif isinstance(value, str):
                spec = parse_poetry_constraint(value)
                if spec is not None and spec.pinned:
                    yield PackageFound(spec, None, f"{where} {label}: {name} = {_inline(value)}")


def locked_package(data: dict, package: str, where: str) -> Iterator[PackageFound]:
    """`package` in uv.lock/poetry.lock (`[[package]]`) or pylock.toml (`[[packages]]`): its
    version, or the commit of a git source."""
    packages = data.get("package", data.get("packages"))
    for entry in packages if isinstance(packages, list) else []:
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str) and normalized_name(entry["name"]) == package):
            continue
        source = entry.get("source") if isinstance(entry.get("source"), dict) else {}
        vcs = entry.get("vcs") if isinstance(entry.get("vcs"), dict) else {}
        commit = source.get("resolved_reference") or vcs.get("commit-id")
        if commit is None and isinstance(source.get("git"), str):
            commit = _git_ref(source["git"])
        if isinstance(commit, str):
            yield PackageFound(None, commit, f"{where}: {entry['name']} @ {commit}")
        elif isinstance(entry.get("version"), str) and not any(key in source for key in _LOCAL_SOURCES):
            spec = exact(entry["version"])
            if spec is not None:
                yield PackageFound(spec, None, f"{where}: {entry['name']} {entry['version']}")


def requirement_line_package(text: str, package: str, where: str) -> PackageFound | None:
    return package_requirement(text.split(" --", 1)[0], package, where)
