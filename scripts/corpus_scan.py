"""Real-world corpus run: `python scripts/corpus_scan.py [--update] [--package NAME ...]`.

Downloads pinned PyPI packages that launch vLLM (sdists where the index has them, else wheels)
into bench/.cache/corpus/ (vllm and lm-eval are the benchmark's trees in bench/.cache/trees/),
runs `replaylint check --output-format json --no-cache` over each, and checks that:

- replaylint does not crash (exit 2, another exit code, a traceback, or unreadable JSON);
- no RPL900 (file could not be read/parsed) is reported on a file that is valid in its
  language (Python: ast.parse; shell: bash -n; YAML: PyYAML if importable); every RPL900 is
  printed for review;
- every finding is listed in scripts/corpus-expectations.json, a list of
  {package, path, code, line, reason}. Unlisted findings are printed and fail the run; listed
  findings that no longer appear are printed as stale.

`--update` rewrites the expectations file with the current findings, keeping the reasons of
entries that still match and marking new ones "UNREVIEWED" for a human to review.

`--all-frontends` also reads every file of a kind replaylint knows with its frontend, in this
process (the repo's own replaylint), the prefilter bypassed: hardly any file of these packages
mentions replay, so the normal run hands a few dozen files to a frontend; this pass hands it all
of them (about 37,000; two minutes). It fails on an exception, an internal error, a file still
running after DEEP_FILE_TIMEOUT_S, an RPL900 on a valid file, or a finding the prefilter hides
(one the frontends make that the normal run does not report).

Exit status: 0 clean, 1 unlisted findings, RPL900 on a valid file or a finding the prefilter
hides, 2 replaylint missing or crashed (or an internal error or hang with --all-frontends), or a
download failed. Stdlib only (PyYAML is used for the YAML validity check when it
happens to be importable).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import corpus  # noqa: E402  (bench/corpus.py)

EXPECTATIONS = Path(__file__).resolve().parent / "corpus-expectations.json"
CORPUS_DIR = corpus.CACHE / "corpus"
SCAN_TIMEOUT_S = 1200
DEEP_FILE_TIMEOUT_S = 60


@dataclass
class Package:
    name: str
    version: str
    root: Path = CORPUS_DIR  # where its tree lives


# Packages that launch vLLM, pinned. vllm and lm-eval reuse the benchmark's trees.
PACKAGES = [
    Package("vllm", corpus.VLLM_VERSION, corpus.TREES),
    Package("lm-eval", corpus.LM_EVAL_VERSION, corpus.TREES),
    Package("trl", "1.16.0"),
    Package("verl", "0.9.1"),
    Package("openrlhf", "0.11.2"),  # wheels only on the index
    Package("skyrl-train", "0.3.1"),
    Package("skyrl", "0.4.0"),  # SkyRL's newer all-in-one package
    Package("areal", "1.0.4"),
    Package("lighteval", "0.13.0"),
    Package("ms-swift", "4.6.0"),
    Package("llamafactory", "0.9.5"),
    Package("ai-dynamo", "1.6.1"),  # NVIDIA Dynamo (--enable-rl); wheels only on the index
    Package("verifiers", "0.4.0"),  # prime-rl's environments and vLLM server
]


@dataclass(frozen=True)
class Finding:
    package: str
    path: str  # relative to the package tree, with /
    code: str
    line: int
    message: str = field(default="", compare=False)

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.package, self.path, self.code, self.line)


@dataclass
class Result:
    pkg: Package
    tree: corpus.Tree | None = None
    files: int = 0
    seconds: float | None = None
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    # every RPL900 with the verdict on its file: valid (True), invalid (False), unknown (None)
    rpl900_checks: list[tuple[Finding, bool | None, str]] = field(default_factory=list)
    deep: Deep | None = None  # --all-frontends

    @property
    def rpl900(self) -> list[Finding]:
        return [f for f in self.findings if f.code == "RPL900"]


@dataclass
class Deep:
    """--all-frontends: every file through its frontend, the prefilter bypassed."""

    files: int = 0  # files of a kind replaylint reads
    read: dict[str, int] = field(default_factory=dict)  # by kind: files a frontend read through
    skipped: int = 0  # binary, undecodable or above the size limit
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")
    crashes: list[str] = field(default_factory=list)  # exceptions, internal errors, hangs
    findings: list[Finding] = field(default_factory=list)
    rpl900_checks: list[tuple[Finding, bool | None, str]] = field(default_factory=list)


# --------------------------------------------------------------------------- replaylint output


def _first(d: dict, *keys):
    for k in keys:
        if isinstance(d, dict) and d.get(k) not in (None, ""):
            return d[k]
    return None


def parse_findings(package: str, tree: Path, stdout: str) -> list[Finding]:
    """Findings from `--output-format json`: a list (ruff's shape) or an object holding one.
    Raises ValueError when the output has no recognisable findings list."""
    data = json.loads(stdout) if stdout.strip() else []
    if isinstance(data, dict):
        data = _first(data, "findings", "diagnostics", "results", "violations")
    if not isinstance(data, list):
        raise ValueError("JSON output is neither a list of findings nor an object holding one")
    found = []
    root = tree.resolve()
    for item in data:
        loc = _first(item, "location", "start", "span", "range") or {}
        if isinstance(loc, dict) and isinstance(loc.get("start"), dict):
            loc = loc["start"]
        code = _first(item, "code", "rule", "rule_id", "check_id")
        path = _first(item, "filename", "path", "file") or _first(loc, "path", "filename")
        line = _first(item, "line", "row", "start_line") or _first(loc, "row", "line", "start_line")
        if not isinstance(code, str) or not isinstance(path, str):
            raise ValueError(f"finding without code or path: {item!r}")
        p = Path(path)
        p = (root / p) if not p.is_absolute() else p
        try:
            rel = p.resolve().relative_to(root).as_posix()
        except ValueError:
            rel = path
        found.append(Finding(package, rel, code, int(line or 0), str(item.get("message", ""))))
    return sorted(found, key=lambda f: (f.path, f.line, f.code))


def validity(path: Path) -> tuple[bool | None, str]:
    """Is the file valid in its language? (True/False/None = not checked here, and how)."""
    kind = corpus.file_kind(path)
    data = path.read_bytes()
    if kind == "py":
        try:
            ast.parse(data, str(path))
            return True, f"ast.parse on Python {sys.version_info.major}.{sys.version_info.minor}"
        except (SyntaxError, ValueError) as exc:
            return (
                False,
                f"not valid Python {sys.version_info.major}.{sys.version_info.minor}: {exc}",
            )
    if kind == "sh" and shutil.which("bash"):
        out = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
        tail = (out.stderr.strip().splitlines() or [""])[-1]
        return out.returncode == 0, "bash -n" + (f": {tail}" if tail else "")
    if kind == "yaml":
        try:
            import yaml  # optional: only for this check
        except ImportError:
            return None, "YAML not checked (PyYAML not importable)"
        try:
            list(yaml.safe_load_all(data))
            return True, "PyYAML safe_load_all"
        except yaml.YAMLError as exc:
            return False, f"not valid YAML: {str(exc).splitlines()[0]}"
    return None, "no validity check for this kind of file"


# --------------------------------------------------------------------------- running


def scan(res: Result, rl: corpus.Replaylint) -> None:
    tree = res.tree.path
    cmd = rl.cmd + ["check", "--output-format", "json", "--no-cache", str(tree)]
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=tree,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, so a timeout ends its workers too
    )
    try:
        stdout, stderr = proc.communicate(timeout=SCAN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        res.error = f"timed out after {SCAN_TIMEOUT_S} s"
        return
    out = subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)
    res.seconds = time.perf_counter() - start
    tail = "\n    ".join(out.stderr.strip().splitlines()[-8:])
    if out.returncode not in (0, 1) or "Traceback (most recent call last)" in out.stderr:
        res.error = f"exit {out.returncode}" + (f"\n    {tail}" if tail else "")
        return
    try:
        res.findings = parse_findings(res.pkg.name, tree, out.stdout)
    except (ValueError, json.JSONDecodeError) as exc:
        res.error = f"unreadable JSON output ({exc}); first bytes: {out.stdout[:200]!r}"
        return
    if out.returncode == 0 and res.findings:
        res.error = f"exit 0 with {len(res.findings)} findings (should be 1)"
    elif out.returncode == 1 and not res.findings:
        res.error = "exit 1 with no findings in the JSON output"
    for f in res.rpl900:
        p = tree / f.path
        ok, how = validity(p) if p.is_file() else (None, "file not found")
        res.rpl900_checks.append((f, ok, how))


# --------------------------------------------------------------------------- --all-frontends


class _Hang(BaseException):
    pass


def _replaylint_in_process():
    """replaylint's modules for --all-frontends: the installed package, else the repo's src/."""
    if importlib.util.find_spec("replaylint") is None:
        sys.path.insert(0, str(REPO / "src"))
    from replaylint import frontends
    from replaylint.engine.checker import Checker, decode
    from replaylint.engine.config import Config
    from replaylint.workspace.discovery import discover

    return frontends, Checker, decode, Config, discover


def deep_scan(res: Result) -> None:
    frontends, Checker, decode, Config, discover = _replaylint_in_process()
    tree = res.tree.path.resolve()
    config = Config()
    deep = res.deep = Deep()

    def alarm(signum, frame):
        raise _Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    start = time.perf_counter()
    try:
        for name in discover([str(tree)]):
            path = Path(name)
            rel = path.relative_to(tree).as_posix()
            try:
                data = path.read_bytes()
            except OSError:
                continue
            kind = frontends.kind_for(name, data[:256])
            if kind is None:
                continue
            deep.files += 1
            if len(data) > config.max_file_bytes or b"\0" in data[:8192]:
                deep.skipped += 1
                continue
            try:
                text = decode(data, kind).text
            except (UnicodeError, SyntaxError, LookupError):
                deep.skipped += 1
                continue
            began = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, DEEP_FILE_TIMEOUT_S)
            try:
                result = Checker(config).check_text(name, text, kind)
            except _Hang:
                deep.crashes.append(f"{rel}: still running after {DEEP_FILE_TIMEOUT_S} s")
                continue
            except Exception as exc:  # noqa: BLE001 - that is what this pass looks for
                deep.crashes.append(f"{rel}: {type(exc).__name__}: {exc} (escaped check_text)")
                continue
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            took = time.perf_counter() - began
            deep.slowest = max(deep.slowest, (took, rel))
            if result.parsed:
                deep.read[kind] = deep.read.get(kind, 0) + 1
            if result.internal_error:
                deep.crashes.append(f"{rel}: internal error: {result.internal_error}")
            for f in result.findings:
                found = Finding(res.pkg.name, rel, f.code, f.span.start_line, f.message)
                deep.findings.append(found)
                if f.code == "RPL900":
                    deep.rpl900_checks.append((found, *validity(path)))
    finally:
        signal.signal(signal.SIGALRM, previous)
    deep.seconds = time.perf_counter() - start


def print_deep(results: list[Result]) -> tuple[list[str], list[Finding], list[Finding]]:
    """The --all-frontends table; returns the crashes, RPL900 on valid files, hidden findings."""
    print("\n## All frontends on every file (--all-frontends, prefilter bypassed)\n")
    print("| package | files | given to a frontend | skipped | time | slowest file | crashes | RPL900 | other findings |")
    print("|---|---|---|---|---|---|---|---|---|")
    crashes, bad900, hidden = [], [], []
    for r in results:
        d = r.deep
        if d is None:
            continue
        read = ", ".join(f"{kind} {n}" for kind, n in sorted(d.read.items())) or "0"
        n900 = sum(1 for f in d.findings if f.code == "RPL900")
        other = [f for f in d.findings if f.code != "RPL900"]
        print(
            f"| {r.pkg.name} | {d.files} | {read} | {d.skipped} | {d.seconds:.1f} s "
            f"| {d.slowest[0]:.2f} s {d.slowest[1]} | {len(d.crashes)} | {n900} | {len(other)} |"
        )
        crashes += [f"{r.pkg.name}:{c}" for c in d.crashes]
        bad900 += [f for f, ok, _ in d.rpl900_checks if ok]
        normal = {f.key for f in r.findings}
        hidden += [f for f in other if f.key not in normal]
    if crashes:
        print("\nCrashes, internal errors and hangs:\n")
        print("\n".join(f"- {c}" for c in crashes))
    checks = [c for r in results if r.deep for c in r.deep.rpl900_checks]
    if checks:
        print("\nRPL900 (files the prefilter never hands to a frontend):\n")
        verdicts = {True: "VALID FILE: a replaylint bug", False: "invalid file", None: "unchecked"}
        for f, ok, how in checks:
            print(f"- {f.package}:{f.path}:{f.line}: {f.message} [{verdicts[ok]}; {how}]")
    if hidden:
        print(f"\nFindings the prefilter hides ({len(hidden)}): the normal run does not report them\n")
        for f in hidden:
            print(f"- {f.package}:{f.path}:{f.line}: {f.code} {f.message}")
    return crashes, bad900, hidden


def load_expectations() -> list[dict]:
    if not EXPECTATIONS.exists():
        return []
    data = json.loads(EXPECTATIONS.read_text())
    if not isinstance(data, list):
        raise SystemExit(f"{EXPECTATIONS} must hold a JSON list")
    return data


def exp_key(e: dict) -> tuple[str, str, str, int]:
    return (e["package"], e["path"], e["code"], int(e["line"]))


def write_expectations(results: list[Result], old: list[dict]) -> int:
    reasons = {exp_key(e): e.get("reason", "UNREVIEWED") for e in old}
    scanned = {r.pkg.name for r in results if r.error is None}
    # keep entries of packages that were not scanned this time
    keep = [e for e in old if e["package"] not in scanned]
    new = [
        {
            "package": f.package,
            "path": f.path,
            "code": f.code,
            "line": f.line,
            "reason": reasons.get(f.key, "UNREVIEWED"),
        }
        for r in results
        if r.error is None
        for f in r.findings
    ]
    entries = sorted(keep + new, key=lambda e: exp_key(e))
    EXPECTATIONS.write_text(json.dumps(entries, indent=2) + "\n")
    return sum(1 for e in entries if e["reason"] == "UNREVIEWED")


def print_table(results: list[Result]) -> None:
    print("| package | version | source | files | findings | RPL900 | time | status |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        src = r.tree.source if r.tree else "—"
        t = f"{r.seconds:.2f} s" if r.seconds is not None else "—"
        status = "ERROR" if r.error else ("not scanned" if r.seconds is None else "ok")
        n = len(r.findings) if r.seconds is not None and not r.error else "—"
        n900 = len(r.rpl900) if r.seconds is not None and not r.error else "—"
        print(f"| {r.pkg.name} | {r.pkg.version} | {src} | {r.files} | {n} | {n900} | {t} | {status} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="write current findings as expectations")
    ap.add_argument("--package", action="append", metavar="NAME", help="scan only these packages")
    ap.add_argument(
        "--replaylint",
        metavar="CMD",
        help="command to run replaylint (default: $REPLAYLINT, `replaylint` on PATH, else `python -m replaylint`)",
    )
    ap.add_argument("--download-only", action="store_true", help="fetch and unpack, then stop")
    ap.add_argument(
        "--all-frontends",
        action="store_true",
        help="also read every file with its frontend in this process, the prefilter bypassed",
    )
    args = ap.parse_args(argv)

    pkgs = PACKAGES
    if args.package:
        unknown = set(args.package) - {p.name for p in PACKAGES}
        if unknown:
            ap.error(f"unknown package(s): {', '.join(sorted(unknown))}")
        pkgs = [p for p in PACKAGES if p.name in args.package]

    # 1. download and unpack
    results = []
    download_failed = False
    corpus.log("Fetching the corpus ...")
    for pkg in pkgs:
        res = Result(pkg)
        try:
            res.tree = corpus.fetch_tree(pkg.name, pkg.version, root=pkg.root)
            res.files = corpus.count_files(res.tree.path)["lintable"]
        except Exception as exc:  # noqa: BLE001 - report and go on with the others
            res.error = f"download failed: {exc}"
            download_failed = True
        results.append(res)
    print("## Corpus\n")
    for r in results:
        if r.tree:
            t = r.tree
            got = f"downloaded in {t.download_s:.1f} s" if t.download_s else "cached"
            size = f"{t.size_bytes / 1e6:.2f} MB" if t.size_bytes else "size unknown"
            print(f"- {t.name} {t.version}: {t.source} ({size}, {got}), {r.files} files to lint, {t.path}")
        else:
            print(f"- {r.pkg.name} {r.pkg.version}: {r.error}")
    print()
    if args.download_only:
        return 2 if download_failed else 0

    rl, why = corpus.find_replaylint(args.replaylint)
    if rl is None:
        print(f"**replaylint missing**: {why}\nNothing was scanned.")
        return 2
    print(f"replaylint: {rl.version} (`{' '.join(rl.cmd)}`)\n")

    # 2. scan
    for r in results:
        if r.tree and not r.error:
            corpus.log(f"Scanning {r.pkg.name} ({r.files} files) ...")
            scan(r, rl)
    if args.all_frontends:
        for r in results:
            if r.tree and not r.error:
                corpus.log(f"Reading every file of {r.pkg.name} with its frontend ...")
                deep_scan(r)

    # 3. compare
    old = load_expectations()
    expected = {exp_key(e): e for e in old}
    scanned = {r.pkg.name for r in results if r.error is None}
    current = {f.key: f for r in results if r.error is None for f in r.findings}
    unlisted = [f for k, f in current.items() if k not in expected]
    stale = [e for k, e in expected.items() if e["package"] in scanned and k not in current]

    print("## Results\n")
    print_table(results)
    crashed = [r for r in results if r.error]
    if crashed:
        print("\n## Failures (crash, bad output or download)\n")
        for r in crashed:
            print(f"- {r.pkg.name}: {r.error}")
    checks = [c for r in results for c in r.rpl900_checks]
    if checks:
        print("\n## RPL900 findings, for review\n")
        verdicts = {True: "VALID FILE: a replaylint bug", False: "invalid file", None: "unchecked"}
        for f, ok, how in checks:
            print(f"- {f.package}:{f.path}:{f.line}: {f.message} [{verdicts[ok]}; {how}]")
    bad900 = [f for f, ok, _ in checks if ok]
    if unlisted:
        print(f"\n## Unlisted findings ({len(unlisted)}): review, then list them with a reason\n")
        for f in sorted(unlisted, key=lambda f: f.key):
            print(f"- {f.package}:{f.path}:{f.line}: {f.code} {f.message}")
    if stale:
        print(f"\n## Stale expectations ({len(stale)}): listed but no longer reported\n")
        for e in stale:
            print(f"- {e['package']}:{e['path']}:{e['line']}: {e['code']} ({e.get('reason', '')})")

    deep_crashes: list[str] = []
    deep_bad900: list[Finding] = []
    hidden: list[Finding] = []
    if args.all_frontends:
        deep_crashes, deep_bad900, hidden = print_deep(results)

    if args.update:
        n = write_expectations(results, old)
        print(f"\nWrote {EXPECTATIONS.relative_to(REPO)} ({n} entries UNREVIEWED).")
        unlisted = []

    print()
    scanned_results = [r for r in results if r.seconds is not None and not r.error]
    print(
        f"Totals: {len(scanned_results)} packages, {sum(r.files for r in scanned_results)} files, "
        f"{len(current)} findings ({sum(len(r.rpl900) for r in scanned_results)} RPL900), "
        f"{sum(r.seconds for r in scanned_results):.1f} s of replaylint"
        + (
            f"; --all-frontends: {sum(r.deep.files for r in results if r.deep)} files, "
            f"{sum(sum(r.deep.read.values()) for r in results if r.deep)} given to a frontend, "
            f"{sum(r.deep.seconds for r in results if r.deep):.1f} s"
            if args.all_frontends
            else ""
        )
        + f" (load average {os.getloadavg()[0]:.2f})"
    )
    if crashed or download_failed or deep_crashes:
        print("FAIL: replaylint crashed, hung or had an internal error, or a package could not be fetched")
        return 2
    if bad900 or unlisted or deep_bad900 or hidden:
        print(
            f"FAIL: {len(unlisted)} unlisted findings, {len(bad900) + len(deep_bad900)} RPL900 on valid files, "
            f"{len(hidden)} findings the prefilter hides"
        )
        return 1
    print(f"OK: {len(current)} findings, all listed; {len(stale)} stale")
    return 0


if __name__ == "__main__":
    sys.exit(main())
