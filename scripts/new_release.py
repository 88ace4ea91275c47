#!/usr/bin/env python3
"""Absorb a new vLLM release: show exactly what changed for replay since the newest known one.

    scripts/new_release.py X.Y.Z [--against A.B.C] [--wheel PATH | --source DIR]
                                 [--no-parser] [--options FILE] [--json] [--write]

Steps: obtain the wheel (`pip download --no-deps vllm==X.Y.Z` into bench/.cache/vllm-wheels/,
a cached wheel is reused); dump its `vllm serve` option table through its real parser
(scripts/dump_vllm_options.py in the judge venv, on a `pip install --no-deps --target` of the
wheel in bench/.cache/vllm-releases/, as .ci/differential makes them); fingerprint the
replay-relevant code (units found by qualified name in the AST, normalised without docstrings
or formatting); compare with the stored fingerprint of the newest known older release
(docs/releases/fingerprints/) and the project's option tables. `--write` stores the new
fingerprint and option table in the repository. The report goes to stdout; exit 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from vllm_fingerprint import (
    Failure,
    Fingerprint,
    compare_env,
    compare_messages,
    compare_options,
    compare_units,
    fingerprint,
)

REPO = Path(__file__).resolve().parent.parent
FINGERPRINTS = REPO / "docs" / "releases" / "fingerprints"
OPTION_TABLES = REPO / "src" / "replaylint" / "vllm" / "data"
WHEELS = REPO / "bench" / ".cache" / "vllm-wheels"
INSTALLS = REPO / "bench" / ".cache" / "vllm-releases"
DUMP_OPTIONS = REPO / "scripts" / "dump_vllm_options.py"
RELEASE = re.compile(r"\d+\.\d+\.\d+")


# ---------------------------------------------------------------- obtaining the release


@dataclass
class Source:
    """Where the new release's files come from."""

    description: str
    root: Path | None = None  # a directory holding `vllm/`
    wheel: Path | None = None

    def read(self, file: str) -> str | None:
        if self.root is not None:
            path = self.root / file
            return path.read_text(encoding="utf-8") if path.is_file() else None
        try:
            with zipfile.ZipFile(self.wheel) as archive:
                return archive.read(file).decode("utf-8")
        except KeyError:
            return None
        except zipfile.BadZipFile as err:
            raise Failure(f"{self.wheel}: not a wheel ({err})") from err

    def version(self) -> str | None:
        text = self.read("vllm/_version.py")
        found = text and re.search(r"^__version__ = version = '([^']+)'", text, re.MULTILINE)
        return found.group(1) if found else None


@dataclass
class OptionTable:
    """A `vllm serve` option table as scripts/dump_vllm_options.py writes it."""

    doc: dict
    origin: str
    dumped_text: str | None = None  # set when this run dumped it through the real parser

    @classmethod
    def load(cls, path: Path) -> OptionTable | None:
        if not path.is_file():
            return None
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise Failure(f"{_rel(path)}: not JSON ({err})") from err
        if not isinstance(doc, dict) or not isinstance(doc.get("options"), dict):
            raise Failure(f'{_rel(path)}: not an option table (no "options" object)')
        return cls(doc, _rel(path))


def obtain_wheel(release: str, wheel: str | None) -> Path:
    if wheel:
        path = Path(wheel)
        if not path.is_file():
            raise Failure(f"--wheel {wheel}: no such file")
        if not path.name.startswith(f"vllm-{release}-"):
            raise Failure(f"--wheel {wheel}: not a vllm {release} wheel")
        return path
    cached = sorted(WHEELS.glob(f"vllm-{release}-*.whl"))
    if cached:
        return cached[0]
    WHEELS.mkdir(parents=True, exist_ok=True)
    log(f"downloading vllm=={release} (no dependencies) into {_rel(WHEELS)}")
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        f"vllm=={release}",
        "-d",
        str(WHEELS),
    ]
    if subprocess.run(command, check=False).returncode != 0:
        raise Failure(f"pip could not download vllm=={release}; pass --wheel or --source")
    cached = sorted(WHEELS.glob(f"vllm-{release}-*.whl"))
    if not cached:
        raise Failure(f"pip downloaded no wheel for vllm=={release} into {WHEELS}")
    return cached[0]


def is_complete_tree(root: Path) -> bool:
    """A tree the real parser can import: the package and its metadata."""
    return (root / "vllm/entrypoints/cli/serve.py").is_file() and any(root.glob("vllm-*.dist-info"))


def install_for_parser(release: str, wheel: Path, judge: Path) -> Path:
    target = INSTALLS / f"vllm-{release}"
    if (target / ".complete").is_file():
        return target
    log(f"installing the wheel without dependencies into {_rel(target)}")
    command = [
        str(judge),
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--no-compile",
        "--target",
        str(target),
        str(wheel),
    ]
    if subprocess.run(command, check=False).returncode != 0:
        raise Failure(f"pip could not install {wheel} into {target}")
    (target / ".complete").touch()
    return target


