"""`full` and `concise` text output, and the summary line ruff users know."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .printable import printable, printable_path
from .run import Run, applicable, fix_help, related_places

if TYPE_CHECKING:  # imported where a finding is shown: a clean run shows none
    from ..model import Finding, LineIndex

_COLORS = {"bold": "1", "red": "31", "yellow": "33", "cyan": "36", "green": "32", "dim": "2", "underline": "4"}


def use_color(stream: object = sys.stdout) -> bool:
    """Colour for a terminal: NO_COLOR (https://no-color.org) turns it off, FORCE_COLOR on."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()  # type: ignore[attr-defined]


def paint(text: str, style: str, color: bool) -> str:
    return f"\033[{_COLORS[style]}m{text}\033[0m" if color else text


def code_and_message(finding: Finding, color: bool = False) -> str:
    """`CODE [*] message`: what every text format prints after the place."""
    marker = " [*]" if applicable(finding, unsafe=False) else ""
    code = paint(finding.code, "red" if finding.severity == "error" else "yellow", color)
    return f"{code}{marker} {printable(finding.message)}"


def header(finding: Finding, color: bool = False, cell: int | None = None) -> str:
    span = finding.span
    in_cell = f"cell {cell}:" if cell is not None else ""  # a notebook's, as ruff writes it
    location = paint(f"{printable_path(span.path)}:{in_cell}{span.start_line}:{span.start_col}:", "bold", color)
    return f"{location} {code_and_message(finding, color)}"


def _excerpt(finding: Finding, index: LineIndex | None, notes: list[str], color: bool) -> list[str]:
    span = finding.span
    if index is None or span.start_line > index.line_count:
        return [f"{' ' * len(str(span.start_line))} = {note}" for note in notes]
    end_line = min(span.end_line, span.start_line + 4)
    width = len(str(end_line))
    gutter = " " * width + " |"
    lines = [gutter]
    for number in range(span.start_line, end_line + 1):
        content = index.line_text(number).expandtabs(1)
        lines.append(f"{number:>{width}} | {printable(content)}")
        start = _shown_column(content, span.start_col if number == span.start_line else 1)
        end = _shown_column(content, span.end_col if number == span.end_line else len(content) + 1)
        if end <= start:
            end = start + 1
        underline = " " * (start - 1) + "^" * (end - start)
        suffix = f" {finding.code}" if number == end_line else ""
        lines.append(f"{gutter} {paint(underline + suffix, 'red' if finding.severity == 'error' else 'yellow', color)}")
    lines.append(gutter)
    lines.extend(f"{' ' * width} = {note}" for note in notes)
    help_line = fix_help(finding)
    if help_line is not None:
        lines.append(f"{' ' * width} = {printable(help_line)}")
        lines.extend(_fix_diff(finding, index, width, color))
    return lines


def _notes(finding: Finding, texts: dict[str, str]) -> list[str]:
    """`note: train.py:10:7: `vllm_args(model)``: a line for each place the finding's value
    passed through, as rustc and ruff add `= note:` under the excerpt. Quoting needs no line
    index: a span holds its offsets."""
    return [
        f"note: {printable_path(span.path)}:{span.start_line}:{span.start_col}: {printable(said)}"
        for span, said in related_places(finding, texts)
    ]


def _index(indexes: dict[str, LineIndex | None], run: Run, path: str) -> LineIndex | None:
    if path not in indexes:
        from ..model import LineIndex

        text = run.texts.get(path)
        indexes[path] = None if text is None else LineIndex(path, text)
    return indexes[path]


def _cell_index(path: str, text: str | None) -> LineIndex | None:
    from ..model import LineIndex

    return None if text is None else LineIndex(path, text)


def _shown_column(content: str, column: int) -> int:
    """Where `column` of `content` is once the line is printed escaped (`\x1b` takes four)."""
    return len(printable(content[: column - 1])) + 1


def _fix_diff(finding: Finding, index: LineIndex, width: int, color: bool) -> list[str]:
    """The lines the fix changes, before and after: only the lines its edits touch are applied
    and compared, so a finding costs the same in a file of ten lines or of a hundred thousand."""
    edits = [edit for edit in finding.edits if edit.span.path == finding.span.path]
    if not edits:
        return []
    from dataclasses import replace

    from ..edits import apply_edits

    first = index.position(min(edit.span.start for edit in edits))[0]  # from the offsets apply_edits reads
    last = index.position(max(edit.span.end for edit in edits))[0]
    start = index.offset(first, 1)
    end = index.offset(last + 1, 1) if last < index.line_count else len(index.text)
    region = index.text[start:end]
    moved = [replace(edit, span=replace(edit.span, start=edit.span.start - start, end=edit.span.end - start)) for edit in edits]
    fixed, _ = apply_edits(region, moved)
    import difflib  # only when a fix is shown

    diff = difflib.unified_diff(region.splitlines(), fixed.splitlines(), lineterm="", n=0)
    lines = [f"{' ' * width} |"]
    for line in list(diff)[2:]:
        if line.startswith("@@"):
            continue
        style = "green" if line.startswith("+") else "red"
        lines.append(f"{' ' * width} | {paint(printable(line), style, color)}")
    return lines


def counted(errors: int, warnings: int, brief: bool = False) -> str:
    """`1 error`, `2 warnings`, or `3 problems (1 error, 2 warnings)` (`brief`: `3 problems`)."""
    said = [f"{count} {word if count == 1 else word + 's'}" for count, word in ((errors, "error"), (warnings, "warning")) if count]
    if len(said) == 2:
        return f"{errors + warnings} problems" + ("" if brief else f" ({', '.join(said)})")
    return said[0] if said else "0 errors"


def _shown(finding: Finding, run: Run, concise: bool, color: bool, indexes: dict[str, LineIndex | None]) -> list[str]:
    """A finding's header and, unless `concise`, its excerpt and notes."""
    from .notebook_cells import cell_view  # imported with the first finding: a clean run shows none

    text = run.texts.get(finding.span.path)
    view = cell_view(finding, text)
    cell = None
    if view is not None:
        cell, finding, text = view
    if concise:
        return [header(finding, color, cell)]
    notes = _notes(finding, run.texts)
    # A notebook's finding is shown in its cell's own lines (small: indexed per finding).
    index = _index(indexes, run, finding.span.path) if cell is None else _cell_index(finding.span.path, text)
    return [header(finding, color, cell), *_excerpt(finding, index, notes, color), ""]


def summary(run: Run) -> list[str]:
    findings = run.findings
    if run.quiet:
        return []
    if not findings and not run.fixed:
        return ["All checks passed!"]
    warnings = sum(1 for f in findings if f.severity == "warning")
    errors = len(findings) - warnings
    if run.fixed:
        total = counted(errors + run.fixed - run.fixed_warnings, warnings + run.fixed_warnings, brief=True)
        lines = [f"Found {total} ({run.fixed} fixed, {len(findings)} remaining)."]
    else:
        lines = [f"Found {counted(errors, warnings)}."]
    safe = sum(1 for f in findings if applicable(f, unsafe=False))
    unsafe_only = sum(1 for f in findings if applicable(f, unsafe=True)) - safe
    if safe or unsafe_only:
        if run.unsafe_fixes_enabled:
            lines.append(f"[*] {safe + unsafe_only} fixable with the `--fix` option.")
        elif safe:
            hidden = (
                f" ({unsafe_only} hidden {'fix' if unsafe_only == 1 else 'fixes'} can be enabled with the `--unsafe-fixes` option)"
                if unsafe_only
                else ""
            )
            lines.append(f"[*] {safe} fixable with the `--fix` option{hidden}.")
        else:
            lines.append(
                f"No fixes available ({unsafe_only} hidden {'fix' if unsafe_only == 1 else 'fixes'} can be enabled with the `--unsafe-fixes` option)."
            )
    return lines


def render(run: Run, concise: bool, color: bool = False) -> str:
    out: list[str] = []
    indexes: dict[str, LineIndex | None] = {}  # one per file, however many findings it has
    for finding in run.findings:
        out.extend(_shown(finding, run, concise, color, indexes))
    if run.findings and concise and not run.quiet:
        out.append("")
    if run.fix_summary and not run.quiet:
        out.extend([*run.fix_summary, ""])
    out.extend(summary(run))
    return "\n".join(out) + "\n"
