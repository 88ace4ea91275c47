"""The checked tree as the file system holds it: which files a run looks at (`discovery`), git's
ignore files read without git (`gitignore`, `repositories`), and the stamps a warm run compares
instead of reading a file or listing a folder again (`stamps`). Files are read within limits and
never waiting by `replaylint.files`, which the readers share."""
