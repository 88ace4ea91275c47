"""The RPL3xx family (what vLLM accepts but replay cannot use): its precision on launches the
rule examples do not cover, the framework exceptions, and preview rules being off by default."""

from __future__ import annotations

import pytest

from replaylint.rules import RULES, resolve, selected

SERVE = "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs {extra}\n"
ENGINE = 'from vllm import LLM, SamplingParams\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
SKYRL = (
    "uv run --isolated --extra vllm -m skyrl.train.entrypoints.main_base \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\\n"
    "  generator.sampling_params.top_k=64 generator.eval_sampling_params.top_k=20 {extra}\n"
)
VERL = (
    "actor_rollout_ref:\n  rollout:\n    name: vllm\n    top_k: 20\n    repetition_penalty: {penalty}\n"
    "    engine_kwargs:\n      vllm:\n        return_sampling_mask: true\n        logprobs_mode: processed_logprobs\n"
    "trainer:\n  val_before_train: false\n"
)


def family(results, name: str) -> list[str]:
    return sorted(f.code for f in results[name].findings if f.code.startswith("RPL3"))


def test_scale_out_from_the_config_file_opens_the_endpoint(check) -> None:
    files = {"serve.sh": SERVE.format(extra="--config serve.yaml"), "serve.yaml": "enable-scale-out: true\n"}
    assert family(check(files, release="0.34.0"), "serve.sh") == []
    files["serve.yaml"] = "max-model-len: 8192\n"
    assert family(check(files, release="0.34.0"), "serve.sh") == ["RPL301"]


@pytest.mark.parametrize(
    "launch",
    [
        "trl vllm-serve --model m --return-sampling-mask\n",  # TRL's own server
        "python -m dynamo.vllm --model m --return-sampling-mask --logprobs-mode processed_logprobs\n",
        'vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs "${EXTRA[@]}"\n',
    ],
)
def test_servers_it_cannot_judge_are_not_flagged(check, launch: str) -> None:
    assert "RPL301" not in family(check({"serve.sh": launch}, release="0.34.0"), "serve.sh")


def test_offline_engines_return_masks(check) -> None:
    source = (
        "from vllm import AsyncEngineArgs, AsyncLLM\n"
        'engine = AsyncLLM.from_engine_args(AsyncEngineArgs(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs"))\n'
    )
    assert family(check({"rollout.py": source}, release="0.34.0"), "rollout.py") == []
    results = check({"rollout.py": source.replace("return_sampling_mask=True", "return_sampling_mask=True, enable_trace_replay=True")})
    assert family(results, "rollout.py") == ["RPL305"]  # the launch is read


def test_masks_returned_by_every_server_before_the_gate(check) -> None:
    for release, expected in (("0.28.0", []), ("0.29.0", []), ("0.30.0", ["RPL301"]), ("0.34.0", ["RPL301"])):
        assert family(check({"serve.sh": SERVE.format(extra="")}, release=release), "serve.sh") == expected, release


def test_verl_repetition_penalty_never_reaches_vllm(check) -> None:
    # verl 0.9.1's agent loop sends repetition_penalty=1.0 whatever rollout.repetition_penalty says.
    assert family(check({"verl/ppo_trainer.yaml": VERL.format(penalty="1.2")}), "verl/ppo_trainer.yaml") == []
    # The same launch's requests are read: a top_k verl does send is judged.
    beyond = VERL.format(penalty="1.2").replace("top_k: 20", "top_k: 1000000")
    assert family(check({"verl/ppo_trainer.yaml": beyond}), "verl/ppo_trainer.yaml") == ["RPL304"]


def test_skyrl_drops_repetition_penalty(check) -> None:
    results = check({"run.sh": SKYRL.format(extra="generator.sampling_params.repetition_penalty=1.1")})
    assert family(results, "run.sh") == []
    results = check({"run.sh": SKYRL.format(extra="generator.sampling_params.repetition_penalty=1.1").replace("top_k=64", "top_k=300000")})
    assert family(results, "run.sh") == ["RPL304"]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ("top_k=20, repetition_penalty=1.0, presence_penalty=0.0, frequency_penalty=0.0", []),
        ("top_k=20, repetition_penalty=1", []),
        ("top_k=20, logit_bias={}", []),
        ("top_k=20, logit_bias=None", []),
        ("top_k=20, repetition_penalty=0.9", ["RPL302"]),
        ("top_k=20, frequency_penalty=-0.1", ["RPL302"]),
    ],
)
def test_only_penalties_away_from_neutral_shift_the_distribution(check, params: str, expected: list[str]) -> None:
    source = ENGINE + f'llm.generate(["hi"], SamplingParams({params}))\n'
    assert family(check({"rollout.py": source}), "rollout.py") == expected


