"""The tree is the framework: a NeMo-RL or open-instruct fork in the checked tree is judged by its
own code (the engine arguments its worker or actor builds, the environment it writes, the
requests it sends), not by the built-in edition, and the message names the fork's line.

The trees in tests/data/forks/ are trimmed copies of the real files (NVIDIA-NeMo/RL @ 7ea279a,
allenai/open-instruct @ e6c3044a, cited in each); each test makes the edit a user makes to turn
replay on, as a fork would, and checks what vLLM 0.34.0 would say of the launches there.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from replaylint.cli.main import main

FORKS = Path(__file__).parent / "data" / "forks"
WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
CONFIG = "examples/configs/grpo_math_1B.yaml"
ENGINES = "open_instruct/vllm_utils.py"
SCRIPT = "scripts/train/debug/grpo_fast.sh"
MASK_KEYWORD = ("            disable_log_stats=False,\n", "            disable_log_stats=False,\n            return_sampling_mask=True,\n")
TOP_K = ("    top_k: null\n", "    top_k: 20\n")
REMOTE_MASK = (
    '                logprobs_mode="processed_logprobs",\n',
    '                logprobs_mode="processed_logprobs",\n                return_sampling_mask=True,\n',
)
EXTRA_TOP_K = ('            "min_tokens": min_tokens,\n', '            "min_tokens": min_tokens,\n            "top_k": 20,\n')


def fork(tmp_path: Path, framework: str, **edits: tuple[str, str] | list[tuple[str, str]]) -> Path:
    """A copy of the framework's trimmed tree with `edits` (file -> (old, new) pairs) made."""
    tree = tmp_path / framework
    shutil.copytree(FORKS / framework, tree)
    for name, pairs in edits.items():
        path = tree / {"worker": WORKER, "config": CONFIG, "engines": ENGINES, "script": SCRIPT}[name]
        text = path.read_text()
        for old, new in pairs if isinstance(pairs, list) else [pairs]:
            assert old in text, (name, old)
            text = text.replace(old, new, 1)
        path.write_text(text)
    return tree


