"""The forms framework launches take in real scripts and configs: NeMo-RL's scripts behind
`uv run coverage run` and a variable folder, their default configs, `defaults:` chains and the
evaluation layout; SkyRL entrypoints built on `main_base` and `trainer.mtp`; prime-rl main's
train requests. Each is written as the framework's users write it (NeMo-RL's
`tests/functional/*.sh`, SkyRL's `examples/train/**/run_*.sh`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_framework_editions import check

from replaylint.engine.checker import FileResult
from replaylint.programs import Unread, split_launcher


def found(result: FileResult) -> list[tuple[str, str, int]]:
    return [(f.code, f.span.path, f.span.start_line) for f in result.findings]


MAIN_PIN = "nemo-rl @ git+https://github.com/NVIDIA-NeMo/RL@7ea279abfbeb698b092856d0dab61e7cf39bc909\n"

# A trimmed examples/configs/grpo_math_1B.yaml of NeMo-RL main: it sets processed_logprobs.
GRPO_MATH = """\
policy:
  model_name: "Qwen/Qwen2.5-1.5B"
  generation:
    backend: "vllm"
    temperature: 1.0
    top_p: 1.0
    top_k: null
    vllm_cfg:
      tensor_parallel_size: 1
      gpu_memory_utilization: 0.6
      logprobs_mode: processed_logprobs
    vllm_kwargs: {}
"""

# NeMo-RL's tests/functional/*.sh, with replay turned on by the user.
FUNCTIONAL = """\
#!/bin/bash
SCRIPT_DIR=$( cd -- "$( dirname -- "${{BASH_SOURCE[0]}}" )" &> /dev/null && pwd)
PROJECT_ROOT=$(realpath $SCRIPT_DIR/../..)
set -eou pipefail
cd $PROJECT_ROOT
uv run coverage run -a --data-file=$PROJECT_ROOT/tests/.coverage --source=$PROJECT_ROOT/nemo_rl \\
    {script} \\
    policy.model_name=Qwen/Qwen3-0.6B \\
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \\
    {extra}cluster.gpus_per_node=2
"""


# -- which words start a launch --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["uv", "run", "coverage", "run", "-a", "examples/run_grpo.py", "x=1"], ("nemo-rl", 5)),
        (["coverage", "run", "--source", "nemo_rl", "--branch", "examples/run_eval.py"], ("nemo-rl", 5)),
        (["python", "-m", "coverage", "run", "-p", "examples/run_grpo.py"], ("nemo-rl", 5)),
        (["coverage", "run", Unread("--data-file=$ROOT/.coverage"), Unread("$ROOT/examples/run_grpo.py")], ("nemo-rl", 3)),
        (["coverage", "run", "-m", "skyrl.train.entrypoints.main_base", "trainer.epochs=1"], ("skyrl", 4)),
        (["python", "-m", "examples.train.algorithms.dapo.main_dapo", "trainer.epochs=1"], ("skyrl-module", 2)),
        # not the frameworks' launches: coverage of something else (a module of the user's, read as a
        # program), an option we do not know, a module without SkyRL's keys (the same)
        (["coverage", "run", "-m", "pytest", "tests"], ("trl-script", 3)),
        (["coverage", "run", "--unknown-option", "examples/run_grpo.py"], None),
        (["coverage", "report", "-m"], None),
        (["python", "-m", "recipe.dapo.main_dapo", "actor_rollout_ref.rollout.n=4"], ("trl-script", 2)),
        (["coverage", "run", Unread("$SCRIPT"), "policy.generation.top_k=1"], None),
        # open-instruct's grpo_fast.py, run from its repository's root
        (["python", "open_instruct/grpo_fast.py", "--exp_name", "x"], ("open-instruct", 2)),
        (["uv", "run", "open_instruct/grpo_fast.py", "--exp_name", "x"], ("open-instruct", 3)),
        (["python3", "-u", Unread("$REPO/open_instruct/grpo_fast.py")], ("open-instruct", 3)),
        (["python", "-m", "open_instruct.grpo_fast"], ("open-instruct", 3)),
        # another project's script of that name, Beaker's launcher: a program of the user's, read
        # only for a TRL trainer that starts vLLM in process
        (["python", "grpo_fast.py", "--exp_name", "x"], ("trl-script", 1)),
        (["python", "mason.py", "--", "python", "open_instruct/grpo_fast.py"], ("trl-script", 1)),
    ],
)
def test_launchers_behind_coverage_and_variable_folders(words: list, expected: object) -> None:
    assert split_launcher(words) == expected


# -- NeMo-RL ------------------------------------------------------------------------------------------


def test_coverage_run_with_a_variable_script_folder_is_a_launch(tmp_path: Path) -> None:
    # The folder is `$PROJECT_ROOT`: the default config cannot be found, so the launch is
    # open-ended (no RPL003 or request findings from absent settings), but what the words say
    # is judged: speculative decoding next to the mask on 0.31.
    script = FUNCTIONAL.format(
        script="$PROJECT_ROOT/examples/run_grpo.py", extra="++policy.generation.vllm_kwargs.speculative_config.method=ngram \\\n    "
    )
    result = check(tmp_path, {"tests/functional/grpo.sh": script, "requirements.txt": MAIN_PIN}, "tests/functional/grpo.sh", "0.31.0")
    assert [code for code, _, _ in found(result)] == ["RPL002", "RPL004"]


def test_without_config_the_default_config_next_to_the_script_is_read(tmp_path: Path) -> None:
    script = FUNCTIONAL.format(script="examples/run_grpo.py", extra="")
    files = {"tests/functional/grpo.sh": script, "examples/configs/grpo_math_1B.yaml": GRPO_MATH, "requirements.txt": MAIN_PIN}
    result = check(tmp_path, files, "tests/functional/grpo.sh")
    # processed_logprobs comes from the default config: no RPL003; its `top_k: null` is -1.
    assert found(result) == [("RPL102", "examples/configs/grpo_math_1B.yaml", 7)]
    assert "(loaded by grpo.sh)" in result.findings[0].message


def test_default_config_not_in_the_tree_leaves_the_launch_open(tmp_path: Path) -> None:
    script = FUNCTIONAL.format(script="examples/run_grpo.py", extra="")
    result = check(tmp_path, {"tests/functional/grpo.sh": script, "requirements.txt": MAIN_PIN}, "tests/functional/grpo.sh")
    assert found(result) == []


def test_a_script_of_another_project_named_run_grpo_is_no_launch(tmp_path: Path) -> None:
    script = "uv run python run_grpo.py --model Qwen/Qwen3-8B --return_sampling_mask true\n"
    assert found(check(tmp_path, {"train.sh": script}, "train.sh")) == []


def test_config_defaults_chain_is_followed_from_the_command_line(tmp_path: Path) -> None:
    recipe = "defaults: ../../grpo_math_1B.yaml\npolicy:\n  generation:\n    vllm_cfg:\n      logprobs_mode: raw_logprobs\n"
    script = "uv run python examples/run_grpo.py --config examples/configs/recipes/llm/grpo-replay.yaml ++policy.generation.vllm_kwargs.return_sampling_mask=true policy.generation.top_k=20\n"
    files = {
        "run.sh": script,
        "examples/configs/grpo_math_1B.yaml": GRPO_MATH,
        "examples/configs/recipes/llm/grpo-replay.yaml": recipe,
        "requirements.txt": MAIN_PIN,
    }
    result = check(tmp_path, files, "run.sh")
    assert found(result) == [("RPL003", "examples/configs/recipes/llm/grpo-replay.yaml", 5)]


def test_eval_layout_top_level_generation(tmp_path: Path) -> None:
    evaluation = """\
