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
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..differential.oracle import expect
from ..realworld.sandbox import Inputs, Sandbox, new_sandbox
from . import forks, mutants

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO / "fixtures" / "frameworks"
MANIFEST = CORPUS / "manifest.json"
ENGINE_JUDGE = HERE / "engine_judge.py"
FRAMEWORKS_PATH = REPO / "bench" / ".cache" / "framework-judges"
# The module each framework's launch scripts run.
ENTRY_MODULES = {
    "verl": "verl.trainer.main_ppo",
    "openrlhf": "openrlhf.cli.train_ppo_ray",
    "skyrl": "skyrl.train.entrypoints",
    "trl": "trl.scripts.vllm_serve",
}
# Console scripts that start a framework's entry point: (program, subcommand).
ENTRY_COMMANDS = {"trl": ("trl", "vllm-serve")}
# The releases whose code engine_judge.py runs (scripts/setup-framework-judges.sh installs them).
JUDGED_RELEASES = {
    "verl": ("0.9.1", "0.9.0", "0.8.0", "0.7.1"),
    "openrlhf": (
        "0.11.2",
        "0.11.1",
        "0.10.4",
        "0.10.1",
        "0.9.10",
        "0.9.9",
        "0.9.8",
        "0.9.7",
        "0.9.5",
        "0.9.2",
        "0.9.1.post1",
        "0.9.1",
        "0.8.11",
        "0.8.9",
        "0.8.8",
        "0.8.7",
        "0.8.6",
        "0.8.5",
        "0.8.2",
        "0.8.1",
        "0.8.0",
        "0.7.5",
        "0.7.2",
        "0.7.1",
        "0.7.0",
    ),
    "skyrl": ("0.4.0",),
    "trl": (
        "1.16.0",
        "1.10.0",
        "1.9.2",
        "1.9.1",
        "1.9.0",
        "1.8.0",
        "1.7.1",
        "1.7.0",
        "1.6.0",
        "1.5.1",
        "1.5.0",
        "1.4.0",
        "1.3.0",
        "1.2.0",
        "1.1.0",
        "1.0.0",
        "0.29.1",
        "0.29.0",
    ),
}
JUDGED = frozenset(JUDGED_RELEASES)
# Each framework's package on PyPI, as a project pins it.
PACKAGES = {"verl": "verl", "openrlhf": "openrlhf", "skyrl": "skyrl", "trl": "trl"}
REQUEST_CODES = frozenset(("RPL101", "RPL102"))
ARGUMENTS_CAVEAT = "unless the script's arguments set it"  # replaylint's words for a script judged without its `"$@"` (rules/base.py)
REPLAY_WORDS = ("sampling_mask", "sampling-mask", "sampling distribution replay", "logprobs_mode", "top_k", "temperature")


@dataclass(frozen=True)
class Entry:
    path: str
    project: str
    framework: str
    kind: str  # config, overrides, shell
    release: str = ""  # the framework release whose code judges it
    folder: str = ""  # read beside the files of this folder of the release's installed package

    @property
    def file(self) -> Path:
        return CORPUS / self.path

    @property
    def root(self) -> str:
        """The archive's folder in the corpus (`verl-0.9.1`)."""
        return self.path.split("/", 1)[0]


def load_manifest() -> tuple[list[Entry], list[str]]:
    data = json.loads(MANIFEST.read_text())
    entries = [
        Entry(item["path"], item["project"], item["framework"], item["kind"], item.get("release", ""), item.get("folder", ""))
        for item in data["files"]
    ]
    return entries, [item["path"] for item in data.get("support_files", [])]


@dataclass
class Result:
    entry: Entry
    mutant: mutants.Mutant
    case: dict | None = None
    case_file: str = ""  # the mutant in the temporary tree replaylint checks
    # Other files of the mutant's folder whose findings may be the launch's (a fork's edited file:
    # replaylint reports what the fork decides at the fork's own line, the launch related to it).
    other_files: list[str] = field(default_factory=list)
    truth: dict | None = None  # engine_judge's answer
    findings: list[dict] = field(default_factory=list)
    outcome: str = ""  # agree, missed, false, open-ended, not-judged
    detail: str = ""

    @property
    def id(self) -> str:
        return f"{self.entry.path}#{self.mutant.label}"