def test_override_generation_config_only_matters_on_a_server(check) -> None:
    override = "--enable-scale-out --override-generation-config '{\"repetition_penalty\": 1.05}'"
    assert family(check({"serve.sh": SERVE.format(extra=override)}), "serve.sh") == ["RPL302"]
    offline = 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    override_generation_config={"repetition_penalty": 1.05})\n'
    assert family(check({"rollout.py": offline}), "rollout.py") == []


def test_top_k_beyond_the_vocabulary_and_below(check) -> None:
    for top_k, expected in (("262143", []), ("262144", ["RPL304"]), ("1000000", ["RPL304"]), ("-1", [])):
        source = ENGINE + f'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k={top_k}))\n'
        assert family(check({"rollout.py": source}), "rollout.py") == expected, top_k


def test_lossy_verification_window(check) -> None:
    fly = SERVE.format(extra='--enable-scale-out -sc \'{"method": "mtp", "num_speculative_tokens": 1, "rejection_sample_method": "fly"}\'')
    assert family(check({"serve.sh": fly}, release="0.32.0"), "serve.sh") == []
    assert family(check({"serve.sh": fly}, release="0.33.0"), "serve.sh") == ["RPL306"]


def test_preview_rules_are_off_unless_selected_by_code_or_name(check) -> None:
    previews = [rule for rule in RULES if rule.preview]
    assert [rule.code for rule in previews] == ["RPL307", "RPL308", "RPL309"]
    for selector in ("ALL", "RPL", "RPL3", "RPL30"):
        assert not {rule.code for rule in previews} & set(selected(selector)), selector
    assert selected("RPL307") == ["RPL307"] and selected("replay-temperature-raised") == ["RPL309"]
    assert "RPL307" in resolve("ALL")  # ignore and fixable still reach them
    source = ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.005, top_k=20))\n'
    assert family(check({"rollout.py": source}), "rollout.py") == []
    assert family(check({"rollout.py": source}, select=("RPL3",)), "rollout.py") == []
    assert family(check({"rollout.py": source}, extend_select=("RPL309",)), "rollout.py") == ["RPL309"]


@pytest.mark.parametrize(
    ("generation_config", "expected"),
    [
        ('{"bos_token_id": 1, "eos_token_id": 2, "transformers_version": "4.46.0"}', []),  # no sampling field: nothing filled
        ('{"eos_token_id": 2, "temperature": 0.6, "top_p": 0.95}', ["RPL307"]),
        (None, ["RPL307"]),  # no file: vLLM builds one from config.json, not read here
        ("not json", ["RPL307"]),
    ],
)
def test_generation_config_of_a_model_folder_in_the_tree(check, generation_config: str | None, expected: list[str]) -> None:
    files = {
        "serve.sh": SERVE.replace("Qwen/Qwen3-8B", "./models/sft").format(extra="--enable-scale-out"),
        "models/sft/config.json": '{"model_type": "llama", "vocab_size": 32000}\n',
    }
    if generation_config is not None:
        files["models/sft/generation_config.json"] = generation_config + "\n"
    results = check(files, extend_select=("RPL307",))
    assert family(results, "serve.sh") == expected
    if generation_config and "temperature" in generation_config:
        (finding,) = results["serve.sh"].findings
        assert '(`"temperature": 0.6`, `"top_p": 0.95`)' in finding.message
        assert [(r.path, r.start_line) for r in finding.related][-2:] == [("models/sft/generation_config.json", 1)] * 2


def test_a_thinking_budget_sent_over_http_and_the_unlimited_one(check) -> None:
    # `validate_thinking_token_budget` (sampling_params.py:76-77): -1 is no budget.
    client = (
        "import subprocess, requests\n"
        'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",\n'
        '                  "--enable-scale-out", "--reasoning-parser", "qwen3", "--port", "8003"])\n'
        'requests.post("http://localhost:8003/inference/v1/generate",\n'
        '              json={{"token_ids": [1], "sampling_params": {{"top_k": 20, "thinking_token_budget": {budget}}}}})\n'
    )
    for budget, expected in (("512", ["RPL303"]), ("-1", []), ("None", [])):
        assert family(check({"client.py": client.format(budget=budget)}), "client.py") == expected, budget
        offline = ENGINE + f'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget={budget}))\n'
        assert family(check({"rollout.py": offline}), "rollout.py") == expected, budget


def test_a_thinking_budget_to_an_engine_without_a_reasoning_config_is_refused(check) -> None:
    # input_processor.py:191-199: the request is refused before any token is forced.
    client = (
        "import subprocess, requests\n"
        'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",\n'
        '                  "--enable-scale-out", "--port", "8003"{more}])\n'
        'requests.post("http://localhost:8003/inference/v1/generate",\n'
        '              json={{"token_ids": [1], "sampling_params": {{"top_k": 20, "thinking_token_budget": 64}}}})\n'
    )
    (refused,) = check({"client.py": client.format(more="")})["client.py"].findings
    assert refused.code == "RPL303" and "reasoning_config is not configured" in refused.message
    (forced,) = check({"client.py": client.format(more=', "--reasoning-parser", "qwen3"')})["client.py"].findings
    assert "forces the end-of-reasoning token" in forced.message
    offline = ENGINE.replace(")\n", ", **ENGINE_ARGS)\n", 1) + 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=64))\n'
    assert "forces the end-of-reasoning token" in check({"rollout.py": offline})["rollout.py"].findings[0].message  # may set one


