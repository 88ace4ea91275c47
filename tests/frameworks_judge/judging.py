"""The framework run: mutate every launch of fixtures/frameworks, ask the framework's own code and
vLLM what happens (engine_judge.py in the judge virtualenv), ask replaylint (`replaylint check
--output-format json` on a temporary tree of the mutants), and compare.

Used by scripts/frameworks_judge.py (the report) and tests/test_frameworks_judge.py (the parts
that need no judge).
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..differential.oracle import expect
from ..realworld.sandbox import Sandbox, new_sandbox
from . import mutants

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO / "fixtures" / "frameworks"
MANIFEST = CORPUS / "manifest.json"
ENGINE_JUDGE = HERE / "engine_judge.py"
FRAMEWORKS_PATH = REPO / "bench" / ".cache" / "framework-judges"
# The module each framework's launch scripts run.
ENTRY_MODULES = {"verl": "verl.trainer.main_ppo", "openrlhf": "openrlhf.cli.train_ppo_ray"}
# Frameworks whose code engine_judge.py runs.
JUDGED = frozenset(("verl",))
REQUEST_CODES = frozenset(("RPL101", "RPL102"))
REPLAY_WORDS = ("sampling_mask", "sampling-mask", "sampling distribution replay", "logprobs_mode", "top_k", "temperature")


@dataclass(frozen=True)
class Entry:
    path: str
    project: str
    framework: str
    kind: str  # config, shell

    @property
    def file(self) -> Path:
        return CORPUS / self.path


def load_manifest() -> tuple[list[Entry], list[str]]:
    data = json.loads(MANIFEST.read_text())
    entries = [Entry(item["path"], item["project"], item["framework"], item["kind"]) for item in data["files"]]
    return entries, [item["path"] for item in data.get("support_files", [])]


@dataclass
class Result:
    entry: Entry
    mutant: mutants.Mutant
    case: dict | None = None
    case_file: str = ""  # the mutant in the temporary tree replaylint checks
    truth: dict | None = None  # engine_judge's answer
    findings: list[dict] = field(default_factory=list)
    outcome: str = ""  # agree, missed, false, open-ended, not-judged
    detail: str = ""

    @property
    def id(self) -> str:
        return f"{self.entry.path}#{self.mutant.label}"


def mutants_of(entry: Entry) -> list[mutants.Mutant]:
    text = entry.file.read_text()
    found = []
    for mutation in (mutants.CONTROL, *mutants.FRAMEWORK_MUTATIONS.get(entry.framework, ())):
        if entry.kind == "config":
            mutant = mutants.yaml_mutant(text, mutation, mutants.YAML_BASE.get(entry.framework, ()))
        elif mutation is mutants.CONTROL:
            mutant = mutants.Mutant(mutation.label, mutation.what, text)
        else:
            mutant = mutants.shell_mutant(text, ENTRY_MODULES[entry.framework], mutation)
        if mutant is not None:
            found.append(mutant)
    return found


# -- the framework's command line ----------------------------------------------------------------


def shell_case(sandbox: Sandbox, entry: Entry, text: str, support: list[str]) -> tuple[dict | None, str]:
    """Run the mutated script with real bash in the sandbox; the framework's command line it
    starts becomes the case."""
    root = CORPUS / entry.project
    files = {str(Path(p).relative_to(entry.project)): (CORPUS / p).read_bytes() for p in support if p.startswith(entry.project + "/")}
    relative = str(entry.file.relative_to(root))
    files[relative] = text.encode()
    run = sandbox.run(files, relative)
    module = ENTRY_MODULES[entry.framework]
    for invocation in run.invocations:
        argv = invocation.argv
        if module in argv and argv.index(module) > 0 and argv[argv.index(module) - 1] == "-m":
            words = argv[argv.index(module) + 1 :]
            env = {k: v for k, v in invocation.env.items() if k.startswith("VLLM_")}
            return {"framework": entry.framework, "argv": words, "env": env}, ""
    return None, f"the script started no `python -m {module}` (exit {run.exit_code})"


def config_case(entry: Entry, mutant: mutants.Mutant, folder: Path) -> dict:
    path = folder / entry.file.name
    return {"framework": entry.framework, "argv": [], "config_dir": str(path.parent), "config_name": path.stem, "env": {}}


# -- replaylint ----------------------------------------------------------------------------------


def replaylint_findings(tree: Path, release: str) -> dict[str, list[dict]]:
    """`replaylint check --output-format json` over the tree of mutants: findings per file."""
    command = [
        str(REPO / ".venv" / "bin" / "replaylint"),
        "check",
        "--output-format",
        "json",
        "--isolated",
        "--no-cache",
        "--target-vllm",
        release,
        str(tree),
    ]
    if not Path(command[0]).exists():
        command[0:1] = [sys.executable, "-m", "replaylint"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tree)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"replaylint exited {done.returncode}: {done.stderr[-2000:]}")
    findings = collections.defaultdict(list)
    for finding in json.loads(done.stdout or "[]"):
        findings[str(Path(finding["filename"]).resolve())].append(finding)
    return findings


# -- comparison ----------------------------------------------------------------------------------


def classify(result: Result) -> None:
    """agree / missed / false / open-ended / not-judged, from the truth and replaylint's errors."""
    truth = result.truth or {}
    errors = [f for f in result.findings if f.get("severity", "error") == "error"]
    texts = [f"{f['code']} {f['message']}" for f in errors]
    if truth.get("judge_error") or result.case is None:
        result.outcome, result.detail = "not-judged", truth.get("judge_error") or result.detail
        return
    failure = truth.get("framework_error")
    if failure:
        message = failure["message"]
        if any(word in message for word in REPLAY_WORDS):
            _require(result, texts, [message], f"{result.entry.framework} refuses: {message}")
        else:
            result.outcome, result.detail = "not-judged", f"{result.entry.framework} refuses for another reason: {message[:300]}"
        return
    verdict = truth.get("verdict") or {}
    if not verdict.get("ok"):
        expectation = expect(verdict, True)
        if expectation.outcome == "replay":
            _require(result, texts, list(expectation.fragments), f"vLLM: {verdict.get('message')}")
        else:
            result.outcome, result.detail = "not-judged", f"vLLM refuses for another reason: {verdict.get('message', '')[:300]}"
        return
    requests = truth.get("requests", [])
    unknown = [r for r in requests if r.get("verdict") and r["verdict"].get("ok") is None]
    if unknown:
        result.outcome, result.detail = "not-judged", f"the request check could not run: {unknown[0]['verdict']['message']}"
        return
    refused = [r for r in requests if r.get("verdict") and r["verdict"].get("ok") is False]
    if refused:
        needed = [r["verdict"]["message"] for r in refused]
        what = "; ".join(f"{r['name']} request {r['params']}: {r['verdict']['message']}" for r in refused)
        _require(result, texts, needed, what)
        return
    if errors:
        result.outcome, result.detail = "false", "the launch starts and its requests pass, replaylint says: " + " | ".join(texts)
        return
    result.outcome = "agree"


