# Imitates allenai/wildguard wildguard/wildguard.py, wildguard/utils.py (load_wildguard, WildGuardVLLM, inference_with_vllm)
import multiprocessing

from vllm import LLM, SamplingParams

WILDGUARD_INPUT_FORMAT = """<s><|user|>
[INST] You are a classifier for analyzing interactions between humans and LLMs.

Human user:
{prompt}

AI assistant:
{response}

---

Answers: [/INST]
<|assistant|>
"""


def inference_with_vllm(
        prompts: list[str],
        model: LLM,
        use_tqdm: bool = False,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_tokens: int = 2048,
        **sampling_args
) -> list[str]:
    sampling_params = SamplingParams(
        max_tokens=max_tokens,
        temperature=temperature,
        top_p=top_p,
        **sampling_args
    )
    outputs = model.generate(prompts=prompts, sampling_params=sampling_params, use_tqdm=use_tqdm)

    results = [it.outputs[0].text for it in outputs]
    return results


def create_and_inference_with_vllm(
        prompts: list[str],
        model_name_or_path: str,
        use_tqdm: bool = False,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_tokens: int = 2048,
        result_pipe=None,
        **sampling_args
) -> list[str]:
    llm = LLM(
        model=model_name_or_path,
        max_model_len=2048,
        return_sampling_mask=True,  # expect: RPL003
    )
    result = inference_with_vllm(
        prompts=prompts,
        model=llm,
        use_tqdm=use_tqdm,
        temperature=temperature,
        top_p=top_p,
        max_tokens=max_tokens,
        **sampling_args
    )

    if result_pipe is not None:
        result_pipe.send(result)
    return result


def subprocess_inference_with_vllm(
        prompts: list[str],
        model_name_or_path: str,
        use_tqdm: bool = False,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_tokens: int = 2048,
        **sampling_args
) -> list[str]:
    ctx = multiprocessing.get_context("spawn")
    parent_conn, child_conn = ctx.Pipe()
    subprocess = ctx.Process(
        target=create_and_inference_with_vllm,
        args=(
            prompts,
            model_name_or_path,
            use_tqdm,
            temperature,
            top_p,
            max_tokens,
            child_conn
        ),
        kwargs=sampling_args
    )
    subprocess.start()
    result = parent_conn.recv()
    subprocess.join()
    return result
