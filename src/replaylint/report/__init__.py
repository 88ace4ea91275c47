"""Output formats. Each module renders a run (`run.Run`: the findings, with the files' texts) to
a string; `render` picks the module for a format name."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .run import Run, applicable, relative_path

__all__ = ["FORMATS", "REPOSITORY_RELATIVE", "Run", "applicable", "relative_path", "render"]

# ruff's order.
FORMATS = ("full", "concise", "grouped", "json", "json-lines", "junit", "github", "gitlab", "pylint", "rdjson", "azure", "sarif")

# Formats whose paths are relative to the repository's top level (`Run.root`): code scanning, CI
# annotations and review tools match files by repository path. The others print paths as given.
REPOSITORY_RELATIVE = ("sarif", "github", "junit", "gitlab", "rdjson", "azure")


def __getattr__(name: str) -> Any:
    """`Run` and its helpers, imported when first asked for: the format names alone are what a
    run settled before its report (a pre-commit run of files without launches) needs."""
    if name in ("Run", "applicable", "relative_path"):
        from . import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Format name -> module of this package with a `render(run) -> str`; `full` and `concise` are `text`.
_MODULES = {
    "grouped": "grouped",
    "json": "json",
    "json-lines": "json_lines",
    "junit": "junit",
    "github": "github",
    "gitlab": "gitlab",
    "pylint": "pylint",
    "rdjson": "rdjson",
    "azure": "azure",
    "sarif": "sarif",
}


def render(name: str, run: Run) -> str:
    if name in _MODULES:
        module = importlib.import_module(f".{_MODULES[name]}", __name__)
        return module.render(run)
    if name not in ("full", "concise"):
        raise ValueError(f"unknown output format: {name!r}")
    from .text import render as render_text

    return render_text(run, concise=(name == "concise"), color=run.color)
