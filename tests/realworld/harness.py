"""The real-world run: scan the corpus as it is, inject replay into every launch, ask bash and
the real vLLM what happens, and compare with replaylint (the rules of
`tests/differential/oracle.py`).

Used by `scripts/realworld.py` (the report) and `tests/test_realworld.py` (the unmutated scan).
"""

from __future__ import annotations

import ast
import collections
import functools
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from replaylint import frontends
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.frontends import ExtractContext, SourceFile
from replaylint.vllm import messages
from replaylint.vllm.releases import parse_release

from ..differential.oracle import Expectation, compare, expect
from . import containers, inputs, launches, mutate, stand_in
from .sandbox import Inputs, Run, Sandbox, new_sandbox

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO / "fixtures" / "realworld"
MANIFEST = CORPUS / "manifest.json"
KNOWN_BUGS = HERE / "known_bugs.json"
JUDGE = REPO / "tests" / "differential" / "vllm_judge.py"
PYRECORD = HERE / "pyrecord.py"
ALLOWED_LICENCES = frozenset(("Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause"))
JUDGE_GPUS = 8
# Dynamo's parser for `python -m dynamo.vllm` launches: ai-dynamo and its compiled runtime, as
# .ci/differential installs them (`pip install --no-deps --target`).
DYNAMO_RELEASE = "1.6.1"
DYNAMO_PATH = REPO / "bench" / ".cache" / f"ai-dynamo-{DYNAMO_RELEASE}"
# Frontends whose launches the judges read, and how.
SHELL_FRONTENDS = ("shell",)
YAML_FRONTENDS = ("kubernetes", "compose", "helm-values", "github-actions", "dynamo-graph")
ABSENCE_MESSAGES = frozenset((messages.REQUIRES_PROCESSED_LOGPROBS,))
REQUEST_RULES = frozenset(("RPL101", "RPL102"))
# Settings whose value, when replaylint cannot know it (an f-string, a variable), decides the message.
_DECIDING = {messages.REQUIRES_V2: ("speculative_config",), messages.NO_SPEC_DECODE: ("speculative_config",)}


DYNAMO_MISSING = (
    f"Dynamo parses its own flags and vLLM's: its parser (ai-dynamo {DYNAMO_RELEASE} with its compiled runtime) "
    f"is not installed for the judge ({DYNAMO_PATH.relative_to(REPO)}, made by .ci/differential)"
)


def dynamo_available() -> bool:
    return (DYNAMO_PATH / ".complete").exists()


def default_judge_python() -> Path:
    return Path(os.environ.get("REPLAYLINT_JUDGE_PYTHON") or REPO / ".venv-judge" / "bin" / "python")


@dataclass(frozen=True)
class Entry:
    path: str
    project: str
    frontend: str
    sha256: str
    licence: str
    expected_findings: tuple[dict, ...]
    raw: dict

    @property
    def file(self) -> Path:
        return CORPUS / self.path


def load_manifest() -> list[Entry]:
    """The launch files."""
    data = json.loads(MANIFEST.read_text())
    return [
        Entry(
            item["path"], item["project"], item["frontend"], item["sha256"], item["licence"], tuple(item.get("expected_findings", ())), item
        )
        for item in data["files"]
    ]


def load_support() -> list[Entry]:
    """Files a launch script sources, reads or checks for (not scanned: they hold no launch)."""
    data = json.loads(MANIFEST.read_text())
    return [
        Entry(item["path"], item["project"], "support", item["sha256"], item["licence"], (), item) for item in data.get("support_files", [])
    ]


# -- the unmutated scan ----------------------------------------------------------------------


@dataclass
class Scan:
    findings: list[dict]
    internal_error: str | None
    seconds: float


def finding_dicts(result) -> list[dict]:
    return [{"code": f.code, "line": f.span.line, "severity": f.severity, "message": f.message} for f in result.findings]


def scan_as_is(entry: Entry, checker: Checker | None = None) -> Scan:
    checker = checker or Checker(Config())
    started = time.perf_counter()
    result = checker.check_bytes(str(entry.file), entry.file.read_bytes())
    return Scan(finding_dicts(result), result.internal_error, time.perf_counter() - started)


