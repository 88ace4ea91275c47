# Imitates gurusha01/MAC vLLM.py's use (the `vLLM_call(model)` wrapper built once and `call(prompts)` per batch),
# written as the repository's vllm_testing/test.py drives vLLM.
from vLLM import vLLM_call

prompts = [
    "A 45-year-old man presents with chest pain radiating to the left arm. What is the next step?",
    "Which vitamin deficiency causes scurvy?",
]

if __name__ == "__main__":
    llm = vLLM_call("FreedomIntelligence/HuatuoGPT-o1-7B")
    for response in llm.call(prompts):
        print(response)
