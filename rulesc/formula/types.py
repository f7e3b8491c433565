"""Formula types: what the checker gives every node, one enum member each.

A StrEnum, so that a type prints and compares as the language writes it ("int", "dist"): error messages, the
export and the generated code show the same words as before, and a model's declared type (`returns: dist`, a
parameter's `type: dice`) converts with Type(text).
"""

from __future__ import annotations

from enum import StrEnum


class Type(StrEnum):
    INT = "int"  # a whole number
    BOOL = "bool"  # yes or no
    DICE = "dice"  # a pool, written like 1d10+1d4
    DIST = "dist"  # the exact distribution of a roll
    NUM = "num"  # an exact rational: a chance, a mean
    TEXT = "text"  # a name, such as "critical"
    OUTCOME = "outcome"  # a roll of named outcomes
    EVENT = "event"  # a condition on a roll: yes or no, each with its chance
    POOL = "pool"  # a let-bound pool where a question asks it (highest(p, 2)): read once per roll
    UPGRADES = "upgrades"  # a set of upgrade ids (a calculator's input)
    LIST = "list"  # a list of texts (upgrade_problems)
    TABLE = "table"  # the name of a table, lookup()'s first argument
    COLUMN = "column"  # the name of one of its columns, lookup()'s second


ROLLED = frozenset({Type.DICE, Type.DIST})
NAMED = frozenset({Type.TEXT, Type.OUTCOME})
CHANCY = frozenset({Type.BOOL, Type.EVENT})
