"""The Python value flow, on a corpus of cases written from real RL repositories' patterns
(tests/data/python_flow/: one folder per case, its first comment citing what it imitates).

A case's expected findings are comments on the lines where they must be reported:
`# expect: RPL003` (and, optionally, a fragment of the message in double quotes). A case
without one is clean. Every case is checked as `replaylint check CASE/` would, against vLLM
0.34.0; then, with `--fix --unsafe-fixes`, every fixable finding is fixed where it is reported
(in whichever file), and a second run changes nothing.

Held-out round 9 (`h9_`, 32 cases, first run, vLLM 0.34.0): 21 of 32 cases as expected; of 21
expected findings 11 exact, 1 at another line, 9 missed; 0 false findings; 11 of 11 clean
cases clean (tests/data/python_flow/README.md, Round 9). After the fixes: 32 of 32 cases, 21 of 21
found exactly, 0 false findings.

Held-out round 10 (`h10_`, 32 cases): first run 19 of 32 (20 expected findings: 7 exact, 1 at
another line, 12 missed); after the fixes 30 of 32 (18 exact, one of them after an expectation
moved to the corpus's rule, 2 missed, 0 false; 12 of 12 clean), the rest PENDING below.

Held-out round 11 (`h11_`, 18 cases: 11 with findings, 7 clean; tests/data/python_flow/README.md, Round 11).
First run (the lead, on merge-a at e6d34f4, vLLM 0.34.0): 12 of 18 cases as expected; of 11
expected findings 5 exact, 0 at another line, 6 missed; 0 false findings; 7 of 7 clean cases clean
(45%). Missed (PENDING in tests/test_python_flow.py): h11_lighteval_generation_parameters_none_top_k,
h11_lighteval_ray_remote_fn_model_args_adaptive, h11_llamafactory_vllm_config_literal_eval,
h11_mappingproxy_spec_presets_synthetic, h11_swift_args_mixin_getattr_loop_no_mode,
h11_swift_hf_overrides_pop_canvas.

Held-out round 12 (`h12_`, 26 cases: 16 with findings after one correction, 10 clean; README, Round 12).
First run (the lead, on main at a6f1370, vLLM 0.34.0): 18 of 26 cases as expected (69%); of 15 expected
findings 10 exact, 5 missed; 2 false findings (an `os.putenv` in the process, a second RPL002 at a
YAML's `speculative_config:` key); 10 of 11 clean cases clean. After the fixes: 26 of 26.

Held-out round 13 (`h13_`, 24 cases: 15 with findings, 9 clean; README, Round 13), written after round 12's
fixes and first run on them (the lead, on merge-c at the merge of h-pend2, vLLM 0.34.0): 12 of 24 cases as
expected (50%); of 15 expected findings 4 exact, 11 missed; 1 false finding (RPL206 of an `os.environ`
write under a dataclass flag whose default is False); 8 of 9 clean cases clean. After the fixes: 24 of 24,
one expectation moved to the corpus's rule (a YAML block list's finding at its key); no case waits.

Held-out round 14 (`h14_`, 24 cases: 15 with findings, 9 clean; README, Round 14), written blind from 14
repositories new to the corpus, first run on main at d3e0c6f (the lead, vLLM 0.34.0): 14 of 24 cases as
expected (58%); of 15 expected findings 5 exact, 10 missed (PENDING); 0 false findings; 9 of 9 clean
cases clean.

Held-out round 15 (`h15_`, 24 cases: 17 with findings, 7 clean; README, Round 15), written blind after round
14's fixes from vLLM's own examples, langchain, llama_index, GLM-4, Qwen2.5-VL/Qwen3, understand-r1-zero, LIMO,
Ray Data/Serve LLM, TinyZero and dspy, first run on merge-e at cede2b3 (the lead, vLLM 0.34.0): 19 of 24 cases
as expected (79%); of 17 expected findings 12 exact, 1 at another line, 4 missed (PENDING); 0 false findings;
7 of 7 clean cases clean.
After the fixes: 24 of 24, one expectation moved to the corpus's rule (spec_decode's RPL002 at the written
`True` under the flag's test, not at the `BooleanOptionalAction` default); no h15 case waits.

Held-out round 16 (`h16_`, 24 cases: 15 with findings, 9 clean; README, Round 16), written blind after round
15's fixes from ColossalChat, nano-aha-moment, simple_GRPO, Open-Reasoner-Zero, R1-V, VLM-R1, SimPO, Online-RLHF,
rStar, large_language_monkeys, PipelineRL, ART, atropos and TRL, first run on main at b4c68cd (the lead, vLLM
0.34.0): 15 of 24 cases as expected (62%); of 15 expected findings 6 exact, 1 at another line (a
`field(default_factory=lambda: [...])` reported at the field's first line, not at the factory's), 8 missed
(PENDING); 0 false findings; 9 of 9 clean cases clean.
After the fixes (h-fxh16a, h-fxh16b): 23 of 24, no expectation changed; Open-Reasoner-Zero's case waits (its
requests go to the items of a list of Ray actors grown by `append` and handed to another module's class, from
folders without `__init__.py` that no script beside them imports). After h-fxorz
(tests/test_python_flow_round16_orz.py): 24 of 24, no expectation changed (a namespace package two levels deep read
with the script beside its top that imports it by its dotted name; a list of Ray actors grown by `append` in a loop,
handed on, read as that actor wherever a request loops over it).

Held-out round 17 (`h17_`, 24 cases: 14 with findings, 10 clean; README, Round 17), written blind after round
16's fixes from curator, smolagents, camel, bigcodebench, Agentless, storm, NeMo-Curator, DeepSeek-Prover,
General-Reasoner, litellm, xtuner and SWE-Gym, first run on the integration branch merge-s40 at cc1f8f5 (the
lead, vLLM 0.34.0, after round 16's, forks 10's and RPL3xx 11's fixes): 21 of 24 cases as expected (88%); of 14
expected findings 11 exact (79%), 3 missed (PENDING); 0 false findings; 10 of 10 clean cases clean. (The
harness read no shell script's `# expect:` before this round; SWE-Gym's is the first, and it was found.)
After the fixes (h-fxh17; tests/test_python_flow_round17.py): 24 of 24, no expectation changed (a command string
grown by `+=` run through `shlex.split`, `os.system` or `os.popen`; a pydantic field's default spliced into a
worker's command by `*self._server_args()`; an attribute `__init__` sets and then a method it calls sets again).

Held-out round 18 (`h18_`, 24 cases: 14 with findings, 10 clean; README, Round 18), written blind after round
17's fixes from alpaca_eval, search-and-learn, ToRA, math-evaluation-harness, DeepSeek-Math, Search-R1,
arena-hard-auto, reward-bench, Eurus and llama-cookbook, first run on h-h18 at main 94db31b (the lead, vLLM
0.34.0): 16 of 24 cases as expected (67%); of 14 expected findings 6 exact (43%), 1 at another line
(DeepSeek-Math's `setdefault("logits_processors", [...])` reported at the call's first line, not at the list's),
7 missed (PENDING); 0 false findings; 10 of 10 clean cases clean.
After the fixes (h-fxh18a, h-fxh18b; tests/test_python_flow_round18_requests.py, _commands.py): 24 of 24, no
expectation changed (a `setdefault` whose value starts on a later line, at the value; attribute writes that
complete a request, read with the callers in the modules that import the function; registry dicts of imported
functions and package re-exports; a config folder's loader in the folder above; `["vllm", "serve", ...]` lists,
which the prefilter had skipped; a config path from the module's own place; `NAME=value` command prefixes; YAML
block lists item by item and `random.choice(s)` over equal items).

Held-out round 19 (`h19_`, 24 cases: 15 with findings, 9 clean; README, Round 19), written blind after round
18's first run from olmocr, DistillKit, dart-math, tau-bench, Self-rewarding-reasoning-LLM, STILL (OlymMATH),
OpenHands, LongBench and simple-evals, first run on the integration branch merge-s41 at f72f581 (the lead, vLLM
0.34.0, after round 18's fixes): 20 of 24 cases as expected (83%); of 15 expected findings 11 exact (73%), 4 missed
(PENDING); 0 false findings; 9 of 9 clean cases clean.
After the fixes (h-fxh19; tests/test_python_flow_round19.py): 24 of 24, no expectation changed (an engine built under
`__main__` handed to another module's class that sends the requests; `asyncio.create_subprocess_exec(*cmd)` with words
from another module's list holding the server's mask flag, `json.dumps` keeping its keys' places, such a list kept by the
prefilter; `os.path.join(base_url, endpoint)` of known texts as a request URL).

Held-out round 20 (`h20_`, 24 cases: 15 with findings, 9 clean; README, Round 20), written blind after round 19's
fixes from MetaMath, WizardLM, SPIN, prometheus-eval, ZeroEval, WildBench, RouteLLM and AgentBench, first run on main
at e995f4a (the lead, vLLM 0.34.0): 20 of 24 cases as expected (83%); of 15 expected findings 12 exact (80%), 3 missed
(PENDING); 2 false findings (RPL102 at prometheus_eval/vllm.py:45, `SamplingParams(**kwargs)` of a method whose callers
pass `**params` on a receiver that is a parameter); 8 of 9 clean cases clean.
After the fixes (h-fxh20; tests/test_python_flow_round20.py): 24 of 24, no expectation changed (a receiver made by the
wrapper's class on every branch of an `if`; a method's `**kwargs` kept open where a module near calls its name with
keywords on an object the reader cannot tell apart; a config file opened at an argparse option's default; a class a
YAML names by its dotted path, made by an `importlib` factory).

Held-out round 21 (`h21_`, 24 cases: 14 with findings, 10 clean; README, Round 21), written blind from DeepSeek-Coder,
mistral-evals, ArcticTraining, NeMo-Aligner, InternLM, Yi, EAGLE, CodeGeeX4, Hermes-Function-Calling, OpenICL,
starcoder2 and LLM-Shearing, first run on the integration branch merge-s42 at 9338469 (the lead, vLLM 0.34.0, after
round 20's fixes): 21 of 24 cases as expected (88%); of 14 expected findings 11 exact (79%), 3 missed (PENDING);
0 false findings; 10 of 10 clean cases clean.
After the fixes (h-fxh21; tests/test_python_flow_round21.py): 24 of 24, no expectation changed (a command string a
call spells as an f-string or puts together with `+`, read with its pieces' values; `isinstance(params, dict)` of a
`SamplingParams(...)` decided; a request on `self.llm` that `__init__` leaves None and a method sets to the engine; a
function-local `from vllm import ...` read in the class written in that function).

Held-out round 22 (`h22_`, 24 cases: 14 with findings, 10 clean; README, Round 22), written blind from Goedel-Prover
(and V2), s1, Kimina-Prover, Seed-Coder, LIMR, Skywork-OR1 and sweet_rl, first run on the integration branch merge-s42
at 4c6490e (the lead, vLLM 0.34.0, after round 20's fixes, before round 21's): 20 of 24 cases as expected (83%); of 14
expected findings 10 exact (71%), 1 at another line (Kimina's presence penalty reported at the `json.dumps` word of the
command string, serve.py:19, not at the dict's key, 12), 3 missed (PENDING); 0 false findings; 10 of 10 clean cases clean.
After the fixes (h-fxh22; tests/test_python_flow_round22.py): 24 of 24, no expectation changed (an ordered comparison of
known numbers as a branch's test; a loop over a parameter that falls back to a list spelt out, under a test the call
decides; `config.get(k)` of a loop's key; a `json.dumps(DICT)` word of a command string split by `shlex.split` or a shell
keeping each key's place).

Held-out round 23 (`h23_`, 24 cases: 16 with findings, 8 clean; README, Round 23), written blind from Laser, B-STaR,
KlearReasoner, Klear1.0, Super_MARIO, Nemotron, Zyphra's vllm-router and p2l, first run on the integration branch
merge-s42 at f6db7a7 (the lead, vLLM 0.34.0, after round 22's fixes): 20 of 24 cases as expected (83%); of 16 expected
findings 12 exact (75%), 4 missed (PENDING); 0 false findings; 8 of 8 clean cases clean.
After the fixes (h-fxh23; tests/test_python_flow_round23.py): 23 of 24, no expectation changed (an OmegaConf config
written as YAML and read back keeps its keys; attributes a helper writes on the params it is handed reach the caller's
request; a function that splices a module list of replay flags into a command is kept; a `@staticmethod` client
factory is followed); then (h-fxP1; tests/test_python_flow_round23_registry.py) 24 of 24: a registry a decorator fills
(`CHAT_HANDLERS[model_config["type"]].generate(...)` of `@register("openai")`) gives the entry its key names.
Round 24 (h24_, blind, first run on main 30d26b1): of 16 expected findings 8 exact, 8 missed, 0 false; 8 of 8
clean cases clean.
Round 25 (h25_, blind, first run on main 30d26b1): of 17 expected findings 11 exact, 6 missed, 1 extra (RPL102 on a
request to an engine vLLM refuses at start, to judge); 8 of 8 clean cases clean.
Round 26 (h26_, blind, first run on merge-s43 b7b961a): of 15 expected findings 7 exact, 8 missed, 0 false; 9 of 9
clean cases clean (PENDING).
After the fixes (stop 43: h-fxA, h-fxB, h-fxC, h-fxG1, h-fxG2; tests/test_python_flow_round24_greedy.py,
_round24_clients.py, _round25_configs.py, _round26_libraries.py, _round26_recipes.py): round 24 23 of 24, round 25 23
of 24, round 26 24 of 24; no expectation changed; h25_archon's extra RPL102 was false (its only caller passes top_k 40).
Then (h-pA; tests/test_python_flow_round24_client_env.py) round 24 24 of 24: an OpenAI client made without
`base_url` takes `OPENAI_BASE_URL` from the script near it that exports it and runs the program (or the module's own
`os.environ` write before the client is made).
Round 27 (h27_, blind, first run on merge-s44 8ed5d43, stop 44): of 16 expected findings 10 exact, 6 missed; 2 of 8
clean cases not clean (3 false findings: a request dict whose every key a run-time loop may overwrite, a `match` on a
YAML's backend whose taken case is not the engine's) (PENDING).
After the fixes (stop 44: h-fxH27a, h-fxH27b; tests/test_python_flow_round27_precision.py, _round27_configs.py,
_round27_tables.py): 23 of 24, no expectation changed; both false findings gone (a loop copying a run-time mapping into
the request dict opens the keys it may overwrite; a branch the tree's own values decide against never runs). Then
(stop 45: h-fxP; tests/test_python_flow_round27_partials.py) 24 of 24: an object made through a `functools.partial`
of its class (`make()`, a registry of partials filled by `update`, two modules from the class) is a construction of it.
Round 28 (h28_, blind, first run on merge-s45 at main c8974af, stop 45): of 16 expected findings 12 exact, 4 missed;
one more reported and expected since (h28_guidellm's greedy probe without top_k: RPL102 beside RPL101 on the same
line, as h5_fastapi_app_state expects both): 13 of 17; 1 of 8 clean cases not clean (a false RPL003: an engine under
`if use_vllm:` whose only caller in the tree leaves the parameter's default False) (PENDING).
After h-fxA (stop 45; tests/test_python_flow_round28_argv.py): the two RPL003 misses whose engine keywords travel
through argv pass (`sys.argv` extended before `parse_args()`; JSON on a Python program's command line read back from `sys.argv`).
After h-fxB (tests/test_python_flow_round28_precision.py, _round28_requests.py): 24 of 24, no expectation changed.
Round 29 (h29_, blind, written to imitate the repositories' code as it is rather than unusual spellings; first run on
merge-s45 after round 28's fixes, stop 45): of 16 expected findings 9 exact, 7 missed, 0 false; 8 of 8 clean cases
clean (PENDING).
Round 30 (h30_, blind, written the same way; first run on main c2fdb69 with the lead's speed commits, stop 45): of 16
expected findings 7 exact, 9 missed; 1 of 8 clean cases not clean (a false RPL003 under a `use_vllm` branch the
default model does not take) (PENDING).
After the fixes (stop 45: h-fxS, h-fxD, h-fxR, h-fxL; tests/test_python_flow_round29_tests.py, _round29_fire.py,
_round29_servers.py, _round29_subclasses.py): round 29 24 of 24, no expectation changed. Round 30 after h-fxV and h-fxT
(_round30_engines.py, _round30_precision.py, _round30_configs.py): 20 of 24; two expectations changed by the project's
rules: h30_vlmevalkit_qwen2vl_transformers_default_untaken_clean now expects RPL003 "when `self.use_vllm` is true" (the
branch rests on `--model`'s default, which a run can change: an engine on a path an option's default does not take is
reported with its condition, tests/test_precision_round41.py), and h30_vlmevalkit_qwen2vl_use_vllm_mask_without_mode
also expects its greedy request's RPL101 and RPL102 (h5_fastapi_app_state, h28_guidellm). Waits: agentlightning,
modal, openchat, skypilot.
Rounds 31 and 32 (h31_, h32_; blind, written as the repositories' code is, from 16 repositories new to the corpus; first
run on main 09fbc372, stop 46): of 32 expected findings 12 exact, 2 at another line, 18 missed; 4 false findings (an
argparse default reported though the tree's script that runs the program passes the flag: Step-DPO's `--temp 0.7`,
ZeroEval's `--temperature $TEMP`); 14 of 16 clean cases clean (PENDING). Three expectations changed by the project's
rules before counting: h32_mmlupro_local_mask_without_mode and h32_zeroeval_unified_infer_mask_without_mode also expect
their requests' findings (beside the engine's, as h4_ray_data_engine_kwargs), h32_aibrix_quickstart_model_env_runner_zero
expects RPL206 at the env entry's `name:` line (tests/test_framework_forms.py's rule), counted as at another line.
After the fixes (stop 46: h-fxC, h-fxD, h-fxE, h-fxF, h-fxG, then h-fxH, h-fxI, h-fxK; test modules
_round31_scripts, _round32_branches, _round31_yaml, _round31_parsers, _round31_commands, _round32_known_args,
_round32_called_scripts, _round30_openchat): 46 of 48, every false finding gone; alpaca_eval's two cases wait (a
config path chosen through a console script's `fire.Fire` dict of commands). Round 30 after h-fxA and h-fxB
(_round30_fxA, _round30_fxB, tests/test_skypilot_yaml.py) and h-fxK: 24 of 24. Expectations changed by the project's
rules: h30_agentlightning's RPL003 moved to the `--return-sampling-mask` word its flag's `if` adds (the h15 rule: a
finding at the written word, not at the default deciding the branch); h32_zeroeval_unified_infer_mask_without_mode
also expects RPL101 at the script's `TEMP=0` (a greedy request without top_k: both checks);
h14_fastchat_worker_set_defaults_mask_no_logprobs_mode also expects its worker request's RPL102 (read since
`from_cli_args` builds the engine `from_engine_args` starts: request findings beside the engine's).
Rounds 33 and 34 (h33_, h34_; blind, as written, from 11 more repositories; round 34 partial, 9 cases; first run on
the integration branch with all of stop 46's fixes): of 21 expected findings 15 exact (71%), 6 missed; 0 false findings;
12 of 12 clean cases clean (PENDING).
After h-fxM and h-fxN (_round33_defaults, _round33_misc): 18 of 21; AutoRAG's two and gpt-oss's wait.

Rounds 41-44 (h41_-h44_; blind, as written, from 15 repositories new to the corpus; round 42 partial, 9 cases; first
run on main at 5e8fcdf, stop 48): of 30 expected findings 21 exact (70%), 9 missed; 1 false finding (a `getattr` of a
dict's key, always its default); 14 of 15 clean cases clean (PENDING).
Rounds 45-47 (h45_-h47_; blind, as written, from 10 repositories new to the corpus; round 45 partial, 6 cases; first
run on main with rounds 41-44 in PENDING, before their fixes): of 21 expected findings 8 exact, 13 missed; 2 false
findings in three cases (a greedy method of olmo-eval's backend that the script never calls); 8 of 9 clean cases clean.
Rounds 48-50 (h48_-h50_; blind, as written, from 11 repositories new to the corpus; round 49 partial, 9 cases;
first run on the integration branch with rounds 41-47's fixes merged, stop 48): of 22 expected findings 13 exact (59%),
9 missed (one, rxsalad's RPL003 behind an unquoted `$MODEL`, withdrawn by the open-ended rule); 0 false
findings; 11 of 11 clean cases clean (PENDING).
Rounds 51-53 (h51_-h53_; blind, as written, from 12 repositories new to the corpus; first run on main at stop 48's
final code, with every fix of rounds 41-50): of 24 expected findings 19 exact (79%; round 51 8 of 8), 5 missed; 0 false
findings; 12 of 12 clean cases clean (PENDING).
After the stop's fixes (h-fxY to h-fxAS, a test module each): of the 96 expected findings of rounds 41-53 (one
withdrawn), 87 found; PENDING keeps TapeAgents' two (the Hydra program that composes the YAML starts nothing itself;
run-time words handed through `Thread(args=...)`), FlagScale's two (a helper's parser, the run's folder), torchtune's
two (`tune run` of a `@config.parse` recipe), docling's request default (its caller four folders up), fairseq2's
request (a list of actors another method grows) and TorchServe's handler YAML.
Rounds 54-57 (h54_-h57_; blind, as written, from 12 repositories new to the corpus; rounds 54 and 57 partial, 8 and 9
cases; first run on main at stop 48's final code, stop 49): of 28 expected findings 22 as the corpus now expects (79%;
round 55 8 of 8), 6 missed; 0 false findings; 13 of 13 clean cases clean (PENDING). Two EGM expectations gained the
RPL301 replaylint reported beside them (a `vllm.entrypoints.openai.api_server` with the mask and no `--enable-scale-out`,
the corpus's rule since h22/h31: every problem of a launch is reported, not vLLM's first only).
Rounds 58-61 (h58_-h61_; blind, as written, from 13 repositories, two of them (torchtune, reasoning-gym) used by round 52-53
before; round 58 partial, 6 cases; first run on main after rounds 54-57's fixers h-fxAU/AV/AW/AX/AZ/AT, stop 49): of 28
expected findings 18 exact (64%; round 61 7 of 8), 10 missed; 0 false findings; 14 of 14 clean cases clean (PENDING).
Rounds 62-65 (h62_-h65_; blind, as written, from 12 repositories new to the corpus; rounds 62 and 63 partial, 6 cases
each; first run on main with rounds 54-61's fixes, stop 49): of 24 expected findings 16 exact (67%; round 64 8 of 8), 8
missed; 1 false finding (MedVLSynther's click default, its run script in eval/scripts/ running the program by a path from
the repository's root); 10 of 11 clean cases clean (PENDING). Four expectations gained what the project's rules report
beside them (README, Round 65's lead's note): RPL301 of a Ray Serve `build_openai_app`, RPL101 of a click default.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from replaylint.cli.main import main

CORPUS = Path(__file__).parent / "data" / "python_flow"
CASES = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
# Held-out cases the flow does not follow yet, each with what it misses (strict: a case that
# passes must leave the list). Their fix test waits with them.
PENDING: dict[str, str] = {
    "h37_datadreamer_vllm_run_no_top_k": "round 37 first run (stop 47): RPL102 missed (datadreamer/llms/vllm.py:100: the library's `run()` request helper of the same wrapper); h-fxAV (s49, out of time, not started): still the links h-fxT named: the request is sent by `self_resource.model.generate(*args, **kwargs)` in the nested `LLMResource` (the instance named `self_resource`, its params in `*args`), reached through the cached property `self.model`'s `.proxy` (`proxy_resource_in_background` returning `_ResourceProxy(resource_cls())`)",
    "h43_tapeagents_rl_gsm8k_actor_kwargs_mask_without_mode": "round 43 first run (stop 48): RPL003 missed (conf/rl_gsm8k.yaml:22: Hydra conf's vllm kwargs joined into a shell command string)",
    "h43_tapeagents_rl_gsm8k_actor_kwargs_no_scale_out": "round 43 first run (stop 48): RPL301 missed (conf/rl_gsm8k.yaml:21: Hydra conf's vllm kwargs joined into a shell command string)",
    "h48_fairseq2_remote_vllm_sampling_params_no_top_k": "round 48 first run (stop 48): RPL102 missed (_remote_vllm.py:65: `SamplingParams(**sampling_params)` of a recipe's config); h-fxAV (s49): the list of actors `setup_replica` grows is now read (`grown_actors`, tests/test_python_flow_round48_actor_lists.py) and the engine is found through `from_importers` of _remote_vllm.py (the `super().__init__` in _common.py), but two links remain: `RemoteVllmModelHandler.create(actor_config)` has its only caller in scripts/online_dpo_rollout.py, outside the folders `Tree` looks in for importers (the package folder and two above), so `actor_config.vllm_engine_args` (the mask) and `actor_config.vllm_sampling_params` stay unknown; and `rollout_from_model(prompts, sampling_params=None)`'s `if sampling_params is None: sampling_params = self.sampling_params` is read with the parameter unknown (no caller found), so the request's params are not `self.sampling_params`",
    "h50_torchserve_vllm_handler_yaml_mask_without_mode": "round 50 first run (stop 48): RPL003 missed (model-config.yaml:14: TorchServe's model config read by the handler)",
    "h53_torchtune_async_grpo_engine_args_mask_without_mode": "round 53 first run (stop 48): RPL003 missed (qwen3B_async_grpo.yaml:53: torchtune's `tune run` recipe config, `engine_args` read by a Ray collector that builds `LLM(**engine_args)`)",
    "h53_torchtune_async_grpo_generate_kwargs_no_top_k": "round 53 first run (stop 48): RPL102 missed (async_grpo_full_finetune_distributed.py:36: `SamplingParams(**generate_kwargs)` from the recipe config)",
    "h57_twinkle_eval_greedy_sampling_params": "round 57 first run (stop 49): RPL101 missed (cookbook/rl/grpo.py:39); s49 (h-fxAY) taught `isinstance(params, dict)` of the tree's own record, the `inspect.signature(AsyncEngineArgs).parameters.keys()` filter, `if self.x` in the engine's method, a method's local import and a package's re-export (tests/test_python_flow_round57_library_params.py); still waiting: the sampler's `self.engine = self._run_in_loop(self._create_engine_async(VLLMEngine, ...))` (the class handed to a coroutine that calls `engine_cls(...)`, its result through `run_coroutine_threadsafe(...).result()`) and the request through `_sample_all`'s comprehension of `self.engine.sample(...)` then `Sampler.sample`'s caller",
    "h57_twinkle_grpo_sampling_params_default_top_k": "round 57 first run (stop 49): RPL102 missed (src/twinkle/data_format/sampling.py:63; the line stands: the dataclass's -1 is not passed, so vLLM's default decides, as h45_olmo_eval_vllm_backend_no_top_k and h12_jsonargparse_cli_top_k_none_left_out); still waiting on the same sampler links as h57_twinkle_eval_greedy_sampling_params (s49, h-fxAY)",
    "h59_atlasnexus_script_env_runner_zero": "round 59 (stop 49), still waiting after h-fxBC: RPL206 missed (examples/risk_identification_vllm_offline.py:5): the script names neither the mask nor a launcher, so the prefilter turns it away; and the engine is built in `VLLMInferenceEngine.create_client`, which `InferenceEngine.__init__` of another module (base.py) calls as `self.create_client()`: the flow binds no construction of a class without its own `__init__` to a base `__init__` of another module, so the script's construction and the `os.environ` write before it never reach the launch",
    "h59_atlasnexus_vllm_params_typeddict_no_top_k": "round 59 (stop 49), still waiting after h-fxBC (which made a TypedDict call apply no body defaults): RPL102 missed (src/ai_atlas_nexus/blocks/inference/vllm.py:53): `self.client` is set in base.py's `InferenceEngine.__init__` by `self.create_client()`, read on the base class (no dispatch to the subclass's method that returns `LLM(...)`), so `self.client.chat(...)` is no request of the launch; `self.parameters` comes from a construction of a class without `__init__` (the base's of another module is not bound to its arguments), and `create_client` changes it with `self.parameters.pop(...)`",
    "h59_ipw_vllm_client_greedy_temperature_override": 'round 59 first run (stop 49): RPL101 missed (scripts/run_offline_profile.py:20: `temperature=0.0` given to a client made by `ClientRegistry.create("vllm")`); h-fxBD (s49): not taught in the time, and more than the registry: even with the client made directly (`VLLMClient()`), its override loop reduced to `overrides = dict(params)` and the request sent straight from `stream_chat_completion`, no request is read: the `**params` a method takes go through `self._build_sampling_params(params)` (`SamplingParams(**{**self._sampling_defaults, **overrides})`) to `self._engine`, which `_ensure_engine` sets; also waiting: a class-attribute registry filled by a classmethod decorator and picked by a classmethod `create(key)` (`cls._entries[key](*args, **kwargs)`), the `startswith("sampling_")`/`elif key in recognized` loop through `_coerce`, and the request sent from an async generator run by `runner.run(self._stream_response(...))`',
    "h59_lmpolygraph_generation_params_greedy": "round 59 first run (stop 49): RPL101 missed (examples/configs/polygraph_eval_coqa.yaml:25: a Hydra YAML's generation params read by an extensionless entry point, scripts/polygraph_eval, started by a shell script); session 49 (h-fxBF, out of time) probed copies of the case with parts made literal: missing forms (1) the engine object returned through two user factories (`get_model(args): return get_vllm_model(args)`, which returns `WhiteboxModelvLLM(model, sampling_params, ...)`; main calling get_vllm_model directly gets the request `self.model.generate(..., sampling_params)` judged), (2) a module loaded by file path (utils/common.py's load_external_module: `spec_from_file_location` + `exec_module`; `load_module.load_model(**kw)` stays unresolved even for a literal path), (3) `@hydra.main(config_path=str(hydra_config.parent), config_name=str(hydra_config.name))` with `hydra_config = Path(os.environ['HYDRA_CONFIG'])` from the shell script's env prefix (its run also carries overrides of other keys, `batch_size=1`), (4) (not isolated) the defaults list's config group `- model: vllm` for `args.model.path_to_load_script`, (5) the `setattr(self.sampling_params, param, getattr(gp, param, None))` loop over a literal name list is not applied: with (1) fixed by hand the flow reports a wrong RPL102 (top_k unset) at the load script's SamplingParams, so (5) must land with or before (1)",
    "h59_unitxt_vllm_params_mixin_top_k_default": "round 59 first run (stop 49): RPL102 missed (src/unitxt/inference.py:30: `top_k: int = -1` of a params mixin whose classes a metaclass makes dataclasses). Session 49 (h-fxBG, left for lack of time) found three gaps: (1) `objects.is_record` reads decorators and base names only, not `metaclass=DataclassMeta` (whose `__new__` returns `dataclasses.dataclass(kw_only=True)(cls)`) inherited from `Dataclass` in another module, and it has no reader to follow bases across modules; (2) even with `@dataclass(kw_only=True)` written on every class and `dataclasses.asdict(self)`, the request `self.llm.generate(inputs, self.sampling_params)` in `_infer` (reached through the base's `infer` -> `self._infer`) is read in frames with `instance=None`, so `self.sampling_params` (set in `prepare_engine`, which `Artifact.__post_init__` -> `prepare` runs) reads `self` without the fields of examples/inference_using_vllm.py's `VLLMInferenceEngine(...)`; `uncalled_methods.construction_frames` sets no `instance` and looks elsewhere only when the method reads a stored parameter; (3) `self.to_dict([VLLMParamsMixin])` is a base's method of the tree: `Reader.call_function` hands it the object's fields only when its class is the frame's, its body (`dataclasses.fields(cls)` of the listed classes, `getattr(self, name)`) is not read, and `record_dumps.with_options` leaves `to_dict(args)` unknown",
    "h60_torchtune_async_grpo_generate_kwargs_no_top_k": "round 60 first run (stop 49): RPL102 missed (recipes/dev/async_grpo_full_finetune_distributed.py:32: `SamplingParams(**generate_kwargs)` from the recipe config, as h53's torchtune case)",
}


def _cases(cases: list[str], waits: pytest.MarkDecorator) -> list:
    return [pytest.param(case, marks=waits(reason=PENDING[case])) if case in PENDING else case for case in cases]


_EXPECT = re.compile(r'#\s*expect:\s*(RPL\d{3})(?:\s+"(.*)")?')


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", *args])
    return status, out.getvalue()


def sources(case: Path) -> list[Path]:
    """The case's Python files, notebooks, shell scripts and the config files they read (a finding may be in any)."""
    return sorted(path for pattern in ("*.py", "*.yaml", "*.toml", "*.ipynb", "*.sh") for path in case.rglob(pattern))


