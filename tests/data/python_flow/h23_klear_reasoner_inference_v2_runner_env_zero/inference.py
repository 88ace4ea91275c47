# Imitates Kwai-Klear/KlearReasoner benchmarks/inference.py (FlexibleArgumentParser argument groups,
# vars(args) popped into SamplingParams, hf_overrides dict, an os.environ write before LLM(...));
# the user turned sampling replay on and pinned the model runner as an old recipe said.
import json
import os

from vllm import LLM, SamplingParams
from vllm.utils.argparse_utils import FlexibleArgumentParser


def create_parser():
    parser = FlexibleArgumentParser()
    engine_group = parser.add_argument_group("Engine Initialization Parameters")
    engine_group.add_argument("--model", type=str, default="Suu/Klear-Reasoner-8B")
    engine_group.add_argument("--max-model-len", type=int, default=81920)
    engine_group.add_argument(
        "--rope-scaling",
        type=str,
        default='{"rope_type":"yarn","factor":2.5,"original_max_position_embeddings":32768}',
    )
    engine_group.add_argument("--gpu-memory-utilization", type=float, default=0.9)
    engine_group.add_argument("--tensor-parallel-size", type=int, default=8)
    engine_group.add_argument("--max-num-seqs", type=int, default=128)
    engine_group.add_argument("--seed", type=int, default=0)

    sampling_group = parser.add_argument_group("Sampling Parameters")
    sampling_group.add_argument("--max-tokens", type=int, default=65536)
    sampling_group.add_argument("--temperature", type=float, default=0.6)
    sampling_group.add_argument("--top-p", type=float, default=0.95)
    sampling_group.add_argument("--top-k", type=int, default=20)
    sampling_group.add_argument("--n", type=int, default=64)

    data_group = parser.add_argument_group("Data Parameters")
    data_group.add_argument("--dataset-path", type=str, required=True)
    return parser


def main(args: dict):
    data_path = args.pop("dataset_path")
    n = args.pop("n")
    max_tokens = args.pop("max_tokens")
    temperature = args.pop("temperature")
    top_p = args.pop("top_p")
    top_k = args.pop("top_k")

    rope_scaling = json.loads(args.get("rope_scaling"))
    os.environ["VLLM_USE_FLASHINFER_SAMPLER"] = "0"
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    hf_overrides = {
        "rope_scaling": rope_scaling,
        "max_model_len": args.get("max_model_len", 81920),
    }
    llm = LLM(
        model=args.get("model"),
        tensor_parallel_size=args.get("tensor_parallel_size", 8),
        gpu_memory_utilization=args.get("gpu_memory_utilization", 0.9),
        enable_prefix_caching=True,
        max_num_seqs=args.get("max_num_seqs", 128),
        hf_overrides=hf_overrides,
        seed=args.get("seed", 0),
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        max_tokens=max_tokens,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        seed=args.get("seed", 0),
    )
    with open(data_path, encoding="utf-8") as f:
        batch_messages = [json.loads(line)["messages"] for line in f] * n
    return llm.chat(batch_messages, sampling_params, use_tqdm=True)


if __name__ == "__main__":
    parser = create_parser()
    args = vars(parser.parse_args())
    main(args)
