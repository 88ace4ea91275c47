"""Sixth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout6/ is a small tree written the way users deploy and call
replay servers, imitating real deployment files and clients: a SkyPilot `run: |` block, Modal's
`@modal.web_server` + `subprocess.Popen(" ".join(cmd), shell=True)` and an offline `LLM` in an
`@app.function`, a Kubernetes Deployment + Service reached by its DNS name, an AIBrix manifest
with the `api_server` module, a KServe `InferenceService` whose `vllm/vllm-openai` container has
`args:` only (`--flag=value`), a production-stack Helm values file (`vllmConfig.extraArgs`),
a compose `command:` list for the image's entrypoint, a Dockerfile `ENTRYPOINT` list, a RunPod
start script, a tmux launcher, multi-node data parallelism with a `--headless` node, a LiteLLM
`Router`, `requests`/`httpx`/`aiohttp` clients of `/v1/completions` and
`/inference/v1/generate`, sampling values from a dataclass field, an argparse default, a
function parameter's default and an environment `.get` default, `SamplingParams.clone()` with an
attribute set, `top_k` as `1 << 18`/`1 << 17`/`len(tokenizer)`/`300000`, speculative configs in
a `dict(...)` call and in JSON, `LLMEngine.from_engine_args`, and the preview rules. Its `README`
says what it imitates and which vLLM 0.34.0 line decides. They were written without reading
replaylint's code or earlier rounds' cases. `EXPECTED` is the whole answer for each case: every
finding replaylint must report (code, file, line), and nothing else; a case with none is clean.
The preview rules (RPL307-RPL309) are selected for the `preview_*` cases.

First run (the lead, on main at 331527b): 28 of 33 cases as expected, 13 of 13 clean cases
clean; of 21 expected findings 16 exact, 0 at another line, 5 missed, 0 false (76%). Missed:
RPL301 of a LiteLLM `Router` model list's `api_base`, of a Modal `@modal.web_server` that
`Popen`s `" ".join(cmd)` with `shell=True`, of a SkyPilot `run: |` block; RPL304 of `1 << 18`
on an offline engine of Gemma 2; RPL303 of a thinking budget read with `os.environ.get` and a default.

After the fixes (no case changed): 33 of 33 cases as expected, 13 of 13 clean cases clean; of 21
expected findings 21 exact, 0 false. What each miss needed: LiteLLM's `Router` is read as a client
of the deployment its group names in `model_list` (one `hosted_vllm/`/`openai/` address,
`flow/litellm_routers`); a shell string `" ".join(cmd)` with `shell=True` is read as the list's
words when each is one shell word, and an argv word `A if FLAG else B` of a known bool is read
(Modal); a SkyPilot task (top-level `run:` and `resources:`) has its `setup:`/`run:` read as bash
with its `envs:` (`frontends/yaml/skypilot`); the Gemma 2 `top_k` miss was not the vocabulary
(`1 << 18` was read, and 2^18 is at the bound every vocabulary gives) but the loop
`for name, params in ((..., bounded), (..., unbounded))`: a request is now read once per turn of
a loop over the params it sends; the thinking-budget miss needed two things: `tmux new-session -d
"vllm serve ..."` was not read as a launch, and an environment default was dropped when a Python
name of the same spelling (`THINK_BUDGET = int(os.environ.get("THINK_BUDGET", "4096"))`) held it
(now only the variable named as a string or keyword elsewhere, or a dotenv file, leaves it
unknown); the message says "when `THINK_BUDGET` is unset".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout6"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "skypilot_run_block_serve_no_scale_out": {("RPL301", "rollout-server.sky.yaml", 19)},
    "skypilot_run_block_scale_out_clean": set(),
    "modal_web_server_popen_join_no_scale_out": {("RPL301", "vllm_rollout_server.py", 51)},
    "k8s_service_dns_openai_chat_client": {("RPL301", "agent/rollout_worker.py", 9)},
    "aibrix_api_server_module_no_scale_out": {("RPL301", "qwen3-8b-rollout.yaml", 36)},
    "kserve_vllm_openai_image_args_only": {("RPL301", "isvc.yaml", 20)},
    "kserve_vllm_openai_image_scale_out_clean": set(),
    "litellm_router_model_list_api_base": {("RPL301", "rollout.py", 22)},
    "popen_scale_out_requests_completions_token_ids": {("RPL301", "collect.py", 35)},
    "popen_scale_out_requests_generate_clean": set(),
    "multinode_dp_headless_worker_clean": set(),
    # 2. requests that shift the distribution
    "generate_penalty_dataclass_field_default": {("RPL302", "rollout/config.py", 10)},
    "generate_penalty_dataclass_neutral_clean": set(),
    "offline_clone_then_presence_penalty": {("RPL302", "generate_rollouts.py", 18)},
    "argparse_default_frequency_penalty_generate": {("RPL302", "sample.py", 16)},
    "argparse_default_frequency_zero_generate_clean": set(),
    "compose_generate_logit_bias_param_default": {("RPL302", "trainer/rollout.py", 8)},
    "compose_generate_logit_bias_param_zero_clean": set(),
    # 3. thinking budget
    "modal_function_llm_thinking_budget": {("RPL303", "modal_rollouts.py", 27)},
    "tmux_server_generate_thinking_budget_env_default": {("RPL303", "rollout_loop.py", 6)},
    "judge_engine_budget_without_mask_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "offline_top_k_shift_two_pow_18": {("RPL304", "ablate_top_k.py", 11)},
    "dockerfile_server_generate_top_k_300k": {("RPL304", "probe_support.py", 12)},
    "offline_top_k_shift_two_pow_17_qwen_clean": set(),
    "top_k_len_tokenizer_local_qwen_clean": set(),
    # 5. trace replay
    "runpod_start_sh_trace_replay": {("RPL305", "start.sh", 15)},
    "llm_engine_from_engine_args_trace_replay": {("RPL305", "reproduce_rollouts.py", 12)},
    "two_servers_trace_replay_on_debug_clean": set(),
    # 6. lossy speculative verification
    "helm_values_extra_args_spec_synthetic": {
        ("RPL301", "values-rollout.yaml", 18),
        ("RPL306", "values-rollout.yaml", 22),
    },
    "async_llm_speculative_dict_call_fly": {("RPL306", "policy_engine.py", 16)},
    "skypilot_spec_standard_explicit_clean": set(),
    # 7. preview
    "preview_offline_watermark_config_dict": {("RPL308", "watermarked_rollouts.py", 11)},
    "preview_generate_temperature_point_oh_two_clean": set(),
}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 32)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
