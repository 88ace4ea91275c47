"""Where a `pip install` puts a distribution's metadata in the image, whether the Python that
runs a stage's command reads it there, and where a `COPY --from=stage` moves it.

Places are `site-packages` folder patterns, `*` standing for a Python version: the system's
(`/usr/local/lib/python3*/site-packages`, Debian's `dist-packages`, conda's), a virtual
environment's (`/opt/venv/lib/python3*/site-packages`: pip run from `/opt/venv/bin`, a `PATH`
that puts it first, `. /opt/venv/bin/activate`), `--prefix P` (P's `lib/python3*/site-packages`)
`--target T` (T itself) and `--user` (the home's `.local`: `/root/.local` for root, `HOME` when
set). `--root`, a `--user` of a user whose home is unknown, and a `uv pip install` without a
known environment give no place: the plugin is then never counted (precision first).

A stage's Python reads the system's folders, those of the virtual environments its `PATH`
names, its user's `.local` (unless `PYTHONNOUSERSITE`), and its `PYTHONPATH`: a plugin whose
folder is none of them is not loaded by its engine (`pip install --target /deps ./ban` with no
`PYTHONPATH=/deps`).
"""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase

from .stages import Copy, Installed, Stage

SYSTEM_PREFIXES = ("/usr/local", "/usr", "/opt/conda", "/")
SYSTEM_SITES = (
    "/usr/local/lib/python3*/site-packages",
    "/usr/local/lib/python3*/dist-packages",
    "/usr/lib/python3/dist-packages",
    "/usr/lib/python3*/site-packages",
    "/opt/conda/lib/python3*/site-packages",
)
_ACTIVATE = re.compile(r"(?:^|[\s;&|(])(?:\.|source)\s+['\"]?(?P<venv>/[^\s'\";&|]+?)/bin/activate\b")
_GLOB = re.compile(r"[*?\[]")
_VENV_NAME = re.compile(r"(^|/)\.?(venv|virtualenv|env)[^/]*$|/envs/[^/]+$")


def prefix_sites(prefix: str) -> tuple[str, ...]:
    """The `site-packages` folders of an installation prefix or a virtual environment."""
    prefix = posixpath.normpath(prefix)
    if prefix in SYSTEM_PREFIXES:
        return SYSTEM_SITES
    return (posixpath.join(prefix, "lib/python3*/site-packages"),)


def install_sites(stage: Stage, program: tuple[str, ...], options: dict[str, str], before: str) -> tuple[str, ...]:
    """Where one `pip install` (or `uv pip install`) puts metadata: its `--target`/`--prefix`,
    else the environment of the pip that runs (its path, an activated or `PATH` venv), else the
    system's. `before` is the script text before the command (`. /opt/venv/bin/activate &&`)."""
    if "--target" in options:
        return (posixpath.normpath(options["--target"]),) if options["--target"].startswith("/") else ()
    if "--prefix" in options:
        return prefix_sites(options["--prefix"]) if options["--prefix"].startswith("/") else ()
    if "--user" in options:
        home = _home(stage)
        return prefix_sites(posixpath.join(home, ".local")) if home else ()
    if "--root" in options:
        return ()
    own = _program_environment(program[0]) or _program_environment(options.get("--python", ""))
    if own is not None:
        return prefix_sites(own)
    activated = [match.group("venv") for match in _ACTIVATE.finditer(before)]
    if activated:
        return prefix_sites(activated[-1])
    if program[0].rsplit("/", 1)[-1] == "uv":
        return _uv_sites(stage, options)
    venvs = active_environments(stage)
    return prefix_sites(venvs[0]) if venvs else SYSTEM_SITES


def _program_environment(program: str) -> str | None:
    """`/opt/venv/bin/pip` -> `/opt/venv`."""
    folder = posixpath.dirname(program)
    return posixpath.dirname(folder) if folder.startswith("/") and posixpath.basename(folder) == "bin" else None


def _uv_sites(stage: Stage, options: dict[str, str]) -> tuple[str, ...]:
    """`uv pip install` writes to `--system`'s Python, else the active virtual environment
    (`VIRTUAL_ENV`), else (with `UV_SYSTEM_PYTHON`) the system's; else a `.venv` found from the
    working directory, which is not followed here."""
    if "--system" in options:
        return SYSTEM_SITES
    virtual_env = stage.env.get("VIRTUAL_ENV")
    if virtual_env is not None and virtual_env.value and virtual_env.value.startswith("/"):
        return prefix_sites(virtual_env.value)
    system = stage.env.get("UV_SYSTEM_PYTHON")
    if system is not None and (system.value or "").lower() in ("1", "true", "yes", "on"):
        return SYSTEM_SITES
    return ()


