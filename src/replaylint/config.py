"""The resolved settings of one run (command line over configuration file over defaults)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .discovery import DEFAULT_EXCLUDES
from .rules import BY_CODE, UNPARSABLE_FILE, resolve
from .vllm.releases import Release


@dataclass
class Config:
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    target_vllm: Release | None = None
    target_vllm_forced: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    fixable: tuple[str, ...] = ("ALL",)
    unfixable: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)
    max_file_bytes: int = 8 * 1024 * 1024
    source: str = "defaults"

    def enabled_codes(self) -> frozenset[str]:
        codes: set[str] = set()
        for selector in (*self.select, *self.extend_select):
            codes.update(resolve(selector))
        for selector in self.ignore:
            codes.difference_update(resolve(selector))
        return frozenset(codes)

    def fixable_codes(self) -> frozenset[str]:
        codes: set[str] = set()
        for selector in self.fixable:
            codes.update(resolve(selector))
        for selector in self.unfixable:
            codes.difference_update(resolve(selector))
        return frozenset(codes)

    @property
    def excludes(self) -> tuple[str, ...]:
        return (*self.exclude, *self.extend_exclude)

    def fingerprint(self) -> str:
        """What the results of a file depend on, for the cache key."""
        return repr((sorted(self.enabled_codes()), str(self.target_vllm), self.target_vllm_forced, sorted(self.severity.items())))


KNOWN_CODES = frozenset((*BY_CODE, UNPARSABLE_FILE[0]))
