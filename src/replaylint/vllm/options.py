"""The option strings `vllm serve` registers in each release (for abbreviations and arity).

Tables live in `data/cli-options-X.Y.Z.json`, dumped from each release's real parser
(`scripts/dump_vllm_options.py`). They are loaded on first use only, by commands that parse
argv. Without a table, the engine fields of `engine_fields.py` give a smaller fallback.
"""

from __future__ import annotations

import json
import os
from dataclasses import field as table_field
from functools import lru_cache

from ..records import record
from .engine_fields import FIELDS
from .releases import FIRST_WITH_MASK, NEWEST, RELEASES, Release

_REMEMBERED = 4096  # prefix lookups kept per table (a long-lived process must not grow without bound)
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@record(unsafe_hash=True)
class Option:
    string: str
    dest: str
    nargs: int | str  # 0 (switch), 1, "?", "+", "*"
    negative: bool = False
    choices: tuple[str, ...] = ()


@record(unsafe_hash=True)
class OptionTable:
    release: Release
    options: dict[str, Option]
    prefixes: dict[str, tuple[str, ...]] = table_field(default_factory=dict, compare=False, repr=False)  # lookups made

    def lookup(self, name: str) -> tuple[Option | None, tuple[str, ...]]:
        """argparse's matching: exact, else a unique prefix of a long option.

        Returns (option, ()) on a match, (None, candidates) when the prefix is ambiguous, and
        (None, ()) when nothing matches.
        """
        exact = self.options.get(name)
        if exact is not None:
            return exact, ()
        if not name.startswith("--"):
            return None, ()
        candidates = self.prefixes.get(name)
        if candidates is None:  # a scan of every option: once per name (a file may repeat one 100,000 times)
            candidates = tuple(sorted(string for string in self.options if string.startswith(name)))
            if len(self.prefixes) < _REMEMBERED:
                self.prefixes[name] = candidates
        if len(candidates) == 1:
            return self.options[candidates[0]], ()
        return None, candidates


def _negative(string: str, dest: str, strings: set[str]) -> bool:
    for negation, positive in (("--no-", "--"), ("--disable-", "--enable-")):
        if string.startswith(negation) and positive + string[len(negation) :] in strings:
            return True
    return False


def _from_json(release: Release, payload: dict) -> OptionTable:
    raw = payload["options"]
    strings = set(raw)
    options = {}
    for string, entry in raw.items():
        nargs = entry.get("nargs", 1)
        options[string] = Option(
            string,
            entry["dest"],
            nargs,
            negative=nargs == 0 and _negative(string, entry["dest"], strings),
            choices=tuple(entry.get("choices") or ()),
        )
    return OptionTable(release, options)


def _fallback(release: Release) -> OptionTable:
    options: dict[str, Option] = {}
    for field in FIELDS.values():
        if field.since > release or field.name == "model":
            continue
        nargs: int | str = {"bool": 0, "list": "+"}.get(field.kind, 1)
        strings = [field.flag] + ([field.short] if field.short else [])
        for string in strings:
            options[string] = Option(string, field.name, nargs, choices=field.choices)
        if nargs == 0:
            negation = "--no-" + field.flag[2:]
            options[negation] = Option(negation, field.name, 0, negative=True)
    options["--model"] = Option("--model", "model", 1)
    options["--config"] = Option("--config", "config", 1)
    return OptionTable(release, options)


@lru_cache(maxsize=None)
def table_for(release: Release) -> OptionTable:
    """The option table of the release whose parser applies (0.27 and older use 0.28's)."""
    known = max((r for r in RELEASES if r.series <= release.series), default=FIRST_WITH_MASK)
    if release.series > NEWEST.series:
        known = NEWEST
    try:
        # A plain path, not importlib.resources (its import costs a process 13 ms): the tables are
        # package data installed next to this module.
        with open(os.path.join(_DATA, f"cli-options-{known}.json"), encoding="utf-8") as handle:
            text = handle.read()
    except (FileNotFoundError, OSError):
        return _fallback(known)
    return _from_json(known, json.loads(text))
