from myrl.factory import create_vllm_engines


def main():
    engines = create_vllm_engines(
        num_engines=2,
        pretrain="OpenRLHF/Llama-3-8b-sft-mixture",
        seed=42,
        logprobs_mode="processed_logits",  # expect: RPL003
    )
    return engines


if __name__ == "__main__":
    main()
