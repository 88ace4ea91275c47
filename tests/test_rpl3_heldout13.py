"""Thirteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout13/ is a small tree written the way users start replay servers and send
requests, imitating real code read for this round (modal-labs' vLLM example as copied in
mihirathale98/puzzle-sft and mgorski760/HackIllinois2026, a supervisord container running vLLM beside an
agent, an ECS task definition in 2017387-jh/vw-aws-cloud-service's `taskdef.json.tpl` layout, a Procfile with
a pydantic-settings worker, a justfile, a go-task Taskfile serving a checkpoint folder, a tmux launch script,
and Tandemn-Labs/tandemn-tuna's Baseten Truss `docker_server` template), in spellings the earlier rounds'
folder names do not show: the mask as an item of a Modal `@modal.web_server` function's word list started by
`Popen(" ".join(cmd), shell=True)` (and its `--enable-scale-out` twin), a langchain-openai `ChatOpenAI`
wrapped in a class of the tree with its base URL from another module reading chat completions beside a
supervisord scale-out server (and an aiohttp client whose generate body comes from a YAML file), a presence
penalty in an ECS task definition's `--override-generation-config` JSON word (and a neutral repetition
penalty), a frequency penalty as a pydantic `BaseSettings` field default sent to `/inference/v1/generate` by
httpx (and 0.0), a thinking budget in the sampling dict of an aiohttp session built by a factory of another
module (and a `thinking_budget` only in `chat_template_kwargs`, which vLLM passes to the Jinja template
alone), a top_k in a Taskfile's override equal to the checkpoint folder's `vocab_size` (and the same top_k
below a larger checkpoint's vocabulary), trace replay toggled by a shell variable into a tmux command (and the
variable off), and synthetic verification spread over a Truss config's `environment_variables` into dotted
`--speculative-config.*` words (and `block` verification). Each `README` says what it imitates and which vLLM
0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the stand-in model given Qwen3's
40960 positions where `--max-model-len` asks for more than its 2048; without `--reasoning-parser qwen3`,
for which the stand-in model has no tokenizer; the checkpoint folders as their `vocab_size`; the Truss
launches with their environment variables expanded into the dotted words). A finding that rests on a
value written elsewhere is expected at that value's line (a settings field's default, a Truss environment
variable), a client's finding at its call, a launch's finding at the word that decides it (the mask's
list item, the override's word, the appended trace word).

First run (the lead, on h-r13 at main 94db31b, after rounds 17, forks 11 and RPL3xx 12's fixes): 12 of 16 cases
as expected (75%); of 8 expected findings 4 exact, 1 at another line (tmux: trace replay reported at the `vllm
serve` line inside the tmux command string, 17, not at `TRACE_FLAGS="--enable-trace-replay"`, 13), 3 missed (an
ECS task definition's `command`; a Taskfile task's `>-` command with `{{.CKPT}}`; a Baseten Truss `config.yaml`
whose `environment_variables` a `bash -c` start command expands); 0 false findings; 8 of 8 clean cases clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout13"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "modal_web_server_popen_joined_mask_no_scale_out": {("RPL301", "serve_policy.py", 35)},
    "modal_web_server_popen_joined_mask_scale_out_clean": set(),
    "supervisord_langchain_chatopenai_wrapper_chat_client": {("RPL301", "agent/llm.py", 12)},
    "supervisord_aiohttp_generate_body_from_yaml_clean": set(),
    # 2. requests that shift the distribution
    "ecs_task_definition_override_presence_penalty": {("RPL302", "infra/ecs/task-definition.json", 22)},
    "ecs_task_definition_override_repetition_neutral_clean": set(),
    "procfile_httpx_generate_frequency_penalty_pydantic_settings": {("RPL302", "rollout/settings.py", 12)},
    "procfile_httpx_generate_frequency_penalty_pydantic_zero_clean": set(),
    # 3. thinking budget
    "justfile_aiohttp_factory_generate_thinking_budget": {("RPL303", "rl/rollouts.py", 9)},
    "justfile_chat_template_kwargs_thinking_budget_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "taskfile_override_top_k_equals_checkpoint_vocab": {("RPL304", "Taskfile.yml", 17)},
    "taskfile_override_top_k_below_larger_checkpoint_vocab_clean": set(),
    # 5. trace replay
    "tmux_trace_replay_toggled_by_variable": {("RPL305", "scripts/launch_replay.sh", 13)},
    "tmux_trace_replay_variable_off_clean": set(),
    # 6. lossy speculative verification
    "truss_speculative_env_vars_synthetic": {("RPL306", "policy-truss/config.yaml", 12)},
    "truss_speculative_env_vars_block_clean": set(),
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
