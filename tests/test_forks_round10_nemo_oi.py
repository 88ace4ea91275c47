"""Precision of what round 10 of the held-out forks taught the NeMo-RL and open-instruct fork readers
(tests/test_forks_heldout10.py): each test takes a round-10 tree, checks what it reports, and changes it so
that the value may not reach vLLM, or does, or reaches it another way.

NeMo-RL: a write to the engine dict after `llm_kwargs = dict(...)` in `_load_model`, under a test of the
recipe's `vllm_cfg` (`if self.cfg["vllm_cfg"].get("return_sampling_mask", False): llm_kwargs[...] = True`),
is decided by the recipe (its `defaults:` parents and the launch's overrides); the request's `top_k: null`
stays where grpo_math_1B.yaml writes it, the message naming the switch. open-instruct: a write to the actor's
engine keywords under a test of an environment variable is decided by the literal `env_vars` of the actor's
own `runtime_env` (Ray sets them in the actor's process); a variable only the outside world sets keeps the
launch open. The request's `extra_body` `top_k` read through a name bound to the `SamplingConfig` dict's
`pop("top_k")` is that dataclass field's default."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout10 import CORPUS
from test_forks_round2_readers import edit, findings
from test_forks_round7_readers import checked


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


NEMO_CASE = "nemo_recipe_defaults_mask_top_k_null"
NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_RECIPE = "examples/configs/recipes/llm/grpo-qwen2.5-math-1.5b-replay-1n8g.yaml"
NEMO_LAUNCH = "examples/scripts/run_grpo_replay.sh"
NEMO_TEST = '        if self.cfg["vllm_cfg"].get("return_sampling_mask", False):\n'
NEMO_WRITE = '            llm_kwargs["return_sampling_mask"] = True\n'
SWITCH = "      return_sampling_mask: true\n"
UNBOUNDED = {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)}  # `top_k: null`, sent as -1


def test_nemo_recipe_switch_turns_the_load_model_write_on(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    (message,) = [item["message"] for item in checked("--no-cache", str(root))]
    assert "vllm_worker.py:605 sets" in message
    # run_grpo_replay.sh (in examples/scripts/, root-relative paths) is the recipe's launch since round 41
    assert "as `return_sampling_mask: true (loaded by run_grpo_replay.sh)` asks" in message
    assert "inherited by grpo-qwen2.5-math-1.5b-replay-1n8g.yaml" in message
    assert findings(root) == UNBOUNDED
    edit(root / NEMO_RECIPE, "    temperature: 1.0\n", "    temperature: 1.0\n    top_k: 50\n")
    assert findings(root) == set()  # the recipe bounds top_k


def test_nemo_recipe_switch_off_or_left_to_the_codes_default_is_clean(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "      return_sampling_mask: false\n")
    assert findings(root) == set()
    edit(root / NEMO_RECIPE, "      return_sampling_mask: false\n", "")
    assert findings(root) == set()  # `.get("return_sampling_mask", False)`


def test_nemo_switch_from_the_launchs_hydra_override(tmp_path: Path) -> None:
    # a launch at the root (NeMo-RL's scripts run from there): its paths are read from its folder
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "")
    (root / NEMO_LAUNCH).rename(root / "run_replay.sh")
    assert findings(root) == set()
    override = "    logger.wandb_enabled=True \\\n    ++policy.generation.vllm_cfg.return_sampling_mask=true\n"
    edit(root / "run_replay.sh", "    logger.wandb_enabled=True\n", override)
    assert findings(root) == UNBOUNDED
    edit(root / "run_replay.sh", "return_sampling_mask=true", "return_sampling_mask=false")
    assert findings(root) == set()


def test_nemo_other_spellings_of_the_test_and_the_write(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_TEST, '        if self.cfg["vllm_cfg"]["return_sampling_mask"]:\n')
    assert findings(root) == UNBOUNDED  # a subscript: the recipe gives the key
    edit(root / NEMO_WORKER, NEMO_WRITE, "            llm_kwargs.update(return_sampling_mask=True)\n")
    assert findings(root) == UNBOUNDED
    edit(
        root / NEMO_WORKER,
        '        if self.cfg["vllm_cfg"]["return_sampling_mask"]:\n',
        '        if self.cfg["vllm_cfg"].get("return_sampling_mask") and not self.cfg["vllm_cfg"].get("async_engine", False):\n',
    )
    assert findings(root) == UNBOUNDED


def test_nemo_subscript_test_without_the_recipes_key_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_TEST, '        if self.cfg["vllm_cfg"]["return_sampling_mask"]:\n')
    edit(root / NEMO_RECIPE, SWITCH, "")
    assert findings(root) == set()


def test_nemo_switch_not_resolved_here_or_a_test_not_of_the_recipe_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "      return_sampling_mask: ${oc.env:SAMPLING_REPLAY,false}\n")
    assert findings(root) == set()
    root = tree(NEMO_CASE, tmp_path / "env")
    edit(root / NEMO_WORKER, NEMO_TEST, '        if os.environ.get("SAMPLING_REPLAY") == "1":\n')
    assert findings(root) == set()


def test_nemo_a_later_unconditional_write_has_the_last_word(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_WRITE, NEMO_WRITE + '        llm_kwargs["return_sampling_mask"] = False\n')
    assert findings(root) == set()


OI_CASE = "oi_runtime_env_mask_switch_sampling_config_top_k_default"
OI_ENGINES = "open_instruct/vllm_utils.py"
OI_LAUNCH = "scripts/train/debug/grpo_fast_replay.sh"
OI_TEST = '        if os.environ.get("OI_RETURN_SAMPLING_MASK") == "1":\n'
OI_ENV = '                        "OI_RETURN_SAMPLING_MASK": "1",\n'
OI_DEFAULT = {("RPL102", OI_ENGINES, 147)}  # `top_k: int = -1`, sent in `extra_body`


def test_oi_runtime_env_switch_turns_the_actors_write_on(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    (message,) = [item["message"] for item in checked("--no-cache", str(root))]
    assert "vllm_utils.py:690 sets" in message and "as the actor's runtime_env OI_RETURN_SAMPLING_MASK=1 (line 1273) asks" in message
    assert findings(root) == OI_DEFAULT
    edit(root / OI_ENGINES, "    top_k: int = -1\n", "    top_k: int = 50\n")
    assert findings(root) == set()


def test_oi_other_spellings_of_the_environment_test(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    for test in (
        '        if os.getenv("OI_RETURN_SAMPLING_MASK", "0") == "1":\n',
        '        if os.environ["OI_RETURN_SAMPLING_MASK"] in ("1", "true"):\n',
        '        if os.environ.get("OI_RETURN_SAMPLING_MASK"):\n',
    ):
        edit(root / OI_ENGINES, OI_TEST, test)
        assert findings(root) == OI_DEFAULT, test
        OI_ENGINES_TEXT = (root / OI_ENGINES).read_text()
        (root / OI_ENGINES).write_text(OI_ENGINES_TEXT.replace(test, OI_TEST))


def test_oi_runtime_env_as_a_dict(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_ENGINES, "                runtime_env=ray.runtime_env.RuntimeEnv(\n", "                runtime_env=dict(\n")
    assert findings(root) == OI_DEFAULT
    edit(root / OI_ENGINES, "                runtime_env=dict(\n", "                runtime_env=make_runtime_env(\n")
    assert findings(root) == set()  # a helper of the fork's may change what it is given
    root = tree(OI_CASE, tmp_path / "dict")
    text = (root / OI_ENGINES).read_text()
    start = text.index("                runtime_env=ray.runtime_env.RuntimeEnv(\n")
    end = text.index("                ),\n", start) + len("                ),\n")
    block = text[start:end].replace("ray.runtime_env.RuntimeEnv(\n                    env_vars={", '{\n                    "env_vars": {')
    block = block.replace("                    }\n                ),\n", "                    }\n                },\n")
    (root / OI_ENGINES).write_text(text[:start] + block + text[end:])
    assert findings(root) == OI_DEFAULT


def test_oi_variable_only_the_outside_world_sets_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_ENGINES, OI_ENV, "")
    edit(root / OI_LAUNCH, "export TORCH_COMPILE_DISABLE=1\n", "export TORCH_COMPILE_DISABLE=1\nexport OI_RETURN_SAMPLING_MASK=1\n")
    assert findings(root) == set()


def test_oi_runtime_env_value_off_is_clean(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_ENGINES, OI_ENV, '                        "OI_RETURN_SAMPLING_MASK": "0",\n')
    assert findings(root) == set()


def test_oi_runtime_env_value_not_known_here_keeps_the_launch_open(tmp_path: Path) -> None:
    for given in (
        '                        "OI_RETURN_SAMPLING_MASK": os.environ.get("OI_MASK", "0"),\n',
        '                        "OI_RETURN_SAMPLING_MASK": "${OI_MASK}",\n',  # Ray expands it from the node's
        OI_ENV + "                        **extra_env_vars,\n",
    ):
        root = tree(OI_CASE, tmp_path / str(len(given)))
        edit(root / OI_ENGINES, OI_ENV, given)
        assert findings(root) == set(), given


def test_oi_variable_the_module_writes_itself_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_ENGINES, OI_TEST, '        os.environ["OI_RETURN_SAMPLING_MASK"] = self.mask_switch\n' + OI_TEST)
    assert findings(root) == set()


def test_oi_top_k_name_bound_to_a_parameter_or_literal(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(
        root / OI_ENGINES,
        '            top_k = params_dict.pop("top_k")\n',
        '            top_k = params_dict.pop("top_k")\n            top_k = 20\n',
    )
    assert findings(root) == set()  # bound twice: not read here
    root = tree(OI_CASE, tmp_path / "literal")
    edit(
        root / OI_ENGINES,
        '            top_k = params_dict.pop("top_k")\n',
        '            params_dict.pop("top_k")\n            top_k = -1\n',
    )
    assert findings(root) == {("RPL102", OI_ENGINES, 1024)}  # the literal the request sends, at its `extra_body` key
