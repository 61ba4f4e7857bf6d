"""`python -m mentalmagic.cli`: the same as the `mentalmagic` command."""

from . import main

main()
