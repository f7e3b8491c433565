"""The one error a command raises for a wrong command line: an unknown id, a bad argument. Exit status 2."""


class UsageError(Exception):
    """A command used wrongly: an unknown id, a bad argument. Exit status 2."""