def findings(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--isolated", "--no-cache", "--output-format", "json", "--target-vllm", "0.34.0", str(tree)])
    return json.loads(out.getvalue())


def places(found: list[dict], tree: Path) -> list[tuple[str, str, int]]:
    return sorted(
        (item["code"], Path(item["filename"]).resolve().relative_to(tree.resolve()).as_posix(), item["location"]["row"]) for item in found
    )


def line_of(tree: Path, relative: str, text: str) -> int:
    return next(number for number, line in enumerate((tree / relative).read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("framework", ["nemo_rl", "open_instruct"])
def test_the_unmodified_framework_is_clean(framework: str, tmp_path: Path) -> None:
    assert findings(fork(tmp_path, framework)) == []


# -- NeMo-RL ---------------------------------------------------------------------------------------


def test_a_mask_in_the_workers_engine_dict_judges_the_configs_requests(tmp_path: Path) -> None:
    """The fork adds `return_sampling_mask=True` to `llm_kwargs = dict(...)`; NeMo-RL's own
    default config keeps `top_k: null` (NeMo-RL sends -1): every request is refused, as run_grpo.sh
    runs the config (the config is judged by the launch that reads it, not a second time on its
    own), and the message names the fork's line and the launch."""
    tree = fork(tmp_path, "nemo_rl", worker=MASK_KEYWORD)
    found = findings(tree)
    top_k = line_of(tree, CONFIG, "top_k: null")
    assert places(found, tree) == [("RPL102", CONFIG, top_k)]
    assert "(loaded by run_grpo.sh)" in found[0]["message"]
    mask = line_of(tree, WORKER, "return_sampling_mask=True")
    assert all("the forked NeMo-RL's " in item["message"] for item in found)
    assert all(f"{WORKER}:{mask} sets return_sampling_mask=True" in item["message"] for item in found)


def test_a_fork_that_bounds_top_k_in_its_config_is_clean(tmp_path: Path) -> None:
    assert findings(fork(tmp_path, "nemo_rl", worker=MASK_KEYWORD, config=TOP_K)) == []


def test_the_workers_environment_write_reaches_every_launch(tmp_path: Path) -> None:
    """`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` in the worker: vLLM 0.34.0 refuses
    it before it builds anything, for the config and the script alike: one finding, at the
    worker's line that decides."""
    write = (
        '        os.environ["VLLM_USE_V1"] = "1"\n',
        '        os.environ["VLLM_USE_V1"] = "1"\n        os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
    )
    tree = fork(tmp_path, "nemo_rl", worker=[MASK_KEYWORD, write], config=TOP_K)
    found = findings(tree)
    assert places(found, tree) == [("RPL206", WORKER, line_of(tree, WORKER, "os.environ.setdefault"))]
    assert all("the forked NeMo-RL's" in item["message"] and "VLLM_USE_V2_MODEL_RUNNER" in item["message"] for item in found)


@pytest.mark.parametrize("named", [CONFIG, "run_grpo.sh", WORKER])
def test_a_forks_line_is_reported_whichever_file_pre_commit_names(named: str, tmp_path: Path) -> None:
    """pre-commit names the changed file only. The config, which run_grpo.sh reads, gets the
    launch's findings at the fork's lines as well as its own; the launch and the worker too."""
    raw = (
        "        self._create_engine(llm_kwargs)\n",
        '        llm_kwargs.update(return_sampling_mask=True, logprobs_mode="raw_logprobs")\n        self._create_engine(llm_kwargs)\n',
    )
    tree = fork(tmp_path, "nemo_rl", worker=raw, config=TOP_K)
    (tree / ".git").mkdir()  # the repository a named file's run reads in
    assert places(findings(tree / named), tree) == [("RPL003", WORKER, line_of(tree, WORKER, "raw_logprobs"))]


def test_a_setdefault_gives_way_to_the_configs_env_vars(tmp_path: Path) -> None:
    """`vllm_cfg.env_vars` reaches the worker's environment first: its setdefault does nothing."""
    write = (
        '        os.environ["VLLM_USE_V1"] = "1"\n',
        '        os.environ["VLLM_USE_V1"] = "1"\n        os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
    )
    env_vars = (
        "      skip_tokenizer_init: false\n",
        '      skip_tokenizer_init: false\n      env_vars:\n        VLLM_USE_V2_MODEL_RUNNER: "1"\n',
    )
    tree = fork(tmp_path, "nemo_rl", worker=[MASK_KEYWORD, write], config=[TOP_K, env_vars])
    found = findings(tree)  # vLLM 0.34.0 warns of the redundant `1`, and nothing else
    assert {(item["code"], item["severity"]) for item in found} == {("RPL206", "warning")}
    assert all('VLLM_USE_V2_MODEL_RUNNER: "1"' in item["message"] for item in found)


def test_a_fork_that_hard_codes_its_logprobs_mode_refuses_the_same_key_in_vllm_kwargs(tmp_path: Path) -> None:
    """The v0.7.0 spelling, in a fork: `logprobs_mode="processed_logprobs"` in the dict call and
    `vllm_kwargs.logprobs_mode` in the config is Python's TypeError, at the config's key."""
    hard_coded = (
        "            disable_log_stats=False,\n",
        '            disable_log_stats=False,\n            return_sampling_mask=True,\n            logprobs_mode="processed_logprobs",\n',
    )
    kwargs = ("    vllm_kwargs: {}\n", "    vllm_kwargs:\n      logprobs_mode: processed_logprobs\n")
    tree = fork(tmp_path, "nemo_rl", worker=hard_coded, config=[TOP_K, kwargs])
    found = findings(tree)
    assert {item["code"] for item in found} == {"RPL204"}
    assert all("got multiple values for keyword argument 'logprobs_mode'" in item["message"] for item in found)


def test_a_duplicate_that_names_no_replay_setting_is_not_replays_business(tmp_path: Path) -> None:
    kwargs = ("    vllm_kwargs: {}\n", "    vllm_kwargs:\n      enable_sleep_mode: false\n")
    assert findings(fork(tmp_path, "nemo_rl", worker=MASK_KEYWORD, config=[TOP_K, kwargs])) == []


def test_a_write_after_the_configured_mode_decides(tmp_path: Path) -> None:
    """`llm_kwargs.update(...)` after NeMo-RL applies `vllm_cfg.logprobs_mode`: the fork's value
    stands, whatever the config says."""
    update = (
        "        self._create_engine(llm_kwargs)\n",
        '        llm_kwargs.update(return_sampling_mask=True, logprobs_mode="raw_logprobs")\n        self._create_engine(llm_kwargs)\n',
    )
    tree = fork(tmp_path, "nemo_rl", worker=update, config=TOP_K)
    found = findings(tree)
    assert {item["code"] for item in found} == {"RPL003"}
    assert all("the forked NeMo-RL's" in item["message"] for item in found)


def test_a_mask_written_under_a_condition_is_not_assumed(tmp_path: Path) -> None:
    maybe = (
        "        self._create_engine(llm_kwargs)\n",
        '        if self.cfg.get("sampling_mask_replay"):\n            llm_kwargs["return_sampling_mask"] = True\n        self._create_engine(llm_kwargs)\n',
    )
    assert findings(fork(tmp_path, "nemo_rl", worker=maybe)) == []


def test_a_change_in_the_worker_re_judges_the_config(tmp_path: Path) -> None:
    """Pre-commit names the changed file only: the config's result depends on the worker it read
    (found in the config's repository)."""
    tree = fork(tmp_path, "nemo_rl")
    (tree / ".git").mkdir()
    cache = tmp_path / "cache"

    def run() -> list[str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(
                ["check", "--isolated", "--cache-dir", str(cache), "--output-format", "json", "--target-vllm", "0.34.0", str(tree / CONFIG)]
            )
        return [item["code"] for item in json.loads(out.getvalue())]

    assert run() == []
    worker = tree / WORKER
    worker.write_text(worker.read_text().replace(*MASK_KEYWORD))
    assert run() == ["RPL102"]


def test_a_write_to_vllm_kwargs_before_the_call_turns_the_mask_on(tmp_path: Path) -> None:
    spread = (
        "        load_format = self.cfg",
        '        vllm_kwargs["return_sampling_mask"] = True\n        load_format = self.cfg',
    )
    found = findings(fork(tmp_path, "nemo_rl", worker=spread))
    assert {item["code"] for item in found} == {"RPL102"}


def test_the_forks_code_not_the_editions_decides_a_configs_mask(tmp_path: Path) -> None:
    """A config that turns the mask on in `vllm_kwargs` without a `logprobs_mode`: the editions
    disagree (v0.7.0 hard-codes `processed_logprobs`, main leaves vLLM's `raw_logprobs`), so
    without NeMo-RL's source nothing is said; the tree's worker is main's, which refuses it."""
    config = [
        TOP_K,
        ("      logprobs_mode: processed_logprobs\n", ""),
        ("    vllm_kwargs: {}\n", "    vllm_kwargs:\n      return_sampling_mask: true\n"),
    ]
    tree = fork(tmp_path, "nemo_rl", config=config)
    found = findings(tree)
    assert places(found, tree) == [("RPL003", CONFIG, line_of(tree, CONFIG, "return_sampling_mask: true"))]  # run_grpo.sh's
    shutil.rmtree(tree / "nemo_rl")
    assert findings(tree) == []


def test_a_fork_that_bounds_top_k_in_its_request_code_is_not_judged_by_the_config(tmp_path: Path) -> None:
    """The fork turns the mask on and sends `top_k=50` where the config says `null`: NeMo-RL's
    `null` is -1 only in NeMo-RL's own request code, so the config's key decides nothing here."""
    bounded = ("else -1)\n", "else 50)\n")
    assert findings(fork(tmp_path, "nemo_rl", worker=[MASK_KEYWORD, bounded])) == []


def test_a_restructured_worker_leaves_the_editions(tmp_path: Path) -> None:
    """A fork whose worker no longer builds `llm_kwargs = dict(...)` is not read: the editions stand."""
    renamed = ("        self._create_engine(llm_kwargs)\n", "        self._create_engine(build_engine_args(llm_kwargs))\n")
    assert findings(fork(tmp_path, "nemo_rl", worker=[MASK_KEYWORD, renamed])) == []


# -- open-instruct ---------------------------------------------------------------------------------


def test_a_mask_in_the_actor_call_judges_the_forks_requests(tmp_path: Path) -> None:
    """The fork adds the mask to `create_vllm_engines`' actor call; its requests
    (`SamplingConfig` fields, no `top_k`) reach an engine with `generation_config="vllm"`: every
    rollout is refused, at the fork's request, and the message names the fork's mask line."""
    tree = fork(tmp_path, "open_instruct", engines=REMOTE_MASK)
    found = findings(tree)
    assert places(found, tree) == [("RPL102", ENGINES, line_of(tree, ENGINES, "completions.create("))]
    mask = line_of(tree, ENGINES, "return_sampling_mask=True")
    assert "the forked open-instruct's " in found[0]["message"]
    assert f"{ENGINES}:{mask} sets return_sampling_mask=True" in found[0]["message"]


def test_a_fork_that_sends_top_k_is_clean(tmp_path: Path) -> None:
    assert findings(fork(tmp_path, "open_instruct", engines=[REMOTE_MASK, EXTRA_TOP_K])) == []


def test_a_sampling_config_field_default_is_what_is_sent(tmp_path: Path) -> None:
    field = ("    top_p: float = 1.0\n", "    top_p: float = 1.0\n    top_k: int = -1\n")
    found = findings(fork(tmp_path, "open_instruct", engines=[REMOTE_MASK, field]))
    assert [item["code"] for item in found] == ["RPL102"] and "top_k: int = -1" in found[0]["message"]
    bounded = ("    top_p: float = 1.0\n", "    top_p: float = 1.0\n    top_k: int = 50\n")
    assert findings(fork(tmp_path / "bounded", "open_instruct", engines=[REMOTE_MASK, bounded])) == []


def test_a_mask_the_actor_adds_meets_an_older_forks_logprobs_mode(tmp_path: Path) -> None:
    """A fork of a commit before 716f27531 (no `logprobs_mode` in the actor call) that turns the
    mask on in the actor: vLLM's own `raw_logprobs` applies."""
    edits = [
        ('                logprobs_mode="processed_logprobs",\n', ""),
        (
            '        kwargs["generation_config"] = "vllm"\n',
            '        kwargs["generation_config"] = "vllm"\n        kwargs["return_sampling_mask"] = True\n',
        ),
        EXTRA_TOP_K,
    ]
    found = findings(fork(tmp_path, "open_instruct", engines=edits))
    assert_at_fork(found, "RPL003")


def test_the_actors_environment_write_is_read(tmp_path: Path) -> None:
    """Reported once, at the write itself (before the actor's `AsyncEngineArgs(...)`), for the
    command line that starts the fork's engines and the value flow alike."""
    write = (
        '        num_gpus = kwargs.pop("num_gpus")\n',
        '        num_gpus = kwargs.pop("num_gpus")\n        os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
    )
    tree = fork(tmp_path, "open_instruct", engines=[REMOTE_MASK, EXTRA_TOP_K, write])
    found = findings(tree)
    written = line_of(tree, ENGINES, "os.environ.setdefault")
    assert places(found, tree) == [("RPL206", ENGINES, written)]


def test_without_generation_config_vllm_the_models_defaults_may_bound_top_k(tmp_path: Path) -> None:
    """A fork that drops `kwargs["generation_config"] = "vllm"`: the model's generation_config.json
    (vLLM's `auto`) may give `top_k`, which cannot be seen here."""
    edits = [REMOTE_MASK, ('        kwargs["generation_config"] = "vllm"\n', "")]
    assert findings(fork(tmp_path, "open_instruct", engines=edits)) == []


def test_a_logits_processor_in_the_actor_call_is_refused(tmp_path: Path) -> None:
    processor = (
        '                logprobs_mode="processed_logprobs",\n',
        '                logprobs_mode="processed_logprobs",\n                return_sampling_mask=True,\n'
        '                logits_processors=["my_fork.processors.ClampProcessor"],\n',
    )
    tree = fork(tmp_path, "open_instruct", engines=[processor, EXTRA_TOP_K])
    found = findings(tree)
    assert places(found, tree) == [("RPL001", ENGINES, line_of(tree, ENGINES, "logits_processors="))]


def test_the_actors_runtime_env_reaches_its_engine(tmp_path: Path) -> None:
    runtime_env = (
        '                        "VLLM_ENABLE_V1_MULTIPROCESSING": "0",\n',
        '                        "VLLM_ENABLE_V1_MULTIPROCESSING": "0",\n                        "VLLM_USE_V2_MODEL_RUNNER": "0",\n',
    )
    found = findings(fork(tmp_path, "open_instruct", engines=[REMOTE_MASK, EXTRA_TOP_K, runtime_env]))
    assert_at_fork(found, "RPL206")


def assert_at_fork(found: list[dict], code: str) -> None:
    """Reported once, at the fork's line that decides: the value flow (the engine the actor
    builds) and the command line that starts the fork's engines find it there alike."""
    assert [item["code"] for item in found] == [code]
    assert Path(found[0]["filename"]).name == ENGINES.rpartition("/")[2], found


@pytest.mark.parametrize(
    "edit",
    [
        (
            '    min_tokens = params_dict.pop("min_tokens", 0)\n',
            '    min_tokens = params_dict.pop("min_tokens", 0)\n    params_dict["top_k"] = actor.top_k\n',
        ),
        (
            "                language_model_only=True,\n",
            '                language_model_only=True,\n                override_generation_config={"top_k": 50},\n',
        ),
    ],
    ids=["request-code-adds-top_k", "server-default-top_k"],
)
def test_a_top_k_given_another_way_is_not_assumed_absent(tmp_path: Path, edit: tuple[str, str]) -> None:
    assert findings(fork(tmp_path, "open_instruct", engines=[REMOTE_MASK, edit])) == []
