"""`replaylint check --fix`, `--diff` and `--show-fixes`: fixes applied to files (or to stdin),
printed as a diff, the files they touched checked again."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..report.console import warning
from ..report.printable import printable

if TYPE_CHECKING:
    from ..engine.checker import Checker, FileResult
    from ..report import Run


def fix_files(checker: Checker, results: list[FileResult], args: argparse.Namespace, run: Run, quiet: bool) -> int:
    """Apply fixes (or print them as a diff). Replaces the results of changed files in place."""
    from ..report import applicable
    from ..run.apply_fixes import Fixer

    fixable = checker.config.fixable_codes()
    candidates = [r.path for r in results if any(f.code in fixable and applicable(f, args.unsafe_fixes) for f in r.findings)]
    fixer = Fixer(checker, unsafe=args.unsafe_fixes, roots=checker.roots or ())
    fixer.run(candidates)
    checker.overlay.clear()
    changed = [document for document in fixer.documents.values() if document.changed]
    if args.diff:
        for failure in fixer.failures:
            warning(failure)
        for document in changed:
            sys.stdout.write(unified_diff(document.original, document.text, document.path))
        if not quiet:  # on stdout after the diff, as ruff prints it
            would = [finding for document in changed for finding in document.fixed]
            print(fixed_line(would, _unsafe_left(results, fixable, args.unsafe_fixes), would=True))
        return 1 if changed else 0
    written = set(fixer.write())
    for failure in fixer.failures:
        warning(failure)
    fixed = [finding for d in fixer.documents.values() if d.path in written for finding in d.fixed]
    run.fixed = len(fixed)
    run.fixed_warnings = sum(1 for finding in fixed if finding.severity == "warning")
    _recheck(checker, results, written)
    if args.show_fixes and written:  # shown with the report, before its summary, as ruff shows it
        run.fix_summary = fix_summary([d for d in fixer.documents.values() if d.path in written])
    if args.fix_only and not quiet:
        print("\n".join(run.fix_summary) if run.fix_summary else fixed_line(fixed, _unsafe_left(results, fixable, args.unsafe_fixes)))
    return 0


def fixed_line(fixed: list, unsafe_left: int, would: bool = False) -> str:
    """ruff's line after `--diff` or `--fix-only`: what was (or would be) fixed, counted by
    severity, and how many unsafe fixes `--unsafe-fixes` would add."""
    fixes = "fix" if unsafe_left == 1 else "fixes"
    if fixed:
        extra = f" ({unsafe_left} additional {fixes} available with `--unsafe-fixes`)" if unsafe_left else ""
        return f"{'Would fix' if would else 'Fixed'} {_counted(fixed)}{extra}."
    extra = f" ({unsafe_left} {fixes} available with `--unsafe-fixes`)" if unsafe_left else ""
    return f"No errors {'would be fixed' if would else 'fixed'}{extra}."


def _counted(findings: list) -> str:
    from ..report.text import counted

    warnings = sum(1 for finding in findings if finding.severity == "warning")
    return counted(len(findings) - warnings, warnings, brief=True)


def _unsafe_left(results: list[FileResult], fixable: frozenset[str], unsafe: bool) -> int:
    """Findings whose fix only `--unsafe-fixes` applies (none when it is on)."""
    from ..report import applicable

    if unsafe:
        return 0
    return sum(1 for r in results for f in r.findings if f.code in fixable and applicable(f, True) and not applicable(f, False))


def _recheck(checker: Checker, results: list[FileResult], written: set[str]) -> None:
    """Check again, in place, every file a fix wrote and every file whose findings or reads
    touched one (a script whose finding was fixed in its `--config` YAML)."""
    touched = {os.path.abspath(path) for path in written}
    by_path = {r.path: index for index, r in enumerate(results)}
    again = list(written) + [
        r.path
        for r in results
        if r.path not in written
        and (any(os.path.abspath(f.span.path) in touched for f in r.findings) or any(os.path.abspath(d) in touched for d in r.dependencies))
    ]
    for path in again:
        fresh = checker.check_file(path)
        if path in by_path:
            results[by_path[path]] = fresh
        else:
            results.append(fresh)


def unified_diff(before: str, after: str, path: str) -> str:
    import difflib

    diff = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), _diff_name("a", path), _diff_name("b", path)
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)


def _diff_name(side: str, path: str) -> str:
    """`a/PATH` as git writes it in a diff header: quoted, with C escapes, when the name holds a
    control character, a quote or a backslash (`"a/x\\n::stop-commands::y"`), which `git apply`
    reads back; a line break in a name could otherwise start a line of its own."""
    name = path if path.startswith("/") else f"{side}/{path}"
    if name.isprintable() and '"' not in name and "\\" not in name:
        return name
    return '"' + "".join(_GIT_ESCAPES.get(c) or (c if c.isprintable() else _octal(c)) for c in name) + '"'


_GIT_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _octal(character: str) -> str:
    """A character as git quotes it: each byte of its UTF-8 (a byte kept by surrogateescape as
    itself) in octal."""
    return "".join(f"\\{byte:03o}" for byte in character.encode("utf-8", "surrogateescape"))


def fix_summary(documents: list) -> list[str]:
    """`--show-fixes`: what each file had fixed, as ruff lists it."""
    lines = [f"Fixed {_counted([finding for d in documents for finding in d.fixed])}:"]
    for document in documents:
        lines.append(f"- {printable(document.path)}:")
        counts: dict[tuple[str, str], int] = {}
        for finding in document.fixed:
            counts[(finding.code, finding.name)] = counts.get((finding.code, finding.name), 0) + 1
        lines.extend(f"    {count} \u00d7 {code} ({name})" for (code, name), count in sorted(counts.items()))
    return lines


def write_bytes(data: bytes) -> None:
    """Bytes to stdout as they are (a stdout without a byte stream, as tests give, gets text)."""
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        sys.stdout.write(data.decode("utf-8", "surrogateescape"))
        return
    sys.stdout.flush()
    stream.write(data)
    stream.flush()


def fix_stdin(checker: Checker, name: str, data: bytes, unsafe: bool) -> tuple[bytes, list]:
    """stdin's bytes with its fixes applied, every byte outside them as it came; and the findings
    fixed. Fixes that land in other files (a `--config` YAML) are not written."""
    from ..run.apply_fixes import Fixer, encode

    fixer = Fixer(checker, unsafe=unsafe, roots=())
    document = fixer.adopt(name, data)
    if document is None:
        return data, []
    fixer.run([name])
    checker.overlay.clear()
    for failure in fixer.failures:
        warning(failure)
    return (encode(document) if document.changed else data), list(document.fixed)