defaults: "eval.yaml"
generation:
  model_name: "Qwen/Qwen3-8B"
  vllm_kwargs:
    return_sampling_mask: true
"""
    base = """\
eval:
  metric: "pass@k"
generation:
  backend: "vllm"
  temperature: 0.0
  top_p: 1.0
  top_k: -1
  model_name: "Qwen/Qwen2.5-Math-1.5B-Instruct"
  vllm_cfg:
    tensor_parallel_size: 1
    logprobs_mode: processed_logprobs
"""
    files = {"examples/configs/evals/replay_eval.yaml": evaluation, "examples/configs/evals/eval.yaml": base, "requirements.txt": MAIN_PIN}
    result = check(tmp_path, files, "examples/configs/evals/replay_eval.yaml")
    assert sorted(found(result)) == [
        ("RPL101", "examples/configs/evals/eval.yaml", 5),
        ("RPL102", "examples/configs/evals/eval.yaml", 7),
    ]
    assert all("(inherited by replay_eval.yaml)" in f.message for f in result.findings)


def test_run_eval_reads_omegaconf_overrides_and_its_default_config(tmp_path: Path) -> None:
    base = "generation:\n  backend: vllm\n  temperature: 0.7\n  top_k: 20\n  vllm_cfg:\n    logprobs_mode: processed_logprobs\n"
    script = "uv run python examples/run_eval.py generation.vllm_kwargs.return_sampling_mask=true generation.top_k=-1\n"
    files = {"eval.sh": script, "examples/configs/evals/eval.yaml": base, "requirements.txt": MAIN_PIN}
    assert found(check(tmp_path, files, "eval.sh")) == [("RPL102", "eval.sh", 1)]
    # Hydra's `++` is not OmegaConf.from_cli's: such a word is a key of its own, never the mask.
    script = "uv run python examples/run_eval.py ++generation.vllm_kwargs.return_sampling_mask=true generation.top_k=-1\n"
    assert found(check(tmp_path, {**files, "eval.sh": script}, "eval.sh")) == []


def test_mask_in_a_defaults_parent_is_seen_from_the_child(tmp_path: Path) -> None:
    parent = (
        GRPO_MATH.replace("top_k: null", "top_k: 20")
        .replace("      logprobs_mode: processed_logprobs\n", "")
        .replace("vllm_kwargs: {}", "vllm_kwargs:\n      return_sampling_mask: true")
    )
    child = 'defaults: "grpo_replay_base.yaml"\npolicy:\n  generation:\n    vllm_cfg:\n      logprobs_mode: raw_logprobs\n'
    files = {"configs/grpo_replay_base.yaml": parent, "configs/grpo_child.yaml": child, "requirements.txt": MAIN_PIN}
    result = check(tmp_path, files, "configs/grpo_child.yaml")
    assert found(result) == [("RPL003", "configs/grpo_child.yaml", 5)]
    assert "(inherited by grpo_child.yaml)" in result.findings[0].message


def test_child_without_vllm_keys_reads_its_parent_and_a_plain_hydra_file_does_not(tmp_path: Path) -> None:
    parent = GRPO_MATH.replace("vllm_kwargs: {}", "vllm_kwargs:\n      return_sampling_mask: true")
    child = "defaults: grpo_base.yaml\npolicy:\n  generation:\n    top_k: 8\n"
    files = {"grpo_base.yaml": parent, "grpo_child.yaml": child, "requirements.txt": MAIN_PIN}
    assert found(check(tmp_path, files, "grpo_child.yaml")) == []  # top_k 8 over the parent's null
    child = "defaults: grpo_base.yaml\npolicy:\n  generation:\n    temperature: 0.0\n"
    assert found(check(tmp_path, {**files, "grpo_child.yaml": child}, "grpo_child.yaml")) == [
        ("RPL102", "grpo_base.yaml", 7),
        ("RPL101", "grpo_child.yaml", 4),
    ]
    hydra = "defaults:\n  - _self_\n  - policy: ppo\ngeneration:\n  max_tokens: 10\n"
    assert found(check(tmp_path, {"conf/config.yaml": hydra}, "conf/config.yaml")) == []


# -- SkyRL --------------------------------------------------------------------------------------------

# SkyRL's examples/train/algorithms/dapo/run_dapo_gsm8k.sh, trimmed, replay turned on.
DAPO = """\
set -x
uv run --isolated --extra fsdp -m {module} \\
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \\
  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\
  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\
  trainer.algorithm.overlong_buffer_len=512 {extra}