@pytest.mark.parametrize(
    ("session", "path", "expected"),
    [
        ('httpx.Client(base_url="http://localhost:8001/v1")', "/completions", ["RPL301"]),  # httpx keeps the base's path
        ('httpx.AsyncClient(base_url="http://localhost:8001")', "/v1/chat/completions", ["RPL301"]),
        ('aiohttp.ClientSession(base_url="http://localhost:8001")', "/v1/completions", ["RPL301"]),
        ('aiohttp.ClientSession(base_url="http://localhost:8001/v1/")', "/completions", []),  # aiohttp: the origin's /completions
        ('httpx.Client(base_url="http://localhost:8001")', "/inference/v1/generate", []),  # reads the masks
        ('httpx.Client(base_url="http://localhost:8002")', "/v1/completions", []),  # another server
        ("httpx.Client(base_url=BASE)", "/v1/completions", []),  # not known here
    ],
)
def test_a_session_base_url_and_a_path(check, session: str, path: str, expected: list[str]) -> None:
    source = (
        "import subprocess, httpx, aiohttp\n"
        'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",\n'
        '                  "--enable-scale-out", "--port", "8001"])\n'
        f"http = {session}\n"
        f'http.post("{path}", json={{"prompt": "hi", "top_k": 20}})\n'
    )
    assert family(check({"client.py": source}), "client.py") == expected


def test_family_findings_are_warnings(check) -> None:
    results = check({"serve.sh": SERVE.format(extra="--enable-trace-replay")}, release="0.34.0")
    findings = [f for f in results["serve.sh"].findings if f.code.startswith("RPL3")]
    assert sorted(f.code for f in findings) == ["RPL301", "RPL305"]
    assert {f.severity for f in findings} == {"warning"}


def test_two_fixes_inserting_at_the_same_place_give_one_text(check) -> None:
    # RPL003 and RPL301 both insert after the mask: the result must not depend on the order
    # the edits come in (a set's order changes from one process to the next).
    from replaylint.edits import apply_edits

    text = "vllm serve m --return-sampling-mask\n"
    edits = [edit for finding in check({"serve.sh": text}, release="0.34.0")["serve.sh"].findings for edit in finding.edits]
    assert len(edits) == 2
    fixed = "vllm serve m --return-sampling-mask --enable-scale-out --logprobs-mode processed_logprobs\n"
    assert apply_edits(text, edits) == (fixed, []) and apply_edits(text, edits[::-1]) == (fixed, [])


def test_a_penalty_in_a_config_file_is_made_neutral_there(check) -> None:
    from replaylint.edits import apply_edits

    config = "model: m\nreturn-sampling-mask: true\nlogprobs-mode: processed_logprobs\nenable-scale-out: true\noverride-generation-config:\n  repetition_penalty: 1.05\n  temperature: 0.7\n"
    results = check({"serve.sh": "vllm serve --config serve.yaml\n", "serve.yaml": config})
    # serve.yaml's own check and serve.sh's launch report it alike (the launch relates it to serve.sh)
    found = [f for name in results for f in results[name].findings if f.code == "RPL302"]
    assert {(f.span, f.message) for f in found} == {(found[0].span, found[0].message)}
    finding = found[0]
    assert finding.span.path == "serve.yaml" and finding.span.start_line == 6
    assert finding.message.startswith(
        "`repetition_penalty: 1.05` makes repetition_penalty=1.05 the default of every request this replay server renders"
    )
    assert apply_edits(config, finding.edits) == (config.replace("1.05", "1.0"), [])


# Clients of a replay server the same file starts (RPL301, RPL302).
STARTS = (
    "import os, subprocess\nimport httpx, requests\nfrom openai import OpenAI\n\n"
    'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"{extra}])\n'
)
CHAT = 'client = OpenAI(base_url="{url}", api_key="EMPTY")\nclient.chat.completions.create(model="m", messages=[], extra_body={{"repetition_penalty": 1.1}})\n'


def client_codes(check, source: str, release: str = "0.34.0") -> list[str]:
    return family(check({"rollout.py": source}, release=release), "rollout.py")


@pytest.mark.parametrize(
    ("extra", "url", "expected"),
    [
        ("", "http://localhost:8000/v1", ["RPL301", "RPL302"]),  # vLLM's default port
        ("", "http://localhost:8001/v1", []),
        (', "--port", "8001"', "http://0.0.0.0:8001/v1", ["RPL301", "RPL302"]),
        (', "--port", "8001"', "http://localhost:8000/v1", []),
        (', "--port=8001"', "http://localhost:8001/v1", ["RPL301", "RPL302"]),
        ("", "https://api.openai.com/v1", []),
        (", *EXTRA", "http://localhost:8000/v1", []),  # the server's words may set another port
        (', "--port", os.environ["PORT"]', "http://localhost:8000/v1", []),
    ],
)
def test_a_client_is_tied_to_the_server_its_address_names(check, extra: str, url: str, expected: list[str]) -> None:
    assert client_codes(check, STARTS.format(extra=extra) + CHAT.format(url=url)) == expected


