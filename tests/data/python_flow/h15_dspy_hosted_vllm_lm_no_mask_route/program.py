# Imitates stanfordnlp/dspy docs/docs/learn/programming/language_models.md (dspy.LM("hosted_vllm/...", api_base=...), dspy.configure)
import subprocess
import time

import dspy

SERVER = subprocess.Popen(
    [
        "vllm",
        "serve",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--port",
        "7501",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
)
time.sleep(90)

lm = dspy.LM(  # expect: RPL301
    "hosted_vllm/meta-llama/Llama-3.1-8B-Instruct",
    api_base="http://localhost:7501/v1",
    api_key="local",
    temperature=0.7,
    top_k=20,
)
dspy.configure(lm=lm)

qa = dspy.ChainOfThought("question -> answer")
print(qa(question="What is the capital of France?").answer)
SERVER.terminate()
