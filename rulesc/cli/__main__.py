"""`python -m rulesc.cli`: the rulesc command."""

import sys

from rulesc.cli.main import main

sys.exit(main())
