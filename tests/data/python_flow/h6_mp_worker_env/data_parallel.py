# Imitates vllm-project/vllm/examples/offline_inference/data_parallel.py (one multiprocessing.Process per
# data-parallel rank, each setting its environment and building its own LLM)
import os
from multiprocessing import Process

from vllm import LLM, SamplingParams


def main(model, dp_size, local_dp_rank, global_dp_rank, dp_master_ip, dp_master_port, gpus_per_dp_rank):
    os.environ["VLLM_DP_RANK"] = str(global_dp_rank)
    os.environ["VLLM_DP_RANK_LOCAL"] = str(local_dp_rank)
    os.environ["VLLM_DP_SIZE"] = str(dp_size)
    os.environ["VLLM_DP_MASTER_IP"] = dp_master_ip
    os.environ["VLLM_DP_MASTER_PORT"] = str(dp_master_port)
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206

    llm = LLM(
        model=model,
        tensor_parallel_size=gpus_per_dp_rank,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        enforce_eager=True,
    )
    prompts = [f"Rank {global_dp_rank} prompt {i}" for i in range(16)]
    outputs = llm.generate(prompts, SamplingParams(temperature=0.8, top_k=40, max_tokens=32))
    print(global_dp_rank, len(outputs))


if __name__ == "__main__":
    dp_size = 2
    procs = []
    for rank in range(dp_size):
        proc = Process(target=main, args=("ibm-research/PowerMoE-3b", dp_size, rank, rank, "127.0.0.1", 29500, 1))
        proc.start()
        procs.append(proc)
    for proc in procs:
        proc.join(timeout=300)