def valid_in_own_language(entry: Entry) -> bool | None:
    """Whether the file's own tool accepts it (bash -n, Python's ast, PyYAML); None: no such tool."""
    data = entry.file.read_bytes()
    if entry.frontend == "python":
        try:
            ast.parse(data)
        except SyntaxError:
            return False
        return True
    if entry.frontend == "shell":
        return subprocess.run(["bash", "-n", str(entry.file)], capture_output=True).returncode == 0
    if entry.frontend in (*YAML_FRONTENDS, "vllm-config", "framework-config"):
        try:
            list(yaml.safe_load_all(data))
        except yaml.YAMLError:
            return False
        return True
    return None


# -- the judges --------------------------------------------------------------------------------


@dataclass
class Launch:
    """One vLLM start a mutant makes, as bash/PyYAML/dockerfile-parse/Python found it."""

    how: str
    argv: list[str] | None = None
    env: dict[str, str] = field(default_factory=dict)
    verdict: dict | None = None
    unjudgeable: str = ""
    open_reason: str = ""  # the judges' own reason that part of the launch is given elsewhere
    inputs: str = ""  # what the run that reached it was given besides the script
    depends_on_inputs: bool = False  # its words or environment change with those inputs
    via: str = "vllm"  # "dynamo": `argv` goes to Dynamo's parser


@dataclass
class MutantResult:
    entry: Entry
    mutant: mutate.Mutant
    launches: list[Launch] = field(default_factory=list)
    not_reached: str = ""  # why no launch with the mask was recorded
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    internal_error: str | None = None
    outcome: str = ""  # agree, disagree, known-bug, open-ended, not-judged
    detail: str = ""
    expectations: list[Expectation] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.entry.path}#{self.mutant.label}"


def project_files(entry: Entry, mutated: str) -> dict[str, bytes]:
    """The project's files (scripts source each other, check that a proxy script is there),
    the mutant in its place."""
    root = CORPUS / entry.project
    files = {}
    for path in root.rglob("*"):
        if path.is_file():
            files[str(path.relative_to(root))] = path.read_bytes()
    relative = str(entry.file.relative_to(root))
    files[relative] = mutated.encode("utf-8", "surrogateescape")
    return files


def asks_for_mask(argv: list[str]) -> bool:
    state = False
    for word in argv:
        if word == mutate.MASK_FLAG:
            state = True
        elif word == "--no-return-sampling-mask":
            state = False
    return state


def _launches_from_runs(runs: list[Run]) -> tuple[list[Launch], str]:
    found = []
    for run in runs:
        for invocation in run.invocations:
            launch = launches.from_invocation(invocation)
            if launch is None:
                continue
            given = run.inputs.describe()
            if launch.argv is not None:
                argv = _absolute_config(launch.argv, invocation.cwd)
                missing = _missing_config(argv)
                if asks_for_mask(argv) and missing:
                    where = missing.split("/tree/", 1)[-1]  # the project's tree of this run, or elsewhere
                    why = f"its --config file {where} is not there: a step the shims stand in for makes it"
                    found.append(Launch(launch.how, None, launch.env, unjudgeable=why, inputs=given))
                elif asks_for_mask(argv):
                    found.append(Launch(launch.how, argv, launch.env, inputs=given, via=launch.via))
            elif mutate.MASK_FLAG in invocation.argv or any(mutate.MASK_FLAG in word for word in invocation.argv):
                found.append(Launch(launch.how, None, launch.env, unjudgeable=launch.unjudgeable, inputs=given))
    why = ""
    if not found:
        exits = sorted({str(run.exit_code) for run in runs})
        why = "bash recorded no vLLM start with the mask" + (f" (script exit {', '.join(exits)})" if runs else " (nothing to run)")
        tried = [run.inputs.describe() for run in runs if run.inputs]
        if tried:
            why += f"; also given: {' | '.join(tried)}"[:400]
        tail = next((run.stderr.strip().splitlines()[-1] for run in reversed(runs) if run.stderr.strip()), "")
        if tail:
            why += f"; last error: {tail[:160]}"
    return found, why