"""

MAIN_DAPO = """\
import sys

from skyrl.train.config import make_config
from skyrl.train.entrypoints.main_base import BasePPOExp
from skyrl.train.utils import validate_cfg


class DAPOExp(BasePPOExp):
    pass


def main() -> None:
    cfg = make_config().from_cli_overrides(sys.argv[1:])
    validate_cfg(cfg)
"""


def test_skyrl_example_entrypoint_from_skyrls_own_list(tmp_path: Path) -> None:
    script = DAPO.format(module="examples.train.algorithms.dapo.main_dapo", extra="")
    result = check(
        tmp_path, {"examples/train/algorithms/dapo/run_dapo_gsm8k.sh": script}, "examples/train/algorithms/dapo/run_dapo_gsm8k.sh"
    )
    assert [code for code, _, _ in found(result)] == ["RPL101", "RPL102", "RPL102"]  # SkyRL's request defaults


def test_skyrl_entrypoint_read_in_the_tree(tmp_path: Path) -> None:
    script = DAPO.format(module="my_project.entrypoints.main_dapo", extra="")
    files = {"scripts/train.sh": script, "my_project/entrypoints/main_dapo.py": MAIN_DAPO}
    assert [code for code, _, _ in found(check(tmp_path, files, "scripts/train.sh"))] == ["RPL101", "RPL102", "RPL102"]
    # A generator of its own builds the requests: SkyRL's request defaults are not assumed.
    own = MAIN_DAPO.replace("    pass\n", "    def get_generator(self, cfg, tokenizer, client):\n        return MyGenerator(cfg)\n")
    assert found(check(tmp_path, {**files, "my_project/entrypoints/main_dapo.py": own}, "scripts/train.sh")) == []
    # So does a run of its own (SkyRL's serve.py answers outside clients), but its engine is read.
    serve = MAIN_DAPO.replace("    pass\n", "    def run(self):\n        serve_forever(self.get_inference_client())\n")
    served = script.replace("trainer.algorithm.overlong_buffer_len=512", "generator.inference_engine.engine_init_kwargs.enable_dbo=true")
    files_served = {**files, "scripts/train.sh": served, "my_project/entrypoints/main_dapo.py": serve}
    assert [code for code, _, _ in found(check(tmp_path, files_served, "scripts/train.sh", "0.31.0"))] == ["RPL004"]
    # A module that does not build on main_base (verl's recipe, a script of one's own) is no launch,
    # even under one of SkyRL's example names.
    other = "import hydra\n\n@hydra.main()\ndef main(config):\n    run_ppo(config)\n"
    assert found(check(tmp_path, {**files, "my_project/entrypoints/main_dapo.py": other}, "scripts/train.sh")) == []
    script = DAPO.format(module="examples.train.algorithms.dapo.main_dapo", extra="")
    files = {"train.sh": script, "examples/train/algorithms/dapo/main_dapo.py": other}
    assert found(check(tmp_path, files, "train.sh")) == []


def test_skyrl_mtp_turns_speculative_decoding_on(tmp_path: Path) -> None:
    extra = "\\\n  generator.sampling_params.top_k=20 generator.eval_sampling_params.temperature=0.6 generator.eval_sampling_params.top_k=20 \\\n  trainer.mtp.enabled=true trainer.mtp.num_speculative_tokens=3"
    script = DAPO.format(module="skyrl.train.entrypoints.main_base", extra=extra)
    result = check(tmp_path, {"run.sh": script}, "run.sh", "0.31.0")
    assert found(result) == [("RPL002", "run.sh", 8)]
    assert "trainer.mtp.enabled=true (SkyRL 0.4.0 drafts with MTP)" in result.findings[0].message  # no pin: the newest edition
    assert found(check(tmp_path, {"run.sh": script}, "run.sh", "0.34.0")) == []  # 0.32+: only adaptive verification
    # An explicit speculative config wins over MTP's; `enabled=false` sets none.
    explicit = script.replace("trainer.mtp.enabled=true", "trainer.mtp.enabled=false")
    assert found(check(tmp_path, {"run.sh": explicit}, "run.sh", "0.31.0")) == []


# -- prime-rl main's train requests ------------------------------------------------------------------

PRIME_MAIN_PIN = (
    '[project]\nname = "a"\nversion = "0"\ndependencies = ["prime-rl @ git+https://github.com/PrimeIntellect-ai/prime-rl@559b447"]\n'
)
PRIME_RL = """\
[model]
name = "Qwen/Qwen3-8B"

