"""`python -m engine ...`: the same as the `engine` command."""
import sys

from engine.frontends.cli import main

sys.exit(main())
