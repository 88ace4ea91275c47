"""Seventh held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout7/ is a small tree written the way users start replay servers
and send requests, imitating real code fetched for this round (modal-labs/modal-examples
vllm_inference.py, kserve/kserve config/runtimes/kserve-vllmserver.yaml, OpenRLHF/OpenRLHF
samples_generator.py, volcengine/verl vllm_rollout/utils.py and vllm_async_server.py,
NovaSky-AI/SkyRL vllm_server_actor.py and examples/train/llm_as_a_judge/,
runpod-workers/worker-vllm src/main.py), in spellings the earlier rounds' folder names do not
show: a `docker run ... vllm/vllm-openai` launch over continuation lines, a Modal `cmd += [...]`
under a module-level switch, a supervisord `[program:]` `command=`, a user's own KServe
`ServingRuntime` with trace replay, `--no-enable-trace-replay` after a bash array that enables it,
a speculative dict sent as `json.dumps(...)` (synthetic vs block), OpenRLHF's
`generate_kwargs.get("repetition_penalty", default)`, a `logit_bias` keyed by a run-time EOS id in
a generate body, a thinking budget from a dataclass field, two offline engines with the budget on
the mask-less grader only, `top_k=int(1e6)`, a local Qwen2.5 checkpoint given Qwen3's vocabulary
size as top_k, `--generation-config vllm`, and `temperature=5e-3`. Each `README` says what it
imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the frameworks' source, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. The preview rules (RPL307-RPL309) are selected for the `preview_*`
cases. Engines were judged with tests/differential/vllm_judge.py (vLLM 0.34.0); the judge's
stand-in model cannot build a tokenizer for `reasoning_parser="qwen3"`, so the two cases with a
reasoning parser were judged without it (each README says so).

First run (the lead, on merge-a at e6d34f4): 15 of 18 cases as expected, 8 of 8 clean cases
clean; of 10 expected findings 7 exact, 1 at another line (RPL306 of the `json.dumps` spec dict at
launch_policy.py:25, the Popen, not line 15 where `synthetic` is written), 2 missed (RPL303 of a
thinking budget from a dataclass field on AsyncLLM; RPL301 of a supervisord `[program:...]
command=`), 0 false.

After the fixes (no case changed): 18 of 18 cases as expected, 8 of 8 clean cases clean; of 10
expected findings 10 exact, 0 false. What each miss needed: supervisord programs are read
(`*.conf` files with a `[program:]` section: `command=` split as shlex splits it, `%(...)s`
unknown, `environment=` the engine's environment, `frontends/command_lines/supervisord`); a
request in a method no call in the tree reaches is read with what `__init__` was given at each
construction of its class (`RolloutEngine(RolloutConfig())`: `self.cfg.thinking_budget` the
field's default, `flow/requests`); a dict turned into an argv word by `json.dumps` keeps its keys,
so a finding of one key is reported where the dict writes it (`static_values`, `subprocess_argv`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout7"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "docker_run_image_multiline_no_scale_out": {("RPL301", "scripts/serve_policy.sh", 14)},
    "docker_run_image_scale_out_generate_clean": set(),
    "modal_conditional_cmd_extend_no_scale_out": {("RPL301", "policy_server.py", 32)},
    "modal_conditional_cmd_extend_scale_out_clean": set(),
    "supervisord_program_no_scale_out": {("RPL301", "supervisord.conf", 6)},
    # 2. requests that shift the distribution
    "openrlhf_style_get_default_repetition_penalty": {("RPL302", "rollout_engine.py", 20)},
    "openrlhf_style_get_default_repetition_neutral_clean": set(),
    "popen_scale_out_generate_logit_bias_eos_variable": {("RPL302", "collect.py", 43)},
    # 3. thinking budget
    "asyncllm_thinking_budget_dataclass_field": {("RPL303", "engine.py", 17)},
    "two_engines_budget_on_grader_only_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "offline_top_k_int_scientific_1e6": {("RPL304", "sample_wide.py", 15)},
    "local_qwen25_top_k_qwen3_vocab_below_clean": set(),
    # 5. trace replay
    "kserve_serving_runtime_trace_replay": {("RPL305", "deploy/runtime.yaml", 27)},
    "serve_trace_replay_negated_later_clean": set(),
    # 6. lossy speculative verification
    "popen_json_dumps_spec_dict_synthetic": {("RPL306", "launch_policy.py", 15)},
    "popen_json_dumps_spec_dict_block_clean": set(),
    # 7. preview
    "preview_offline_temperature_scientific_5e_3": {("RPL309", "near_greedy_replay.py", 13)},
    "preview_serve_generation_config_vllm_clean": set(),
}

# Cases waiting for a change, each with the reason; run as strict xfail.
PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 18)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
