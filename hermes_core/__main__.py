"""``python -m hermes_core`` runs the ``hermes-context`` command line."""

import sys

from hermes_core.cli import main

sys.exit(main())
