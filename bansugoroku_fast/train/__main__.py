"""``python -m bansugoroku_fast.train``: see :mod:`bansugoroku_fast.train.cli`."""
import sys

from .cli import main

sys.exit(main())
