"""vLLM's verdict on the Python value-flow corpus: `python scripts/python_flow_judge.py [--release X.Y.Z] [--details]`.

Each case of tests/data/python_flow/ is checked by replaylint as `replaylint check CASE/` would
(its error findings, request rules aside); every engine replaylint finds in it that asks for the
mask is then built by vLLM itself (tests/differential/vllm_judge.py in the judge's virtualenv,
`.ci/differential` makes it) with the arguments replaylint's value flow resolved: `LLM(**kwargs)`
or `EngineArgs(**kwargs).create_engine_config()` on a stand-in model, with the environment the
flow found; a command line the flow found (vLLM's server parser given a word list) goes to
vLLM's own `vllm serve` parser as its words. vLLM's refusal must be among replaylint's errors in its own words, and an engine vLLM
accepts must leave the case without errors (the differential's oracle decides both); where a case
builds several engines, an engine's errors are those that name its construction among their places.

An engine a value of which replaylint could not resolve (a parameter no caller in the tree fills,
a key set on some paths only) is counted as open, not judged: the corpus's own expectations
(tests/test_python_flow.py) say what replaylint must report then. An unresolved model name is
the one exception: any name stands in for it.

Prints a table and, with `--details`, each engine and its verdict. Exit 1 on a disagreement.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scripts.realworld import judge_release  # noqa: E402
from tests.differential.oracle import compare, expect  # noqa: E402
from tests.realworld import harness, stand_in  # noqa: E402

CORPUS = REPO / "tests" / "data" / "python_flow"
GPUS = 8


@dataclass
class Engine:
    """One engine replaylint found, as vLLM is asked to build it."""

    case: str
    where: str  # file:line
    via: str  # "LLM", "EngineArgs" or "vllm serve"
    kwargs: dict | None  # None: not judged (`open`)
    place: tuple[str, int] = ("", 0)  # the construction (resolved path, line)
    env: dict = field(default_factory=dict)
    open: str = ""
    argv: list[str] | None = None  # a command line (vLLM's server parser given a word list): judged by vLLM's CLI
    verdict: dict | None = None
    decided: set[tuple[str, int]] = field(default_factory=set)  # where its settings are written (resolved path, line)


@dataclass
class Case:
    name: str
    errors: list[str]
    places: list[set[tuple[str, int]]]  # each error's location and related places
    engines: list[Engine]
    outcome: str = ""
    detail: str = ""


def replaylint_errors(case: Path, release: str) -> tuple[list[str], list[set[tuple[str, int]]]]:
    """replaylint's error findings on the case (request rules aside: the judge builds engines),
    each with the places it names (its location and related locations)."""
    from replaylint.cli.main import main

    out = io.StringIO()
    arguments = ["check", "--isolated", "--no-cache", "--output-format", "json", "--target-vllm", release, str(case)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(arguments)
    findings = [
        item
        for item in json.loads(out.getvalue() or "[]")
        if item.get("severity", "error") == "error" and item["code"] not in harness.REQUEST_RULES
    ]
    places = [
        {(str(Path(at["filename"]).resolve()), at["location"]["row"]) for at in (item, *item.get("related", ()))} for item in findings
    ]
    return [f"{item['code']} {item['message']}" for item in findings], places


def replaylint_engines(case: Path) -> list[Engine]:
    """The engines replaylint's value flow finds in the case's files that ask for the mask."""
    from replaylint import frontends
    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config
    from replaylint.model import UNKNOWN
    from replaylint.source import ExtractContext, SourceFile

    checker, engines = Checker(Config()), []
    for path in sorted(case.rglob("*.py")):
        context = ExtractContext(read_text=checker._read_text, root=str(case))
        for launch in frontends.load("python").extract(SourceFile(str(path), path.read_text()), context):
            mask = launch.get("return_sampling_mask")
            if mask is None or mask.value is False:
                continue
            where = f"{path.relative_to(case)}:{launch.span.start_line}"
            via = "EngineArgs" if "EngineArgs" in launch.label else "LLM"
            engine = Engine(case.name, where, via, None, (str(Path(launch.span.path).resolve()), launch.span.start_line))
            engine.decided = {(str(Path(s.span.path).resolve()), s.span.start_line) for s in launch.settings.values() if s.span is not None}
            engines.append(engine)
            if launch.open_ended:
                engine.open = ", ".join(launch.open_reasons) or "open-ended"
                continue
            kwargs = {name: setting.value for name, setting in launch.settings.items()}
            tokens = getattr(launch.handle, "tokens", None)
            if launch.kind.value == "cli" and tokens is not None:
                engine.via = "vllm serve"
                if any(token.text is None for token in tokens):
                    engine.open = "a word replaylint could not read"
                    continue
                engine.argv = [token.text for token in tokens]
            if kwargs.get("model", UNKNOWN) is UNKNOWN:
                kwargs["model"] = "stand-in/model"
            unknown = [name for name, value in kwargs.items() if value is UNKNOWN]
            conditioned = [name for name, setting in launch.settings.items() if setting.condition]
            env = {name: setting.value for name, setting in launch.env.items()}
            if unknown or conditioned or launch.env_open or UNKNOWN in env.values():
                engine.open = f"unresolved: {', '.join(unknown + conditioned) or 'the environment'}"
                continue
            try:
                json.dumps(kwargs)
            except TypeError as error:
                engine.open = f"a value the judge cannot be given: {error}"
                continue
            engine.kwargs, engine.env = kwargs, {name: str(value) for name, value in env.items()}
    return engines


def judge(engines: list[Engine], release: str, vllm_path: str | None) -> None:
    items, by_id = [], {}
    for number, engine in enumerate(engines):
        if engine.kwargs is None:
            continue
        by_id[f"e{number}"] = engine
        if engine.argv is not None:
            case = {"id": f"e{number}", "argv": engine.argv, "env": engine.env, "gpus": GPUS}
            items.append({**case, "hf_configs": stand_in.for_argv(engine.argv)})
            continue
        case = {"id": f"e{number}", "engine_kwargs": engine.kwargs, "via": engine.via, "env": engine.env, "gpus": GPUS}
        items.append({**case, "hf_configs": stand_in.for_kwargs(engine.kwargs)})
    workdir = Path(tempfile.mkdtemp(prefix="replaylint-flow-judge-"))
    try:
        verdicts = harness.JudgeProcess(harness.JUDGE, release, vllm_path, workdir, "judge", ["--quiet"]).run(items)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for key, engine in by_id.items():
        engine.verdict = verdicts.get(key)


def outcome(case: Case) -> None:
    judged = [engine for engine in case.engines if engine.verdict is not None]
    if not judged:
        case.outcome = "open" if case.engines else "no engine"
        case.detail = "; ".join(f"{engine.where}: {engine.open}" for engine in case.engines)
        return
    problems = []
    for engine in judged:
        # the same construction with other settings (a loop's turn); the same engine found from another file is not one
        twins = [other for other in judged if other.place == engine.place and other.decided != engine.decided]
        problem = compare(expect(engine.verdict, True), _errors_of(case, engine, len(judged) > 1, twins), None)
        if problem is not None:
            problems.append(f"{engine.where}: {problem.problem}: {problem.detail}")
    case.outcome = "disagree" if problems else "agree"
    case.detail = " | ".join(problems)


def _errors_of(case: Case, engine: Engine, several: bool, twins: list[Engine] = ()) -> list[str]:
    """The case's errors about this engine: with several engines, those naming its construction;
    where other engines share that construction with other settings (one per turn of a loop),
    not those naming a place where only another's settings are written (its row) and none of its own."""
    if not several:
        # an error placed only in other files is another launch's (a shell script's, with its own environment), unless at
        # a line that decides one of the engine's settings (a config file's key; a script's word its run gives the program)
        own = {engine.place[0]}
        decided = engine.decided | {engine.place}
        return [
            error for error, places in zip(case.errors, case.places) if any(path in own or (path, line) in decided for path, line in places)
        ]
    others = {place for twin in twins for place in twin.decided} - engine.decided
    own = engine.decided - {place for twin in twins for place in twin.decided}
    return [error for error, places in zip(case.errors, case.places) if engine.place in places and (own & places or not others & places)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", help="the vLLM release of the judge (as scripts/realworld.py chooses it by default)")
    parser.add_argument("--vllm-path", help="that release installed with `pip install --no-deps --target DIR`")
    parser.add_argument("--details", action="store_true", help="each engine and vLLM's verdict on it")
    options = parser.parse_args(argv)
    release, vllm_path = judge_release(options.release, options.vllm_path)
    cases = [
        Case(folder.name, *replaylint_errors(folder, release), replaylint_engines(folder))
        for folder in sorted(CORPUS.iterdir())
        if folder.is_dir()
    ]
    judge([engine for case in cases for engine in case.engines], release, vllm_path)
    for case in cases:
        outcome(case)
    counts = {name: sum(case.outcome == name for case in cases) for name in ("agree", "disagree", "open", "no engine")}
    engines = [engine for case in cases for engine in case.engines]
    print(f"## The value-flow corpus judged by vLLM {release}\n")
    print("| cases | engines with the mask | judged | agree | disagree | open | no engine |")
    print("|---|---|---|---|---|---|---|")
    judged = sum(engine.verdict is not None for engine in engines)
    print(
        f"| {len(cases)} | {len(engines)} | {judged} | {counts['agree']} | {counts['disagree']} | {counts['open']} | {counts['no engine']} |"
    )
    print("\ncases: agree when every judged engine's verdict is among replaylint's errors (or, accepted, replaylint has none);")
    print("open: every engine has a value replaylint could not resolve; no engine: the case starts none with the mask.")
    for case in cases:
        if case.outcome == "disagree" or options.details:
            print(f"\n{case.name}: {case.outcome} {case.detail}")
            for engine in case.engines if options.details else ():
                verdict = engine.verdict or {}
                said = (
                    "accepted" if verdict.get("ok") else f"{verdict.get('exception')}: {verdict.get('message')}" if verdict else engine.open
                )
                print(f"  {engine.where} {engine.via}: {said}")
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
