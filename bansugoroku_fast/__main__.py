"""``python -m bansugoroku_fast``: the ``bansugoroku`` command line."""
import sys

from .cli import main

sys.exit(main())
