# Imitates a project package whose sampling params come from a helper module.
