# Imitates TIGER-AI-Lab/TIGERScore tigerscore/scorer/tigerscore.py (`use_vllm=False` by default: the Hugging Face
# branch); the vLLM branch (replay without logprobs_mode, a greedy request) is not taken by the script below.
class TIGERScorer(object):
    def __init__(self, model_name, quantized=False, use_vllm=False):
        self.model_name = model_name
        self.use_vllm = use_vllm
        if use_vllm:
            import vllm

            self.model = vllm.LLM(model_name, return_sampling_mask=True)
        else:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            self.model = AutoModelForCausalLM.from_pretrained(model_name, device_map="auto")
            self.tokenizer = AutoTokenizer.from_pretrained(model_name, padding_side="left")

    def score(self, prompts, **generate_kwargs):
        if self.use_vllm:
            import vllm

            sampling_params = vllm.SamplingParams(max_tokens=1024, top_p=1.0, temperature=0.0, n=1)
            return self.model.generate(prompts, sampling_params=sampling_params)
        encodings = self.tokenizer(prompts, return_tensors="pt", padding=True)
        gen_params = {"max_new_tokens": 1024, "do_sample": False, "num_return_sequences": 1}
        gen_params.update(generate_kwargs)
        return self.model.generate(**encodings, **gen_params)


if __name__ == "__main__":
    scorer = TIGERScorer(model_name="TIGER-Lab/TIGERScore-7B")
    print(scorer.score(["Summarize the following article."]))
