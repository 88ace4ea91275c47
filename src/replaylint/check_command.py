"""`replaylint check`: resolve the configuration, check files, fix them, print the report."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from .config import Config, ConfigError, common_start, find_config_file, load
from .vllm.releases import parse_release

if TYPE_CHECKING:
    from .api import Checker, FileResult
    from .report import Run

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def split(value: str | None) -> tuple[str, ...]:
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


def resolve_config(args: argparse.Namespace) -> Config:
    """Configuration file (nearest above the checked paths) overridden by the command line."""
    if args.isolated:
        config = Config(root=os.getcwd())
    elif args.config:
        config = load(args.config)
    else:
        start = os.path.dirname(os.path.abspath(args.stdin_filename)) if args.stdin_filename else common_start(args.paths or ["."])
        found = find_config_file(start)
        config = load(found) if found else Config(root=os.getcwd())
    try:
        if args.select:
            config.select = split(args.select)
        if args.extend_select:
            config.extend_select = (*config.extend_select, *split(args.extend_select))
        if args.ignore:
            config.ignore = (*config.ignore, *split(args.ignore))
        if args.select or args.extend_select or args.ignore:
            from .rules import resolve

            for selector in (*config.select, *config.extend_select, *config.ignore):
                resolve(selector)
        if args.target_vllm:
            config.target_vllm = parse_release(args.target_vllm)
            config.target_vllm_forced = True
    except ValueError as error:
        raise ConfigError(str(error)) from None
    config.force_exclude = args.force_exclude or config.force_exclude
    if args.no_respect_gitignore:
        config.respect_gitignore = False
    if args.exclude is not None:
        config.exclude = split(args.exclude)
    if args.extend_exclude:
        config.extend_exclude = (*config.extend_exclude, *split(args.extend_exclude))
    if args.output_format:
        config.output_format = args.output_format
    return config


def _nothing_to_check(args: argparse.Namespace, config: Config) -> bool:
    """A few files named on the command line (a pre-commit run), none of which can hold a
    replay launch: decided with the prefilter alone, before the engine and its data classes
    are imported (they cost more than reading ten files)."""
    from . import frontends
    from .discovery import discover, read_head

    paths = args.paths
    simple = not (args.fix or args.diff or args.statistics or args.output_file or args.stdin_filename)
    if not simple or config.output_format not in ("full", "concise") or not paths or len(paths) > 64:
        return False
    if any(path == "-" or os.path.isdir(path) for path in paths):
        return False
    for path in discover(paths, config.excludes, config.respect_gitignore, config.force_exclude):
        kind = frontends.kind_for(path, read_head(path) if "." not in os.path.basename(path) else b"")
        if kind is None:
            continue
        try:
            with open(path, "rb") as handle:
                data = handle.read(config.max_file_bytes + 1)
        except OSError:
            return False
        if len(data) > config.max_file_bytes or frontends.relevant(kind, data):
            return False
    return True


def run_check(args: argparse.Namespace) -> int:
    try:
        config = resolve_config(args)
    except ConfigError as error:
        print(f"replaylint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if _nothing_to_check(args, config):
        print("All checks passed!")
        return EXIT_CLEAN
    from .api import Checker
    from .cache import ResultCache, default_directory
    from .report import Run
    from .runs import run_checks

    if args.paths == ["-"]:
        return _check_stdin(Checker(config, project_pins=_LazyPins()), config, args)
    run = Run(findings=[], unsafe_fixes_enabled=args.unsafe_fixes, root=_repository_root(config))
    result_cache = None if args.no_cache else ResultCache(args.cache_dir or default_directory(config.root), config.fingerprint)
    checker = Checker(config, _LazyPins(result_cache.snapshots if result_cache is not None else None), cached=result_cache is not None)
    results = run_checks(args.paths or ["."], config, checker, result_cache, args.workers)
    had_error = False
    shown_notes: set[str] = set()
    for result in results:
        run.files_checked += 1
        had_error |= _print_problems(result, shown_notes)
    if result_cache is not None:
        result_cache.save()
    for note in getattr(checker.project_pins, "notes", ()):
        print(f"replaylint: note: {note}", file=sys.stderr)
    if args.fix or args.diff:
        outcome = _fix(checker, results, args, run)
        if args.diff:
            return outcome
    for result in results:
        run.findings.extend(result.findings)
    return _report(run, config, args, had_error)


def _check_stdin(checker: Checker, config: Config, args: argparse.Namespace) -> int:
    """`replaylint check - --stdin-filename NAME`: the name decides the frontend; with --fix the
    fixed text goes to stdout and the findings to stderr (what editors and ruff users expect)."""
    from .report import Run, applicable, render

    name = args.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    result = checker.check_bytes(name, data)
    had_error = _print_problems(result)
    run = Run(findings=list(result.findings), unsafe_fixes_enabled=args.unsafe_fixes, root=_repository_root(config))
    run.texts[name] = data.decode("utf-8", "replace")
    if args.fix and result.kind is not None:
        from .edits import apply_edits

        text = run.texts[name]
        chosen = [f for f in result.findings if f.code in config.fixable_codes() and applicable(f, args.unsafe_fixes)]
        fixed, _ = apply_edits(text, [edit for f in chosen for edit in f.edits if edit.span.path == name])
        sys.stdout.write(fixed)
        remaining = checker.check_bytes(name, fixed.encode("utf-8", "surrogateescape")).findings
        run.findings = list(remaining)
        run.fixed = len(chosen)
        sys.stderr.write(render("concise" if config.output_format == "full" else config.output_format, run))
        return EXIT_ERROR if had_error else (EXIT_FINDINGS if remaining and not args.exit_zero else EXIT_CLEAN)
    return _report(run, config, args, had_error)


def _report(run: Run, config: Config, args: argparse.Namespace, had_error: bool) -> int:
    from .report import render

    run.findings = _unique(run.findings)
    run.show_fixes = args.show_fixes
    _load_texts(run)
    if args.statistics:
        text = _statistics(run)
    else:
        from .report.text import use_color

        stream = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout
        run.color = stream is sys.stdout and use_color(stream)
        text = render(config.output_format, run)
        if args.output_file:
            with stream:
                stream.write(text)
            text = ""
    sys.stdout.write(text)
    if had_error:
        return EXIT_ERROR
    if run.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _statistics(run: Run) -> str:
    from .report import applicable

    counts: dict[tuple[str, str], list] = {}
    for finding in run.findings:
        counts.setdefault((finding.code, finding.name), []).append(finding)
    lines = []
    for (code, name), found in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0])):
        marker = "[*]" if any(applicable(f, run.unsafe_fixes_enabled) for f in found) else "   "
        lines.append(f"{len(found):>5}\t{code}\t{marker} {name}")
    return "\n".join(lines) + ("\n" if lines else "")


def _repository_root(config: Config) -> str:
    """The git top-level when there is one: SARIF, GitHub and JUnit want repository-relative
    paths (the other formats print paths as given, so git is not asked)."""
    if config.output_format not in ("sarif", "github", "junit"):
        return os.getcwd()
    import subprocess

    try:
        completed = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return os.getcwd()
    return completed.stdout.strip() if completed.returncode == 0 and completed.stdout.strip() else os.getcwd()


class _LazyPins:
    """`project.ProjectPins`, created when the first launch asks for its project's pin. With a
    cache, the pins an earlier run described are recalled while every folder listed and file
    read for them keeps its stamp: a warm run then reads no pin file (nor imports their readers)."""

    def __init__(self, remembered: dict | None = None) -> None:
        self._pins = None
        self._remembered = remembered
        self._key = ("pins", os.getcwd())  # pins name their files relative to the working folder
        self._memo: dict | None = None
        self._recalled_notes: list[str] = []

    def _get(self):
        if self._pins is None:
            from .project import ProjectPins

            self._pins = ProjectPins()
        return self._pins

    def __call__(self, path: str):
        return self._get()(path)

    def describe_source(self, path: str):
        """The pin a result cache keys `path` by (asked only with a cache: `Checker.cached`)."""
        memo = self._recall()
        directory = os.path.dirname(os.path.abspath(path))
        if directory in memo["answers"]:
            description, notes = memo["answers"][directory]
            self._recalled_notes += [note for note in notes if note not in self._recalled_notes]
            return description
        pins = self._get()
        description = pins.describe_source(path)
        memo["answers"][directory] = (description, tuple(pins.notes_for(path)))
        memo["stamps"].update(pins.stamps)
        self._remembered[self._key] = memo
        return description

    def _recall(self) -> dict:
        if self._memo is None:
            from .stamps import still_true

            assert self._remembered is not None
            known = self._remembered.get(self._key)
            usable = isinstance(known, dict) and still_true(known["stamps"])
            self._memo = known if usable else {"stamps": {}, "answers": {}}
        return self._memo

    @property
    def notes(self) -> list[str]:
        found = self._pins.notes if self._pins is not None else []
        return self._recalled_notes + [note for note in found if note not in self._recalled_notes]


def _print_problems(result, shown_notes: set[str] | None = None) -> bool:
    """Print a file's warnings and notes (a note already in `shown_notes` once per run); True when
    replaylint itself failed on it."""
    shown_notes = set() if shown_notes is None else shown_notes
    if result.error:
        print(f"replaylint: warning: {result.error}", file=sys.stderr)
    for note in result.notes:
        if note not in shown_notes:
            shown_notes.add(note)
            print(f"replaylint: note: {note}", file=sys.stderr)
    if result.internal_error:
        print(
            f"replaylint: error: internal error while checking {result.path}: {result.internal_error} "
            "(please report this; the other files were checked)",
            file=sys.stderr,
        )
        return True
    return False


def _unique(findings: list) -> list:
    """One finding per (code, place, message). A vLLM config file checked on its own yields to
    the launches that reference it: they know the release it runs on."""
    if not findings:
        return findings
    from .model import LaunchKind

    referenced = {(f.code, f.span) for f in findings if f.launch is None or f.launch.kind is not LaunchKind.VLLM_CONFIG}
    seen = set()
    kept = []
    for finding in findings:
        standalone = finding.launch is not None and finding.launch.kind is LaunchKind.VLLM_CONFIG
        if standalone and (finding.code, finding.span) in referenced:
            continue
        key = (finding.code, finding.span, finding.message)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _load_texts(run) -> None:
    for finding in run.findings:
        if finding.span.path not in run.texts:
            try:
                with open(finding.span.path, encoding="utf-8", errors="replace") as handle:
                    run.texts[finding.span.path] = handle.read()
            except OSError:
                pass


def _fix(checker: Checker, results: list[FileResult], args: argparse.Namespace, run: Run) -> int:
    """Apply fixes (or print them as a diff). Replaces the results of changed files in place."""
    import difflib

    from .fixes import Fixer
    from .report import applicable

    fixable = checker.config.fixable_codes()
    candidates = [r.path for r in results if any(f.code in fixable and applicable(f, args.unsafe_fixes) for f in r.findings)]
    fixer = Fixer(checker, unsafe=args.unsafe_fixes)
    fixer.run(candidates)
    checker.overlay.clear()
    changed = [document for document in fixer.documents.values() if document.changed]
    if args.diff:
        for failure in fixer.failures:
            print(f"replaylint: warning: {failure}", file=sys.stderr)
        for document in changed:
            diff = difflib.unified_diff(
                document.original.splitlines(keepends=True),
                document.text.splitlines(keepends=True),
                _diff_name("a", document.path),
                _diff_name("b", document.path),
            )
            sys.stdout.write("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff))
        count = sum(len(document.fixed) for document in changed)
        print(f"Would fix {count} {'error' if count == 1 else 'errors'}." if changed else "No errors would be fixed.", file=sys.stderr)
        return EXIT_FINDINGS if changed else EXIT_CLEAN
    written = set(fixer.write())
    for failure in fixer.failures:
        print(f"replaylint: warning: {failure}", file=sys.stderr)
    run.fixed = sum(len(d.fixed) for d in fixer.documents.values() if d.path in written)
    if args.show_fixes and written:
        _show_fixes([d for d in fixer.documents.values() if d.path in written])
    by_path = {r.path: index for index, r in enumerate(results)}
    for path in written:
        fresh = checker.check_file(path)
        if path in by_path:
            results[by_path[path]] = fresh
        else:
            results.append(fresh)
    return EXIT_CLEAN


def _diff_name(side: str, path: str) -> str:
    return path if path.startswith("/") else f"{side}/{path}"


def _show_fixes(documents: list) -> None:
    total = sum(len(d.fixed) for d in documents)
    print(f"Fixed {total} {'error' if total == 1 else 'errors'}:", file=sys.stderr)
    for document in documents:
        print(f"- {document.path}:", file=sys.stderr)
        counts: dict[tuple[str, str], int] = {}
        for finding in document.fixed:
            counts[(finding.code, finding.name)] = counts.get((finding.code, finding.name), 0) + 1
        for (code, name), count in sorted(counts.items()):
            print(f"    {count} \u00d7 {code} ({name})", file=sys.stderr)