def _reaches_mask(run: Run) -> bool:
    return bool(_launches_from_runs([run])[0])


def run_with_inputs(run_once, script: str, text: str, site_line: int, project_texts) -> tuple[list[Launch], str]:
    """Run the script as it is, then, while no launch with the mask is recorded, with the
    inputs its last run asked for (tests/realworld/inputs.py). A launch reached with
    placeholders is run once more with other placeholders: if it changes, it depends on them."""
    queue, tried, runs, known = [Inputs()], set(), [], Inputs()
    while queue and len(runs) < inputs.MAX_RUNS:
        given = inputs.merged(queue.pop(0), known)
        if given in tried:
            continue
        tried.add(given)
        run = run_once(given)
        runs.append(run)
        if _reaches_mask(run):
            found, _ = _launches_from_runs([run])
            if inputs.has_placeholders(given):
                other, _ = _launches_from_runs([run_once(inputs.second_inputs(given))])
                if other and [(launch.argv, launch.env) for launch in other] != [(launch.argv, launch.env) for launch in found]:
                    for launch in found:
                        launch.depends_on_inputs = True
            return found, ""
        following = inputs.next_inputs(run, script, text, site_line, project_texts())
        for choice in following:
            known = inputs.merged(inputs.learned(choice), known)
        queue = following + queue
    return _launches_from_runs(runs)


def _missing_config(argv: list[str]) -> str:
    for index, word in enumerate(argv[:-1]):
        if word == "--config" and not os.path.exists(argv[index + 1]):
            return argv[index + 1]
    return ""


def _absolute_config(argv: list[str], cwd: str) -> list[str]:
    out = list(argv)
    for index, word in enumerate(out[:-1]):
        if word == "--config" and not os.path.isabs(out[index + 1]):
            out[index + 1] = os.path.join(cwd, out[index + 1])
    return out


def run_mutant_in_sandbox(sandbox: Sandbox, entry: Entry, mutant: mutate.Mutant, workdir: Path) -> MutantResult:
    result = MutantResult(entry, mutant)
    frontend = entry.frontend
    runs: list[Run] = []
    try:
        if frontend in SHELL_FRONTENDS:
            files = project_files(entry, mutant.text)
            script = str(entry.file.relative_to(CORPUS / entry.project))
            texts = functools.cache(lambda: [data.decode("utf-8", "replace") for data in files.values()])
            result.launches, result.not_reached = run_with_inputs(
                lambda given: sandbox.run(files, script, inputs=given), script, mutant.text, mutant.line, texts
            )
            return result
        elif frontend in YAML_FRONTENDS:
            for command in containers.yaml_commands(mutant.text, frontend):
                runs.append(_run_command(sandbox, command))
        elif frontend == "dockerfile":
            for command in containers.dockerfile_commands(mutant.text):
                found, _ = _launches_from_runs([_run_command(sandbox, command)])
                for launch in found:
                    launch.open_reason = command.open_reason
                result.launches.extend(found)
            if not result.launches:
                result.not_reached = "no stage starts vLLM with the mask"
            return result
        elif frontend == "vllm-config":
            path = workdir / f"config-{abs(hash(result.id))}.yaml"
            path.write_text(mutant.text)
            launch = Launch("vllm serve --config", ["--config", str(path)], {})
            document = yaml.safe_load(mutant.text)
            if not isinstance(document, dict) or "model" not in document:  # the command line names it
                launch.argv, launch.inputs = [inputs.MODEL, *launch.argv], f"the model {inputs.MODEL} on the command line"
            result.launches = [launch]
            return result
    except Exception as error:  # noqa: BLE001 - a reader's failure is reported, not fatal
        result.not_reached = f"the independent reader failed: {type(error).__name__}: {error}"
        return result
    result.launches, result.not_reached = _launches_from_runs(runs)
    return result


def _beyond_the_judge(launch: Launch) -> None:
    why = stand_in.beyond_the_judge(launch.verdict)
    if why:
        launch.verdict, launch.unjudgeable = None, why