def lines(path: Path) -> list[tuple[str, int, str]]:
    """(where, line number, text) of a file's lines; a notebook's are its cells' (`rollout.ipynb#cell3`)."""
    name = path.name
    if path.suffix != ".ipynb":
        return [(name, number, line) for number, line in enumerate(path.read_text().splitlines(), 1)]
    cells = json.loads(path.read_text())["cells"]
    return [
        (f"{name}#cell{index}", number, line)
        for index, cell in enumerate(cells, 1)
        for number, line in enumerate("".join(cell["source"]).splitlines(), 1)
    ]


def expected(case: Path) -> dict[tuple[str, int, str], str]:
    found = {}
    for path in sources(case):
        folder = path.parent.relative_to(case).as_posix()
        for where, number, line in lines(path):
            for match in _EXPECT.finditer(line):
                found[(f"{folder}/{where}".removeprefix("./"), number, match.group(1))] = match.group(2) or ""
    return found


def findings(case: Path) -> list[dict]:
    _, out = cli("--output-format", "json", str(case))
    return json.loads(out)


_READ: dict[str, list[dict]] = {}  # each case's findings, read once: its findings test and its fix test start from them


def case_findings(case: str) -> list[dict]:
    if case not in _READ:
        _READ[case] = findings(CORPUS / case)
    return _READ[case]


