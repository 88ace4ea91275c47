"""Machine output formats: sarif, github, junit, json-lines.

Findings come from the real checker on small files under tmp_path. The SARIF schema in
tests/data is the OASIS SARIF 2.1.0 JSON schema (Draft-07), copied unchanged from
oasis-tcs/sarif-spec `Documents/CommitteeSpecifications/2.1.0/sarif-schema-2.1.0.json`
(commit 3682e9ee648f2f3e11ba1fcd47fc390a0b8f9dab), so validation needs no network.
"""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from replaylint.edits import apply_edits
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.model import LineIndex, Message, snippet
from replaylint.report import FORMATS, Run, relative_path, render
from replaylint.report.github import ANNOTATION_LIMIT, escape_data, escape_property
from replaylint.report.json import finding_dict
from replaylint.rules import RULES, UNPARSABLE_FILE

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"

PYTHON_BAD = "from vllm import LLM\nllm = LLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n"
PYTHON_MULTILINE = (
    'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
    '    logits_processors=["a.b:C",\n                       "d.e:F"])\n'
)
SHELL_WARNING = "vllm serve m --enable-scale-out \\\n  --return-sampling-mask \\  # masks\n  --logprobs-mode processed_logprobs\n"
SHELL_BROKEN = 'vllm serve m --return-sampling-mask "\n'


def check(root: Path, files: dict[str, str], run_root: Path | None = None) -> Run:
    """Write `files` under `root`, check them with the default configuration, return the Run."""
    checker = Checker(Config())
    run = Run(findings=[], root=str(run_root or root))
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        result = checker.check_file(str(path))
        run.files_checked += 1
        run.findings.extend(result.findings)
        run.texts[str(path)] = text
    return run


@pytest.fixture
def mixed(tmp_path: Path) -> Run:
    run = check(
        tmp_path, {"b_launch.py": PYTHON_BAD, "a_serve.sh": SHELL_WARNING, "c/broken.sh": SHELL_BROKEN, "multi.py": PYTHON_MULTILINE}
    )
    assert {f.code for f in run.findings} >= {"RPL003", "RPL001", "RPL203", "RPL900", "RPL001"}
    return run


def with_message(run: Run, code: str, message: str) -> Run:
    """The run with the message of its first `code` finding replaced (to exercise escaping)."""
    index = next(i for i, f in enumerate(run.findings) if f.code == code)
    findings = list(run.findings)
    findings[index] = dataclasses.replace(findings[index], words=Message(message))
    return dataclasses.replace(run, findings=findings)


# sarif


def sarif(run: Run) -> dict:
    return json.loads(render("sarif", run))


