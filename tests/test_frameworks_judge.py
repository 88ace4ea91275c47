"""The framework judge's own parts that need no judge: the corpus manifest, the mutations users
make, and the comparison of the truth with replaylint's findings (tests/frameworks_judge/)."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import subprocess

import yaml

from tests.frameworks_judge import forks, judging, mutants
from tests.frameworks_judge.judging import Entry, Result

MASK_MESSAGE = "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs are normalized over the same nucleus as the sampling mask"
TOP_K_MESSAGE = (
    "sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer overhead, and avoid potential OOMs"
)
SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
python -m verl.trainer.main_ppo \\
  algorithm.adv_estimator=grpo \\
  actor_rollout_ref.rollout.name=vllm \\
  "$@"
echo done
"""


def test_manifest_files_are_the_archives_files():
    data = json.loads(judging.MANIFEST.read_text())
    for item in [*data["files"], *data["support_files"]]:
        path = judging.CORPUS / item["path"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == item["sha256"], item["path"]
        assert item["licence"] in data["allowed_licences"]
        assert item["archive"] and len(item["archive_sha256"]) == 64 and item["original_path"]
    assert {item["framework"] for item in data["files"]} >= {"verl"}


def test_each_mutant_gets_the_pin_of_the_framework_release_that_judges_it():
    entries, _ = judging.load_manifest()
    pins = {judging.project_pin(entry) for entry in entries}
    assert {"trl==1.10.0\n", "openrlhf==0.8.11\n", "skyrl==0.4.0\n", "verl==0.9.1\n"} <= pins
    assert all(pin.split("==")[0] in judging.PACKAGES.values() for pin in pins)


def test_yaml_mutant_sets_the_pass_through_key_and_keeps_the_rest():
    text = "# a copy of ppo_trainer\nactor_rollout_ref:\n  rollout:\n    name: ???\n    top_k: -1\n    engine_kwargs:\n      vllm: {}\ntrainer:\n  nnodes: 1\n"
    mutant = mutants.yaml_mutant(text, mutants.VERL[0], mutants.VERL_BASE)
    document = yaml.safe_load(mutant.text)
    rollout = document["actor_rollout_ref"]["rollout"]
    assert rollout["engine_kwargs"]["vllm"] == {"return_sampling_mask": True}
    assert rollout["name"] == "vllm" and rollout["top_k"] == -1
    assert document["trainer"] == {"nnodes": 1}
    assert mutant.text.startswith("# a copy of ppo_trainer\n")


def test_shell_mutant_puts_overrides_before_the_trailing_arguments():
    mutation = next(m for m in mutants.VERL if m.label == "mask+ngram")
    mutant = mutants.shell_mutant(SCRIPT, "verl.trainer.main_ppo", mutation)
    words = _main_ppo_words(mutant.text)
    assert words[-1] == "ARG" and words[:2] == ["algorithm.adv_estimator=grpo", "actor_rollout_ref.rollout.name=vllm"]
    assert "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true" in words
    assert (
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.speculative_config={method:ngram,num_speculative_tokens:3,prompt_lookup_max:3}"
        in words
    )
    assert "actor_rollout_ref.rollout.top_k=50" in words


def test_shell_mutant_appends_to_a_command_without_trailing_arguments():
    script = "python3 -m verl.trainer.main_ppo \\\n  trainer.nnodes=1\n"
    mutant = mutants.shell_mutant(script, "verl.trainer.main_ppo", mutants.VERL[-1])
    assert _main_ppo_words(mutant.text) == ["trainer.nnodes=1", "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask='True'"]


def test_shell_mutant_after_a_continuation_that_runs_to_the_end_of_the_file():
    # an OpenRLHF README block whose `... # other training args` line was removed ends in a `\`
    script = "python3 -m openrlhf.cli.train_ppo_ray \\\n  --data.prompt_dataset your_prompt_dataset \\\n"
    mutation = mutants.openrlhf_mutations("0.11.2")[0]
    mutant = mutants.shell_mutant(script, "openrlhf.cli.train_ppo_ray", mutation)
    assert mutant.text == script + "  --vllm.return_sampling_mask\n"
    assert _main_ppo_words(mutant.text) == ["--data.prompt_dataset", "your_prompt_dataset", "--vllm.return_sampling_mask"]


def _main_ppo_words(script: str, *arguments: str, env: dict | None = None) -> list[str]:
    """What bash passes to the module (the script's own words, then its arguments: one by default)."""
    shim = 'python() { shift 2; printf \'%s\\n\' "$@"; exit 0; }; python3() { python "$@"; }\n'
    command = ["bash", "-c", shim + script, "script", *(arguments or ("ARG",))]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env={"PATH": "/usr/bin:/bin", **(env or {})})
    return done.stdout.splitlines()