def active_environments(stage: Stage) -> list[str]:
    """The virtual environments whose `bin` the stage's `PATH` names (known entries only): one
    its RUNs made or a COPY brought, `VIRTUAL_ENV`, or a folder named like one (`/opt/venv`,
    `.venv`, a conda `envs/NAME`); other `bin` folders (`/root/.cargo/bin`) are not Pythons."""
    virtual_env = stage.env.get("VIRTUAL_ENV")
    known = {*stage.venvs, *([virtual_env.value] if virtual_env is not None and virtual_env.value else [])}
    found = []
    for entry in stage.search_paths.get("PATH", ()):
        entry = posixpath.normpath(entry)
        folder = posixpath.dirname(entry)
        if posixpath.basename(entry) == "bin" and (folder in known or _VENV_NAME.search(folder)):
            found.append(folder)
    return found


def _home(stage: Stage) -> str | None:
    home = stage.env.get("HOME")
    if home is not None:
        return home.value if home.value and home.value.startswith("/") else None
    if stage.user is None:
        return None
    return "/root" if stage.user in ("root", "0") else f"/home/{stage.user}"


def readable_sites(stage: Stage) -> tuple[str, ...]:
    """The folders the Python that runs the stage's command reads distributions from."""
    venvs = tuple(site for venv in active_environments(stage) for site in prefix_sites(venv))
    python_path = tuple(posixpath.normpath(entry) for entry in stage.search_paths.get("PYTHONPATH", ()) if entry.startswith("/"))
    home = _home(stage)
    user = prefix_sites(posixpath.join(home, ".local")) if home and "PYTHONNOUSERSITE" not in stage.env else ()
    return SYSTEM_SITES + venvs + user + python_path


def visible_plugins(stage: Stage) -> tuple:
    """The plugins of the stage's installs whose metadata its Python reads."""
    readable = readable_sites(stage)
    found = [plugin for installed in stage.installs if _any_overlap(installed.sites, readable) for plugin in installed.plugins]
    return tuple(dict.fromkeys(found))


def copied_installs(copy: Copy, how: str) -> list[Installed]:
    """The installs of the stage a `COPY --from` reads that it carries along: a folder copied
    whole, or a prefix holding it (`COPY --from=build /install /usr/local`), lands at the
    destination. A folder only partly copied (one package of it) is not followed."""
    from dataclasses import replace

    if copy.origin is None or not copy.known:
        return []
    found = []
    for installed in copy.origin.installs:
        sites = tuple(moved for site in installed.sites for source in copy.sources if (moved := _moved(site, source, copy.destination)))
        if sites:
            plugins = tuple(replace(plugin, installed_by=f"{plugin.installed_by}, {how}") for plugin in installed.plugins)
            found.append(Installed(plugins, sites))
    return found


def copied_venvs(copy: Copy) -> list[str]:
    """The virtual environments of the stage a `COPY --from` reads that it carries along."""
    if copy.origin is None or not copy.known:
        return []
    return [moved for venv in copy.origin.venvs for source in copy.sources if (moved := _moved(venv, source, copy.destination))]


def _moved(site: str, source: str, destination: str) -> str | None:
    """Where the folder pattern `site` lands when `COPY --from` copies `source` (a folder, its
    contents going to `destination`), or None when `source` does not hold it whole."""
    if _GLOB.search(source):
        return None
    site_parts, source_parts = _parts(site), _parts(source)
    if len(source_parts) > len(site_parts) or not all(_compatible(a, b) for a, b in zip(source_parts, site_parts)):
        return None
    return posixpath.join(destination, *site_parts[len(source_parts) :]) if site_parts[len(source_parts) :] else destination


def _parts(path: str) -> list[str]:
    return [part for part in posixpath.normpath(path).split("/") if part]


def _compatible(first: str, second: str) -> bool:
    return first == second or fnmatchcase(first, second) or fnmatchcase(second, first)


def _overlap(first: str, second: str) -> bool:
    a, b = _parts(first), _parts(second)
    return len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))


def _any_overlap(sites: tuple[str, ...], readable: tuple[str, ...]) -> bool:
    return any(_overlap(site, place) for site in sites for place in readable)