def dump_options(release: str, tree: Path, judge: Path) -> OptionTable:
    log(f"dumping the option table through vllm {release}'s own parser ({_rel(judge)})")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "options.json"
        command = [str(judge), str(DUMP_OPTIONS), "--release", release, "--vllm-path", str(tree), "--out", str(out)]
        done = subprocess.run(command, check=False, capture_output=True, text=True)
        if done.returncode != 0 or not out.is_file():
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise Failure(f"dump_vllm_options.py failed for {release}:\n{tail}")
        text = out.read_text(encoding="utf-8")
    return OptionTable(json.loads(text), "dumped by its real parser", text)


# ---------------------------------------------------------------- the command


def log(message: str) -> None:
    print(f"new_release: {message}", file=sys.stderr)


def _rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


def known_releases() -> list[str]:
    return sorted((p.stem for p in FINGERPRINTS.glob("*.json") if RELEASE.fullmatch(p.stem)), key=release_key)


def load_fingerprint(release: str) -> Fingerprint:
    path = FINGERPRINTS / f"{release}.json"
    if not path.is_file():
        known = ", ".join(known_releases()) or "none"
        raise Failure(f"no stored fingerprint for {release} in {_rel(FINGERPRINTS)} (known: {known})")
    try:
        return Fingerprint.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as err:
        raise Failure(f"{_rel(path)} is not a fingerprint this script wrote ({err!r})") from err


def pick_against(release: str, against: str | None) -> str | None:
    if against:
        return against
    older = [r for r in known_releases() if release_key(r) < release_key(release)]
    return older[-1] if older else None


def judge_python(flag: str | None) -> Path | None:
    candidate = flag or os.environ.get("REPLAYLINT_JUDGE_PYTHON") or REPO / ".venv-judge/bin/python"
    path = Path(candidate)
    return path if path.is_file() else None


def resolve_source(args) -> Source:
    if args.source:
        root = Path(args.source)
        if not (root / "vllm").is_dir():
            raise Failure(f"--source {args.source}: expected a directory holding `vllm/`")
        return Source(f"tree {_rel(root)}", root=root)
    wheel = obtain_wheel(args.release, args.wheel)
    return Source(f"wheel {_rel(wheel)}", wheel=wheel)


def new_option_table(args, source: Source, notes: list[str]) -> OptionTable | None:
    """The new release's table: its real parser, else --options, else the project's table."""
    if args.no_parser:
        notes.append("option table: parser step skipped (--no-parser)")
    else:
        judge = judge_python(args.judge_python)
        if judge is None:
            notes.append(
                "option table: no judge venv (.venv-judge/bin/python, REPLAYLINT_JUDGE_PYTHON or --judge-python); parser step skipped"
            )
        elif source.root is not None and not is_complete_tree(source.root):
            notes.append(f"option table: {source.description} is not a complete vLLM install; parser step skipped")
        else:
            tree = source.root or install_for_parser(args.release, source.wheel, judge)
            return dump_options(args.release, tree, judge)
    table = OptionTable.load(Path(args.options) if args.options else OPTION_TABLES / f"cli-options-{args.release}.json")
    if table is None:
        notes.append(f"option table: none for {args.release}; options not compared")
    return table


def build_report(args) -> tuple[dict, Fingerprint, OptionTable | None]:
    against = pick_against(args.release, args.against)
    old = load_fingerprint(against) if against else None
    source = resolve_source(args)
    version = source.version()
    if version is not None and version != args.release:
        raise Failure(f"{source.description} holds vllm {version}, not {args.release}")
    log(f"fingerprinting vllm {args.release} from {source.description}")
    new = fingerprint(args.release, source.read)
    notes: list[str] = []
    if new.missing_files:
        notes.append(f"files absent in {args.release}: {', '.join(new.missing_files)}")
    options = new_option_table(args, source, notes)
    report = {
        "release": args.release,
        "against": against,
        "source": source.description,
        "options_from": options.origin if options else None,
        "notes": notes,
    }
    if old is None:
        notes.append(f"no stored fingerprint older than {args.release}; nothing to compare")
        return report, new, options
    report["units"] = compare_units(old, new, args.max_diff_lines)
    report["messages"] = compare_messages(old, new)
    report["environment_variables"] = compare_env(old, new)
    old_options = OptionTable.load(OPTION_TABLES / f"cli-options-{against}.json")
    if options is not None and old_options is not None:
        report["options"] = compare_options(old_options.doc, options.doc)
    elif options is not None:
        notes.append(f"option table: the project has none for {against}; options not compared")
    return report, new, options


# ---------------------------------------------------------------- text report


