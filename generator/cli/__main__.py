"""`python -m generator.cli`: the rulesc command."""

import sys

from generator.cli.main import main

sys.exit(main())
