import json
import sys

from agent.llm import PolicyLLM


def main() -> None:
    policy = PolicyLLM("You are a careful web agent. Answer with one action.")
    for line in sys.stdin:
        episode = json.loads(line)
        print(json.dumps({"id": episode["id"], "action": policy.act(episode["observation"])}))


if __name__ == "__main__":
    main()