def reported(case: Path) -> dict[tuple[str, int, str], str]:
    return {(_where(case, item), item["location"]["row"], item["code"]): item["message"] for item in case_findings(case.name)}


def _where(case: Path, item: dict) -> str:
    where = Path(item["filename"]).resolve().relative_to(case.resolve()).as_posix()
    return f"{where}#cell{item['cell']}" if item.get("cell") else where


def test_the_corpus_is_a_third_clean() -> None:
    clean = [case for case in CASES if not expected(CORPUS / case)]
    assert len(CASES) >= 30
    assert len(clean) * 3 >= len(CASES), clean


def _after_shebang(text: str) -> str:
    return text.partition("\n")[2] if text.startswith("#!") else text


def test_every_case_cites_what_it_imitates() -> None:
    for case in CASES:
        # the first Python file that is not empty (an `__init__.py` cites nothing), else a shell script, after a `#!` line,
        # else a YAML file (a case of manifests alone)
        texts = [
            *(_after_shebang(path.read_text()) for path in sorted((CORPUS / case).rglob("*.py"))),
            *(path.read_text().partition("\n")[2] for path in sorted((CORPUS / case).rglob("*.sh"))),
            *(path.read_text() for path in sorted((CORPUS / case).rglob("*.yaml"))),
        ]
        first = next((text for text in texts if text.strip()), "")
        assert first.startswith("# Imitates "), case