def mutants_of(entry: Entry, count: int | None = None, text: str | None = None) -> list[mutants.Mutant]:
    """The control, then `count` of the framework's mutations (all when None), each also in its
    open-ended forms (`text`: the launch's, when it is not the corpus file's: a fork's own script)."""
    text = entry.file.read_text() if text is None else text
    arguments = entry.kind == "shell" and mutants.ends_with_arguments(text, _command_word(entry, text))
    mutations = [m for m in mutants.mutations_for(entry.framework, entry.release) if entry.kind == "shell" or not m.words_only]
    chosen = mutants.sample(mutations, entry.path, count)
    found = []
    for mutation in (mutants.CONTROL, *chosen):
        mutant = _written(entry, text, mutation)
        if mutant is None:
            continue
        found.append(replace(mutant, words=mutation.words))
        for how, hidden, given in mutants.open_ended_variants(entry.framework, entry.kind, mutation, arguments):
            variant = _written(entry, text, hidden)
            if variant is not None:
                label = f"{mutation.label} ({how})"
                found.append(replace(variant, label=label, open_ended=how, words=mutation.words, **given))
    return found


def _command_word(entry: Entry, text: str) -> str:
    """What the framework's command line of a script holds: its module, or its console command."""
    module = ENTRY_MODULES.get(entry.framework, "")
    program, subcommand = ENTRY_COMMANDS.get(entry.framework, ("", ""))
    return module if module in text or not program else f"{program} {subcommand}"


def _written(entry: Entry, text: str, mutation: mutants.Mutation) -> mutants.Mutant | None:
    if entry.kind == "shell":
        return mutants.shell_mutant(text, _command_word(entry, text), mutation)
    base = mutants.YAML_BASE.get(entry.framework, ()) if entry.kind == "config" else ()
    return mutants.yaml_mutant(text, mutation, base)


def _fork_results(
    report: Report, entries: list[Entry], tree: Path, sandbox: Sandbox, support: list[str], count: int | None, only: str | None
) -> list[dict]:
    """The mutants of each script again, in a fork (`forks.EDITS`): the edited package judges
    them, and the edited file is in the tree replaylint checks, where the fork's scripts find it."""
    cases = []
    for edit in forks.EDITS:
        if only is not None and not edit.framework.startswith(only) or forks.install(edit, FRAMEWORKS_PATH) is None:
            continue
        edited = forks.edited_file(edit, FRAMEWORKS_PATH)
        for entry, text in _fork_launches(edit, entries):
            for mutant in mutants_of(entry, count, text):
                result = Result(
                    entry, replace(mutant, label=f"{mutant.label} [fork: {edit.name}]", what=f"{mutant.what}; fork: {edit.name}")
                )
                base = tree / f"{len(report.results):04d}"
                (base / Path(entry.path).parent).mkdir(parents=True)
                (base / entry.path).write_text(mutant.text)
                (base / "requirements.txt").write_text(project_pin(entry))
                (base / edit.path).parent.mkdir(parents=True)
                (base / edit.path).write_text(edited)
                result.case_file = str((base / entry.path).resolve())
                result.other_files = [str((base / edit.path).resolve())]
                result.case, result.detail = shell_case(sandbox, entry, mutant, support)
                if result.case is not None:
                    result.case.update(id=result.id, release=edit.judged_as)
                    cases.append(result.case)
                report.results.append(result)
    return cases


def _fork_launches(edit: forks.SourceEdit, entries: list[Entry]) -> list[tuple[Entry, str | None]]:
    """The release's corpus scripts (their own text), and the fork's own script made from one."""
    found: list[tuple[Entry, str | None]] = [
        (entry, None) for entry in entries if (entry.framework, entry.release, entry.kind) == (edit.framework, edit.release, "shell")
    ]
    source = next((entry for entry in entries if edit.script is not None and entry.path == edit.script.source), None)
    if source is not None and edit.script is not None:
        found.append((replace(source, path=edit.script.path), edit.script.text(source.file.read_text())))
    return found


# -- the framework's command line ----------------------------------------------------------------


