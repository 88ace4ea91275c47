"""Output formats. Each module renders a run (`run.Run`: the findings, with the files' texts) to
a string; `render` picks the module for a format name."""

from __future__ import annotations

import importlib

from .run import Run, applicable, relative_path

__all__ = ["FORMATS", "Run", "applicable", "relative_path", "render"]

FORMATS = ("full", "concise", "json", "json-lines", "junit", "github", "sarif")

# Format name -> module of this package with a `render(run) -> str`; the rest are text.
_MACHINE_FORMATS = {"json": "json", "json-lines": "json_lines", "junit": "junit", "github": "github", "sarif": "sarif"}


def render(name: str, run: Run) -> str:
    if name in _MACHINE_FORMATS:
        module = importlib.import_module(f".{_MACHINE_FORMATS[name]}", __name__)
        return module.render(run)
    if name not in ("full", "concise"):
        raise ValueError(f"unknown output format: {name!r}")
    from .text import render as render_text

    return render_text(run, concise=(name == "concise"), color=run.color)
