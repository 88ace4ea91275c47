# Imitates huggingface/trl tests/test_vllm_client_server.py (a smoke test that generates with the engine's default request)
from policy import load_policy


def main():
    llm = load_policy("Qwen/Qwen2.5-0.5B-Instruct")
    outputs = llm.generate(["Hello, my name is", "The future of AI is"])
    for output in outputs:
        print(output.outputs[0].text, output.outputs[0].sampling_mask is not None)


if __name__ == "__main__":
    main()
