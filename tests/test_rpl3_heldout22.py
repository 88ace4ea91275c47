"""Twenty-second held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout22/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code (vLLM's Popen(shlex.split(cmd)) launchers, a honcho `Procfile`, a pm2
`ecosystem.config.js`, a Nomad docker job, Modal's vLLM example, SkyPilot's `serve.yaml` with `envs`, a Makefile
with `$(MAKE)` recursion, vLLM's Kubernetes and Docker docs, GitHub Actions jobs on a GPU runner, Qwen3-0.6B's
`config.json`), in spellings the earlier rounds' folder names do not show: the mask word in an f-string returned by
a helper and split by shlex (and `--enable-scale-out` from a settings constant in the f-string); an
`openai.AsyncOpenAI` client built in a class from a pydantic `BaseSettings` default, chat only, against a Procfile
server (and an `httpx.AsyncClient` from a `.env`-fed settings object posting to a `urljoin` path of
`/inference/v1/generate`); a `logit_bias` in the row of a per-task JSON table chosen by a literal task name (and a
table whose rows are all neutral: `{}`, a bias of 0, `presence_penalty` 0.0); a `frequency_penalty` in an
`extra_body` merged by `{**defaults, **overrides}` (and the same default overridden by 0.0); a per-request helper
returning `thinking_token_budget` 4096 or 1024 (and -1 through a constant); `top_k` from the checkpoint's
`vocab_size` read by an `AutoConfig`-like loader (and bounded by `min(256, vocab_size)`); trace replay in a word
list turned into flags by a shell loop (and on a second server without the mask); `synthetic` verification in a
`--speculative-config` JSON file inlined by a Python launcher (and `standard` inlined by `"$(cat ...)"`).
Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the n-gram speculative config with
`synthetic` and `synthetic_acceptance_length`, and with `standard`; the local checkpoint folder with its
`config.json`; `--max-model-len 8192` with the stand-in's `max_position_embeddings` set to Qwen3's 40960; trace
replay with and without the mask; the servers with `--reasoning-parser qwen3` judged without it, for which the
stand-in model has no tokenizer). The requests' `sampling_params` were validated as vLLM 0.34.0's `GenerateRequest`
in the judge's venv: `logit_bias` {151643: -100}, `thinking_token_budget` 4096 and `top_k` 151936 reach
`SamplingParams`; `thinking_token_budget` -1 becomes None; `logit_bias` {} and {151643: 0} and `presence_penalty`
0.0 are neutral. A finding that rests on a value written elsewhere is expected at that value's line (the JSON
table's `logit_bias`, the default dict's `frequency_penalty`, the helper's budget, the speculative JSON file's
`rejection_sample_method`, the shell word list naming `enable-trace-replay`), a client's finding at its call or
at its `top_k` entry, a launch's finding at the line of the word that decides it (the f-string line with the mask).

First run (the lead, at main c8974af, stop 45): 11 of 16 cases as expected (69%); of 8 expected findings 3 exact,
1 at another line (the Popen f-string's RPL301 at its first line, not the mask word's), 4 missed (PENDING); 0 false
findings; 8 of 8 clean cases clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout22"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "popen_shlex_fstring_helper_mask_without_scale_out": {("RPL301", "launch/serve.py", 12)},
    "popen_shlex_fstring_helper_scale_out_from_settings_clean": set(),
    "procfile_server_async_openai_pydantic_settings_chat_only": {("RPL301", "agent/llm.py", 11)},
    "pm2_server_httpx_async_dotenv_urljoin_generate_clean": set(),
    # 2. requests that shift the distribution
    "nomad_server_logit_bias_from_per_task_json_table": {("RPL302", "configs/tasks.json", 6)},
    "modal_app_server_per_task_json_table_neutral_logit_bias_clean": set(),
    "skypilot_envs_server_extra_body_frequency_penalty_merged_defaults": {("RPL302", "rl/defaults.py", 6)},
    "makefile_recursive_make_server_extra_body_penalty_overridden_neutral_clean": set(),
    # 3. thinking budget
    "k8s_server_thinking_budget_per_request_helper": {("RPL303", "rollout/params.py", 7)},
    "compose_server_thinking_budget_helper_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "shell_local_checkpoint_top_k_from_config_reader_vocab_size": {("RPL304", "rollout/sample.py", 13)},
    "actions_local_checkpoint_top_k_bounded_by_min_clean": set(),
    # 5. trace replay
    "shell_flag_string_built_in_loop_trace_replay": {("RPL305", "scripts/serve.sh", 5)},
    "shell_flag_string_built_in_loop_trace_replay_on_maskless_server_clean": set(),
    # 6. lossy speculative verification
    "popen_shlex_speculative_config_json_file_synthetic": {("RPL306", "configs/speculative.json", 6)},
    "actions_speculative_config_json_file_standard_clean": set(),
}

# Cases waiting for a change, each with the reason; run as strict xfail.
PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 16)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