def _result(truth: dict, findings: list[dict], mutant: mutants.Mutant | None = None) -> Result:
    result = Result(Entry("verl-0.9.1/x.yaml", "verl", "verl", "config", "0.9.1"), mutant or mutants.Mutant("mask", "the mask", ""))
    result.case, result.truth, result.findings = {"id": "x"}, truth, findings
    judging.classify(result)
    return result


def _finding(code: str, message: str, severity: str = "error") -> dict:
    return {"code": code, "message": message, "severity": severity}


def test_a_replay_refusal_needs_a_finding_with_vllms_words():
    truth = {"framework_error": None, "verdict": {"ok": False, "phase": "config", "message": MASK_MESSAGE}}
    assert _result(truth, []).outcome == "missed"
    quoted = _finding("RPL003", f'`logprobs_mode: raw_logprobs`: vLLM 0.34.0 says "{MASK_MESSAGE}"')
    assert _result(truth, [quoted]).outcome == "agree"


def test_a_refused_request_needs_the_request_rule():
    request = {"name": "rollout", "params": {"top_k": -1}, "verdict": {"ok": False, "message": TOP_K_MESSAGE}}
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [request]}
    assert _result(truth, []).outcome == "missed"
    assert _result(truth, [_finding("RPL102", f'top_k=-1 (verl default): vLLM 0.34.0 says "{TOP_K_MESSAGE}"')]).outcome == "agree"


def test_an_error_on_a_launch_that_starts_is_a_false_finding_but_a_warning_is_not():
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": True}}]}
    assert _result(truth, [_finding("RPL003", MASK_MESSAGE)]).outcome == "false"
    assert _result(truth, [_finding("RPL205", "dotted keys", severity="warning")]).outcome == "agree"


def test_other_refusals_and_judge_failures_are_not_judged():
    other = {"framework_error": {"exception": "AssertionError", "message": "n_gpus must be divisible", "where": "verl/utils/config.py:1"}}
    assert _result(other, []).outcome == "not-judged"
    replay = {"framework_error": {"exception": "SystemExit", "message": "unrecognized arguments: --vllm.return_sampling_mask"}}
    assert _result(replay, []).outcome == "missed"
    assert _result({"judge_error": "verl could not be imported"}, []).outcome == "not-judged"
    unknown = {"verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": None, "message": "x"}}]}
    assert _result(unknown, []).outcome == "not-judged"


def test_every_verl_mutation_is_a_valid_hydra_override_line():
    for mutation in mutants.VERL:
        assert shlex.split(" ".join(mutants._quote(word) for word in mutation.words)) == list(mutation.words)


def test_derived_launches_name_their_lines_and_every_launch_its_judging_release():
    data = json.loads(judging.MANIFEST.read_text())
    for item in data["files"]:
        assert item["release"], item["path"]
        if "derived" in item:
            start, end = item["derived"]["lines"]
            assert 0 < start <= end and len(item["original_sha256"]) == 64
    entries, _ = judging.load_manifest()
    assert len(entries) == len({entry.path for entry in entries})
    assert {entry.framework for entry in entries} >= {"verl", "openrlhf", "skyrl"}


def test_every_launchs_release_is_installed_and_run_by_the_judge():
    # a release missing from either would leave its launches "not judged" without a failure
    setup = (judging.REPO / "scripts" / "setup-framework-judges.sh").read_text()
    installed = {
        (project, release)
        for releases, project in re.findall(r'for release in ([^;]*); do\s+install "([a-z]+)-\$release"', setup)
        for release in releases.replace("\\", " ").split()
    }
    installed |= set(re.findall(r"install ([a-z]+)-([0-9][0-9.a-z]*) ", setup))
    entries, _ = judging.load_manifest()
    for entry in entries:
        assert entry.release in judging.JUDGED_RELEASES[entry.framework], entry.path
        assert (judging.PACKAGES[entry.framework], entry.release) in installed, entry.path