def _run_command(sandbox: Sandbox, command: containers.Command) -> Run:
    if command.script is not None:
        return sandbox.run({}, command.script, command.env)
    return sandbox.run_argv(command.argv, command.env)


class JudgeProcess:
    """vllm_judge.py (argv cases) or pyrecord.py (Python files): JSON lines in and out."""

    def __init__(self, script: Path, release: str, vllm_path: str | None, workdir: Path, name: str, extra: list[str] = ()) -> None:
        self.command = [str(default_judge_python()), str(script), "--release", release, *extra]
        if vllm_path:
            self.command += ["--vllm-path", vllm_path]
        self.input, self.output, self.errors = workdir / f"{name}.in", workdir / f"{name}.out", workdir / f"{name}.err"

    def run(self, items: list[dict], timeout: float = 1800) -> dict[str, dict]:
        with self.input.open("w") as handle:
            for item in items:
                handle.write(json.dumps(item) + "\n")
        if not items:
            return {}
        with self.input.open() as stdin, self.output.open("w") as stdout, self.errors.open("w") as stderr:
            code = subprocess.run(self.command, stdin=stdin, stdout=stdout, stderr=stderr, cwd=REPO, timeout=timeout).returncode
        if code != 0:
            raise RuntimeError(f"{self.command[1]} exited with {code}:\n{self.errors.read_text(errors='replace')[-3000:]}")
        verdicts = {}
        for line in self.output.read_text().splitlines():
            verdict = json.loads(line)
            verdicts[verdict["id"]] = verdict
        return verdicts


# -- replaylint on a mutant ------------------------------------------------------------------


def replaylint_view(checker: Checker, entry: Entry, text: str) -> tuple[list[str], list[str], str | None]:
    result = checker.check_bytes(str(entry.file), text.encode("utf-8", "surrogateescape"))
    # Request-time rules (RPL101/RPL102) are about generate calls, which the judge does not run.
    errors = [f"{f.code} {f.message}" for f in result.findings if f.severity == "error" and f.code not in REQUEST_RULES]
    warnings = [f"{f.code} {f.message}" for f in result.findings if f.severity != "error" or f.code in REQUEST_RULES]
    return errors, warnings, result.internal_error


def _launches_of(checker: Checker, entry: Entry, text: str) -> list:
    """replaylint's own launches of the text (to tell an open-ended launch from a missed one)."""
    kind = frontends.kind_for(str(entry.file), text[:256].encode("utf-8", "surrogateescape"))
    frontend = frontends.load(kind) if kind else None
    if frontend is None:
        return []
    context = ExtractContext(read_text=checker._read_text, root=str(entry.file.parent))
    try:
        return list(frontend.extract(SourceFile(str(entry.file), text), context))
    except Exception:  # noqa: BLE001 - check_bytes reports these
        return []


def _mask_launches(found: list) -> list:
    return [launch for launch in found if (setting := launch.get("return_sampling_mask")) is not None and setting.value is not False]


# -- comparison ------------------------------------------------------------------------------


def judge_outcome(result: MutantResult, replay_launches, known: dict[str, str]) -> None:
    """`replay_launches()`: replaylint's launches with the mask (asked only to excuse a missing
    absence-dependent message on an open-ended launch)."""
    if result.internal_error:
        result.outcome, result.detail = "crash", result.internal_error
        return
    judged = [launch for launch in result.launches if launch.verdict is not None]
    if not judged:
        unjudgeable = [launch.unjudgeable for launch in result.launches if launch.unjudgeable]
        result.outcome = "not-judged"
        result.detail = unjudgeable[0] if unjudgeable else result.not_reached or "no launch reached vLLM"
        return
    expectations = [_expect(launch.verdict) for launch in judged]
    result.expectations = expectations
    problems = []
    if all(e.outcome == "accept" for e in expectations):
        problem = compare(expectations[0], result.errors, None)
        if problem:
            problems.append(f"{problem.problem}: {problem.detail}")
    for expectation in expectations:
        if expectation.outcome != "replay":
            continue
        problem = compare(expectation, result.errors, None)
        if problem is None:
            continue
        reason = _open_reason(result, expectation, replay_launches())
        if reason and not result.errors:
            result.outcome, result.detail = "open-ended", reason
            return
        problems.append(f"{problem.problem}: {problem.detail}")
    if not problems:
        result.outcome = "agree"
        return
    result.detail = " | ".join(problems)
    dependent = next((launch for launch in judged if launch.depends_on_inputs), None)
    if dependent is not None:
        result.outcome = "open-ended"
        result.detail = f"the launch changes with inputs replaylint cannot see ({dependent.inputs}): {result.detail}"
        return
    bug = known.get(result.id)
    result.outcome = "known-bug" if bug else "disagree"
    if bug:
        result.detail = f"{bug}: {result.detail}"


