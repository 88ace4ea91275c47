# Imitates EvolvingLMMs-Lab/lmms-eval lmms_eval/models/chat/vllm.py (generate_until: gen_kwargs fallbacks, params dict, client.chat)
from vllm import SamplingParams

from lmms_eval.models.vllm_simple import VLLM as VLLMSimple


class VLLM(VLLMSimple):
    is_simple = False

    def generate_until(self, requests):
        res = []
        batch_size = self.batch_size_per_gpu
        batched_requests = [requests[i : i + batch_size] for i in range(0, len(requests), batch_size)]
        for batch_requests in batched_requests:
            batched_messages = []
            for messages, gen_kwargs in batch_requests:
                if "max_new_tokens" not in gen_kwargs:
                    gen_kwargs["max_new_tokens"] = 4096
                if "temperature" not in gen_kwargs:
                    gen_kwargs["temperature"] = 0  # expect: RPL101
                if "top_p" not in gen_kwargs:
                    gen_kwargs["top_p"] = 0.95

                params = {
                    "temperature": gen_kwargs["temperature"],
                    "max_tokens": gen_kwargs["max_new_tokens"],
                    "top_p": gen_kwargs["top_p"],
                    "top_k": gen_kwargs.get("top_k", 20),
                }
                batched_messages.append(messages)

            sampling_params = SamplingParams(**params)
            response = self.client.chat(sampling_params=sampling_params, messages=batched_messages)
            res.extend(o.outputs[0].text for o in response)
        return res