@pytest.mark.parametrize(
    "client",
    [
        'client = OpenAI(base_url=os.environ["OPENAI_BASE_URL"])\n',
        "client = OpenAI()\n",  # OPENAI_BASE_URL or OpenAI's own service
        'client = OpenAI(base_url="http://localhost:8000/v1")\nif os.environ.get("REMOTE"):\n    client = OpenAI(base_url=os.environ["REMOTE"])\n',
    ],
)
def test_a_client_whose_address_is_not_known_is_tied_to_nothing(check, client: str) -> None:
    source = STARTS.format(extra="") + client + 'client.completions.create(model="m", prompt="hi", presence_penalty=0.5)\n'
    assert client_codes(check, source) == []


def test_a_client_in_a_class_and_an_f_string_address(check) -> None:
    source = STARTS.format(extra=', "--port", "8123"') + (
        "PORT = 8123\n\nclass Rollout:\n"
        "    def __init__(self):\n"
        '        self.client = OpenAI(base_url=f"http://127.0.0.1:{PORT}/v1", api_key="EMPTY")\n\n'
        "    def sample(self, prompt):\n"
        '        return self.client.completions.create(model="m", prompt=prompt, logit_bias={"50256": -100})\n'
    )
    results = check({"rollout.py": source}, release="0.34.0")
    findings = sorted((f.code, f.span.start_line) for f in results["rollout.py"].findings if f.code.startswith("RPL3"))
    assert findings == [("RPL301", 13), ("RPL302", 13)]


def test_one_client_reading_the_masks_clears_the_others(check) -> None:
    generate = 'requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": [1], "sampling_params": {"top_k": 20}})\n'
    source = STARTS.format(extra="") + CHAT.format(url="http://localhost:8000/v1").replace("1.1", "1.0")
    assert client_codes(check, source) == ["RPL301"]
    assert client_codes(check, source + generate) == []


@pytest.mark.parametrize(
    ("server", "body", "expected"),
    [
        (', "--reasoning-parser", "qwen3"', '"output_mode": "derender", "parse_context": {"include_reasoning": False}', ["RPL301"]),
        (', "--reasoning-parser", "qwen3"', '"output_mode": "derender", "parse_context": {"include_reasoning": True}', []),
        (', "--reasoning-parser", "qwen3"', '"output_mode": "text", "parse_context": {"include_reasoning": False}', []),
        ("", '"output_mode": "derender", "parse_context": {"include_reasoning": False}', []),  # no parser: nothing hidden
    ],
)
def test_derender_hides_the_mask_only_with_a_parser_and_the_reasoning_hidden(check, server: str, body: str, expected: list[str]) -> None:
    post = f'httpx.post("http://localhost:8000/inference/v1/generate", json={{"token_ids": [1], {body}}})\n'
    assert client_codes(check, STARTS.format(extra=server) + post) == expected


def test_a_server_without_scale_out_is_flagged_with_its_clients(check) -> None:
    source = STARTS.format(extra="").replace(', "--enable-scale-out"', "") + CHAT.format(url="http://localhost:8000/v1").replace(
        "1.1", "1.0"
    )
    findings = [f for f in check({"rollout.py": source}, release="0.34.0")["rollout.py"].findings if f.code == "RPL301"]
    assert sorted(f.span.start_line for f in findings) == [5, 7]  # the launch (with its fix) and the client
    assert [f.fix is not None for f in sorted(findings, key=lambda f: f.span.start_line)] == [True, False]


def test_a_file_checked_alone_judges_no_client_of_another_files_server(check) -> None:
    # Clients are tied across files after a whole run (`cross_file`, tests/test_cross_file_clients.py).
    files = {
        "serve.sh": SERVE.format(extra="--enable-scale-out"),
        "rollout.py": "from openai import OpenAI\n" + CHAT.format(url="http://localhost:8000/v1"),
    }
    results = check(files, release="0.34.0")
    assert family(results, "rollout.py") == [] and family(results, "serve.sh") == []


def test_a_token_id_bias_is_a_known_value(check) -> None:
    assert client_codes(check, ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={42: 5.0, 7: -1}))\n') == ["RPL302"]
    assert client_codes(
        check, ENGINE + "BIAS = {42: 5.0}\nparams = SamplingParams(top_k=20, logit_bias=BIAS)\nllm.generate([], params)\n"
    ) == ["RPL302"]