def _expect(verdict: dict) -> Expectation:
    """The oracle's expectation, except that a boolean-looking word argparse refuses right after
    an option it refuses too (`--num-redundant-experts 0`) is that option's value, not a word
    left over from the mask switch."""
    expectation = expect(verdict, True)
    message = verdict.get("message") or ""
    if expectation.label == "argparse unrecognized" and message.startswith("unrecognized arguments: "):
        words = message[len("unrecognized arguments: ") :].split()
        own = [w for i, w in enumerate(words) if "sampling" in w or not (i and words[i - 1].startswith("--"))]
        if not any(w in BOOL_WORDS_OR_MASK(w) for w in own):
            return Expectation("other", "argparse: an unknown option and its value")
    return expectation


def BOOL_WORDS_OR_MASK(word: str) -> set[str]:
    from ..differential.oracle import BOOL_WORDS

    return BOOL_WORDS | ({word} if "sampling-mask" in word or "sampling_mask" in word else set())


def _open_reason(result: MutantResult, expectation: Expectation, replay: list) -> str:
    """Why replaylint may stay silent: the launch's arguments come from elsewhere, or the setting
    that decides vLLM's message has a value replaylint cannot know."""
    fragments = set(expectation.fragments)
    if fragments <= ABSENCE_MESSAGES:
        opened = [launch for launch in result.launches if launch.open_reason]
        if opened:
            return opened[0].open_reason
        for launch in replay:
            if launch.open_ended:
                return "replaylint: " + (", ".join(launch.open_reasons) or "the launch is open-ended")
    for fragment in fragments:
        for name in _DECIDING.get(fragment, ()):
            for launch in replay:
                setting = launch.get(name)
                if setting is not None and not setting.known:
                    return f"replaylint: the value of {name} is not static"
    return ""


def load_known_bugs() -> dict[str, str]:
    if not KNOWN_BUGS.exists():
        return {}
    known = {}
    for bug in json.loads(KNOWN_BUGS.read_text())["bugs"]:
        for mutant_id in bug.get("mutants", []):
            known[mutant_id] = bug["id"]
    return known


# -- the whole run ---------------------------------------------------------------------------


@dataclass
class Report:
    release: str
    entries: list[Entry]
    scans: dict[str, Scan] = field(default_factory=dict)
    invalid: set[str] = field(default_factory=set)
    results: list[MutantResult] = field(default_factory=list)
    sites: dict[str, int] = field(default_factory=dict)
    project_seconds: collections.Counter = field(default_factory=collections.Counter)
    judge_seconds: float = 0.0
    total_seconds: float = 0.0