def shell_case(sandbox: Sandbox, entry: Entry, mutant: mutants.Mutant, support: list[str]) -> tuple[dict | None, str]:
    """Run the mutated script with real bash in the sandbox (with the mutant's arguments and
    environment); the framework's command line it starts becomes the case."""
    root = CORPUS / entry.root
    files = {str(Path(p).relative_to(entry.root)): (CORPUS / p).read_bytes() for p in support if p.startswith(entry.root + "/")}
    relative = str(entry.file.relative_to(root))
    files[relative] = mutant.text.encode()
    run = sandbox.run(files, relative, inputs=Inputs(argv=mutant.arguments, env=mutant.env))
    module = ENTRY_MODULES[entry.framework]
    program, subcommand = ENTRY_COMMANDS.get(entry.framework, ("", ""))
    for invocation in run.invocations:
        argv = invocation.argv
        env = {k: v for k, v in invocation.env.items() if k.startswith("VLLM_")}
        if program and invocation.name == program and argv[:1] == [subcommand]:
            return {"framework": entry.framework, "entry": f"{program} {subcommand}", "argv": argv[1:], "env": env}, ""
        for index, word in enumerate(argv[1:], start=1):
            if argv[index - 1] == "-m" and (word == module or word.startswith(module + ".")):
                return {"framework": entry.framework, "entry": word, "argv": argv[index + 1 :], "env": env}, ""
    return None, f"the script started no `python -m {module}` (exit {run.exit_code})"


def project_pin(entry: Entry) -> str:
    """The pin a user's project of this launch holds: the framework release that judges it (written
    beside the mutant, where replaylint reads a project's pins and chooses the framework's edition)."""
    return f"{PACKAGES.get(entry.framework, entry.framework)}=={entry.release}\n" if entry.release else ""


def packaged_folder(entry: Entry) -> Path | None:
    """The folder of the release's installed package an entry is read in (None when it is read
    alone, or when that release is not installed)."""
    if not entry.folder:
        return None
    folder = FRAMEWORKS_PATH / f"{entry.framework}-{entry.release}" / entry.folder
    return folder if folder.is_dir() else None


def config_case(entry: Entry, mutant: mutants.Mutant, folder: Path) -> dict:
    """A configuration is given to the entry point by name; an override mapping becomes the
    entry point's command-line words."""
    env = dict(mutant.env)
    if entry.kind == "overrides":
        document = yaml.safe_load(mutant.text) or {}
        return {"framework": entry.framework, "argv": [], "overrides": mutants.flatten(document), "env": env}
    path = folder / entry.file.name
    return {"framework": entry.framework, "argv": [], "config_dir": str(path.parent), "config_name": path.stem, "env": env}


# -- replaylint ----------------------------------------------------------------------------------