def test_a_session_posting_to_a_whole_url_is_a_client(check) -> None:
    post = (
        "import aiohttp\n\nasync def ask(prompt):\n    async with aiohttp.ClientSession() as session:\n"
        '        async with session.post("http://localhost:8000/v1/completions", json={"prompt": prompt, "frequency_penalty": 0.2}) as r:\n'
        "            return await r.json()\n"
    )
    assert client_codes(check, STARTS.format(extra="") + post) == ["RPL301", "RPL302"]
    relative = post.replace("http://localhost:8000/v1/completions", "/v1/completions")  # the session's base is not read
    assert client_codes(check, STARTS.format(extra="") + relative) == []


def test_the_mask_route_named_where_no_client_was_read_keeps_the_others_clean(check) -> None:
    source = STARTS.format(extra="") + CHAT.format(url="http://localhost:8000/v1").replace("1.1", "1.0")
    unread = 'def sample(base, body):\n    return requests.post(base + "/inference/v1/generate", json=body)\n'
    assert client_codes(check, source) == ["RPL301"]
    assert client_codes(check, source + unread) == []


def test_a_parameter_named_like_the_module_client_is_the_callers(check) -> None:
    source = STARTS.format(extra="") + (
        'client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n'
        "def judge(client, prompt):\n"
        '    return client.completions.create(model="judge", prompt=prompt, presence_penalty=0.5)\n'
    )
    assert client_codes(check, source) == []
    assert client_codes(check, source.replace("def judge(client, prompt)", "def judge(prompt)")) == ["RPL301", "RPL302"]


def test_routes_that_generate_nothing_neither_flag_nor_clear(check) -> None:
    pause = 'requests.post("http://localhost:8000/pause", timeout=60)\n'
    chat = CHAT.format(url="http://localhost:8000/v1").replace("1.1", "1.0")
    assert client_codes(check, STARTS.format(extra="") + pause) == []
    assert client_codes(check, STARTS.format(extra="") + pause + chat) == ["RPL301"]
    messages = 'httpx.post("http://localhost:8000/v1/messages", json={"model": "m", "messages": []})\n'
    assert client_codes(check, STARTS.format(extra="") + messages) == ["RPL301"]  # Anthropic's route


def test_an_address_built_from_module_constants(check) -> None:
    source = STARTS.format(extra=', "--port", "8010"') + (
        'BASE_URL = f"http://localhost:{8010}"\nAPI = BASE_URL + "/v1"\n'
        "def ask(prompt):\n"
        '    client = OpenAI(base_url=API, api_key="EMPTY")\n'
        '    return client.completions.create(model="m", prompt=prompt)\n'
    )
    assert client_codes(check, source) == ["RPL301"]
    assert client_codes(check, source.replace("def ask(prompt):", "def ask(prompt, API):")) == []


def test_a_client_handed_to_a_function_by_every_caller(check) -> None:
    # vLLM's examples/rl/rlhf_http_*.py: `generate_completions(client, ...)` from `main`.
    source = STARTS.format(extra="") + (
        "def generate(client: OpenAI, prompts):\n"
        '    return [client.completions.create(model="m", prompt=p) for p in prompts]\n\n'
        "def main():\n"
        '    client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n'
        '    generate(client, ["hi"])\n'
    )
    assert client_codes(check, source) == ["RPL301"]
    other = '    generate(OpenAI(base_url="https://api.example.com/v1"), ["hi"])\n'
    assert client_codes(check, source + other) == []  # callers disagree on the server
    assert client_codes(check, source + "    pool.map(generate, [])\n") == []  # handed on: callers not all seen


# TRL's trainer sends GRPOConfig.repetition_penalty with every request to `trl vllm-serve`
# (trl 1.16.0 `trl/generation/vllm_client.py:431-455`): RPL302 at the key when the server replays.
TRL_SERVER = (
    "import subprocess\nfrom trl import GRPOConfig, GRPOTrainer, RLOOConfig\n\n"
    'server = subprocess.Popen(["trl", "vllm-serve", "--model", "Qwen/Qwen3-8B", "--return-sampling-mask"{serve}])\n'
)
TRL_TRAINER = 'args = {config}(output_dir="out", use_vllm=True, vllm_mode="server", top_k=20, {args})\n'
REQUEST_RULES = ("RPL302", "RPL303", "RPL304", "RPL309")  # RPL301 (the route TRL reads) has its own tests


def trl_findings(tmp_path, source: str, pin: str = "trl==1.16.0", codes: tuple[str, ...] = REQUEST_RULES) -> list[tuple[str, int, str]]:
    """The findings of train.py among `codes` (by default the rules on what a request asks),
    checked with the project's pins read (TRL's edition)."""
    import os

    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config
    from replaylint.engine.project import ProjectPins
    from replaylint.vllm.releases import parse_release

    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "requirements.txt").write_text(pin + "\n", encoding="utf-8")
    (tmp_path / "train.py").write_text(source, encoding="utf-8")
    config = Config()
    config.target_vllm, config.target_vllm_forced = parse_release("0.34.0"), True
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = Checker(config, ProjectPins()).check_file("train.py")
    finally:
        os.chdir(cwd)
    return [(f.code, f.span.start_line, f.message) for f in result.findings if f.code in codes]


