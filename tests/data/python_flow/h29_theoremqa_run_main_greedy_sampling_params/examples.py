# Imitates TIGER-AI-Lab/TheoremQA examples.py: the few-shot examples.
examples = [
    ("How many ways are there to divide a set of 5 elements into 2 non-empty ordered subsets?", "The answer is 30."),
    ("What is the determinant of the matrix [[1, 2], [3, 4]]?", "The answer is -2."),
]