def test_a_value_out_of_replaylints_sight_is_open_ended_not_missed():
    request = {"name": "rollout", "params": {"top_k": -1}, "verdict": {"ok": False, "message": TOP_K_MESSAGE}}
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [request]}
    hidden = mutants.Mutant(
        "mask+requests (environment)", "top_k from $ROLLOUT_TOP_K", "", env=(("ROLLOUT_TOP_K", "-1"),), open_ended="environment"
    )
    result = _result(truth, [], hidden)
    assert result.outcome == "open-ended" and "environment" in result.detail
    # replaylint may still know (a default it reads in the file): that is an agreement
    finding = _finding("RPL102", f'top_k=-1: vLLM 0.34.0 says "{TOP_K_MESSAGE}"')
    assert _result(truth, [finding], hidden).outcome == "agree"


def test_an_error_on_an_open_ended_launch_that_starts_is_still_false():
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": True}}]}
    hidden = mutants.Mutant("mask (arguments)", "the mask as the script's arguments", "", arguments=("x",), open_ended="arguments")
    assert _result(truth, [_finding("RPL102", TOP_K_MESSAGE)], hidden).outcome == "false"


def test_an_error_judged_without_the_scripts_arguments_that_says_so_is_open_ended():
    """A fork's own mask is on whatever the script is given: replaylint judges the script as
    written and says `unless the script's arguments set it`; the words that fix it were there."""
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": True}}]}
    hidden = mutants.Mutant("mask+requests (arguments)", "", "", arguments=("x",), open_ended="arguments")
    caveat = _finding("RPL102", f"top_k=-1 (verl's default) (unless the script's arguments set it): {TOP_K_MESSAGE}")
    assert _result(truth, [caveat], hidden).outcome == "open-ended"
    assert _result(truth, [caveat, _finding("RPL003", MASK_MESSAGE)], hidden).outcome == "false"  # one says it flatly
    environment = mutants.Mutant("mask (env top_k=50)", "", "", open_ended="env top_k=50")
    assert _result(truth, [caveat], environment).outcome == "false"


def test_a_forks_own_script_is_judged_with_its_releases_launches():
    """OpenRLHF 0.11.2's README launch refuses two stale flags; the fork's script, made from it,
    starts the engines its edits change."""
    entries, _ = judging.load_manifest()
    edit = next(e for e in forks.EDITS if e.script is not None)
    launches = judging._fork_launches(edit, entries)
    own = [(entry, text) for entry, text in launches if text is not None]
    assert len(own) == 1 and own[0][0].path == "openrlhf-0.11.2/METADATA.L493.fork.sh"
    assert "--prompt_max_len" not in own[0][1] and "--data.max_len 2048" in own[0][1] and "--vllm.num_engines 4" in own[0][1]
    assert {entry.release for entry, _ in launches} == {"0.11.2"} and len(launches) > 1


def test_a_request_the_framework_could_not_build_is_not_judged():
    unbuilt = {"name": "rollout", "params": {"framework_error": "'Engine' object has no attribute 'list_loras'"}, "verdict": None}
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [unbuilt]}
    assert _result(truth, [_finding("RPL101", "temperature")]).outcome == "not-judged"


def test_a_refusal_is_not_judged_when_the_launch_fails_without_the_mutation():
    entry = Entry("openrlhf-0.11.2/METADATA.L493.sh", "openrlhf", "openrlhf", "shell", "0.11.2")
    refusal = {"exception": "SystemExit", "message": "train_ppo_ray.py: error: unrecognized arguments: --prompt_max_len 1024"}
    control = Result(entry, mutants.Mutant("control", "", ""), case={"id": "c"}, truth={"framework_error": refusal})
    correction = mutants.Mutant("is-correction", "", "", words=("--algo.advantage.is_correction_level", "token"))
    # the same refusal with the mutation: it says nothing of the mutation
    corrected = Result(
        entry, correction, case={"id": "i"}, truth={"framework_error": {**refusal, "message": refusal["message"] + " top_k"}}
    )
    # a refusal that names the option the mutation wrote: only the mutation caused it
    masked = {**refusal, "message": refusal["message"] + " --vllm.return_sampling_mask"}
    flag = mutants.Mutant("mask-flag", "", "", words=("--vllm.return_sampling_mask",))
    flagged = Result(entry, flag, case={"id": "m"}, truth={"framework_error": masked})
    for result in (control, corrected, flagged):
        judging.classify(result)
    assert corrected.outcome == "missed" and flagged.outcome == "missed"
    judging._unjudge_where_the_control_fails([control, corrected, flagged])
    assert corrected.outcome == "not-judged" and "without the mutation" in corrected.detail
    assert flagged.outcome == "missed"