@pytest.mark.parametrize("case", _cases(CASES, pytest.mark.xfail(strict=True)))
def test_case_findings(case: str) -> None:
    want = expected(CORPUS / case)
    got = reported(CORPUS / case)
    assert set(got) == set(want), f"{case}: reported {sorted(got)}, expected {sorted(want)}"
    for key, fragment in want.items():
        assert fragment in got[key], f"{case}: {key} says {got[key]!r}, expected {fragment!r} in it"


# In CI's judges' lane (`-m slow`): about three minutes of the suite's lane, which nears the 30 minutes.
@pytest.mark.slow
@pytest.mark.parametrize("case", _cases([case for case in CASES if expected(CORPUS / case)], pytest.mark.skip))
def test_case_fix_is_written_where_it_decides_and_holds(case: str, tmp_path: Path) -> None:
    copy = tmp_path / case
    shutil.copytree(CORPUS / case, copy)
    fixable = {(_where(CORPUS / case, f), f["location"]["row"]) for f in case_findings(case) if f["fix"] and f["fix"]["edits"]}
    _, out = cli("--fix", "--unsafe-fixes", "--output-format", "json", str(copy))  # what is left, the files checked again
    after = {path: path.read_text() for path in sources(copy)}
    left = {(_where(copy, f), f["location"]["row"]) for f in json.loads(out) if f["fix"] and f["fix"]["edits"]}
    assert not left & fixable, f"{case}: fixable findings remain after --fix: {left}"
    if fixable:
        assert after != {path: (CORPUS / case / path.relative_to(copy)).read_text() for path in after}
    cli("--fix", "--unsafe-fixes", str(copy))
    assert {path: path.read_text() for path in sources(copy)} == after, "a second --fix changed the files"