def test_sarif_validates_against_the_sarif_2_1_0_schema(mixed: Run) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(sarif(mixed)), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_sarif_has_what_github_code_scanning_requires(mixed: Run) -> None:
    log = sarif(mixed)
    assert log["version"] == "2.1.0" and log["$schema"] and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "replaylint" and driver["version"] and driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert ids == [rule.code for rule in RULES] and len(set(ids)) == len(ids) and UNPARSABLE_FILE[0] in ids
    for rule in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            assert rule[key]["text"].strip(), (rule["id"], key)
        assert len(rule["fullDescription"]["text"]) <= 1000
        assert rule["help"]["markdown"].strip() and rule["helpUri"].endswith(f"{rule['id']}.md")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
        assert rule["properties"]["tags"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    assert len(run["results"]) == len(mixed.findings)
    for result in run["results"]:
        assert result["message"]["text"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        artifact = location["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert not artifact["uri"].startswith(("/", "file:")) and ".." not in artifact["uri"]
        assert location["region"]["startLine"] >= 1
        assert result["partialFingerprints"]["primaryLocationLineHash"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert uris == {"b_launch.py", "a_serve.sh", "c/broken.sh", "multi.py"}


def test_sarif_describes_a_code_the_rule_table_lacks(tmp_path: Path) -> None:
    run = check(tmp_path, {"broken.sh": SHELL_BROKEN})
    run.findings = [dataclasses.replace(run.findings[0], code="RPL999", name="future-rule")]
    log = sarif(run)
    rules, result = log["runs"][0]["tool"]["driver"]["rules"], log["runs"][0]["results"][0]
    assert rules[result["ruleIndex"]]["id"] == "RPL999" and rules[result["ruleIndex"]]["help"]["text"]


def test_sarif_regions_are_our_spans_one_to_one(mixed: Run) -> None:
    """SARIF columns are 1-based with an exclusive end, like ours: the region's text is the span's."""
    by_key = {(f.code, f.span.start_line, f.span.start_col): f for f in mixed.findings}
    for result in sarif(mixed)["runs"][0]["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        finding = by_key[(result["ruleId"], region["startLine"], region["startColumn"])]
        span = finding.span
        assert (region["endLine"], region["endColumn"]) == (span.end_line, span.end_col)
        text = mixed.texts[span.path]
        index = LineIndex(span.path, text)
        start = index.offset(region["startLine"], region["startColumn"])
        end = index.offset(region["endLine"], region["endColumn"])
        assert text[start:end] == text[span.start : span.end]


def test_sarif_related_locations_and_rpl900_descriptor(mixed: Run) -> None:
    results = sarif(mixed)["runs"][0]["results"]
    with_related = [r for r in results if r["ruleId"] == "RPL001"]
    assert with_related and with_related[0]["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 2
    unparsable = next(r for r in results if r["ruleId"] == "RPL900")
    assert "fixes" not in unparsable and unparsable["level"] == "error"


def test_every_format_names_the_related_places_with_their_text(mixed: Run) -> None:
    # multi.py's RPL001 relates to the mask on line 2: each format shows it, quoting the text there.
    (finding,) = [f for f in mixed.findings if f.code == "RPL001" and f.span.path.endswith("multi.py")]
    (item,) = [i for i in json.loads(render("json", mixed)) if i["code"] == "RPL001" and i["filename"].endswith("multi.py")]
    assert item["related"] == [
        {
            "filename": finding.related[0].path,
            "location": {"row": 2, "column": 10},
            "end_location": {"row": 2, "column": 35},
            "message": "`return_sampling_mask=True`",
        }
    ]
    assert f"= note: {finding.related[0].path}:2:10: `return_sampling_mask=True`" in render("full", mixed)
    assert "note:" not in render("concise", mixed)  # one line per finding, as ruff's
    (result,) = [r for r in sarif(mixed)["runs"][0]["results"] if r["ruleId"] == "RPL001" and "multi" in str(r["locations"])]
    assert result["relatedLocations"][0]["message"] == {"text": "`return_sampling_mask=True`"}


def test_a_related_place_in_a_file_the_run_did_not_read_is_named_without_its_text(mixed: Run) -> None:
    texts = {path: text for path, text in mixed.texts.items() if not path.endswith("multi.py")}
    items = json.loads(render("json", dataclasses.replace(mixed, texts=texts)))
    (item,) = [i for i in items if i["code"] == "RPL001" and i["filename"].endswith("multi.py")]
    assert [related["message"] for related in item["related"]] == ["related"]


def _apply_sarif_fix(text: str, fix: dict) -> str:
    index = LineIndex("", text)
    replacements = fix["artifactChanges"][0]["replacements"]
    for replacement in sorted(
        replacements, key=lambda r: (r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"]), reverse=True
    ):
        region = replacement["deletedRegion"]
        start = index.offset(region["startLine"], region["startColumn"])
        end = index.offset(region["endLine"], region["endColumn"])
        text = text[:start] + replacement["insertedContent"]["text"] + text[end:]
    return text


def test_sarif_fixes_replay_the_findings_edits(tmp_path: Path) -> None:
    run = check(tmp_path, {"launch.py": PYTHON_BAD})
    results = {r["ruleId"]: r for r in sarif(run)["runs"][0]["results"]}
    for finding in run.findings:
        assert finding.edits, finding.code
        fix = results[finding.code]["fixes"][0]
        assert fix["description"]["text"] == finding.fix.title
        assert fix["properties"]["applicability"] == finding.fix.applicability.value
        assert fix["artifactChanges"][0]["artifactLocation"] == {"uri": "launch.py", "uriBaseId": "%SRCROOT%"}
        expected, _ = apply_edits(PYTHON_BAD, list(finding.edits))
        assert _apply_sarif_fix(PYTHON_BAD, fix) == expected


def _fingerprints(run: Run) -> list[tuple[str, str, int]]:
    results = sarif(run)["runs"][0]["results"]
    return [
        (r["ruleId"], r["partialFingerprints"]["primaryLocationLineHash"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in results
    ]


def test_sarif_fingerprints_survive_unrelated_lines_moving(tmp_path: Path) -> None:
    before = _fingerprints(check(tmp_path, {"launch.py": PYTHON_BAD}))
    moved = "\n# a comment added above\n\n" + PYTHON_BAD
    after = _fingerprints(check(tmp_path, {"launch.py": moved}))
    assert [(code, hash_) for code, hash_, _ in before] == [(code, hash_) for code, hash_, _ in after]
    assert [line + 3 for *_, line in before] == [line for *_, line in after]


def test_sarif_fingerprints_count_identical_lines_and_change_with_the_line(tmp_path: Path) -> None:
    twice = "from vllm import LLM\nLLM('m', return_sampling_mask=True)\nLLM('m', return_sampling_mask=True)\n"
    prints = [hash_ for code, hash_, _ in _fingerprints(check(tmp_path, {"launch.py": twice})) if code == "RPL003"]
    assert len(prints) == 2 and prints[0].split(":")[0] == prints[1].split(":")[0]
    assert [p.split(":")[1] for p in prints] == ["1", "2"]
    edited = _fingerprints(check(tmp_path, {"launch.py": twice.replace("'m'", "'other'", 1)}))
    assert edited[0][1] != prints[0]


def test_sarif_paths_relative_to_the_root_whatever_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    repo = tmp_path / "repo"
    (repo / "deploy").mkdir(parents=True)
    (repo / "deploy" / "my launch.py").write_text(PYTHON_BAD, encoding="utf-8")
    (tmp_path / "outside.py").write_text(PYTHON_BAD, encoding="utf-8")
    monkeypatch.chdir(repo / "deploy")
    checker = Checker(Config())
    findings = checker.check_file("my launch.py").findings + checker.check_file("../../outside.py").findings
    run = Run(findings=findings, root=str(repo))
    artifacts = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in sarif(run)["runs"][0]["results"]]
    assert {"uri": "deploy/my%20launch.py", "uriBaseId": "%SRCROOT%"} in artifacts
    outside = [a for a in artifacts if "outside" in a["uri"]]
    assert outside and all(a["uri"].startswith("file:///") and "uriBaseId" not in a for a in outside)


def test_relative_path_sees_through_symlinked_roots(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "src").mkdir(parents=True)
    (tmp_path / "link").symlink_to(real)
    assert relative_path(str(real / "src" / "a.py"), str(tmp_path / "link")) == "src/a.py"
    assert relative_path(str(tmp_path / "other.py"), str(real)) is None


def test_undecodable_bytes_become_replacement_characters(tmp_path: Path) -> None:
    """A shell script keeps a stray byte as a lone surrogate; machine formats must stay UTF-8."""
    (tmp_path / "serve.sh").write_bytes(b"vllm serve m --return-sampling-mask --enable-scale-out --logprobs-mode raw\xff\n")
    run = Run(findings=Checker(Config()).check_file(str(tmp_path / "serve.sh")).findings, root=str(tmp_path))
    assert any("\udcff" in f.message for f in run.findings)
    for name in ("sarif", "github", "junit"):
        output = render(name, run)
        output.encode("utf-8")
        assert "\ufffd" in (json.loads(output)["runs"][0]["results"][0]["message"]["text"] if name == "sarif" else output)


def test_sarif_of_a_clean_run_is_valid_with_no_results(tmp_path: Path) -> None:
    log = sarif(Run(findings=[], root=str(tmp_path)))
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"]


# github


def test_github_escaping_of_message_and_properties(tmp_path: Path) -> None:
    run = with_message(check(tmp_path, {"odd,na:me.sh": SHELL_BROKEN}), "RPL900", "100% sure: a, b\r\nnext line")
    line = render("github", run).splitlines()[0]
    assert line.startswith("::error file=odd%2Cna%3Ame.sh,line=1,endLine=1,col=1,endColumn=1,title=replaylint (RPL900)::")
    assert line.endswith("::100%25 sure: a, b%0D%0Anext line")
    assert escape_data("a%b\nc\rd:e,f") == "a%25b%0Ac%0Dd:e,f"
    assert escape_property("a%b\nc\rd:e,f") == "a%25b%0Ac%0Dd%3Ae%2Cf"


def test_github_puts_errors_first_then_path_and_line_order(mixed: Run) -> None:
    annotations = [line for line in render("github", mixed).splitlines() if line.startswith("::")]
    assert len(annotations) == len(mixed.findings)
    kinds = [line.split(" ", 1)[0] for line in annotations]
    assert kinds == sorted(kinds, key=lambda kind: kind != "::error") and "::warning" in kinds
    errors = [line for line in annotations if line.startswith("::error")]
    places = [(line.split("file=")[1].split(",")[0], int(line.split(",line=")[1].split(",")[0])) for line in errors]
    assert places == sorted(places)
    assert not any(path.startswith("/") for path, _ in places)


def test_github_multi_line_spans_have_no_columns(mixed: Run) -> None:
    lines = render("github", mixed).splitlines()
    multi = next(line for line in lines if "(RPL001)" in line and "endLine=4" in line)
    assert "line=3,endLine=4,title=" in multi and "col=" not in multi and "endColumn=" not in multi
    single = next(line for line in lines if "(RPL001)" in line and "line=2,endLine=2" in line)
    assert ",col=43,endColumn=68," in single


def test_github_summary_and_hint_past_the_annotation_limit(tmp_path: Path) -> None:
    many = "from vllm import LLM\n" + "LLM('m', return_sampling_mask=True)\n" * (ANNOTATION_LIMIT + 1)
    lines = render("github", check(tmp_path, {"many.py": many})).splitlines()
    assert lines[-2] == f"replaylint: {ANNOTATION_LIMIT + 1} errors and 0 warnings in 1 file checked."
    assert "sarif" in lines[-1] and not lines[-1].startswith("::")
    few = render("github", check(tmp_path, {"few.py": PYTHON_BAD})).splitlines()
    assert few[-1] == "replaylint: 2 errors and 0 warnings in 1 file checked."
    assert render("github", Run(findings=[], files_checked=3)) == "replaylint: all checks passed in 3 files checked.\n"


# junit


def test_junit_is_well_formed_and_counts_the_findings(mixed: Run) -> None:
    root = ET.fromstring(render("junit", mixed))
    suite = root.find("testsuite")
    assert root.tag == "testsuites" and suite is not None and suite.get("name") == "replaylint"
    cases = suite.findall("testcase")
    assert len(cases) == len(mixed.findings) == int(suite.get("tests")) == int(suite.get("failures"))
    by_name = {(case.get("classname"), case.get("name")): case for case in cases}
    assert ("b_launch.py", "org.replaylint.RPL001") in by_name and ("c/broken.sh", "org.replaylint.RPL900") in by_name
    failure = by_name[("b_launch.py", "org.replaylint.RPL001")].find("failure")
    rpl004 = next(f for f in mixed.findings if f.code == "RPL001")
    assert failure.get("message") == rpl004.message
    assert failure.text.startswith(f"b_launch.py:{rpl004.span.start_line}:{rpl004.span.start_col}: RPL001 ")


def test_junit_escapes_markup_and_drops_characters_xml_cannot_carry(tmp_path: Path) -> None:
    message = 'a <b> & "c" \x1b[31m\nline two \udc80'
    run = with_message(check(tmp_path, {"broken.sh": SHELL_BROKEN}), "RPL900", message)
    failure = ET.fromstring(render("junit", run)).find("testsuite/testcase/failure")
    assert failure.get("message") == 'a <b> & "c" \ufffd[31m\nline two \ufffd'


def test_junit_clean_run_is_one_passing_testcase() -> None:
    root = ET.fromstring(render("junit", Run(findings=[], files_checked=2)))
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 1 and cases[0].find("failure") is None and root.get("failures") == "0"


# json-lines


def test_json_lines_round_trip_to_the_json_objects(mixed: Run) -> None:
    text = render("json-lines", mixed)
    lines = text.splitlines()
    assert len(lines) == len(mixed.findings) and text.endswith("\n")
    assert [json.loads(line) for line in lines] == json.loads(render("json", mixed))
    assert [json.loads(line) for line in lines] == [json.loads(json.dumps(finding_dict(f, mixed.texts))) for f in mixed.findings]
    assert render("json-lines", Run(findings=[])) == ""


# concise


SKYRL = (
    "uv run --isolated --extra vllm -m skyrl.train.entrypoints.main_base \\\n"
    "  trainer.policy.model.path=Qwen/Qwen2.5-0.5B-Instruct \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.sampling_params.top_k=50\n"
)
SPECULATIVE = (
    "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs "
    '--speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "enable_adaptive_verification": true}\'\n'
)


def _quoted(line: str) -> list[str]:
    return line.split("`")[1::2]


def test_concise_never_cuts_a_word(tmp_path: Path) -> None:
    """A quoted setting ends at a word's end: a long dotted key stays whole (it names the key),
    a long JSON value stops after the word that crosses the limit."""
    lines = render("concise", check(tmp_path, {"run.sh": SKYRL, "serve.sh": SPECULATIVE})).splitlines()
    skyrl = next(line for line in lines if "run.sh" in line and "RPL003" in line)
    assert _quoted(skyrl)[0] == "generator.inference_engine.engine_init_kwargs.return_sampling_mask=true"
    speculative = next(line for line in lines if "serve.sh" in line and "RPL002" in line)
    quoted = _quoted(speculative)[0]
    assert quoted == '--speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", ...'
    assert SPECULATIVE.find(quoted[: -len(" ...")]) >= 0


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("--logprobs-mode processed_logprobs", "--logprobs-mode processed_logprobs"),
        (
            "actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask: true",
            "actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask: true",
        ),
        (
            '-sc \'{"method": "ngram", "num_speculative_tokens": 5, "prompt_lookup_max": 4, "prompt_lookup_min": 2}\'',
            '-sc \'{"method": "ngram", "num_speculative_tokens": 5, "prompt_lookup_max": ...',
        ),
        ("--x=" + "a" * 200, "--x..."),
    ],
)
def test_snippets_end_at_a_word(text: str, shown: str) -> None:
    assert snippet(text) == shown


# dispatch


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_renders(mixed: Run, name: str) -> None:
    assert render(name, mixed).endswith("\n")


def test_unknown_format_is_an_error(mixed: Run) -> None:
    with pytest.raises(ValueError):
        render("xml", mixed)