def replaylint_findings(tree: Path, release: str) -> dict[str, list[dict]]:
    """`replaylint check --output-format json` over the tree of mutants: findings per file."""
    command = [
        str(Path(sys.executable).parent / "replaylint"),  # this virtualenv's (CI runs the judges in their own)
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


def _relates_to(finding: dict, path: str) -> bool:
    """Whether a finding placed in another file names `path` among its related places (a fork's
    line that decides, with the launch that reaches it)."""
    return any(str(Path(place["filename"]).resolve()) == path for place in finding.get("related", []))


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
    unbuilt = [r for r in requests if isinstance(r.get("params"), dict) and "framework_error" in r["params"]]
    if unbuilt:
        result.outcome, result.detail = (
            "not-judged",
            f"the {unbuilt[0]['name']} request was not built: {unbuilt[0]['params']['framework_error']}",
        )
        return
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
        said = " | ".join(texts)
        result.outcome, result.detail = "false", "the launch starts and its requests pass, replaylint says: " + said
        if result.mutant.open_ended == "arguments" and all(ARGUMENTS_CAVEAT in text for text in texts):
            # judged as written, and each finding says so: the words that fix it were out of sight
            result.outcome, result.detail = "open-ended", "the deciding value is in the launch's arguments; replaylint: " + said
        return
    result.outcome = "agree"


def _require(result: Result, texts: list[str], fragments: list, truth: str) -> None:
    """The refusal needs an error holding these words: missed without it, unless the deciding
    value was out of replaylint's sight (open-ended)."""
    missing = [fragment for fragment in fragments if not any(_holds(fragment, text) for text in texts)]
    if not missing:
        result.outcome = "agree"
        return
    answer = " | ".join(texts) or "nothing"
    result.detail = f"truth: {truth}; replaylint: {answer}"
    hidden = result.mutant.open_ended and (not result.mutant.hides or any(word in truth for word in result.mutant.hides))
    if hidden:
        result.outcome = "open-ended"
        result.detail = f"the deciding value is in the launch's {result.mutant.open_ended}; " + result.detail
        return
    result.outcome = "missed"


def _holds(fragment, text: str) -> bool:
    """Whether `text` holds `fragment` (or all its parts), a message's line breaks read as spaces
    (a one-line finding quotes Hydra's two-line refusals so)."""
    if isinstance(fragment, tuple):
        return all(_holds(part, text) for part in fragment)
    return " ".join(fragment.split()) in " ".join(text.split())


def _unjudge_where_the_control_fails(results: list[Result]) -> None:
    """A launch that fails or starts no vLLM engine without any mutation says nothing about a
    mutation that the framework refuses: such mutants are not judged, unless the refusal names
    an option the mutation wrote (argparse's `unrecognized arguments: ... --vllm.return_sampling_mask`,
    SkyRL's `'+' prefix ...: '+generator...'`), which only the mutation can have caused."""
    failed = {r.entry.path: r.detail for r in results if r.mutant.label == mutants.CONTROL.label and r.outcome == "not-judged"}
    for result in results:
        refused = (result.truth or {}).get("framework_error")
        if refused and result.entry.path in failed and result.outcome != "not-judged" and not _names_the_mutation(refused, result.mutant):
            result.outcome = "not-judged"
            result.detail = f"the launch fails without the mutation too: {failed[result.entry.path][:300]}"


def _names_the_mutation(refused: dict, mutant: mutants.Mutant) -> bool:
    options = [word.split("=", 1)[0] for word in mutant.words if word[:1] in ("-", "+")]
    keys = [f"'{word.split('=', 1)[0].lstrip('+')}'" for word in mutant.words if "=" in word and word[:1] != "-"]  # Hydra's 'KEY'
    return any(option in refused.get("message", "") for option in options + keys)


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


def run(release: str, vllm_path: str | None, only: str | None = None, log=print, count: int | None = None) -> Report:
    """Every launch's control and `count` of its mutations (all when None), judged and checked."""
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
            for mutant in mutants_of(entry, count):
                result = Result(entry, mutant)
                base = tree / f"{len(report.results):04d}"
                folder = base / Path(entry.path).parent
                folder.mkdir(parents=True)
                for path in support:  # the files a configuration's defaults list names
                    if entry.kind != "shell" and path.startswith(entry.root + "/"):
                        (base / path).parent.mkdir(parents=True, exist_ok=True)
                        (base / path).write_bytes((CORPUS / path).read_bytes())
                packaged = packaged_folder(entry)
                if packaged is not None:
                    shutil.copytree(packaged, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
                (folder / entry.file.name).write_text(mutant.text)
                (base / "requirements.txt").write_text(project_pin(entry))
                result.case_file = str((folder / entry.file.name).resolve())
                if entry.release not in JUDGED_RELEASES.get(entry.framework, ()):
                    result.detail = f"{entry.framework} {entry.release}: its code is not run by this judge (see README)"
                elif entry.folder and packaged is None:
                    result.detail = f"{entry.framework} {entry.release} is not installed: its {entry.folder} is needed beside the file"
                elif entry.kind == "shell":
                    result.case, result.detail = shell_case(sandbox, entry, mutant, support)
                else:
                    result.case = config_case(entry, mutant, folder)
                if result.case is not None:
                    result.case.update(id=result.id, release=entry.release)
                    cases.append(result.case)
                report.results.append(result)
        cases += _fork_results(report, entries, tree, sandbox, support, count, only)
        log(f"[frameworks] {len(report.results)} mutants of {len(entries)} files; {len(cases)} cases for the judge")
        findings = replaylint_findings(tree, release)
        for result in report.results:
            result.findings = findings.get(result.case_file, []) + [
                f for path in result.other_files for f in findings.get(path, []) if _relates_to(f, result.case_file)
            ]
        judge_started = time.perf_counter()
        truths = run_engine_judge(cases, release, vllm_path, workdir)
        report.judge_seconds = time.perf_counter() - judge_started
        for result in report.results:
            if result.case is not None:
                result.truth = truths.get(result.id, {"judge_error": "no answer from the judge"})
            classify(result)
        _unjudge_where_the_control_fails(report.results)
    finally:
        holder.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    report.total_seconds = time.perf_counter() - started
    return report