def render(report: dict) -> str:
    title = f"vLLM {report['release']} against {report['against'] or '(nothing)'}  (new side: {report['source']})"
    lines = [title]
    if "units" in report:
        lines += _render_units(report["units"], report["against"], report["release"])
        lines += _render_messages(report["messages"])
        env = report["environment_variables"]
        lines.append(
            f"\nEnvironment variables (vllm/envs.py environment_variables): {len(env['added'])} added, {len(env['removed'])} removed"
        )
        lines += [f"  + {name}" for name in env["added"]]
        lines += [f"  - {name}" for name in env["removed"]]
    if "options" in report:
        lines += _render_options(report["options"], report["options_from"])
    if report["notes"]:
        lines.append("\nNotes")
        lines += [f"  {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def _render_units(units: dict, old: str, new: str) -> list[str]:
    lines = [
        (
            f"\nCode units: {len(units['added'])} added, {len(units['removed'])} removed, "
            f"{len(units['changed'])} changed, {units['unchanged']} unchanged"
        )
    ]
    for ref in units["removed"]:
        lines.append(f"  removed  {ref['name']}  ({ref['where']} in {old})")
    for ref in units["added"]:
        lines.append(f"  added    {ref['name']}  ({ref['where']} in {new})")
    for change in units["changed"]:
        lines.append(f"  changed  {change['name']}  ({change['old']} in {old} -> {change['new']} in {new})")
        lines += [f"      {line}" for line in change["diff"]]
        if change["diff_lines_omitted"]:
            lines.append(f"      ... {change['diff_lines_omitted']} more diff lines (--max-diff-lines 0 shows all)")
    return lines


def _render_messages(found: dict) -> list[str]:
    lines = [
        (f"\nMessages (raised, logged as warnings or listed as reasons): {len(found['added'])} added, {len(found['removed'])} removed")
    ]
    for sign, key in (("-", "removed"), ("+", "added")):
        for message in found[key]:
            lines.append(f"  {sign} {json.dumps(message['text'])}")
            lines.append(f"      {message['where']}  {message['unit']}")
    return lines


def _render_options(options: dict, options_from: str) -> list[str]:
    lines = [
        (
            f"\nOptions of `vllm serve` (new table: {options_from}): "
            f"{len(options['added'])} added, {len(options['removed'])} removed, "
            f"{len(options['changed'])} changed"
        )
    ]
    for sign, key in (("+", "added"), ("-", "removed")):
        for opt, entry in options[key].items():
            choices = f", choices {entry['choices']}" if "choices" in entry else ""
            lines.append(f"  {sign} {opt}  (dest {entry['dest']}, nargs {entry['nargs']}{choices})")
    for change in options["changed"]:
        parts = [f"{key} {change[key][0]!r} -> {change[key][1]!r}" for key in ("dest", "nargs") if key in change]
        if "choices" in change:
            parts.append(_describe_choices(change["choices"]))
        lines.append(f"  ~ {change['option']}: " + "; ".join(parts))
    return lines


def _describe_choices(choices: dict) -> str:
    if choices["after"] is None:
        return f"any value now (was one of {len(choices['before'])}: {choices['before']})"
    if choices["before"] is None:
        return f"now limited to {choices['after']}"
    return f"choices added {choices['added']}, removed {choices['removed']}"


# ---------------------------------------------------------------- writing


def write_fingerprint(fp: Fingerprint) -> Path:
    FINGERPRINTS.mkdir(parents=True, exist_ok=True)
    path = FINGERPRINTS / f"{fp.release}.json"
    path.write_text(json.dumps(fp.to_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_outputs(report: dict, fp: Fingerprint, options: OptionTable | None) -> None:
    log(f"wrote {_rel(write_fingerprint(fp))}")
    if options is not None and options.dumped_text is not None:
        path = OPTION_TABLES / f"cli-options-{fp.release}.json"
        path.write_text(options.dumped_text, encoding="utf-8")
        log(f"wrote {_rel(path)}")
    else:
        report["notes"].append("option table not written: it was not dumped by the real parser")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="new_release.py", description=__doc__.split("\n\n")[0], epilog="See README.md, 'Maintainers: absorbing a new vLLM release'."
    )
    ap.add_argument("release", help="the new vLLM release, X.Y.Z")
    ap.add_argument("--against", metavar="X.Y.Z", help="compare with this stored release (default: the newest older one)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--wheel", metavar="PATH", help="use this wheel instead of downloading")
    where.add_argument("--source", metavar="DIR", help="an already extracted or installed tree (holding `vllm/`)")
    ap.add_argument("--no-parser", action="store_true", help="skip dumping the option table through the real parser")
    ap.add_argument("--judge-python", metavar="PATH", help="the judge venv's python (default: .venv-judge/bin/python)")
    ap.add_argument("--options", metavar="FILE", help="the new option table, when the parser step is skipped")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument(
        "--write",
        action="store_true",
        help="store the fingerprint (docs/releases/fingerprints/) and the dumped option table (src/replaylint/vllm/data/)",
    )
    ap.add_argument("--max-diff-lines", type=int, default=40, metavar="N", help="diff lines shown per unit (0: all; default 40)")
    args = ap.parse_args(argv)
    for name in ("release", "against"):
        value = getattr(args, name)
        if value is not None and not RELEASE.fullmatch(value):
            ap.error(f"{value!r} is not a release like 0.34.0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        report, fp, options = build_report(args)
        if args.write:
            write_outputs(report, fp, options)
    except Failure as err:
        print(f"new_release: error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=1, sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
