"""Fourth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout4/ is a small tree written the way users write launches
and clients, in spellings the first three rounds did not use: a Dockerfile whose `CMD` holds
only arguments for the image's `vllm serve` entrypoint, compose `command:` lists and a merge
key (`<<: *vllm`), a K8s `sh -c` argument string, a `--tokens-only` engine behind a Service,
`vllm serve --config` YAML with `enable-scale-out: false` and a nested speculative config,
`--no-enable-scale-out` after `--enable-scale-out` in a Makefile, flags in unquoted shell
variables, the old `vllm.entrypoints.openai.api_server` module, `httpx.AsyncClient(base_url=...)`
posting a bare path, a `requests.Session`, aiohttp derender bodies with the parse context in a
variable, OpenAI keywords outside `extra_body`, `dict.update(...)` and `**` spreads of sampling
parameters, neutral penalties as ints and an empty `logit_bias`, a notebook, `LLM(**kwargs)`,
`AsyncLLM`, top-k as `2**20`, `1_000_000`, a vocabulary-size constant and `-1`, verl's unread
`repetition_penalty`, block vs lossy speculative verification, and the preview rules at their
edges (temperature exactly 0.01, the scheduler's `--watermark`). Its `README` says what it
imitates and which vLLM line decides. They were written before the rules were read. `EXPECTED`
is the whole answer for each case: every finding replaylint must report (code, file, line),
and nothing else; a case with none is clean. The preview rules (RPL307-RPL309) are selected
for the `preview_*` cases.

First run, before any fix (the commit that added this module's figures): 36 of 43 cases as
expected, 14 of 15 clean cases clean; of 32 expected findings 27 exact, 2 at another line
(RPL301 of a compose `command:` list at its `--return-sampling-mask` item, not `command:`;
RPL301 of a `--config` YAML at `return-sampling-mask: true`, not `enable-scale-out: false`),
3 missed (RPL102 of `"top_k": -1` in a scale-out generate body built in a variable; RPL304 of
`"top_k": VOCAB_SIZE` equal to a local checkpoint's `vocab_size`; RPL304 of `top_k=2**20`);
3 false (RPL307 of a replay launch of a hub model left at `--generation-config auto`, and
RPL101/RPL102 of verl's validation defaults `val_kwargs.temperature=0`, `top_k=-1`).

Changed after the run, each said in the case's README. Expectations that were wrong: the three
false findings are true (verl 0.9.1 validates before training with `temperature: 0`,
`top_k: -1`, which vLLM refuses with replay, so `verl_unread_repetition_penalty_clean` became
`..._greedy_validation` with RPL101 and RPL102 and still no RPL302; the watermark case leaves
`--generation-config auto` for a hub model whose `generation_config.json` sets sampling fields,
so RPL307 is expected there too); the two lines moved to the `--return-sampling-mask` item,
where replaylint puts every launch's RPL301; `top_k_power_expression_asyncllm` built its
`SamplingParams` and never passed it to the engine (no request carries it), and now passes it to
`engine.generate`. Fixed in src: the model folder's vocabulary is read for clients of a server in
another file (the server kept across files, and in the cache, holds its `model` and
`hf_overrides`; `run/cross_file` reads the folder for a client's `top_k`). Found while fixing and
read everywhere clients are (the same file, another file, the cache's pre-read words): OpenAI
calls through `.with_raw_response`/`.beta` and `.parse`/`.stream`, the `openai` module client
after `openai.base_url = ...`, and `.request("POST", url)`/`.stream("POST", url)` of `requests`,
`httpx` and `aiohttp` sessions (RPL301 examples); an HTTP request written in a function read
with the arguments each call of it passes (a parameter's default when a call leaves it out, as
for engine requests); a `logit_bias` whose biases are all 0 is neutral (the kernel adds them);
SkyRL's `sampling_params.additional_kwargs`, which SkyRL sends as written, are read by RPL302 and
RPL303; a server's `--override-generation-config` `top_k` and `temperature` by RPL304 and RPL309;
`openai.Client`; a write into a nested dict (`body["sampling_params"]["x"] = v`, which was
ignored, so a neutral value written over a penalty left a false RPL302); and the launch wrappers
`apptainer`/`singularity exec IMAGE`, `uvx --from`, `pixi run -e` (each with rule examples or
shell tests). One case waited in a pending folder for the change that brings RPL102 to HTTP
clients (`generate_top_k_minus_one_refused`, RPL102 of a generate body's `top_k: -1`) and is back
since that change. Its clean twin `generate_top_k_bounded_clean` was added with it. After the fixes: 44 of 44
cases, 15 of 15 clean cases clean, 35 of 35
findings exact, 0 false.

Round 15 (h-fxr15): `generate_thinking_budget_module_constant` is expected at `THINKING_BUDGET = 1024`
(settings.py:1), no longer at the request's key: a constant spelled out in another module is reported on its own
line (the lead's decision for round 15's top_k constant; round 10's writer expected the same).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, findings

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout4"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "dockerfile_image_entrypoint_cmd_only": {("RPL301", "Dockerfile", 8)},
    "generate_top_k_minus_one_refused": {("RPL102", "client.py", 5)},
    "generate_top_k_bounded_clean": set(),
    "compose_list_command_httpx_base_url": {("RPL301", "compose.yaml", 8), ("RPL301", "rollout.py", 7)},
    "compose_merge_anchor_no_scale_out": {("RPL301", "compose.yaml", 11)},
    "k8s_sh_c_args_string": {("RPL301", "deploy/vllm.yaml", 19)},
    "vllm_config_yaml_scale_out_false": {("RPL301", "configs/rollout.yaml", 3)},
    "scale_out_server_only_chat_client": {("RPL301", "agent.py", 7)},
    "api_server_module_requests_session_env_port": {("RPL301", "launch.sh", 3), ("RPL301", "collect.py", 10)},
    "aiohttp_derender_parse_context_variable": {("RPL301", "client.py", 8)},
    "no_enable_scale_out_after_enable": {("RPL301", "Makefile", 5)},
    "derender_reasoning_shown_clean": set(),
    "compose_judge_service_no_mask_clean": set(),
    "k8s_tokens_only_service_clean": set(),
    "scale_out_flags_in_shell_variable_clean": set(),
    "helm_production_stack_scale_out_clean": set(),
    # 2. requests that shift the distribution
    "asyncllm_repetition_penalty_small": {("RPL302", "engine.py", 15)},
    "requests_generate_logit_bias_string_key": {("RPL302", "sampler.py", 13)},
    "openai_completions_presence_top_level": {
        ("RPL301", "serve.sh", 1),
        ("RPL301", "eval_rollout.py", 7),
        ("RPL302", "eval_rollout.py", 11),
    },
    "generate_params_dict_update_frequency": {("RPL302", "worker.py", 8)},
    "notebook_llm_repetition_penalty": {("RPL302", "explore.ipynb", 3)},
    "offline_int_neutral_penalties_empty_bias_clean": set(),
    "generate_body_neutral_penalties_empty_bias_clean": set(),
    "verl_unread_repetition_penalty_greedy_validation": {("RPL101", "run_grpo.sh", 11), ("RPL102", "run_grpo.sh", 11)},
    "asyncllm_no_mask_penalty_top_k_clean": set(),
    # 3. thinking budget
    # moved from rollout.py:10 in round 15 (h-fxr15): a constant of another module is reported on its own line
    "generate_thinking_budget_module_constant": {("RPL303", "settings.py", 1)},
    "offline_thinking_budget_zero": {("RPL303", "think.py", 9)},
    "thinking_budget_none_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "local_checkpoint_top_k_equals_vocab": {("RPL304", "sample.py", 7)},
    "top_k_power_expression_asyncllm": {("RPL304", "engine.py", 8)},
    "top_k_underscore_literal_offline": {("RPL304", "collect.py", 8)},
    "gemma3_top_k_within_large_vocab_clean": set(),
    # 5. trace replay
    "compose_block_list_trace_replay": {("RPL305", "compose.yaml", 11)},
    "llm_kwargs_dict_trace_replay": {("RPL305", "score.py", 7)},
    "trace_replay_without_mask_clean": set(),
    # 6. lossy speculative verification
    "speculative_json_synthetic_length": {("RPL306", "serve.sh", 6)},
    "vllm_config_yaml_nested_spec_fly": {("RPL306", "rollout.yaml", 9)},
    "llm_speculative_dict_fly": {("RPL306", "rollout.py", 11)},
    "spec_block_verification_clean": set(),
    # 7. preview
    "preview_watermark_config_json": {("RPL307", "serve.sh", 1), ("RPL308", "serve.sh", 1)},
    "preview_generate_temperature_raised": {("RPL309", "near_greedy.py", 5)},
    "preview_generation_config_auto_local_penalty": {("RPL307", "serve.sh", 1)},
    "preview_scheduler_watermark_fraction_clean": set(),
    "preview_temperature_at_floor_clean": set(),
}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 32)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)


def test_a_client_of_another_file_is_judged_by_the_vocabulary_of_the_servers_model_folder(tmp_path: Path) -> None:
    """The server's model folder is read for a client's `top_k` in another file, also when the
    server is recalled from the cache (the second run checks only the client)."""
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    (tree / "ckpt").mkdir(parents=True)
    (tree / "ckpt" / "config.json").write_text('{"model_type": "llama", "vocab_size": 32000}\n')
    (tree / "serve.sh").write_text("vllm serve ./ckpt --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs\n")
    client = tree / "client.py"
    body = '{"token_ids": ids, "sampling_params": {"top_k": %d}}'
    post = 'import requests\ndef go(ids):\n    return requests.post("http://localhost:8000/inference/v1/generate", json=%s)\n'
    for top_k, found in ((31999, False), (32000, True), (32000, True)):
        client.write_text(post % (body % top_k))
        messages = [item["message"] for item in findings(tree, "--cache-dir", str(cache)) if item["code"] == "RPL304"]
        assert bool(messages) is found, (top_k, messages)
        assert all('`"vocab_size": 32000` in' in message for message in messages)