[orchestrator.train.sampling]
temperature = 1.0

[[orchestrator.train.source]]
name = "math"
{math}
[[orchestrator.train.source]]
name = "code"
sampling = {{ extra_body = {{ top_k = 20 }} }}

[trainer.optim]
lr = 1e-6

[inference.vllm]
return_sampling_mask = true

[inference.env_vars]
VLLM_USE_V2_MODEL_RUNNER = "1"
"""


def test_prime_rl_main_train_requests_carry_top_k_minus_one(tmp_path: Path) -> None:
    files = {"rl.toml": PRIME_RL.format(math=""), "pyproject.toml": PRIME_MAIN_PIN}
    result = check(tmp_path, files, "rl.toml")
    assert found(result) == [("RPL102", "rl.toml", 18)]
    assert "extra_body.top_k=-1 (prime-rl main's default)" in result.findings[0].message
    files["rl.toml"] = PRIME_RL.format(math="sampling = { extra_body = { top_k = 64 } }\n")
    assert found(check(tmp_path, files, "rl.toml")) == []
    # A frozen-sourced (sft) source does not sample from this server; a plugin's algorithm may not.
    files["rl.toml"] = PRIME_RL.format(math='algo = { type = "sft", sampling = { source = "teacher" } }\n')
    assert found(check(tmp_path, files, "rl.toml")) == []
    files["rl.toml"] = PRIME_RL.format(math='algo = { type = "my-plugin" }\n')
    assert found(check(tmp_path, files, "rl.toml")) == []


def test_prime_rl_train_requests_without_a_pin_are_not_assumed(tmp_path: Path) -> None:
    assert found(check(tmp_path, {"rl.toml": PRIME_RL.format(math="")}, "rl.toml")) == []


# -- engine-argument mappings found by content in YAML, TOML and JSON -----------------------------------

ENGINE_YAML = """\
# values.yaml of a chart of one's own: its template renders `engine` as flags
image:
  repository: vllm/vllm-openai
  tag: v0.31.0
engine:
  return_sampling_mask: true
  max_model_len: 8192
  gpu_memory_utilization: 0.9
  speculative_config:
    method: ngram
    num_speculative_tokens: 4
