"""Apptainer (Singularity) definition files (`*.def`, Apptainer's "Definition Files" docs): the
`%runscript` section is what `apptainer run IMAGE` runs, the `%startscript` what `apptainer
instance start` runs, each a `/bin/sh` script run after the `%environment` section is sourced.
`%post` runs when the image is built: no launch. The header's `From:` (with `Bootstrap: docker`)
names the base image, whose tag is the release evidence. Apptainer passes the host's environment
into the container (unless `--cleanenv`), so the environment is open; the run's own words reach
the script as `"$@"`.
"""

from __future__ import annotations

import re

from ...model import VersionHint
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from ...vllm.images import release_from_image

_HEADER = re.compile(r"^(?P<key>Bootstrap|From)[ \t]*:[ \t]*(?P<value>\S+)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_SECTION = re.compile(r"^%(?P<name>[a-z]+)\b[^\n]*\n?", re.MULTILINE)
_RUN = ("runscript", "startscript")


def scripts(source: SourceFile) -> list[Script]:
    text = source.text
    sections = list(_SECTION.finditer(text))
    header = {match["key"].lower(): match for match in _HEADER.finditer(text, 0, sections[0].start() if sections else len(text))}
    if "bootstrap" not in header:
        return []
    bodies = {}
    for number, section in enumerate(sections):
        end = sections[number + 1].start() if number + 1 < len(sections) else len(text)
        bodies.setdefault(section["name"].lower(), (section.end(), end))
    hint = _hint(source, header)
    found = []
    for name in _RUN:
        if name not in bodies:
            continue
        expanded = Expanded()
        if "environment" in bodies:
            start, end = bodies["environment"]
            expanded.exact(text[start:end], start)
        start, end = bodies[name]
        expanded.exact(text[start:end], start)
        found.append(Script(expanded, {}, env_open=True, version_hint=hint))
    return found


def _hint(source: SourceFile, header: dict[str, re.Match]) -> VersionHint | None:
    image = header.get("from")
    if image is None or header["bootstrap"]["value"].lower() not in ("docker", "docker-daemon", "docker-archive"):
        return None
    release = release_from_image(image["value"])
    span = source.index.span(image.start("value"), image.end("value"))
    return VersionHint((str(release),), f"image {image['value']}", span) if release is not None else None
