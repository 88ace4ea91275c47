# Imitates THUDM/AgentBench src/client/agent_test.py (an agent built from its YAML by InstanceFactory, then one exchange).
import argparse

import yaml

from src.typings import InstanceFactory


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, default="configs/agents/glm-replay.yaml")
    args = parser.parse_args()
    with open(args.config) as f:
        agent = InstanceFactory(**yaml.safe_load(f)).create()
    print(agent.inference([{"role": "user", "content": "List the files in /tmp."}]))


if __name__ == "__main__":
    main()