def test_open_ended_variants_reach_the_framework_through_bash():
    script = SCRIPT
    mutation = next(m for m in mutants.VERL if m.label == "mask+requests")
    variants = {how: (hidden, given) for how, hidden, given in mutants.open_ended_variants("verl", "shell", mutation, True)}
    hidden, given = variants["arguments"]
    assert mutants.shell_mutant(script, "verl.trainer.main_ppo", hidden).text == script
    assert _main_ppo_words(script, *given["arguments"])[2:] == list(mutation.words)
    hidden, given = variants["env top_k=-1"]
    text = mutants.shell_mutant(script, "verl.trainer.main_ppo", hidden).text
    assert "actor_rollout_ref.rollout.top_k=$ROLLOUT_TOP_K" in text
    assert "actor_rollout_ref.rollout.top_k=-1" in _main_ppo_words(text, env=dict(given["env"]))


def test_a_configuration_hides_the_value_in_an_omegaconf_env_interpolation():
    mutation = next(m for m in mutants.VERL if m.label == "mask+requests")
    [(how, hidden, given)] = mutants.open_ended_variants("verl", "config", mutation, False)[:1]
    mutant = mutants.yaml_mutant("actor_rollout_ref:\n  rollout:\n    top_k: -1\n", hidden)
    assert yaml.safe_load(mutant.text)["actor_rollout_ref"]["rollout"]["top_k"] == "${oc.decode:${oc.env:ROLLOUT_TOP_K}}"
    assert given == {"env": (("ROLLOUT_TOP_K", "-1"),), "hides": ("top_k",)}


def test_sampled_mutations_are_the_same_every_run_and_cover_every_mutation_across_launches():
    labels = [m.label for m in mutants.VERL]
    first = mutants.sample(labels, "verl-0.9.1/a.yaml", 2)
    assert first == mutants.sample(labels, "verl-0.9.1/a.yaml", 2) and len(first) == 2
    covered = {label for n in range(40) for label in mutants.sample(labels, f"launch-{n}", 2)}
    assert covered == set(labels)
    assert mutants.sample(labels, "x", None) == labels


def test_openrlhf_mutations_use_each_releases_flags():
    assert mutants.openrlhf_mutations("0.11.2")[0].words == ("--vllm.return_sampling_mask",)
    assert mutants.openrlhf_mutations("0.11.2")[1].words == ("--algo.advantage.is_correction_level", "token")
    assert mutants.openrlhf_mutations("0.10.4")[1].words == ("--algo.advantage.is_correction_enable",)
    assert mutants.openrlhf_mutations("0.9.10")[0].words == ("--vllm_return_sampling_mask",)
    assert mutants.openrlhf_mutations("0.8.11")[1].words == ("--enable_vllm_is_correction",)
    assert [m.label for m in mutants.openrlhf_mutations("0.7.5")] == ["mask-flag"]


def test_a_readme_block_keeps_its_trailing_comment_after_the_new_words():
    block = "python3 -m openrlhf.cli.train_ppo_ray \\\n  --train.agent_func_path agent.py \\\n  --train.async_enable  # Optional: enable async pipeline\n"
    mutant = mutants.shell_mutant(block, "openrlhf.cli.train_ppo_ray", mutants.openrlhf_mutations("0.11.2")[0])
    shim = "python3() { shift 2; printf '%s\\n' \"$@\"; }\n"
    words = subprocess.run(["bash", "-c", shim + mutant.text], capture_output=True, text=True, check=True).stdout.splitlines()
    assert words == ["--train.agent_func_path", "agent.py", "--train.async_enable", "--vllm.return_sampling_mask"]


def test_an_override_mapping_becomes_dotted_words():
    document = {"actor_rollout_ref": {"rollout": {"name": "vllm", "n": 4}}, "trainer": {"logger": ["console"]}, "empty": {}}
    assert mutants.flatten(document) == [
        ("actor_rollout_ref.rollout.name", "vllm"),
        ("actor_rollout_ref.rollout.n", 4),
        ("trainer.logger", ["console"]),
        ("empty", {}),
    ]
