"""Fixture data, not tests: make_fixtures.py runs inside GNU Backgammon
(``gnubg -t -p``), where its ``import gnubg`` resolves."""
collect_ignore = ["gnubg/make_fixtures.py"]
