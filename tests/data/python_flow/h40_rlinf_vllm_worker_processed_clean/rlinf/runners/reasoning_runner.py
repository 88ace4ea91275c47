from rlinf.scheduler import Channel


class ReasoningRunner:
    def __init__(self, cfg, placement, rollout):
        self.cfg = cfg
        self.component_placement = placement
        self.rollout = rollout
        self.dataloader_channel = Channel.create("DataLoader")
        self.rollout_channel = Channel.create("Rollout")

    def init_workers(self):
        self.rollout.init_worker().wait()

    def run(self):
        for _ in range(self.cfg.runner.max_steps):
            rollout_handle = self.rollout.rollout(
                input_channel=self.dataloader_channel,
                output_channel=self.rollout_channel,
            )
            rollout_handle.wait()
