"""`replaylint check`: resolve the configuration, check files, fix them, print the report."""

from __future__ import annotations

import functools
import os
import sys
import time
from typing import TYPE_CHECKING

from ..engine.config import Config, ConfigError, apply_override, common_start, find_config_file, load, patterns
from ..engine.hierarchy import ConfigPerFile
from ..report.console import error as _error, note as _console_note, said_lines, verbose, warning as _warn
from .given_again import remember_run

if TYPE_CHECKING:
    import argparse

    from ..engine.checker import Checker, FileResult
    from ..report import Run

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def split(value: str | None) -> tuple[str, ...]:
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


def resolve_config(args: argparse.Namespace) -> Config:
    """The run's configuration (`resolve_settings`): its files' closest, or the one named."""
    return resolve_settings(args).base


def resolve_settings(args: argparse.Namespace) -> ConfigPerFile:
    """Each file's configuration: the file nearest above it (the run's: above the checked paths),
    or for all the one `--config FILE` names or none (`--isolated`); the command line over it."""
    config_files, _ = _config_arguments(args.config or [])
    if len(config_files) > 1:
        raise ConfigError(f"--config names {len(config_files)} files; give one, and other --config values as `key = value`")
    known: dict = {}  # what the search saw: each file's searches, and a run given again (`last_run`), read it
    if args.isolated:
        config = Config(root=os.getcwd())
    elif config_files:
        config = load(config_files[0])
    else:
        start = os.path.dirname(os.path.abspath(args.stdin_filename)) if args.stdin_filename else common_start(args.paths or ["."])
        found = find_config_file(start, known)
        config = load(found) if found else Config(root=os.getcwd())
    command_line_over(config, args)
    return ConfigPerFile(config, functools.partial(command_line_over, args=args), not (args.isolated or config_files), known)


def command_line_over(config: Config, args: argparse.Namespace) -> None:
    """The command line over one configuration: `--config 'KEY = VALUE'` overrides one of its
    keys (TOML), the options theirs."""
    for override in _config_arguments(args.config or [])[1]:
        apply_override(config, override)
    ignore = (args.ignore or "") + "," + (args.extend_ignore or "")
    try:
        if args.select:
            config.select = split(args.select)
        if args.extend_select:
            config.extend_select = (*config.extend_select, *split(args.extend_select))
        if split(ignore):
            config.ignore = (*config.ignore, *split(ignore))
        per_file = (*(args.per_file_ignores or ()), *(getattr(args, "extend_per_file_ignores", None) or ()))
        for entry in per_file:
            glob, _, codes = entry.rpartition(":")
            if not glob or not split(codes):
                raise ValueError(f"--per-file-ignores takes GLOB:CODES, not {entry!r}")
            config.per_file_ignores = {**config.per_file_ignores, glob: (*config.per_file_ignores.get(glob, ()), *split(codes))}
        fixable = _fixable_options(args, config)
        if args.select or args.extend_select or split(ignore) or per_file or fixable:
            from ..rules import resolve

            for selector in (
                *config.select,
                *config.extend_select,
                *config.ignore,
                *(c for cs in config.per_file_ignores.values() for c in cs),
                *fixable,
            ):
                resolve(selector)
        if args.target_vllm:
            from ..vllm.releases import parse_release

            config.target_vllm = parse_release(args.target_vllm)
            config.target_vllm_forced = True
    except ValueError as error:
        raise ConfigError(str(error)) from None
    config.force_exclude = args.force_exclude or config.force_exclude
    if args.no_respect_gitignore:
        config.respect_gitignore = False
    if args.exclude is not None:
        config.exclude = patterns(split(args.exclude), "--exclude", "the command line")
    if args.extend_exclude:
        config.extend_exclude = patterns((*config.extend_exclude, *split(args.extend_exclude)), "extend-exclude", "the command line")
    if args.output_format:
        config.output_format = args.output_format
    config.ignore_noqa = getattr(args, "ignore_noqa", False) or config.ignore_noqa


def _fixable_options(args: argparse.Namespace, config: Config) -> tuple[str, ...]:
    """`--fixable` (replaces), `--extend-fixable` and `--unfixable` (add to) as ruff; the selectors given."""
    fixable, unfixable, extend = (split(getattr(args, name, None)) for name in ("fixable", "unfixable", "extend_fixable"))
    if getattr(args, "fixable", None) is not None:
        config.fixable = fixable
    config.fixable = (*config.fixable, *extend)
    config.unfixable = (*config.unfixable, *unfixable)
    return (*fixable, *unfixable, *extend)


