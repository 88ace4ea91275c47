"""Answers the benchmark questions with the policy and grades them with the judge."""

import json
import sys

import dspy

from agent.lm import judge_lm, policy_lm


class Solve(dspy.Signature):
    """Answer the math question."""

    question: str = dspy.InputField()
    answer: str = dspy.OutputField()


def main(path: str) -> None:
    dspy.configure(lm=policy_lm())
    solve = dspy.ChainOfThought(Solve)
    grade = dspy.Predict("question, answer -> correct: bool")
    with open(path) as handle:
        for line in handle:
            item = json.loads(line)
            prediction = solve(question=item["question"])
            with dspy.context(lm=judge_lm()):
                print(grade(question=item["question"], answer=prediction.answer).correct)


if __name__ == "__main__":
    main(sys.argv[1])
