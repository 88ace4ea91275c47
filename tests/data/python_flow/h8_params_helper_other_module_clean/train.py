# Imitates volcengine/verl verl/trainer/main_ppo.py: the driver generating with both
from rl.engine import make_engine
from rl.sampling import rollout_params


def main():
    llm = make_engine("Qwen/Qwen2.5-3B-Instruct")
    outputs = llm.generate(["Solve: 3*7"], rollout_params(n=8))
    print(len(outputs))


if __name__ == "__main__":
    main()
