"""Fuzzing (hypothesis): the formula parser raises only FormulaSyntaxError, and the loader only reports.

Each test is bounded by its example count, so CI time stays fixed; set RULESC_FUZZ_EXAMPLES to fuzz longer locally.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula import nodes as n
from rulesc.formula.check import Columns, Scope, check_types
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import MAX_NESTING, parse_formula
from rulesc.formula.types import Type
from rulesc.load import load_document

EXAMPLES = int(os.environ.get("RULESC_FUZZ_EXAMPLES", "600"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = ["1", "0", "2", "10", "9007199254740991", "9007199254740992", "n", "factor", "tier", "table", "d", "d6",
          "2d10", "d10kh1", "kh", "kl2", "+", "-", "*", "/", "//", "^", "<", "<=", ">", ">=", "==", "!=", "=", "(", ")",
          ",", "if", "then", "else", "and", "or", "not", "true", "false", "let", "in", "min", "max", "clamp",
          "lookup", "roll", "successes", "mean", "p_at_least", "category", "step", " ", "\n", "\t", "#", "'", "%", "é"]
formulas = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=40).map("".join),
    st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join),
    st.text(max_size=60),
    st.tuples(st.sampled_from(["-", "not ", "(", "2^", "1+", "if true then 1 else "]),
              st.integers(min_value=50, max_value=3000)).map(lambda pair: pair[0] * pair[1] + "1"),
)


def locate(offset: int) -> Span:
    return Span("f.yaml", 1, offset + 1)


def depth(node: n.Node) -> int:
    children = [c for v in vars(node).values() for c in (v if isinstance(v, tuple) else (v,)) if isinstance(c, n.Node)]
    return 1 + max((depth(c) for c in children), default=0)


@pytest.mark.slow  # hundreds of drawn formulas
@FUZZ
@given(formulas)
def test_the_parser_raises_only_formula_syntax_errors(source: str) -> None:
    try:
        node = parse_formula(source, locate)
    except FormulaSyntaxError as exc:
        assert 0 <= exc.offset <= len(source) and exc.message
        return
    assert isinstance(node, n.Node)
    assert depth(node) <= MAX_NESTING


@pytest.mark.slow  # hundreds of drawn formulas
@FUZZ
@given(formulas)
def test_checking_a_parsed_formula_reports_instead_of_raising(source: str) -> None:
    try:
        node = parse_formula(source, locate)
    except FormulaSyntaxError:
        return
    scope = Scope({"n": "int", "flag": "bool", "pool": "dice"}, {"factor": "int"},
                  {"table": Columns({"tier": Type.INT, "extra": Type.DICE})}, lambda name, span: None)
    diags = Diagnostics()
    result = check_types(node, scope, diags)
    assert (result is None) == bool(diags.errors)


YAML_PIECES = ["a", "id", "x", "1", "-1", "99999999999999999999", "1.5", "~", "true", ":", ": ", "- ", "-", "[", "]",
               "{", "}", ",", "#", "&a ", "*a", "!!str ", "!x ", "? ", "|", ">", "'", '"', "\\", "\t", " ", "  ", "\n",
               "\n  ", "---\n", "...\n", "%YAML 1.2\n", "@", "`", "é", "\x00", "\x1b", "\ufeff", "\u2028"]
yaml_texts = st.one_of(
    st.lists(st.sampled_from(YAML_PIECES), max_size=60).map("".join),
    st.text(max_size=80),
)


@pytest.mark.slow  # hundreds of drawn files
@FUZZ
@given(yaml_texts | st.binary(max_size=80).map(lambda b: b.decode("latin-1")))
def test_the_loader_reports_every_problem_and_never_raises(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "c.yaml"
        file.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        diags = Diagnostics()
        doc = load_document(file, "c.yaml", diags)
    assert (doc is None) == bool(diags.errors)
    for diag in diags.items:
        assert diag.span is not None and diag.span.line >= 1 and diag.span.col >= 1
