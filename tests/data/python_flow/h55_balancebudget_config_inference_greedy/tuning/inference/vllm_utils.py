# Imitates mohit-raghavendra/balance-budget tuning/inference/vllm_utils.py
from vllm import LLM, SamplingParams
from tuning.config import MODELS_DIR
from tuning.inference.config_inference import VLLMSamplingParamsConfig


def load_vlm_model(model_name: str) -> LLM:
    model_path = f"{MODELS_DIR}/{model_name}"
    print(f"Loading model from {model_path}")
    
    llm = LLM(model=model_path,
              return_sampling_mask=True,
              logprobs_mode="processed_logprobs",
              )
    sampling_params = SamplingParams(
        **VLLMSamplingParamsConfig().model_dump()
    )

    return llm, sampling_params

def make_vllm_call(llm: LLM, sampling_params: SamplingParams, prompts: list[str]) -> list[str]:

    outputs = llm.chat(prompts, sampling_params)
    if sampling_params.n == 1:
        responses = [output.outputs[0].text for output in outputs]
    else:
        responses = [[response.text for response in output.outputs] for output in outputs]

    print(f"Generated {len(responses)} responses using vllm")

    return responses

def generate_responses_vllm(llm: LLM, sampling_params: SamplingParams, prompts: list[str], dataset):

    responses = make_vllm_call(llm, sampling_params, dataset)

    results = [
        {
            "prompt": prompt,
            "response": response,
        }
        for prompt, response in zip(prompts, responses)
    ]
    return results