"""


def test_yaml_engine_mapping_is_judged_on_presence_only(tmp_path: Path) -> None:
    result = check(tmp_path, {"chart/values.yaml": ENGINE_YAML}, "chart/values.yaml", "0.31.0")
    assert [code for code, _, _ in found(result)] == ["RPL002", "RPL004"]
    # no logprobs_mode is written, but the program that reads the mapping may add it: no RPL003
    without = ENGINE_YAML.replace("  speculative_config:\n    method: ngram\n    num_speculative_tokens: 4\n", "")
    assert found(check(tmp_path, {"chart/values.yaml": without}, "chart/values.yaml", "0.31.0")) == []


@pytest.mark.parametrize(
    "text",
    [
        # a CI matrix that lists values
        'test:\n  parallel:\n    matrix:\n      - return_sampling_mask: [true, false]\n        max_model_len: [4096]\n        speculative_config: ["{}"]\n',
        # ConfigMap data and environment-style strings
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  engine:\n    return_sampling_mask: true\n    max_model_len: 8192\n    enable_dbo: true\n",
        'settings:\n  return_sampling_mask: "true"\n  max_model_len: "8192"\n  enable_dbo: "true"\n',
        # SGLang's engine takes the mask too
        "sglang:\n  return_sampling_mask: true\n  model_path: m\n  tp_size: 2\n  enable_dbo: true\n  max_model_len: 8\n",
        # docker-compose services are read as services
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.31.0\n    x-engine:\n      return_sampling_mask: true\n      enable_dbo: true\n      max_model_len: 8\n",
    ],
)
def test_yaml_files_that_merely_mention_engine_keys(tmp_path: Path, text: str) -> None:
    assert found(check(tmp_path, {"conf.yaml": text}, "conf.yaml", "0.31.0")) == []


def test_toml_engine_tables(tmp_path: Path) -> None:
    text = '[engine]\nmodel = "Qwen/Qwen3-8B"\nreturn_sampling_mask = true\nmax_model_len = 8192\nlogits_processors = ["my.Proc"]\n'
    assert found(check(tmp_path, {"serve.toml": text}, "serve.toml")) == [("RPL001", "serve.toml", 5)]
    sglang = text.replace('model = "Qwen/Qwen3-8B"', 'model_path = "Qwen/Qwen3-8B"\ntp_size = 2')
    assert found(check(tmp_path, {"serve.toml": sglang}, "serve.toml")) == []
    # a prime-rl file is its adapter's alone: its [inference.vllm] table is not read twice
    prime = PRIME_RL.format(math="").replace(
        "return_sampling_mask = true", "return_sampling_mask = true\nmax_model_len = 8\nlogits_processors = ['p.P']"
    )
    assert [code for code, _, _ in found(check(tmp_path, {"rl.toml": prime}, "rl.toml"))] == ["RPL001"]


# A launcher of one's own: `AsyncEngineArgs(**json.load(f)["engine"])` for each worker.
ENGINE_JSON = """\
{
  "experiment": "grpo-qwen3",
  "engine": {
    "model": "Qwen/Qwen3-8B",
    "tensor_parallel_size": 2,
    "return_sampling_mask": true,
    "speculative_config": {"method": "ngram", "num_speculative_tokens": 4, "enable_adaptive_verification": true}
  },
  "workers": [
    {"name": "a", "engine": {"max_model_len": 4096, "enforce_eager": true, "return_sampling_mask": 1, "logprobs_mode": "raw_logits"}}
  ]
}
"""


def test_json_engine_objects_are_judged_on_presence_only(tmp_path: Path) -> None:
    result = check(tmp_path, {"conf/rollout.json": ENGINE_JSON}, "conf/rollout.json")
    assert found(result) == [("RPL002", "conf/rollout.json", 7), ("RPL003", "conf/rollout.json", 10)]
    rpl003 = next(f for f in result.findings if f.code == "RPL003")
    assert (rpl003.span.start_line, rpl003.span.start_col) == (10, ENGINE_JSON.splitlines()[9].index('"raw_logits"') + 1)
    assert '`"logprobs_mode": "raw_logits"`' in rpl003.message
    # nothing the program reading it may add is assumed: no logprobs_mode is no RPL003
    quiet = ENGINE_JSON.replace(', "enable_adaptive_verification": true', "").replace(', "logprobs_mode": "raw_logits"', "")
    assert found(check(tmp_path, {"conf/rollout.json": quiet}, "conf/rollout.json")) == []


@pytest.mark.parametrize(
    "text",
    [
        # the mask written as a string, as environment-style settings are
        '{"engine": {"return_sampling_mask": "true", "max_model_len": 8, "logprobs_mode": "raw_logits"}}',
        # SGLang's engine takes the mask too
        '{"return_sampling_mask": true, "model_path": "m", "tp_size": 2, "logprobs_mode": "raw_logits", "enforce_eager": true}',
        # a JSON schema or a results file that names the keys
        '{"properties": {"return_sampling_mask": {"type": "boolean", "default": true}, "logprobs_mode": {"type": "string"}}}',
        # JSON with comments (VS Code's settings, tsconfig) is not JSON: nothing to read, nothing said
        '// engine\n{"return_sampling_mask": true, "max_model_len": 8, "logprobs_mode": "raw_logits", "enforce_eager": true}',
    ],
)
def test_json_files_that_merely_mention_engine_keys(tmp_path: Path, text: str) -> None:
    assert found(check(tmp_path, {"conf.json": text}, "conf.json")) == []


def test_json_in_utf16_is_read_and_large_json_data_is_skipped_without_a_note(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "rollout.json").write_bytes(ENGINE_JSON.encode("utf-16"))
    assert [code for code, _, _ in found(check(tmp_path, {}, "rollout.json"))] == ["RPL002", "RPL003"]
    (tmp_path / "tokenizer.json").write_text('{"vocab": {' + ", ".join(f'"w{i}": {i}' for i in range(600_000)) + "}}")
    large = check(tmp_path, {}, "tokenizer.json")
    assert (large.findings, large.notes) == ([], [])


def test_json_findings_get_no_suppression_comment(tmp_path: Path) -> None:
    from replaylint.engine.suppression_places import suppression_edits

    finding = check(tmp_path, {"rollout.json": ENGINE_JSON}, "rollout.json").findings[0]
    assert list(suppression_edits(finding, ENGINE_JSON, finding.code)) == []


# -- verl: Hydra refuses an override of a key verl's configuration does not have ----------------------

# verl's examples/grpo_trainer/run_qwen2-7b.sh, with replay turned on by the user.
VERL_GRPO = """\
set -x
python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=$HOME/data/gsm8k/train.parquet \\
    actor_rollout_ref.model.path=Qwen/Qwen2-7B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    {mask} \\
    actor_rollout_ref.rollout.top_k=50 \\
    actor_rollout_ref.rollout.val_kwargs.temperature=1.0 \\
    actor_rollout_ref.rollout.val_kwargs.top_k=50 \\
    trainer.logger='["console","wandb"]' {rest}