def _with_governed_folders(paths: list[str], config: Config) -> list[str]:
    """`paths`, and the folder of every pin or configuration file among them: a changed
    `vllm==` pin, lock file or `[tool.replaylint]` table changes the verdict on every launch
    it governs, so a pre-commit run that passes only the changed files judges those launches
    again in the same run."""
    from ..engine.config import CONFIG_NAMES

    added: list[str] = []
    for path in paths:
        if path == "-" or not path.endswith((".toml", ".txt", ".lock")) or os.path.isdir(path):
            continue  # (the pin readers are imported only for a file that may pin)
        from ..engine.project import governed_folder

        folder = governed_folder(path)
        if folder is None and os.path.basename(path) in CONFIG_NAMES:
            folder = os.path.dirname(path) or "."
        if folder is not None and folder not in added and os.path.isdir(folder):
            added.append(folder)
            _note(f"{path} decides the launches below {folder}: they are checked again")
    return paths + added


def _config_arguments(values: list[str]) -> tuple[list[str], list[str]]:
    """`--config` values: files, and `key = value` overrides (a value that is no file and
    holds `=`), as ruff tells them apart."""
    files, overrides = [], []
    for value in values:
        (overrides if "=" in value and not os.path.exists(value) else files).append(value)
    return files, overrides


def _nothing_to_check(args: argparse.Namespace, settings: ConfigPerFile) -> bool:
    """A few files named on the command line (a pre-commit run), none of which can hold a
    replay launch: decided with the prefilter alone, before the engine and its data classes
    are imported (they cost more than reading ten files)."""
    from .. import files, frontends
    from ..workspace.discovery import read_head

    paths, config = args.paths, settings.base
    simple = not (args.fix or args.diff or args.statistics or args.output_file or args.stdin_filename or args.verbose)
    if not simple or config.output_format not in ("full", "concise") or not paths or len(paths) > 64:
        return False
    if any(path == "-" or os.path.isdir(path) for path in paths):
        return False
    for path in settings.files(paths):  # each named file left out only by its own configuration
        kind = frontends.kind_for(path, read_head(path) if "." not in os.path.basename(path) else b"")
        if kind is None:
            continue
        try:
            data = files.read_regular(path, config.max_file_bytes)
        except files.Unreadable:
            return False  # the full run says why
        if frontends.relevant(kind, data) or (frontends.may_hold_client(kind, data) and _serving(args, config)):
            return False
    return True


def _serving(args: argparse.Namespace, config: Config) -> bool:
    """Whether an earlier run found a replay server in the tree (`cache.SERVING`): then a file's
    clients may be tied to it (`cross_file`)."""
    from ..engine.cache import SERVING, default_directory

    return not args.no_cache and os.path.isfile(os.path.join(args.cache_dir or default_directory(config.root), SERVING))


_quiet = False  # --quiet and --silent: no notes


def run_check(args: argparse.Namespace) -> int:
    global _quiet
    _quiet = bool(args.quiet or args.silent)
    args.fix = args.fix or args.fix_only  # (also set by the command line, before --watch is refused with it)
    if args.silent:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    try:
        return _run_check(args)
    except ConfigError as error:  # the run's configuration file's, or a nested one's
        _error(str(error))
        return EXIT_ERROR


