"""`replaylint preflight [--exec] [--judge] -- <launch>`: judge one launch where it runs.

Inside the serving environment (a container entrypoint, a CI step inside the image, a pod's
command) the launch is judged by the rules of the vLLM release installed there, with the
`vllm.logits_processors` plugins installed there and the real environment variables
(`environment`). The launch's words and the variables vLLM reads are written as the shell
script they amount to (`script`) and checked as one: the same readers and rules as `check`,
the same exit codes and output formats. `--exec` then replaces this process with the launch
when nothing is wrong; `--judge` also asks the installed vLLM itself (`judge`).

Nothing is imported from the plugins, nothing is run but the launch (with `--exec`) and, with
`--judge`, the installed vLLM's own argument parser and config in a child process.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ..records import record

if TYPE_CHECKING:  # imported when they are used: `--version` and `--help` stay fast
    from ..engine.config import Config
    from ..model import Finding
    from ..vllm.releases import Release
    from .environment import Installed

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_NOT_FOUND = 127  # as a shell reports a command it cannot run

LAUNCH_NAME = "<launch>"  # what reports call the launch given on the command line


@record(unsafe_hash=True)
class Judged:
    status: int
    report: str
    findings: list[Finding]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..engine.config import OUTPUT_FORMATS

    parser.add_argument("launch", nargs=argparse.REMAINDER, metavar="-- LAUNCH", help="the command that starts vLLM, after --")
    parser.add_argument("--exec", action="store_true", dest="exec_launch", help="run the launch in this process when nothing is wrong")
    parser.add_argument("--judge", action="store_true", help="also ask the installed vLLM itself (seconds: it imports vLLM)")
    parser.add_argument("--target-vllm", metavar="X.Y[.Z]", help="judge by this release instead of the installed one")
    parser.add_argument("--output-format", choices=OUTPUT_FORMATS, default="full", help="how findings are printed (default: full)")
    parser.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE")
    parser.add_argument("--select", metavar="CODES", help="comma-separated codes, prefixes or rule names to check")
    parser.add_argument("--ignore", metavar="CODES", help="codes, prefixes or rule names not checked")
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings but no summary or notes")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 (and with --exec, start) even when there are findings")


def run_preflight(args: argparse.Namespace) -> int:
    launch = list(args.launch[1:] if args.launch[:1] == ["--"] else args.launch)
    if not launch:
        return _fail("give the launch after --, e.g. replaylint preflight -- vllm serve MODEL --return-sampling-mask")
    from ..vllm.releases import parse_release
    from .environment import read_installed, relevant_environment

    installed = read_installed()
    try:
        forced = parse_release(args.target_vllm) if args.target_vllm else None
    except ValueError as error:
        return _fail(str(error))
    try:
        config = _config(args, installed.vllm_version, forced)
    except ValueError as error:
        return _fail(str(error))
    judged = _judge_launch(args, config, installed, launch, relevant_environment(os.environ))
    status = _write(judged.report, args.output_file, to_stderr=args.exec_launch) or judged.status
    if args.judge and status != EXIT_ERROR:
        beside = args.output_format in ("full", "concise") and not args.output_file and not args.exec_launch
        status = max(status, _ask_vllm(launch, judged.findings, beside_report=beside))
    if args.exec_launch and status == EXIT_CLEAN:
        return _exec(launch)
    return status


def _config(args: argparse.Namespace, version: str | None, forced: Release | None) -> Config:
    """The configuration: replaylint's defaults (the serving image's own files are not read), the
    rules asked for, and the release to judge by: `--target-vllm`, else the installed one."""
    from ..engine.config import Config
    from ..vllm.releases import NEWEST, Release

    config = Config()
    config.output_format = args.output_format
    if args.select:
        config.select = tuple(code.strip() for code in args.select.split(",") if code.strip())
    if args.ignore:
        config.ignore = tuple(code.strip() for code in args.ignore.split(",") if code.strip())
    config.enabled_codes()  # an unknown selector is a usage error now, not a traceback later
    installed = Release.parse(version) if version else None
    config.target_vllm = forced or installed or NEWEST
    config.target_vllm_forced = True
    return config


def _judge_launch(args: argparse.Namespace, config: Config, installed: Installed, launch: list[str], environ: dict[str, str]) -> Judged:
    """replaylint's verdict: the exit status, the report, the findings."""
    from ..engine.checker import Checker
    from ..report import Run, render
    from .script import launch_script

    checker = Checker(config, project_pins=installed)  # type: ignore[arg-type]  # plugins and no pins
    text = launch_script(launch, environ)
    result = checker.check_text(LAUNCH_NAME, text, "shell")
    # There is no file to fix: a fix is shown as help, never as an edit.
    run = Run(findings=[replace(finding, edits=()) for finding in result.findings], files_checked=1, quiet=args.quiet)
    run.texts[LAUNCH_NAME] = text
    for finding in run.findings:
        if finding.span.path != LAUNCH_NAME and finding.span.path not in run.texts:
            run.texts[finding.span.path] = _read(finding.span.path)
    if not args.quiet:
        for note in [*result.notes, *_notes(installed, config, checker.launches_judged)]:
            print(f"replaylint: note: {note}", file=sys.stderr)
    if result.internal_error:
        return Judged(EXIT_ERROR, f"replaylint: error: internal error judging the launch: {result.internal_error}\n", [])
    status = EXIT_FINDINGS if run.findings and not args.exit_zero else EXIT_CLEAN
    return Judged(status, render(config.output_format, run), run.findings)


def _ask_vllm(launch: list[str], findings: list[Finding], beside_report: bool) -> int:
    """`--judge`: vLLM's verdict beside replaylint's (after a text report on stdout, else on
    stderr). A launch vLLM refuses, or a disagreement, exits 1."""
    from .judge import ask, compare, serve_arguments

    arguments = serve_arguments(launch)
    if arguments is None:
        print("replaylint: note: --judge asks vLLM's own parser, which reads `vllm serve` command lines only", file=sys.stderr)
        return EXIT_CLEAN
    verdict = ask(arguments)
    agree, said = compare(verdict, findings)
    print("\n" + said if beside_report else said, file=sys.stdout if beside_report else sys.stderr)
    return EXIT_CLEAN if agree and verdict.ok else EXIT_FINDINGS


def _notes(installed: Installed, config: Config, launches: int) -> list[str]:
    notes = []
    if installed.vllm_version is None:
        notes.append(f"vLLM is not installed in {installed.where}: judged by vLLM {config.target_vllm}'s rules")
    if not launches:
        notes.append("the command starts no vLLM launch that replaylint reads: nothing was judged")
    return notes


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read(1 << 20)
    except (OSError, UnicodeDecodeError):
        return ""


def _write(text: str, output_file: str | None, to_stderr: bool) -> int:
    """Print the report (to stderr before `--exec`: the launch's stdout stays its own)."""
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8") as stream:
                stream.write(text)
        except OSError as error:
            return _fail(f"cannot write {output_file}: {error.strerror or error}")
        return EXIT_CLEAN
    stream = sys.stderr if to_stderr else sys.stdout
    stream.write(text)
    stream.flush()
    return EXIT_CLEAN


def _exec(launch: list[str]) -> int:
    """Become the launch: its exit status and the signals sent to it are its own."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(launch[0], launch)
    except OSError as error:
        print(f"replaylint: error: cannot run {launch[0]!r}: {error.strerror or error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    return EXIT_ERROR  # not reached: execvp returns only by raising


def _fail(message: str) -> int:
    print(f"replaylint: error: {message}", file=sys.stderr)
    return EXIT_ERROR
