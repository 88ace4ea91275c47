# A user's logits processor for CodeGeeX4's fill-in-the-middle mode (never imported by the launch check).
class StopAtFenceProcessor:
    def __init__(self, vllm_config, device, is_pin_memory):
        self.fence = "```"