def trl_source(args: str, serve: str = "", config: str = "GRPOConfig") -> str:
    return TRL_SERVER.format(serve=serve) + TRL_TRAINER.format(config=config, args=args)


@pytest.mark.parametrize(
    ("args", "serve", "config"),
    [
        ("repetition_penalty=1.1", "", "GRPOConfig"),
        ("repetition_penalty=0.95", ', "--port", "8011"', "GRPOConfig"),
        ("repetition_penalty=1.05", "", "RLOOConfig"),
        ('vllm_server_base_url="http://10.0.0.5:8000", repetition_penalty=1.2', "", "GRPOConfig"),
        ("vllm_server_port=8011, repetition_penalty=1.2", ', "--port=8011"', "GRPOConfig"),
    ],
)
def test_trl_sends_a_non_neutral_repetition_penalty(tmp_path, args: str, serve: str, config: str) -> None:
    source = trl_source(args.replace("repetition_penalty=0.95", "vllm_server_port=8011, repetition_penalty=0.95"), serve, config)
    (finding,) = trl_findings(tmp_path, source)
    code, line, message = finding
    assert (code, line) == ("RPL302", 5)
    assert (
        message.startswith("`repetition_penalty=") and "is sent by TRL with every request to the replay server started at line 4" in message
    )
    assert "penalties.py:88-104" in message  # the vLLM lines that shift the logits


def test_trl_generation_kwargs_replace_the_penalty_it_sends(tmp_path) -> None:
    # `sampling_params.update(generation_kwargs or {})` (vllm_client.py:443): the dict's key wins.
    (finding,) = trl_findings(
        tmp_path, trl_source('repetition_penalty=1.0, generation_kwargs={"repetition_penalty": 1.3, "min_tokens": 4}')
    )
    assert finding[0] == "RPL302" and '`"repetition_penalty": 1.3` is sent by TRL' in finding[2]
    assert trl_findings(tmp_path, trl_source('repetition_penalty=1.3, generation_kwargs={"repetition_penalty": 1.0}')) == []


@pytest.mark.parametrize(
    ("args", "serve"),
    [
        ("repetition_penalty=1.0", ""),  # TRL's default (grpo_config.py:573-574): neutral
        ("repetition_penalty=1", ""),
        ("temperature=0.9", ""),  # not written: TRL sends its default 1.0
        ("repetition_penalty=1.1", ', "--port", "8001"'),  # the trainer talks to port 8000: another server
        ('vllm_server_base_url="http://localhost:9000", repetition_penalty=1.1', ""),
        ("vllm_server_port=PORT, repetition_penalty=1.1", ""),  # a port not known here
        ("repetition_penalty=1.1, generation_kwargs=EXTRA", ""),  # may replace it
        ("repetition_penalty=1.1, **overrides", ""),  # may set the mode or the address
    ],
)
def test_trl_requests_that_do_not_shift_or_do_not_reach_the_replay_server(tmp_path, args: str, serve: str) -> None:
    assert trl_findings(tmp_path, trl_source(args, serve)) == []


@pytest.mark.parametrize(
    "source",
    [
        trl_source("repetition_penalty=1.1").replace('vllm_mode="server"', 'vllm_mode="colocate"'),  # its own LLM, no mask
        trl_source("repetition_penalty=1.1").replace(', vllm_mode="server"', ""),  # TRL 1.16's default mode is colocate
        trl_source("repetition_penalty=1.1").replace("use_vllm=True", "use_vllm=False"),
        trl_source("repetition_penalty=1.1").replace(', "--return-sampling-mask"', ""),  # the server does not replay
        trl_source("repetition_penalty=1.1") + 'args.vllm_mode = "colocate"\n',  # changed after it is built
        trl_source("repetition_penalty=1.1").replace("GRPOConfig(", "MyConfig("),
    ],
)
def test_trl_trainers_that_do_not_send_to_a_replay_server(tmp_path, source: str) -> None:
    assert trl_findings(tmp_path, source) == []


def test_a_trl_trainer_in_server_mode_never_gets_the_masks(tmp_path) -> None:
    # TRL 1.16's client generates through /v1/completions (generation/vllm_client.py:455), which
    # has no sampling_mask field, though `trl vllm-serve` opens the scale-out route itself.
    ((code, line, message),) = trl_findings(tmp_path, trl_source("repetition_penalty=1.0"), codes=("RPL301",))
    assert (code, line) == ("RPL301", 5) and "replay server started at line 4 reads /v1/completions" in message
    written = trl_source("").replace('vllm_mode="server", ', 'vllm_server_port=8000,\n    vllm_mode="server",\n    ')
    assert [(c, n) for c, n, _ in trl_findings(tmp_path, written, codes=("RPL301",))] == [("RPL301", 6)]  # at `vllm_mode`
    no_mask = trl_source("").replace(', "--return-sampling-mask"', "")
    assert trl_findings(tmp_path, no_mask, codes=("RPL301",)) == []


