# Imitates a project package whose engine helper sits in its own module.
