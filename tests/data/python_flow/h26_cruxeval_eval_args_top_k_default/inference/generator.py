# Imitates facebookresearch/cruxeval inference/generator.py + inference/utils.py complete_code
# (SamplingParams from the parsed EvalArguments; prompts as token ids).
from vllm import SamplingParams
from vllm.inputs import TokensPrompt


class Generator:
    def __init__(self, model, tokenizer, args):
        self.model = model
        self.tokenizer = tokenizer
        self.args = args

    def generate(self, prompts):
        sampling_params = SamplingParams(
            n=self.args.n_samples,
            temperature=self.args.temperature,
            top_p=self.args.top_p,
            top_k=self.args.top_k,
            max_tokens=self.args.max_length_generation,
            stop=[self.args.eos],
        )
        inputs = [TokensPrompt(prompt_token_ids=self.tokenizer(p).input_ids) for p in prompts]
        outputs = self.model.generate(inputs, sampling_params=sampling_params, use_tqdm=False)
        return [[o.text for o in out.outputs] for out in outputs]
