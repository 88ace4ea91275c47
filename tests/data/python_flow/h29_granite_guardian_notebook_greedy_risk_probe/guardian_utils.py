# Imitates ibm-granite/granite-guardian cookbooks/granite-guardian-3.1/quick_start_vllm.ipynb: the notebook's
# `parse_output`/`get_probabilities` cell, kept in a module the notebook imports.
import math

import torch

safe_token = "No"
risky_token = "Yes"
nlogprobs = 20


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


def parse_output(output):
    label, prob_of_risk = None, None
    if nlogprobs > 0:
        logprobs = next(iter(output.outputs)).logprobs
        if logprobs is not None:
            prob_of_risk = get_probabilities(logprobs)[1]
    res = next(iter(output.outputs)).text.strip()
    if risky_token.lower() == res.lower():
        label = risky_token
    elif safe_token.lower() == res.lower():
        label = safe_token
    else:
        label = "Failed"
    return label, prob_of_risk.item()