def sarif_results(path: Path) -> list[dict]:
    _, out = cli("--output-format", "sarif", str(path))
    return json.loads(out)["runs"][0]["results"]


def places(locations: list[dict]) -> list[tuple[str, int]]:
    return [
        (Path(item["physicalLocation"]["artifactLocation"]["uri"]).name, item["physicalLocation"]["region"]["startLine"])
        for item in locations
    ]


def test_a_finding_shows_the_path_from_the_deciding_line_to_the_engine() -> None:
    # The mask is decided in the helper (line 7); the call site of the helper and the engine's
    # construction (line 10) are related places, as SARIF and the language server show them.
    (rpl003,) = [r for r in sarif_results(CORPUS / "helper_returns") if r["ruleId"] == "RPL003"]
    assert places(rpl003["locations"]) == [("train.py", 7)]
    assert places(rpl003["relatedLocations"]) == [("train.py", 10), ("train.py", 10)]
    (imported,) = sarif_results(CORPUS / "settings_import")
    assert places(imported["locations"]) == [("settings.py", 2)]
    assert ("train.py", 5) in places(imported["relatedLocations"])  # the import is a hop


def test_every_format_shows_the_path_from_the_import_to_the_engine() -> None:
    # The mask is turned on in train.py; the conflicting mode is decided in settings.py. Each
    # format names the places between them, with the text written there.
    case = CORPUS / "settings_import"
    hops = [("train.py", 7, "`return_sampling_mask=True`"), ("train.py", 5, "`from myproj.settings import VLLM_ARGS`")]
    _, full = cli("--output-format", "full", str(case))
    notes = re.findall(r"^ *= note: .*/(\w+\.py):(\d+):\d+: (.*)$", full, re.MULTILINE)
    assert [(name, int(line), said) for name, line, said in notes][:2] == hops
    (item,) = findings(case)
    assert [(Path(r["filename"]).name, r["location"]["row"], r["message"]) for r in item["related"]][:2] == hops
    _, lines = cli("--output-format", "json-lines", str(case))
    assert json.loads(lines)["related"] == item["related"]
    (result,) = sarif_results(case)
    assert [r["message"]["text"] for r in result["relatedLocations"]][:2] == [said for *_, said in hops]
    _, rdjson = cli("--output-format", "rdjson", str(case))
    (diagnostic,) = json.loads(rdjson)["diagnostics"]
    assert "settings_import/myproj/train.py:5:1: `from myproj.settings import VLLM_ARGS`" in diagnostic["message"]
    assert "related_locations" not in diagnostic  # reviewdog's proto has no such field: protojson would refuse it


