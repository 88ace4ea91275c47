# Imitates InternLM/lagent's example scripts (argparse + VllmModel); logprobs_mode comes from a
# required command-line option, so the launch stays open.
import argparse

from vllm_wrapper import VllmModel

parser = argparse.ArgumentParser()
parser.add_argument('--model', default='internlm/internlm2_5-7b-chat')
parser.add_argument('--logprobs-mode', required=True)
parser.add_argument('--tp', type=int, default=1)
args = parser.parse_args()

llm = VllmModel(
    path=args.model,
    tp=args.tp,
    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode=args.logprobs_mode))
print(llm.generate('ping'))