"""
MASK_KEY = "actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask"


@pytest.mark.parametrize(
    ("mask", "rest"),
    [
        (f"{MASK_KEY}=True", ""),
        (f"{MASK_KEY}=True", '"$@"'),  # judged as written: the script run without arguments
        (f"'{MASK_KEY}=True'", "trainer.n_gpus_per_node=$GPUS"),  # quoted, and a value from the environment
        (f"{MASK_KEY}=$REPLAY", ""),  # the key decides, whatever the value
    ],
)
def test_verl_override_of_a_key_verl_does_not_have_is_hydras_refusal(tmp_path: Path, mask: str, rest: str) -> None:
    result = check(tmp_path, {"run.sh": VERL_GRPO.format(mask=mask, rest=rest), "requirements.txt": "verl==0.9.1\n"}, "run.sh")
    assert found(result) == [("RPL204", "run.sh", 7)]
    word = mask.strip("'")
    assert f"says \"Could not override '{MASK_KEY}'. To append to your config use +{word}\"" in result.findings[0].message, result.findings[
        0
    ].message
    assert "(verl 0.9.1)" in result.findings[0].message


@pytest.mark.parametrize(
    "mask",
    [
        f"+{MASK_KEY}=True",
        f"++{MASK_KEY}=true",
        "+actor_rollout_ref.rollout.engine_kwargs.vllm='{return_sampling_mask:true}'",  # `+` on a mapping merges
        "++actor_rollout_ref.rollout.engine_kwargs='{vllm:{return_sampling_mask:true}}'",
    ],
)
def test_verl_mask_with_hydras_plus_starts(tmp_path: Path, mask: str) -> None:
    # accepted: vLLM sees the mask with verl's processed_logprobs and the requests fixed
    assert found(check(tmp_path, {"run.sh": VERL_GRPO.format(mask=mask, rest="")}, "run.sh")) == []


@pytest.mark.parametrize(
    ("word", "key"),
    [
        # a mapping value merged into verl's empty engine_kwargs.vllm: the new key is refused
        ("actor_rollout_ref.rollout.engine_kwargs.vllm='{return_sampling_mask:true}'", "actor_rollout_ref.rollout.engine_kwargs.vllm"),
        # vLLM's kebab spelling is no key of verl's either
        ("actor_rollout_ref.rollout.engine_kwargs.vllm.return-sampling-mask=true", f"{MASK_KEY[:-21]}.return-sampling-mask"),
    ],
)
def test_verl_other_spellings_hydra_refuses(tmp_path: Path, word: str, key: str) -> None:
    result = check(tmp_path, {"run.sh": VERL_GRPO.format(mask=word, rest="")}, "run.sh")
    assert found(result) == [("RPL204", "run.sh", 7)]
    assert f"Could not override '{key}'" in result.findings[0].message


def test_verl_plus_on_a_key_verl_has_is_refused(tmp_path: Path) -> None:
    script = VERL_GRPO.format(mask=f"+{MASK_KEY}=True", rest="").replace(
        "actor_rollout_ref.rollout.top_k=50", "+actor_rollout_ref.rollout.top_k=50"
    )
    result = check(tmp_path, {"run.sh": script}, "run.sh")
    assert found(result) == [("RPL204", "run.sh", 8)]
    assert (
        "Could not append to config. An item is already at 'actor_rollout_ref.rollout.top_k'. Either remove + prefix: "
        "'actor_rollout_ref.rollout.top_k=50' Or add a second + to add or override 'actor_rollout_ref.rollout.top_k': "
        "'++actor_rollout_ref.rollout.top_k=50'"
    ) in result.findings[0].message


def test_verl_refusal_of_another_key_first_leaves_nothing_to_judge(tmp_path: Path) -> None:
    # Hydra stops at the first word it refuses: verl never starts, and that word is not replay's
    script = VERL_GRPO.format(mask=f"actor_rollout_ref.rollout.max_num_seqs_typo=8 \\\n    {MASK_KEY}=True", rest="")
    assert found(check(tmp_path, {"run.sh": script}, "run.sh")) == []


@pytest.mark.parametrize(
    "rest",
    [
        "--config-name=grpo_replay",  # the user's own configuration may have the key
        "--config-path=$PWD/conf",
        "$EXTRA_ARGS",  # words we cannot read may name one
        "actor_rollout_ref/rollout=my_rollout",  # a config group: the file chosen may add the key
    ],
)
def test_verl_refusal_rests_on_the_packaged_configuration(tmp_path: Path, rest: str) -> None:
    result = check(tmp_path, {"run.sh": VERL_GRPO.format(mask=f"{MASK_KEY}=True", rest=rest)}, "run.sh")
    assert "RPL204" not in [code for code, _, _ in found(result)]


def test_verl_override_earlier_word_adds_the_key(tmp_path: Path) -> None:
    # `+` adds the key once; a later word without `+` then overrides it
    mask = f"+{MASK_KEY}=False \\\n    {MASK_KEY}=True"
    assert found(check(tmp_path, {"run.sh": VERL_GRPO.format(mask=mask, rest="")}, "run.sh")) == []


# -- the environment around a framework launch is the engine's -------------------------------------

RUNNER_V1 = "export VLLM_USE_V2_MODEL_RUNNER=0\n"
# TRL's docs (GRPO, "Colocate mode") and trl/scripts/grpo.py's own usage line
TRL_COLOCATE = "accelerate launch --config_file examples/accelerate_configs/deepspeed_zero3.yaml trl/scripts/grpo.py \\\n    --model_name_or_path Qwen/Qwen2-0.5B-Instruct --dataset_name trl-lib/tldr {flags}\n"


@pytest.mark.parametrize(
    "command",
    [
        TRL_COLOCATE.format(flags="--use_vllm --vllm_mode colocate"),
        TRL_COLOCATE.format(flags="--use-vllm true --vllm-mode=colocate --output_dir $OUT"),
        "trl grpo --model_name_or_path Qwen/Qwen2-0.5B-Instruct --use_vllm --vllm_mode colocate --num_processes 2\n",
        "accelerate launch --num-processes=8 --multi_gpu -m trl.scripts.rloo --use_vllm True --vllm_mode colocate\n",
        "torchrun --nproc_per_node 8 --standalone trl/scripts/grpo.py --use_vllm --vllm_mode colocate\n",
        "python -m torch.distributed.run --nproc-per-node=2 -m trl.scripts.grpo --use_vllm --vllm_mode colocate\n",
        "uv run python $TRL_ROOT/trl/scripts/grpo.py --use_vllm --vllm_mode colocate\n",
        # open-instruct's engines get the driver's environment (`ray.init(runtime_env={"env_vars": ...})`)
        "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-0.6B --vllm_num_engines 2\n",
    ],
)
def test_runner_variable_around_an_in_process_engine_is_the_engines(tmp_path: Path, command: str) -> None:
    files = {"train.sh": RUNNER_V1 + command}
    assert found(check(tmp_path, files, "train.sh")) == [("RPL206", "train.sh", 1)]
    # 0.28-0.33 refuse V1 only with the mask, which no flag of these trainers turns on
    assert found(check(tmp_path, files, "train.sh", "0.33.0")) == []


@pytest.mark.parametrize(
    "command",
    [
        TRL_COLOCATE.format(flags="--use_vllm --vllm_mode server"),  # the engine is `trl vllm-serve`'s, elsewhere
        TRL_COLOCATE.format(flags="--vllm_mode colocate"),  # no vLLM: generation by transformers
        TRL_COLOCATE.format(flags="--use_vllm false --vllm_mode colocate"),
        TRL_COLOCATE.format(flags="--use_vllm --config grpo.yaml"),  # the mode is the file's (not read)
        TRL_COLOCATE.format(flags="--use_vllm --vllm_mode colocate $EXTRA_ARGS"),  # may say otherwise
        TRL_COLOCATE.format(flags="--use_vllm $USE_VLLM --vllm_mode colocate"),
        "accelerate launch train_grpo.py --use_vllm --vllm_mode colocate\n",  # the user's own program: not followed
        "accelerate launch --bogus-option trl/scripts/grpo.py --use_vllm --vllm_mode colocate\n",
        "trl sft --model_name_or_path Qwen/Qwen2-0.5B --use_vllm --vllm_mode colocate\n",  # SFT starts no vLLM
        "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-0.6B --vllm_num_engines 0\n",
    ],
)
def test_runner_variable_around_a_launch_that_starts_no_engine_we_know(tmp_path: Path, command: str) -> None:
    assert found(check(tmp_path, {"train.sh": RUNNER_V1 + command}, "train.sh")) == []


TRL_JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: grpo-colocate
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: trainer
          image: huggingface/trl:1.16.0
          command: ["accelerate", "launch", "--num_processes", "8", "trl/scripts/grpo.py"]
          args: ["--model_name_or_path", "Qwen/Qwen2.5-7B", "--use_vllm", "--vllm_mode", "colocate"]
          env:
            - name: HF_HOME
              value: /cache
            - name: VLLM_USE_V2_MODEL_RUNNER
              value: "0"
"""
OPEN_INSTRUCT_COMPOSE = """\
services:
  grpo:
    image: open-instruct:latest
    environment:
      - VLLM_USE_V2_MODEL_RUNNER=0
    command: >
      uv run open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-0.6B
      --vllm_num_engines 1 --vllm_enforce_eager
"""


