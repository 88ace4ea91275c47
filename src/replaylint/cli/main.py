"""The command line: `replaylint check`, `replaylint rule`, `replaylint server`, `replaylint --version`.

Exit status: 0 no findings, 1 findings (or a diff with `--diff`), 2 usage, configuration or
internal error.
"""

from __future__ import annotations

import os
import sys

from .. import __version__

TYPE_CHECKING = False  # (`typing` costs a run whose report is given again a tenth of its time)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from ..engine.config import Config

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    """Every command's parser (a check builds its own alone: `check_options.check_parser`)."""
    from .check_options import Parser, add_check_arguments

    parser = Parser(prog="replaylint", description="Find vLLM launches that sampling distribution replay rejects.")
    parser.add_argument("--version", action="version", version=f"replaylint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)

    add_check_arguments(commands.add_parser("check", help="check files and directories (default: .)"))
    _add_other_commands(commands)
    return parser


def _add_other_commands(commands: argparse._SubParsersAction) -> None:
    rule = commands.add_parser("rule", help="show a rule's documentation")
    rule.add_argument("code", nargs="?", metavar="CODE", help="a rule code (RPL003) or name")
    rule.add_argument("--all", action="store_true", help="every rule")
    rule.add_argument("--output-format", choices=("text", "json"), default="text", help="text (default) or json")

    settings = commands.add_parser("show-settings", help="print the resolved configuration")
    settings.add_argument("paths", nargs="*", default=[], metavar="PATH", help="the paths a check would be given")
    settings.add_argument("--config", action="append", metavar="FILE | KEY=VALUE", help="as for check")
    settings.add_argument("--isolated", action="store_true", help="ignore every configuration file")

    clean = commands.add_parser("clean", help="remove the result cache")
    clean.add_argument("--cache-dir", metavar="DIR", help="the cache folder (default .replaylint_cache)")

    commands.add_parser("server", help="run the language server (LSP) on stdin and stdout")

    # `preflight`: one launch judged inside its serving environment (replaylint.preflight).
    from ..preflight import add_arguments as add_preflight_arguments

    add_preflight_arguments(commands.add_parser("preflight", help="judge a launch where it runs: installed vLLM, plugins, environment"))

    completion = commands.add_parser("generate-shell-completion", help="print a completion script for a shell")
    completion.add_argument("shell", choices=SHELLS, help="the shell")

    version = commands.add_parser("version", help="print replaylint's version")
    version.add_argument("--output-format", choices=("text", "json"), default="text", help="text (default) or json")


SHELLS = ("bash", "zsh", "tcsh", "fish", "elvish", "powershell")
# ruff's options that clap also reads from the environment (`ruff check --help`: `[env: RUFF_...]`).
ENVIRONMENT = {
    "output_format": "REPLAYLINT_OUTPUT_FORMAT",
    "output_file": "REPLAYLINT_OUTPUT_FILE",
    "no_cache": "REPLAYLINT_NO_CACHE",
    "cache_dir": "REPLAYLINT_CACHE_DIR",
}


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    _stand_in_for_closed_streams()
    try:
        if arguments == ["--version"]:  # answered before anything else is imported
            print(f"replaylint {__version__}")
            return EXIT_CLEAN
        return _main(arguments)
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN
    except OSError as error:  # the report could not be written: a full disk, a closed stream
        _discard_output()
        return _fail(f"cannot write the report: {error.strerror or error}")


def _stand_in_for_closed_streams() -> None:
    """A process started with stdout or stderr closed gets None for them: what would be written
    there is dropped, and the exit status still tells the outcome."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")


def _discard_output() -> None:
    """Drop what stdout still buffers: flushing it again at exit would fail the same way."""
    try:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    except OSError:
        pass


def entry() -> None:
    """The console script: `main()`, then an exit that skips tearing the interpreter down (the
    output is flushed and the cache written by then; unloading libcst costs a large scan 3 %)."""
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`), a full disk, a closed stream
            pass
    _stop_workers()
    os._exit(status)


def _stop_workers() -> None:
    """Kill worker processes still alive (a pool an error left behind). They hold this
    process's stdout, so a caller reading it to the end would wait for them forever."""
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is not None:
        for child in multiprocessing.active_children():
            child.kill()


def _main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        from ..engine.cache.last_run import replayed

        again = replayed(argv)  # nothing changed since the last run of these words: its report
        if again is not None:
            sys.stdout.write(again[0])
            return again[1]
    args = _check_arguments(argv) if argv[:1] == ["check"] else None
    if args is not None:
        args.words = argv
    if args is None:
        parser = _parser()
        args = parser.parse_args(_as_hook_runs_it(argv))
    if args.command == "rule":
        return _rule(args)
    if args.command == "show-settings":
        return _show_settings(args)
    if args.command == "clean":
        return _clean(args)
    if args.command == "server":
        from ..server import serve

        return serve()
    if args.command == "generate-shell-completion":
        return _completion(args.shell)
    if args.command == "preflight":
        from ..preflight import run_preflight

        return run_preflight(args)
    if args.command == "version":
        return _version(args.output_format)
    if args.command != "check":
        _parser().print_help()
        return EXIT_ERROR
    _from_environment(args)  # (the collector was set by `_check_arguments`, before the parser's objects)
    from .check import run_check

    args.fix = args.fix or args.fix_only
    if args.watch:
        from .watch import watch

        return watch(args, run_check)
    return run_check(args)


def _check_arguments(argv: list[str]) -> argparse.Namespace | None:
    """`replaylint check ...` read without argparse when plain (`check_words.read_plain`), else
    parsed by check's parser alone; None when only the whole parser can answer (a word check
    does not take: the whole parser's error names it)."""
    _collect_rarely()
    from .check_words import read_plain

    words = _as_hook_runs_it(argv)[1:]
    args = read_plain(words)
    if args is None:
        from .check_options import check_parser

        args, unknown = check_parser().parse_known_args(words)
        if unknown:
            return None
    args.command = "check"
    return args  # type: ignore[return-value]  (a SimpleNamespace with the same attributes)


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    import argparse

    return next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction)).choices[name]


