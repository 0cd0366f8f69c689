"""``python -m factstore.cli``: the same as the ``factstore`` console script."""

from factstore.cli.shell import main

main()