def run(release: str = "0.33.0", vllm_path: str | None = None, only: str | None = None, log=print) -> Report:
    started = time.perf_counter()
    entries = [e for e in load_manifest() if only is None or e.project == only or e.path.startswith(only)]
    report = Report(release, entries)
    known = load_known_bugs()
    as_is = Checker(Config())
    forced = Checker(Config(target_vllm=parse_release(release), target_vllm_forced=True))
    sandbox, holder = new_sandbox()
    workdir = Path(tempfile.mkdtemp(prefix="replaylint-realworld-judge-"))
    try:
        python_items = []
        for entry in entries:
            begun = time.perf_counter()
            report.scans[entry.path] = scan_as_is(entry, as_is)
            if valid_in_own_language(entry) is False:
                report.invalid.add(entry.path)
            text = entry.file.read_bytes().decode("utf-8", "surrogateescape")
            found = mutate.mutants(text, entry.frontend)
            report.sites[entry.path] = len({m.site for m in found}) or (1 if entry.frontend == "framework-config" else 0)
            for mutant in found:
                if entry.frontend == "python":
                    result = MutantResult(entry, mutant)
                    python_items.append({"id": result.id, "file": str(entry.file), "text": mutant.text})
                else:
                    result = run_mutant_in_sandbox(sandbox, entry, mutant, workdir)
                result.errors, result.warnings, result.internal_error = replaylint_view(forced, entry, mutant.text)
                report.results.append(result)
            report.project_seconds[entry.project] += time.perf_counter() - begun
        log(f"[realworld] {len(report.results)} mutants of {len(entries)} files prepared; {len(python_items)} Python mutants to run")
        judge_started = time.perf_counter()
        by_id = {result.id: result for result in report.results}
        recorded = JudgeProcess(PYRECORD, release, vllm_path, workdir, "pyrecord").run(python_items)
        for mutant_id, record in recorded.items():
            _python_launches(by_id[mutant_id], record, sandbox)
        cases = []
        dynamo = dynamo_available()
        for result in report.results:
            for number, launch in enumerate(result.launches):
                if launch.via == "dynamo" and not dynamo:
                    launch.argv, launch.unjudgeable = None, DYNAMO_MISSING
                if launch.argv is not None and launch.verdict is None:
                    words = "dynamo_argv" if launch.via == "dynamo" else "argv"
                    case = {"id": f"{result.id}@{number}", words: launch.argv, "env": launch.env, "gpus": JUDGE_GPUS}
                    cases.append({**case, "hf_configs": stand_in.for_argv(launch.argv)})
        extra = ["--quiet", *(["--dynamo-path", str(DYNAMO_PATH)] if dynamo else [])]
        verdicts = JudgeProcess(JUDGE, release, vllm_path, workdir, "judge", extra).run(cases)
        report.judge_seconds = time.perf_counter() - judge_started
        for result in report.results:
            for number, launch in enumerate(result.launches):
                if launch.argv is not None and launch.verdict is None:
                    launch.verdict = verdicts.get(f"{result.id}@{number}")
                    _beyond_the_judge(launch)
            judge_outcome(result, lambda result=result: _mask_launches(_launches_of(forced, result.entry, result.mutant.text)), known)
    finally:
        holder.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    report.total_seconds = time.perf_counter() - started
    return report


def _python_launches(result: MutantResult, record: dict, sandbox: Sandbox) -> None:
    for engine in record.get("engines", []):
        if engine.get("mask") in (None, "None"):
            continue
        launch = Launch(f"{engine['via']}(...)", verdict=engine.get("verdict"), unjudgeable=engine.get("unjudgeable", ""))
        _beyond_the_judge(launch)
        result.launches.append(launch)
    runs = []
    for command in record.get("commands", []):
        env = command.get("env") or {}
        if "argv" in command and command["argv"]:
            launch = launches.from_command(command["argv"][0], command["argv"][1:], env)
            if launch is not None and launch.argv is not None and asks_for_mask(launch.argv):
                result.launches.append(Launch("subprocess " + launch.how, launch.argv, launch.env, via=launch.via))
            elif launch is not None and launch.argv is None and mutate.MASK_FLAG in command["argv"]:
                result.launches.append(Launch("subprocess " + launch.how, None, launch.env, unjudgeable=launch.unjudgeable))
        elif "shell" in command:
            runs.append(sandbox.run({}, command["shell"], {k: v for k, v in env.items() if k.startswith("VLLM_")}))
    if runs:
        found, _ = _launches_from_runs(runs)
        result.launches.extend(found)
    if not result.launches:
        status = record.get("status")
        if status == "finished":
            result.not_reached = (
                "the module ran to its end without starting the mutated engine (the launch is inside a function it does not call)"
            )
        else:
            result.not_reached = f"the module stopped before the launch: {record.get('detail') or status}"