@pytest.mark.parametrize(("name", "text", "line"), [("job.yaml", TRL_JOB, 17), ("compose.yaml", OPEN_INSTRUCT_COMPOSE, 5)])
def test_kubernetes_and_compose_environment_around_a_framework_launch(tmp_path: Path, name: str, text: str, line: int) -> None:
    assert found(check(tmp_path, {name: text}, name)) == [("RPL206", name, line)]
    quiet = text.replace('"0"', '"1"').replace("=0", "=1")
    assert found(check(tmp_path, {name: quiet}, name)) == []


# TRL's docs (GRPO trainer, "Speed up training with vLLM"): a program of the user's own
TRAIN_GRPO = """\
from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")
training_args = GRPOConfig(output_dir="Qwen2-0.5B-GRPO", use_vllm=True, vllm_mode="{mode}")
trainer = GRPOTrainer(model="Qwen/Qwen2-0.5B-Instruct", reward_funcs="accuracy_reward", args=training_args, train_dataset=dataset)
trainer.train()
"""


@pytest.mark.parametrize(
    ("command", "mode", "expected"),
    [
        ("accelerate launch --num_processes 4 train_grpo.py", "colocate", ["RPL206"]),
        ("torchrun --nproc-per-node=4 train_grpo.py --seed 1", "colocate", ["RPL206"]),
        ("python train_grpo.py", "colocate", ["RPL206"]),
        ("accelerate launch train_grpo.py", "server", []),  # the engine is a server's, elsewhere
        ("accelerate launch /app/train_grpo.py", "colocate", []),  # not in the tree
        ("accelerate launch other.py", "colocate", []),  # another program
    ],
)
def test_runner_variable_around_a_users_trl_program(tmp_path: Path, command: str, mode: str, expected: list[str]) -> None:
    files = {"scripts/train.sh": RUNNER_V1 + command + "\n", "train_grpo.py": TRAIN_GRPO.format(mode=mode), "other.py": "print(1)\n"}
    assert [code for code, _, _ in found(check(tmp_path, files, "scripts/train.sh"))] == expected