def _require(result: Result, texts: list[str], fragments: list, truth: str) -> None:
    missing = [fragment for fragment in fragments if not any(_holds(fragment, text) for text in texts)]
    if not missing:
        result.outcome = "agree"
        return
    result.outcome = "missed"
    answer = " | ".join(texts) or "nothing"
    result.detail = f"truth: {truth}; replaylint: {answer}"


def _holds(fragment, text: str) -> bool:
    if isinstance(fragment, tuple):
        return all(part in text for part in fragment)
    return fragment in text


# -- the whole run -----------------------------------------------------------------------------


@dataclass
class Report:
    release: str
    entries: list[Entry]
    results: list[Result] = field(default_factory=list)
    judge_seconds: float = 0.0
    total_seconds: float = 0.0


def judge_python() -> Path:
    return Path(os.environ.get("REPLAYLINT_JUDGE_PYTHON") or REPO / ".venv-judge" / "bin" / "python")


def run_engine_judge(cases: list[dict], release: str, vllm_path: str | None, workdir: Path) -> dict[str, dict]:
    if not cases:
        return {}
    command = [str(judge_python()), str(ENGINE_JUDGE), "--frameworks-path", str(FRAMEWORKS_PATH), "--quiet", "--release", release]
    if vllm_path:
        command += ["--vllm-path", vllm_path]
    source, sink, errors = workdir / "cases.jsonl", workdir / "truth.jsonl", workdir / "judge.err"
    source.write_text("".join(json.dumps(case) + "\n" for case in cases))
    with source.open() as stdin, sink.open("w") as stdout, errors.open("w") as stderr:
        code = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=stderr, cwd=REPO, timeout=1800).returncode
    if code != 0:
        raise RuntimeError(f"engine_judge.py exited {code}:\n{errors.read_text(errors='replace')[-3000:]}")
    answers = {}
    for line in sink.read_text().splitlines():
        answer = json.loads(line)
        answers[answer["id"]] = answer
    return answers


def run(release: str, vllm_path: str | None, only: str | None = None, log=print) -> Report:
    started = time.perf_counter()
    entries, support = load_manifest()
    entries = [e for e in entries if only is None or e.framework == only or e.path.startswith(only)]
    report = Report(release, entries)
    workdir = Path(tempfile.mkdtemp(prefix="replaylint-frameworks-"))
    sandbox, holder = new_sandbox()
    try:
        tree = workdir / "tree"
        cases = []
        for entry in entries:
            for number, mutant in enumerate(mutants_of(entry)):
                result = Result(entry, mutant)
                folder = tree / f"{len(report.results):04d}" / Path(entry.path).parent
                folder.mkdir(parents=True)
                (folder / entry.file.name).write_text(mutant.text)
                result.case_file = str((folder / entry.file.name).resolve())
                if entry.framework not in JUDGED:
                    result.detail = f"{entry.framework}: its code is not run by this judge (see README)"
                elif entry.kind == "config":
                    result.case = config_case(entry, mutant, folder)
                else:
                    result.case, result.detail = shell_case(sandbox, entry, mutant.text, support)
                if result.case is not None:
                    result.case["id"] = result.id
                    cases.append(result.case)
                report.results.append(result)
        log(f"[frameworks] {len(report.results)} mutants of {len(entries)} files; {len(cases)} cases for the judge")
        findings = replaylint_findings(tree, release)
        for result in report.results:
            result.findings = findings.get(result.case_file, [])
        judge_started = time.perf_counter()
        truths = run_engine_judge(cases, release, vllm_path, workdir)
        report.judge_seconds = time.perf_counter() - judge_started
        for result in report.results:
            if result.case is not None:
                result.truth = truths.get(result.id, {"judge_error": "no answer from the judge"})
            classify(result)
    finally:
        holder.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    report.total_seconds = time.perf_counter() - started
    return report