def test_trl_before_1_11_refuses_the_mask_so_nothing_is_sent(tmp_path) -> None:
    # trl 1.10's parser refuses `--return-sampling-mask` before vLLM starts (RPL204, not RPL302).
    assert trl_findings(tmp_path, trl_source("repetition_penalty=1.1"), pin="trl==1.10.0") == []


def test_verl_repetition_penalty_stays_silent_in_every_spelling(check) -> None:
    # verl 0.9.1's agent loop never sends it (agent_loop.py:594), written as a Hydra override too
    # (appended with `+`: verl's composed config has no such key, so Hydra refuses it without).
    override = (
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.top_k=20 \\\n"
        "  actor_rollout_ref.rollout.val_kwargs.temperature=1 actor_rollout_ref.rollout.val_kwargs.top_k=5 \\\n"
        "  +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\\n"
        "  +actor_rollout_ref.rollout.repetition_penalty={penalty}\n"
    )
    assert family(check({"run.sh": override.format(penalty="1.3")}), "run.sh") == []
    beyond = override.format(penalty="1.3").replace("top_k=20", "top_k=300000")
    assert family(check({"run.sh": beyond}), "run.sh") == ["RPL304"]  # the launch is read


def test_skyrl_repetition_penalty_stays_silent_in_its_eval_params_too(check) -> None:
    extra = "generator.sampling_params.repetition_penalty=0.8 generator.eval_sampling_params.repetition_penalty=1.5"
    assert family(check({"run.sh": SKYRL.format(extra=extra)}), "run.sh") == []


# RPL304 bounded by the vocab_size of the model's config.json when the tree holds the model.
QWEN_CONFIG = '{\n  "architectures": ["Qwen3ForCausalLM"],\n  "vocab_size": 151936\n}\n'


def top_k_findings(check, files: dict[str, str], name: str = "rollout.py") -> list[tuple[str, str, tuple[str, ...]]]:
    results = check(files, release="0.34.0")
    return [
        (f.code, f.message, tuple(f"{span.path}:{span.start_line}" for span in f.related))
        for f in results[name].findings
        if f.code.startswith("RPL3")
    ]


def folder_engine(model: str, top_k: str, extra: str = "") -> str:
    return (
        "from vllm import LLM, SamplingParams\n"
        f'llm = LLM("{model}", return_sampling_mask=True, logprobs_mode="processed_logprobs"{extra})\n'
        f'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k={top_k}))\n'
    )


@pytest.mark.parametrize(
    ("model", "top_k", "flagged"),
    [
        ("checkpoints/qwen", "151936", True),  # equal: a top_k of the vocabulary bounds nothing
        ("./checkpoints/qwen/", "151937", True),
        ("checkpoints/qwen", "151935", False),
        ("checkpoints/qwen", "100_000", False),
        ("Qwen/Qwen3-8B", "151936", False),  # a hub id the tree does not hold: every vocabulary is the bound
        ("checkpoints/other", "151936", False),
    ],
)
def test_top_k_against_the_vocabulary_of_a_model_folder_in_the_tree(check, model: str, top_k: str, flagged: bool) -> None:
    files = {"rollout.py": folder_engine(model, top_k), "checkpoints/qwen/config.json": QWEN_CONFIG}
    found = top_k_findings(check, files)
    assert [code for code, *_ in found] == (["RPL304"] if flagged else [])
    if flagged:
        (_, message, related), *_ = found
        assert '`"vocab_size": 151936` in checkpoints/qwen/config.json' in message
        assert related == ("checkpoints/qwen/config.json:3",)


def test_the_model_folder_is_found_from_the_folders_above_the_launching_file(check) -> None:
    files = {"scripts/rl/rollout.py": folder_engine("checkpoints/qwen", "151936"), "checkpoints/qwen/config.json": QWEN_CONFIG}
    assert [code for code, *_ in top_k_findings(check, files, "scripts/rl/rollout.py")] == ["RPL304"]


def test_a_multimodal_model_is_bounded_by_its_text_vocabulary(check) -> None:
    # vLLM samples over hf_text_config.vocab_size (model_arch_config_convertor.py:85-86).
    config = '{"vocab_size": 1000, "text_config": {"num_attention_heads": 8, "vocab_size": 262208}, "vision_config": {}}'
    files = {"rollout.py": folder_engine("gemma", "262207"), "gemma/config.json": config}
    assert top_k_findings(check, files) == []  # below the text vocabulary, though above 2^18
    files["rollout.py"] = folder_engine("gemma", "262208")
    assert [code for code, *_ in top_k_findings(check, files)] == ["RPL304"]


