# Imitates Gen-Verse/ReasonFlux ReasonFlux_F1/README.md (the F1 model served for evaluation) with
# the user's replay server: the `vllm serve` command put together as a string, the speculative
# config as JSON from a dict, run through os.system.
import json
import os

MODEL_ID = "Gen-Verse/ReasonFlux-F1"
SPECULATIVE = {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}
SPECULATIVE["enable_adaptive_verification"] = True  # expect: RPL002

cmd = f"vllm serve {MODEL_ID} --tensor-parallel-size 8 --port 8000"
cmd += " --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
cmd += f" --speculative-config '{json.dumps(SPECULATIVE)}'"

if __name__ == "__main__":
    os.system(cmd)