VERL_JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: verl-grpo
spec:
  template:
    spec:
      containers:
        - name: trainer
          image: verlai/verl:vllm011.latest
          command: ["python3", "-m", "verl.trainer.main_ppo"]
          args:
            - actor_rollout_ref.model.path=Qwen/Qwen2.5-7B
            - actor_rollout_ref.rollout.name=vllm
            - {plus}actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True
            - actor_rollout_ref.rollout.top_k=50
            - actor_rollout_ref.rollout.val_kwargs.top_k=50
            - actor_rollout_ref.rollout.val_kwargs.temperature=1.0
          env:
            - name: VLLM_USE_V2_MODEL_RUNNER
              value: "0"
"""


def test_verl_job_refused_by_hydra_starts_no_engine(tmp_path: Path) -> None:
    # without `+`, Hydra stops verl: the runner variable never reaches an engine
    result = check(tmp_path, {"job.yaml": VERL_JOB.format(plus="")}, "job.yaml")
    assert found(result) == [("RPL204", "job.yaml", 15)]
    # with it, the Job's env is the engine's: 0.34 refuses V1, 0.33 refuses it with the mask
    assert found(check(tmp_path, {"job.yaml": VERL_JOB.format(plus="+")}, "job.yaml")) == [("RPL206", "job.yaml", 20)]
    assert found(check(tmp_path, {"job.yaml": VERL_JOB.format(plus="+")}, "job.yaml", "0.33.0")) == [("RPL004", "job.yaml", 20)]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("trl grpo --config recipes/grpo.yaml", ["RPL206"]),
        ("accelerate launch trl/scripts/grpo.py --config=recipes/grpo.yaml --output_dir out", ["RPL206"]),
        ("trl grpo --config recipes/grpo.yaml --vllm_mode server", []),  # the command line wins
        ("trl grpo --config recipes/missing.yaml --use_vllm", []),  # a file we cannot read may set the mode
    ],
)
def test_trl_colocate_from_its_config_file(tmp_path: Path, command: str, expected: list[str]) -> None:
    recipe = "model_name_or_path: Qwen/Qwen2-0.5B-Instruct\nuse_vllm: true\nvllm_mode: colocate\nlearning_rate: 1.0e-6\n"
    files = {"train.sh": RUNNER_V1 + command + "\n", "recipes/grpo.yaml": recipe}
    assert [code for code, _, _ in found(check(tmp_path, files, "train.sh"))] == expected
