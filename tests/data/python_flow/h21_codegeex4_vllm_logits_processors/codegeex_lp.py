# Imitates THUDM/CodeGeeX4 README's vLLM section: a user's logits processor module for it (never imported by the launch check).
class StopAtFenceProcessor:
    def __init__(self, vllm_config, device, is_pin_memory):
        self.fence = "```"