def _collect_rarely() -> None:
    """Garbage is collected rarely in a check: it makes millions of short-lived objects (ast
    nodes, results) that reference counting frees, and a collection every 700 of them cost a
    cold scan 4 % and a warm one 10 % (the language server keeps the default)."""
    import gc

    gc.set_threshold(10_000, 50, 50)


def _from_environment(args: argparse.Namespace) -> None:
    """Options not given on the command line, from `REPLAYLINT_*` as ruff reads `RUFF_*`: the
    command line wins over the environment, and the environment over the configuration."""
    from ..report import FORMATS

    for dest, variable in ENVIRONMENT.items():
        value = os.environ.get(variable)
        if value is None or getattr(args, dest):
            continue
        if dest == "no_cache":
            from ..engine.cache.last_run import no_cache_asked

            args.no_cache = no_cache_asked(value)
        elif dest == "output_format" and value not in FORMATS:
            _parser().error(f"invalid value {value!r} for --output-format (from {variable}): choose from {', '.join(FORMATS)}")
        elif value:
            setattr(args, dest, value)


_HOOK_ENTRIES = {"--hook": ["--force-exclude"], "--hook=check": ["--force-exclude"], "--hook=fix": ["--force-exclude", "--fix"]}


def _as_hook_runs_it(argv: list[str]) -> list[str]:
    """`check --hook[=fix] WORDS` (the entry in .pre-commit-hooks.yaml) as the options it means.

    pre-commit runs the entry, then the user's `args:`, then the staged files, and a file may be
    named `--exit-zero` or `--add-noqa`. So a word that names a file is a path (given as `./NAME`,
    which no parser takes for an option), unless it is the value of the option before it or the
    same word comes again later: pre-commit hands each file once, after the `args:`, so the first
    of two is the user's option. The hook's own options are the entry's, not words.
    """
    if argv[:1] != ["check"]:
        return argv
    if len(argv) < 2 or argv[1] not in _HOOK_ENTRIES:
        if any(word in _HOOK_ENTRIES for word in argv[1:]):
            _parser().error("--hook is pre-commit's entry, `replaylint check --hook`: it comes right after `check`")
        return argv
    from .check_words import takes_value as options_taking_a_value

    takes_value = options_taking_a_value()
    words = argv[2:]
    meant = ["check", *_HOOK_ENTRIES[argv[1]]]
    value_next = False
    for index, word in enumerate(words):
        if word.startswith("-") and not value_next and os.path.lexists(word) and word not in words[index + 1 :]:
            meant.append(os.path.join(".", word))
            continue
        value_next = not value_next and word in takes_value
        meant.append(word)
    return meant