def test_the_prefilter_passes_an_engine_built_from_a_config_file_named_by_path() -> None:
    from replaylint.frontends import relevant

    hydra = (CORPUS / "hydra_config_yaml" / "train.py").read_bytes()
    loaded = (CORPUS / "omegaconf_load_yaml" / "run_grpo.py").read_bytes()
    assert b"return_sampling_mask" not in hydra + loaded and relevant("python", hydra) and relevant("python", loaded)
    assert not relevant("python", hydra.replace(b"LLM(", b"Trainer("))  # a Hydra app that builds no engine
    assert not relevant("python", b"from vllm import LLM\nllm = LLM('m', config_format='auto')\n")


def test_a_change_in_the_config_file_re_judges_the_program_that_reads_it(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(CORPUS / "hydra_config_yaml", copy)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    args = ["check", "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "concise", *cache, str(copy / "train.py")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(args)
    assert "RPL001" in out.getvalue()
    config = copy / "conf" / "config.yaml"
    config.write_text(config.read_text().replace("return_sampling_mask: true", "return_sampling_mask: false"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(args)
    assert status == 0, out.getvalue()


def test_a_change_in_an_imported_module_re_judges_its_user(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(CORPUS / "settings_import", copy)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "concise", *cache, str(copy)])
    assert "RPL003" in out.getvalue()
    settings = copy / "myproj" / "settings.py"
    settings.write_text(settings.read_text().replace("raw_logprobs", "processed_logprobs"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "concise", *cache, str(copy)])
    assert status == 0, out.getvalue()


def test_too_many_modules_of_the_tree_is_rpl902(tmp_path: Path) -> None:
    package = tmp_path / "proj"
    package.mkdir()
    (package / "__init__.py").write_text("")
    names = [f"m{number}" for number in range(30)]
    for name in names:
        (package / f"{name}.py").write_text(f"{name.upper()} = {{'seed': 1}}\n")
    imports = "".join(f"from proj.{name} import {name.upper()}\n" for name in names)
    spreads = ", ".join(f"**{name.upper()}" for name in names)
    main_file = tmp_path / "main.py"
    main_file.write_text(f"from vllm import LLM\n{imports}LLM('m', {spreads}, return_sampling_mask=True)\n")
    _, out = cli("--output-format", "concise", str(main_file))
    assert "RPL902" in out and "more modules of the tree" in out


def test_calls_deeper_than_the_bound_are_rpl902_and_recursion_is_not(tmp_path: Path) -> None:
    chain = "".join(f"def f{n}():\n    return f{n + 1}()\n\n\n" for n in range(10))
    deep = tmp_path / "deep.py"
    deep.write_text(f"from vllm import LLM\n\n\n{chain}def f10():\n    return {{'return_sampling_mask': True}}\n\n\nLLM('m', **f0())\n")
    _, out = cli("--output-format", "concise", str(deep))
    assert "RPL902" in out and "deeper" in out
    recursive = tmp_path / "recursive.py"
    recursive.write_text(
        "from vllm import LLM\n\n\ndef args(n):\n    return args(n - 1)\n\n\nLLM('m', **args(3), return_sampling_mask=True)\n"
    )
    _, out = cli("--output-format", "concise", str(recursive))
    assert "RPL902" not in out and "RPL003" not in out  # unknown keys: nothing rests on an absent setting


def test_a_noqa_where_the_value_is_decided_silences_the_finding(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(CORPUS / "settings_import", copy)
    settings = copy / "myproj" / "settings.py"
    settings.write_text(settings.read_text().replace("# expect: RPL003", "# noqa: RPL003"))
    status, _ = cli("--output-format", "concise", str(copy))
    assert status == 0


def test_the_settings_module_alone_finds_the_engine_it_configures() -> None:
    # Pre-commit names only the changed file: the trainer, which never names the mask, is found
    # from the settings module, and its own finding is reported where it is written.
    settings = CORPUS / "settings_used_elsewhere" / "myproj" / "settings.py"
    _, out = cli("--output-format", "json", str(settings))
    found = sorted((Path(item["filename"]).name, item["location"]["row"], item["code"]) for item in json.loads(out))
    assert found == [("settings.py", 5, "RPL003"), ("train.py", 8, "RPL001")]


def test_the_language_server_shows_the_path_as_related_information() -> None:
    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config
    from replaylint.server.diagnostics import diagnostic
    from replaylint.server.positions import EditorText
    from replaylint.vllm.releases import parse_release

    path = CORPUS / "helper_returns" / "train.py"
    result = Checker(Config(target_vllm=parse_release("0.34.0"), target_vllm_forced=True)).check_file(str(path))
    (rpl003,) = [finding for finding in result.findings if finding.code == "RPL003"]
    shown = diagnostic(rpl003, lambda p: EditorText(Path(p).read_text()), lambda p: f"file://{p}")
    assert shown.range.start.line == 6  # the helper's dict entry (0-based)
    related = [(item.location.range.start.line, item.message) for item in shown.related_information or []]
    assert related == [
        (9, '`vllm_args("Qwen/Qwen3-8B")`'),
        (9, '`LLM(**vllm_args("Qwen/Qwen3-8B"), logits_processors=["my_project.Clamp"])`'),
    ]


def test_a_parsers_options_are_read_once_however_often_its_namespace_is_read() -> None:
    # vLLM's examples/rl/routed_experts_e2e.py: `args = parser.parse_args()`, then `args.x` in
    # every statement; reading the options at each use ran past the file's work budget (RPL902).
    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config

    options = "".join(f'    parser.add_argument("--o{i}", type=int, default={i})\n' for i in range(12))
    uses = "".join(f"    print(args.o{i}, args.o{(i + 1) % 12})\n" for i in range(12))
    text = (
        "import argparse\nfrom vllm import AsyncEngineArgs\n\n\n"
        "def run(model, tp=1):\n    return AsyncEngineArgs(model=model, return_sampling_mask=True, tensor_parallel_size=tp)\n\n\n"
        'def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--model", default="m")\n'
        f"{options}    args = parser.parse_args()\n{uses}    run(args.model, tp=args.o1)\n"
    )
    result = Checker(Config()).check_text("e2e.py", text, "python")
    assert [finding.code for finding in result.findings] == ["RPL003"] and result.internal_error is None
