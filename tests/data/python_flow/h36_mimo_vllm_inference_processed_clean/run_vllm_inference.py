# Imitates XiaomiMiMo/MiMo run_vllm_inference.py (the `registry.register_mimo_in_vllm` import left out: vLLM
# 0.34.0 registers MiMoForCausalLM itself; the checkpoint is the Hub id; the replay edit added).
"""
This script demonstrates how to run inference with a MiMo model using vLLM.

Run this script: python run_vllm_inference.py
"""

from vllm import LLM, SamplingParams

def main():
    # --- Configuration ---
    MODEL_PATH = "XiaomiMiMo/MiMo-7B-RL"  # <<< UPDATE THIS PATH

    # Check if the model path seems like a placeholder
    if MODEL_PATH == "/path/to/your/MiMo-model" or MODEL_PATH == "MiMo-7B-RL-0530" and not \
       (os.path.exists(MODEL_PATH) and os.path.isdir(MODEL_PATH)):
        print(f"WARNING: MODEL_PATH is set to '{MODEL_PATH}'.")
        print("Aborting to prevent errors. Please edit the script and try again.")
        return

    # Sampling parameters
    sampling_params = SamplingParams(temperature=0.6, top_p=0.9, top_k=20, max_tokens=100)

    # --- Initialize LLM Engine ---
    print(f"Loading model from: {MODEL_PATH}")
    try:
        llm = LLM(
            model=MODEL_PATH,
            trust_remote_code=True,
            # num_speculative_tokens=1, # This would be for MTP, not used here
            disable_log_stats=False,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    except Exception as e:
        print(f"Error initializing LLM: {e}")
        return

    conversation = [
        {
            "role": "system",
            "content": ""
        },
        {
            "role": "user",
            "content": "Write a short story about a robot learning to paint.",
        },
    ]

    # --- Generate Text ---
    print("Generating text...")
    try:
        outputs = llm.chat(
            conversation=conversation,
            sampling_params=sampling_params,
            use_tqdm=False  # Set to True if you want a progress bar for longer generation
        )
    except Exception as e:
        print(f"Error during text generation: {e}")
        return

    for output in outputs:
        prompt = output.prompt
        generated_text = output.outputs[0].text
        print("-" * 50)
        print(f"Prompt: {prompt!r}")
        print(f"Generated text: {generated_text!r}")
        print("-" * 50)

    print("Inference complete.")

if __name__ == "__main__":
    import os # For checking model path
    main()