def _fail(message: str) -> int:
    from ..report.printable import printable

    print(f"replaylint: error: {printable(message)}", file=sys.stderr)
    return EXIT_ERROR


def _rule(args: argparse.Namespace) -> int:
    from ..rules import BY_CODE, BY_NAME, RULES

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
            {
                "code": r.code,
                "name": r.name,
                "summary": r.summary,
                "severity": r.severity,
                "since": str(r.since),
                "fix": r.fix_applicability.value if r.fix_applicability else None,
                "vllm_message": r.vllm_message,
                "explanation": r.documentation(),
            }
            for r in chosen
        ]
        import json

        print(json.dumps(payload if args.all else payload[0], indent=2))
        return EXIT_CLEAN
    for rule in chosen:
        print(f"# {rule.name} ({rule.code})\n\n{rule.summary}.\n\n{rule.documentation()}\n")
    return EXIT_CLEAN


def _show_settings(args: argparse.Namespace) -> int:
    import argparse

    from ..engine.config import ConfigError
    from .check import resolve_config

    defaults = dict(
        select=None,
        extend_select=None,
        ignore=None,
        extend_ignore=None,
        per_file_ignores=None,
        target_vllm=None,
        force_exclude=False,
        no_respect_gitignore=False,
        exclude=None,
        extend_exclude=None,
        output_format=None,
        stdin_filename=None,
    )
    try:
        config = resolve_config(argparse.Namespace(**defaults, **vars(args)))
    except ConfigError as error:
        return _fail(str(error))
    sys.stdout.write(_described(config))
    from ..engine.project import ProjectPins
    from ..engine.versions import describe as describe_releases

    pin = ProjectPins().pin_in(os.getcwd())
    print(f"project-pins = {pin.describe()!r}  # judged at {describe_releases(list(pin.releases))}" if pin else "project-pins = none")
    return EXIT_CLEAN


def _described(config: Config) -> str:
    """The resolved settings, one `key = value` per line."""
    from ..engine.config import FIELDS

    lines = [f"# configuration: {config.source}"]
    shown = {
        name: getattr(config, name)
        for name in FIELDS
        if name not in ("source", "max_file_bytes", "target_vllm_forced", "_compiled_ignores")
    }
    shown["enabled"] = sorted(config.enabled_codes())
    shown["fixable-codes"] = sorted(config.fixable_codes())
    for name, value in shown.items():
        if name == "target_vllm" and value is not None:
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        lines.append(f"{name.replace('_', '-')} = {value!r}")
    return "\n".join(lines) + "\n"


def _completion(shell: str) -> int:
    """A completion script made from this parser: shtab's (imported for this command only), or
    ours for elvish, which shtab does not write."""
    if shell == "elvish":
        from .completions import elvish

        print(elvish(_parser()))
        return EXIT_CLEAN
    try:
        import shtab
    except ModuleNotFoundError:
        return _fail("shell completion needs the `shtab` package: pip install shtab")
    print(shtab.complete(_parser(), shell=shell))
    return EXIT_CLEAN


def _version(output_format: str) -> int:
    """`replaylint version`, as `ruff version` (`--output-format json`: `{"version": ...}`)."""
    if output_format == "json":
        import json

        print(json.dumps({"version": __version__}, indent=2))
    else:
        print(f"replaylint {__version__}")
    return EXIT_CLEAN


def _clean(args: argparse.Namespace) -> int:
    from ..engine.cache import NotRemoved, remove_cache

    try:
        removed = remove_cache(args.cache_dir)
    except NotRemoved as error:
        return _fail(str(error))
    print(removed or "No cache to remove.")
    return EXIT_CLEAN
