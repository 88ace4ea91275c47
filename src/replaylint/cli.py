"""The command line: `replaylint check`, `replaylint rule`, `replaylint --version`.

Exit status: 0 no findings, 1 findings (or a diff with `--diff`), 2 usage, configuration or
internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="replaylint", description="Find vLLM launches that sampling distribution replay rejects.")
    parser.add_argument("--version", action="version", version=f"replaylint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    check = commands.add_parser("check", help="check files and directories (default: .)")
    check.add_argument("paths", nargs="*", default=[], metavar="PATH")
    check.add_argument("--output-format", choices=("full", "concise", "json"), default=None)
    check.add_argument("--target-vllm", metavar="X.Y[.Z]", help="judge every launch against this vLLM release")
    check.add_argument("--select", metavar="CODES", help="comma-separated codes, prefixes or rule names")
    check.add_argument("--extend-select", metavar="CODES")
    check.add_argument("--ignore", metavar="CODES")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply (and count) unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing")
    check.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--force-exclude", action="store_true", help="apply excludes to files given explicitly")
    check.add_argument("--exclude", metavar="PATTERNS", help="comma-separated globs that replace the default excludes")
    check.add_argument("--extend-exclude", metavar="PATTERNS", help="comma-separated globs excluded in addition")
    check.add_argument("--no-respect-gitignore", action="store_true")

    rule = commands.add_parser("rule", help="show a rule's documentation")
    rule.add_argument("code", nargs="?", metavar="CODE")
    rule.add_argument("--all", action="store_true")
    rule.add_argument("--output-format", choices=("text", "json"), default="text")
    return parser


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.command == "rule":
        return _rule(args)
    if args.command != "check":
        _parser().print_help()
        return EXIT_ERROR
    return _check(args)


def _fail(message: str) -> int:
    print(f"replaylint: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _rule(args: argparse.Namespace) -> int:
    from .rules import BY_CODE, BY_NAME, RULES

    if args.all:
        chosen = list(RULES)
    elif args.code:
        rule = BY_CODE.get(args.code.upper()) or BY_NAME.get(args.code)
        if rule is None:
            return _fail(f"unknown rule: {args.code}")
        chosen = [rule]
    else:
        return _fail("give a rule code (e.g. RPL001) or --all")
    if args.output_format == "json":
        payload = [
            {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity, "since": str(r.since),
             "fix": r.fix_applicability.value if r.fix_applicability else None, "vllm_message": r.vllm_message,
             "explanation": r.documentation()}
            for r in chosen
        ]
        print(json.dumps(payload if args.all else payload[0], indent=2))
        return EXIT_CLEAN
    for rule in chosen:
        print(f"# {rule.name} ({rule.code})\n\n{rule.summary}.\n\n{rule.documentation()}\n")
    return EXIT_CLEAN


def _check(args: argparse.Namespace) -> int:
    from .api import Checker, check_paths
    from .config import Config
    from .report import Run, render
    from .rules import resolve
    from .vllm.releases import parse_release

    config = Config()
    try:
        if args.select:
            config.select = _split(args.select)
        config.extend_select = _split(args.extend_select)
        config.ignore = _split(args.ignore)
        for selector in (*config.select, *config.extend_select, *config.ignore):
            resolve(selector)
        if args.target_vllm:
            config.target_vllm = parse_release(args.target_vllm)
            config.target_vllm_forced = True
    except ValueError as error:
        return _fail(str(error))
    config.force_exclude = args.force_exclude
    config.respect_gitignore = not args.no_respect_gitignore
    if args.exclude is not None:
        config.exclude = _split(args.exclude)
    config.extend_exclude = _split(args.extend_exclude)

    checker = Checker(config)
    run = Run(findings=[], unsafe_fixes_enabled=args.unsafe_fixes)
    results = []
    had_error = False
    for result in check_paths(args.paths or ["."], config, checker):
        run.files_checked += 1
        had_error |= _print_problems(result)
        results.append(result)
    if args.fix or args.diff:
        outcome = _fix(checker, results, args)
        if args.diff:
            return outcome
    for result in results:
        run.findings.extend(result.findings)
    run.fixed = getattr(args, "fixed_count", 0)
    run.findings = _unique(run.findings)
    _load_texts(run)
    sys.stdout.write(render(args.output_format or "full", run))
    if had_error:
        return EXIT_ERROR
    if run.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _print_problems(result) -> bool:
    """Print a file's warnings and notes; True when replaylint itself failed on it."""
    if result.error:
        print(f"replaylint: warning: {result.error}", file=sys.stderr)
    for note in result.notes:
        print(f"replaylint: note: {note}", file=sys.stderr)
    if result.internal_error:
        print(f"replaylint: error: internal error while checking {result.path}: {result.internal_error} "
              "(please report this; the other files were checked)", file=sys.stderr)
        return True
    return False


def _unique(findings: list) -> list:
    """One finding per (code, place, message). A vLLM config file checked on its own yields to
    the launches that reference it: they know the release it runs on."""
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


def _fix(checker, results: list, args: argparse.Namespace) -> int:
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
                document.original.splitlines(keepends=True), document.text.splitlines(keepends=True),
                _diff_name("a", document.path), _diff_name("b", document.path),
            )
            sys.stdout.write("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff))
        count = sum(len(document.fixed) for document in changed)
        print(f"Would fix {count} {'error' if count == 1 else 'errors'}." if changed else "No errors would be fixed.", file=sys.stderr)
        return EXIT_FINDINGS if changed else EXIT_CLEAN
    written = set(fixer.write())
    for failure in fixer.failures:
        print(f"replaylint: warning: {failure}", file=sys.stderr)
    args.fixed_count = sum(len(d.fixed) for d in fixer.documents.values() if d.path in written)
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