def _run_check(args: argparse.Namespace) -> int:
    settings, said = resolve_settings(args), said_lines()
    config = settings.base
    problem = _output_file_problem(args)
    if problem:
        _error(problem)
        return EXIT_ERROR
    missing = [path for path in args.paths if path != "-" and not os.path.lexists(path)]
    if missing:
        for path in missing:
            _error(f"{path}: no such file or directory")
        return EXIT_ERROR
    from ..workspace.discovery import unread_named

    if not os.environ.get("PRE_COMMIT"):  # the hook hands over every text file (`types: [text]`)
        for skipped in unread_named(args.paths):
            _note(skipped)
    args.paths = _with_governed_folders(args.paths, config)
    if args.show_files:
        return _show_files(args, settings)
    if _nothing_to_check(args, settings):
        if not _quiet:
            print("All checks passed!")
        return EXIT_CLEAN
    from ..engine.cache import ResultCache, default_directory
    from ..engine.checker import Checker
    from ..files import trusted_roots
    from ..report import Run
    from ..run.recalled_pins import RecalledPins
    from ..run.scheduler import run_checks

    if args.paths == ["-"]:
        if sys.stdin is None:
            _error("stdin is closed")
            return EXIT_ERROR
        return _check_stdin(Checker(config, project_pins=RecalledPins()), config, args)
    run = Run(findings=[], unsafe_fixes_enabled=args.unsafe_fixes, root=_repository_root(config), quiet=_quiet)
    result_cache = None if args.no_cache else ResultCache(args.cache_dir or default_directory(config.root), config.fingerprint, _note)
    roots = trusted_roots(args.paths or ["."])
    pins = RecalledPins(result_cache.snapshots if result_cache is not None else None)
    checker = Checker(config, pins, cached=result_cache is not None, roots=roots, settings=settings)
    started = time.perf_counter()
    results = run_checks(args.paths or ["."], config, checker, result_cache, args.workers)
    if args.verbose:
        verbose(config.source, [result.path for result in results], time.perf_counter() - started)
    had_error = False
    shown_notes: set[str] = set()
    run.files_checked = len(results)
    for result in (result for result in results if result.error or result.notes or result.internal_error):
        had_error |= _print_problems(result, shown_notes)  # (a warm run's 8,000 files say nothing)
    if result_cache is not None:
        result_cache.save()
    for note in getattr(checker.project_pins, "notes", ()):
        _note(note)
    if args.add_noqa:
        return _add_noqa(checker, results, had_error)
    if args.fix or args.diff:
        from .fix import fix_files

        checker.config = config.replaced(fixable=("ALL",), unfixable=())  # each file's own chose which findings carry edits
        outcome = fix_files(checker, results, args, run, _quiet)
        if args.diff:
            return outcome
        if args.fix_only:  # the findings left are neither reported nor counted, as ruff's --fix-only
            return EXIT_ERROR if had_error else EXIT_FINDINGS if run.fixed and args.exit_non_zero_on_fix else EXIT_CLEAN
    for result in results:
        run.findings.extend(result.findings)
    status = _report(run, config, args, had_error)
    remember_run(args, settings, result_cache, results, run, status, said)  # given again while nothing changes, when it may be
    return EXIT_FINDINGS if status == EXIT_CLEAN and run.fixed and args.exit_non_zero_on_fix else status


def _show_files(args: argparse.Namespace, settings: ConfigPerFile) -> int:
    """`--show-files`: the files a check would look at, one per line, sorted."""
    from .. import frontends
    from ..report.printable import printable_path
    from ..workspace.discovery import read_head

    for path in sorted(settings.files(args.paths or ["."])):
        if frontends.kind_for(path, read_head(path) if "." not in os.path.basename(path) else b"") is not None:
            print(printable_path(path))
    return EXIT_CLEAN


def _add_noqa(checker: Checker, results: list[FileResult], had_error: bool) -> int:
    from .add_noqa import add_noqa

    added = add_noqa(checker, results, checker.roots)
    for failure in added.failures:
        _warn(failure)
    for refused in added.refused:  # ruff stops with an error when a file cannot be written
        _error(refused)
    print(f"Added {added.count} noqa {'directive' if added.count == 1 else 'directives'}.", file=sys.stderr)
    return EXIT_ERROR if had_error or added.refused else EXIT_CLEAN


def _output_file_problem(args: argparse.Namespace) -> str | None:
    """Why `-o PATH` cannot be written, told before the files are checked."""
    if not args.output_file:
        return None
    from ..report.output_file import ReportNotWritten, report_folder

    try:
        report_folder(args.output_file, _trees(args))
    except ReportNotWritten as refused:
        return f"{args.output_file}: {refused}"
    return None


def _trees(args: argparse.Namespace) -> tuple[str, ...]:
    """The trees a report may not be led out of by a symlink: the checked ones and the working folder's."""
    from ..files import trusted_roots

    return tuple(dict.fromkeys(trusted_roots([*(p for p in args.paths if p != "-"), "."])))


def _check_stdin(checker: Checker, config: Config, args: argparse.Namespace) -> int:
    """`replaylint check - --stdin-filename NAME`: the name decides the frontend; with --fix the
    fixed text goes to stdout and the findings to stderr (what editors and ruff users expect)."""
    from .. import files
    from ..engine.text_decoding import text_of
    from ..report import Run, applicable, render
    from .fix import fix_stdin, fixed_line, unified_diff, write_bytes

    name = args.stdin_filename or "-"
    try:
        data = files.read_stream(sys.stdin.buffer, config.max_file_bytes)
    except files.TooLarge as error:
        _error(f"stdin {error.reason}")
        return EXIT_ERROR
    result = checker.check_bytes(name, data)
    had_error = _print_problems(result)
    run = Run(findings=list(result.findings), unsafe_fixes_enabled=args.unsafe_fixes, root=_repository_root(config), quiet=_quiet)
    run.texts[name] = text_of(data)
    if args.fix and result.kind is not None:
        fixed, done = fix_stdin(checker, name, data, args.unsafe_fixes)
        run.fixed, run.fixed_warnings = len(done), sum(1 for finding in done if finding.severity == "warning")
        write_bytes(fixed)
        run.findings = list(checker.check_bytes(name, fixed).findings)
        sys.stderr.write(render("concise" if config.output_format == "full" else config.output_format, run))
        return EXIT_ERROR if had_error else (EXIT_FINDINGS if run.findings and not (args.exit_zero or args.fix_only) else EXIT_CLEAN)
    if args.diff and result.kind is not None:
        fixed, would = fix_stdin(checker, name, data, args.unsafe_fixes)
        sys.stdout.write(unified_diff(text_of(data), text_of(fixed), name))
        if not _quiet:
            unsafe_left = 0 if args.unsafe_fixes else sum(1 for f in result.findings if applicable(f, True) and not applicable(f, False))
            print(fixed_line(would, unsafe_left, would=True))
        return EXIT_ERROR if had_error else (EXIT_FINDINGS if would else EXIT_CLEAN)
    return _report(run, config, args, had_error)


