# Imitates facebookresearch/RAM projects/self_taught_evaluator/src/run_model.py (`Fire(run)`, a
# `greedy_decoding_parameters = SamplingParams(...)` before `LLM(model=model_dir, tokenizer=model_dir,
# tensor_parallel_size=8, distributed_executor_backend="ray")`, `vllm.generate(vllm_inputs, sampling_params=...)`),
# with the replay edit a user makes to score the judge's own samples.
"""
Copyright (c) Meta Platforms, Inc. and affiliates.

This source code is licensed under the MIT license found in the
LICENSE file in the root directory of this source tree.
"""

from pathlib import Path
from typing import Dict, List

from fire import Fire
from transformers import LlamaTokenizer
from utils import load_from_jsonl, parse_judgement, prepare_vllm_input, save_to_jsonl
from vllm import LLM, SamplingParams


def compose_vllm_inputs(input_and_responses: List[Dict], tokenizer: LlamaTokenizer):
    vllm_inputs = []
    for inputs_dict in input_and_responses:
        vllm_inputs.append(
            prepare_vllm_input(
                inputs_dict["input"],
                inputs_dict["response_a"],
                inputs_dict["response_b"],
                tokenizer,
            )
        )

    return vllm_inputs


def run(
    inputs_jsonl_path: str,
    model_dir: str,
    prompted_input_jsonl_key: str = None,
    results_save_path: str = None,
):
    assert Path(inputs_jsonl_path).exists()
    if model_dir.startswith("/"):
        assert Path(model_dir).exists()

    input_and_responses = load_from_jsonl(inputs_jsonl_path)
    for input_dict in input_and_responses:
        if (
            "input" not in input_dict.keys()
            or "response_a" not in input_dict.keys()
            or "response_b" not in input_dict.keys()
        ):
            # jsonl must contain prompted inputs if any of those fields
            assert prompted_input_jsonl_key is not None

    greedy_decoding_parameters = SamplingParams(temperature=0.7, top_k=20, max_tokens=1024)

    vllm = LLM(
        model=model_dir,
        tokenizer=model_dir,
        tensor_parallel_size=8,  # adjust to the number of available GPUs
        distributed_executor_backend="ray",
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    if prompted_input_jsonl_key is None:
        vllm_inputs = compose_vllm_inputs(input_and_responses, vllm.get_tokenizer())
    else:
        # use prompts as is from prompted_input_jsonl_key
        vllm_inputs = [d[prompted_input_jsonl_key] for d in input_and_responses]

    outputs = vllm.generate(vllm_inputs, sampling_params=greedy_decoding_parameters)
    output_txts = [o.outputs[0].text for o in outputs]
    judgements = [parse_judgement(o) for o in output_txts]

    results = [
        {"prompt": p, "generated_output": o, "judgment": j}
        for p, o, j in zip(vllm_inputs, output_txts, judgements)
    ]

    if results_save_path is not None:
        save_to_jsonl(results, results_save_path)


if __name__ == "__main__":
    Fire(run)
