"""The steps that take a system from format 1 to format 2, in the order they run; a new step is one line here."""

from __future__ import annotations

from rulesc.migrate import repetition
from rulesc.migrate.declare_kinds import DECLARE_KINDS
from rulesc.migrate.plan import Step

STEPS: tuple[Step, ...] = (repetition.STEP, DECLARE_KINDS)
