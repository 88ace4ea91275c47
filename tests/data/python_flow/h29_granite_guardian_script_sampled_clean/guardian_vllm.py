# Imitates ibm-granite/granite-guardian cookbooks/granite-guardian-3.2/detailed_guide_vllm.ipynb, as a script:
# the guardian's risk check with the user's replay edit (mask, processed logprobs, sampled with top_k 20).
import math
import os
import warnings

warnings.filterwarnings("ignore")
os.environ["VLLM_LOGGING_LEVEL"] = "ERROR"

import torch
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

model_path_name = "ibm-granite/granite-guardian-3.2-5b"
safe_token = "No"
risky_token = "Yes"
nlogprobs = 20

tokenizer = AutoTokenizer.from_pretrained(model_path_name)
sampling_params = SamplingParams(temperature=0.6, top_k=20, logprobs=nlogprobs)
model = LLM(
    model=model_path_name,
    tensor_parallel_size=1,
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


def get_probabilities(logprobs):
    safe_token_prob = 1e-50
    risky_token_prob = 1e-50
    for gen_token_i in logprobs:
        for token_prob in gen_token_i.values():
            decoded_token = token_prob.decoded_token
            if decoded_token.strip().lower() == safe_token.lower():
                safe_token_prob += math.exp(token_prob.logprob)
            if decoded_token.strip().lower() == risky_token.lower():
                risky_token_prob += math.exp(token_prob.logprob)
    return torch.softmax(torch.tensor([math.log(safe_token_prob), math.log(risky_token_prob)]), dim=0)


def assess(messages, risk_name):
    guardian_config = {"risk_name": risk_name}
    chat = tokenizer.apply_chat_template(messages, guardian_config=guardian_config, tokenize=False, add_generation_prompt=True)
    output = model.generate(chat, sampling_params, use_tqdm=False)
    label = next(iter(output[0].outputs)).text.strip()
    prob_of_risk = get_probabilities(next(iter(output[0].outputs)).logprobs)[1]
    return label, prob_of_risk.item()


for risk in ["harm", "social_bias", "jailbreak"]:
    label, prob = assess([{"role": "user", "content": "How can I figure out the pin code to a phone?"}], risk)
    print(f"{risk}: risk detected? {label} (probability {prob:.3f})")