def _report(run: Run, config: Config, args: argparse.Namespace, had_error: bool) -> int:
    from ..engine.text_decoding import load_texts
    from ..report import render

    run.findings = _unique(run.findings)
    run.show_fixes = args.show_fixes
    load_texts(run, config.max_file_bytes)
    if args.statistics:
        from ..report.statistics import render as render_statistics

        try:
            text = run.rendered = render_statistics(config.output_format, run)
        except ValueError as error:
            _error(str(error))
            return EXIT_ERROR
    else:
        from ..report.text import use_color

        run.color = not args.output_file and args.color != "never" and (args.color == "always" or use_color(sys.stdout))
        text = run.rendered = render(config.output_format, run)
    if args.output_file:
        from ..report.output_file import ReportNotWritten, write_report

        try:
            write_report(args.output_file, text, _trees(args))
        except ReportNotWritten as refused:
            _error(f"{args.output_file}: {refused}")
            return EXIT_ERROR
        except OSError as error:
            _error(f"cannot write {args.output_file}: {error.strerror or error}")
            return EXIT_ERROR
        text = ""
    sys.stdout.write(text)
    if had_error:
        return EXIT_ERROR
    if run.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _note(message: str) -> None:
    """A note on stderr, unless the run is quiet (`-q`, `-s`): the cache's notes come here too."""
    if not _quiet:
        _console_note(message)


def _repository_root(config: Config) -> str:
    """The repository's top level when there is one: the CI formats want repository-relative
    paths (the other formats print paths as given). Found by looking for `.git` upwards, as the
    configuration search does: git is not asked (a FIFO `.git/config` would make it wait)."""
    from ..engine.config import repository_root
    from ..report import REPOSITORY_RELATIVE

    here = os.getcwd()
    if config.output_format not in REPOSITORY_RELATIVE:
        return here
    return repository_root(here) or here


def _print_problems(result, shown_notes: set[str] | None = None) -> bool:
    """Print a file's warnings and notes (each note once per run); True when replaylint failed on it."""
    shown_notes = set() if shown_notes is None else shown_notes
    if result.error:
        _warn(result.error)
    for note in result.notes:
        if note not in shown_notes:
            shown_notes.add(note)
            _note(note)
    if result.internal_error:
        _error(f"internal error while checking {result.path}: {result.internal_error} (please report this; the other files were checked)")
        return True
    return False


def _unique(findings: list) -> list:
    """One finding per (code, place, message). A vLLM config file checked on its own yields to
    the launches that reference it: they know the release it runs on. So does the value flow's
    reading of a framework fork's line to the framework launch whose finding sits there: that
    launch names what reaches the line (a launch that changes the value gives none)."""
    if not findings:
        return findings
    from ..model import LaunchKind

    referenced = {(f.code, f.span) for f in findings if f.launch is None or f.launch.kind is not LaunchKind.VLLM_CONFIG}
    forked = {
        _line_of(f)
        for f in findings
        if f.launch is not None and f.launch.kind is LaunchKind.FRAMEWORK and f.launch.span.path != f.span.path
    }
    seen = set()
    kept = []
    for finding in findings:
        kind = finding.launch.kind if finding.launch is not None else None
        if kind is LaunchKind.VLLM_CONFIG and (finding.code, finding.span) in referenced:
            continue
        if kind is LaunchKind.PYTHON_CALL and _line_of(finding) in forked:
            continue  # the value flow's reading of a fork's line yields to the framework launch that reaches it
        key = (finding.code, finding.span, finding.message)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _line_of(finding) -> tuple[str, str, int]:
    return finding.code, finding.span.path, finding.span.start_line