@pytest.mark.parametrize(
    "config",
    [
        '{"vocab_size": 151936,',  # not JSON
        '{"vocab_size": "151936"}',
        '{"vocab_size": true}',
        '{"vocab_size": -1}',
        "[151936]",
        "",
        '{"vocab_size": 151936, "pad": "' + "x" * 1_100_000 + '"}',  # larger than any model's config
        "\x00\x01 binary",
    ],
)
def test_a_config_without_a_readable_vocabulary_falls_back_to_every_vocabulary(check, config: str) -> None:
    files = {"rollout.py": folder_engine("ckpt", "151936"), "ckpt/config.json": config}
    assert top_k_findings(check, files) == []
    files["rollout.py"] = folder_engine("ckpt", "300000")
    ((code, message, related),) = top_k_findings(check, files)
    assert code == "RPL304" and "above the vocabulary size into no top-k" in message and related == ()


def test_hf_overrides_may_change_the_vocabulary(check) -> None:
    files = {"rollout.py": folder_engine("ckpt", "151936", ', hf_overrides={"vocab_size": 200000}'), "ckpt/config.json": QWEN_CONFIG}
    assert top_k_findings(check, files) == []


def test_a_servers_model_folder_bounds_its_clients_top_k(check) -> None:
    source = (
        "import subprocess\nfrom openai import OpenAI\n"
        'subprocess.Popen(["vllm", "serve", "./ckpt", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
        'client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n'
        'client.completions.create(model="m", prompt="hi", extra_body={"top_k": 151936})\n'
    )
    files = {"rollout.py": source, "ckpt/config.json": QWEN_CONFIG}
    assert sorted(code for code, *_ in top_k_findings(check, files)) == ["RPL301", "RPL304"]
    files["rollout.py"] = source.replace("151936", "64")
    assert [code for code, *_ in top_k_findings(check, files)] == ["RPL301"]


@pytest.mark.parametrize(
    ("imports", "call", "flagged"),
    [
        ("from trl import GRPOConfig as Config", "Config", True),
        ("import trl", "trl.GRPOConfig", True),
        ("from trl.trainer.grpo_config import GRPOConfig", "GRPOConfig", True),
        ("from areal.api.cli_args import GRPOConfig", "GRPOConfig", False),  # another project's config of that name
        ("from .config import GRPOConfig", "GRPOConfig", False),
    ],
)
def test_only_trls_own_trainer_configs_are_read(tmp_path, imports: str, call: str, flagged: bool) -> None:
    source = (
        f"import subprocess\n{imports}\n\n"
        'server = subprocess.Popen(["trl", "vllm-serve", "--model", "Qwen/Qwen3-8B", "--return-sampling-mask"])\n'
        f'args = {call}(output_dir="out", use_vllm=True, vllm_mode="server", repetition_penalty=1.1)\n'
    )
    assert [code for code, *_ in trl_findings(tmp_path, source)] == (["RPL302"] if flagged else [])


@pytest.mark.parametrize("model", ["a\\x00b", "x/" * 3000, "../../../../etc", "/etc", "$MODEL_DIR", "s3://bucket/qwen"])
def test_model_names_that_are_no_folder_of_the_tree_are_read_safely(check, model: str) -> None:
    files = {"rollout.py": folder_engine(model, "151936"), "etc/config.json": QWEN_CONFIG}
    results = check(files, release="0.34.0")
    assert results["rollout.py"].internal_error is None
    assert [f.code for f in results["rollout.py"].findings if f.code.startswith("RPL3")] == []


def test_trl_sends_the_top_k_of_its_config_too(tmp_path) -> None:
    source = trl_source("temperature=1.0").replace("top_k=20", "top_k=1_000_000")
    ((code, line, message),) = trl_findings(tmp_path, source)
    assert (code, line) == ("RPL304", 5) and message.startswith("`top_k=1_000_000` passes the top_k > 0 check")
    # TRL's server loads ./ckpt: its config.json bounds the top_k.
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "config.json").write_text(QWEN_CONFIG, encoding="utf-8")
    source = trl_source("temperature=1.0").replace("Qwen/Qwen3-8B", "./ckpt").replace("top_k=20", "top_k=151936")
    ((code, line, message),) = trl_findings(tmp_path, source)
    assert code == "RPL304" and "ckpt/config.json" in message
    assert trl_findings(tmp_path, source.replace("top_k=151936", "top_k=50")) == []


def test_a_frameworks_model_path_bounds_its_top_k(check) -> None:
    # SkyRL's trainer.policy.model.path is the engine's model: a folder of the tree here.
    launch = SKYRL.format(extra="trainer.policy.model.path=ckpt").replace("top_k=64", "top_k=151936")
    files = {"run.sh": launch, "ckpt/config.json": QWEN_CONFIG}
    assert family(check(files), "run.sh") == ["RPL304"]
    files["run.sh"] = launch.replace("top_k=151936", "top_k=151935")
    assert family(check(files), "run.sh") == []
