# Imitates lsdefine/simple_GRPO simple_grpo_v2/grpo_vllm_one.py (gen_worker in a torch.multiprocessing Process).
import os

import torch.multiprocessing as mp

model_path = "/data2/Qwen/Qwen2.5-7B"
gen_device = 4
Q_batch_size = 5
num_pre_Q = 8


def gen_worker(Q, physics_device):
    os.environ["CUDA_VISIBLE_DEVICES"] = f"{physics_device}"
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    from vllm import LLM, SamplingParams

    vllm_gen = LLM(
        model=model_path,
        gpu_memory_utilization=0.5,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(n=num_pre_Q, temperature=0.9, top_k=50, max_tokens=700)

    def gen_answers(prompts):
        voutputs = vllm_gen.generate(prompts, sampling_params, use_tqdm=False)
        return [o.text for v in voutputs for o in v.outputs]

    while True:
        prompts = Q.get()
        gen_answers(prompts)


if __name__ == "__main__":
    mp.set_start_method("spawn")
    Q = mp.Queue()
    p = mp.Process(target=gen_worker, args=(Q, gen_device))
    p.start()
