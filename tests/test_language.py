"""Language traps: keep counts beyond the dice rolled, expressions starting with '-', comparisons on rolls."""

from __future__ import annotations

import json

import pytest

from rulesc.analyze.program import matches
from rulesc.cli.main import main
from rulesc.diagnostics.core import Span
from rulesc.emit.site.dice_page import emit_dice_page
from rulesc.formula import nodes as n
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import parse_formula
from rulesc.runtime import rulesc_runtime as R


def dice(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["dice", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("source", "column", "message", "hint"), [
    ("3d6kh4", 5, "'kh4' keeps 4 dice, but the count after 'kh' must be between 1 and 3",
     "with 3 dice, write kh1 to kh3"),
    ("2 + 3d6kl4", 9, "'kl4' keeps 4 dice, but the count after 'kl' must be between 1 and 3",
     "with 3 dice, write kl1 to kl3"),
    ("7d10kh0", 6, "'kh0' keeps 0 dice, but the count after 'kh' must be between 1 and 7",
     "with 7 dice, write kh1 to kh7"),
    ("d8 kl 2", 6, "'kl2' keeps 2 dice, but the count after 'kl' must be 1", "with one die, write kl1"),
    ("2d8kl3", 5, "'kl3' keeps 3 dice, but the count after 'kl' must be between 1 and 2",
     "with 2 dice, write kl1 to kl2"),
    ("3d6r1kh4", 7, "'kh4' keeps 4 dice, but the count after 'kh' must be between 1 and 3",
     "with 3 dice, write kh1 to kh3"),
])
def test_a_written_keep_count_lies_between_one_and_the_dice_rolled(source: str, column: int, message: str,
                                                                   hint: str) -> None:
    with pytest.raises(FormulaSyntaxError) as caught:
        parse_formula(source, lambda offset: Span("f", 1, offset + 1))
    assert (caught.value.offset, caught.value.message, caught.value.hint) == (column, message, hint)


def test_keeping_every_die_or_a_counted_pool_is_still_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert dice(capsys, "3d6kh3 + 3d6kl1 + 2d20kh")[0] == 0
    assert dice(capsys, "--json", "let n = 2 in highest(repeat(1d6, n), 1)")[0] == 0


def test_rulesc_dice_refuses_keeping_more_dice_than_rolled(capsys: pytest.CaptureFixture[str]) -> None:
    assert dice(capsys, "3d6kh4") == (2, "", "rulesc: error: syntax error: 'kh4' keeps 4 dice, but the count after "
                                             "'kh' must be between 1 and 3\n  3d6kh4\n       ^\n"
                                             "  hint: with 3 dice, write kh1 to kh3\n")


@pytest.mark.parametrize("argv", [["-1d6"], ["-1d6", "--json"], ["--json", "-1d6"]])
def test_an_expression_may_start_with_minus(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = dice(capsys, *argv)
    if "--json" in argv:
        assert out.startswith('{"expression": "-1d6", "distribution": {"-6": 0.16666666666666666, ')
    else:
        assert out.splitlines()[0:3] == ["-1d6: average -3.5000, standard deviation 1.7078", "      exactly   at least",
                                         "-6   16.6667%  100.0000%  " + "\u2588" * 40]
    assert (code, err) == (0, "")


def test_rulesc_dice_prints_no_hint_line_for_an_error_without_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert dice(capsys, "2 * (1d6 +)") == (2, "", "rulesc: error: syntax error: expected a number, a name, a quoted "
                                                  "name or '(', found ')'\n  2 * (1d6 +)\n            ^\n")


@pytest.mark.parametrize(("source", "message", "caret"), [
    ("2 * (1d6 + true)", "'+' cannot combine dice and bool", "           ^"),
    ("1 + 2 ^ true", "'^' cannot combine int and bool", "        ^"),
])
def test_rulesc_dice_points_at_the_operator_of_a_type_error(capsys: pytest.CaptureFixture[str], source: str,
                                                            message: str, caret: str) -> None:
    code, out, err = dice(capsys, source)
    assert (code, out, err.splitlines()[:3]) == (2, "", [f"rulesc: error: {message}", f"  {source}", caret])


def test_dice_without_an_expression_says_how_to_write_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert dice(capsys) == (2, "", "rulesc: error: dice needs an expression, e.g. rulesc dice \"4d6kh3\" (one "
                                   "starting with '-' works too: rulesc dice \"-1d6\")\n")


def test_a_second_expression_is_still_an_unknown_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["dice", "2d6", "-1d6"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith("rulesc: error: unrecognized arguments: -1d6\n")


@pytest.mark.parametrize(("source", "same"), [
    ("1d20 + 5 >= 15", "p_at_least(1d20 + 5, 15)"),
    ("1d20 + 5 > 15", "p_at_least(1d20 + 5, 16)"),
    ("15 >= 2d6", "p_at_most(2d6, 15)"),
    ("(1d6 + 1) * 2 < 9", "p_at_most((1d6 + 1) * 2, 8)"),
    ("3d6kh2 != 4", "1 - p_equal(highest(3d6, 2), 4)"),
    ("1d8 < 2d4", "p_greater(2d4, 1d8)"),
    ("p(1d20 >= 11 and 1d20 >= 11)", "p_at_least(1d20, 11) * p_at_least(1d20, 11)"),
    ("p(not (2d6 == 7))", "1 - p_equal(2d6, 7)"),
])
def test_a_comparison_on_a_roll_is_the_chance_of_yes(capsys: pytest.CaptureFixture[str], source: str,
                                                     same: str) -> None:
    """`1d20 + 5 >= 15` is an event, yes or no with its chance; `rulesc dice` prints the chance, as the
    probability function that says the same does. Two rolls written apart are rolled apart."""
    code, out, err = dice(capsys, source)
    assert (code, err) == (0, "")
    chance = out.split(" = ", 1)[1]
    code, expected, _ = dice(capsys, same)
    assert code == 0 and chance == expected.split(" = ", 1)[1]


def test_a_roll_matches_a_pool_only_when_distributed_alike() -> None:
    d20 = R.as_dist(R.parse_dice("1d20"))
    assert matches(d20, R.parse_dice("1d20"))
    assert not matches(d20, R.parse_dice("1d12+1d8"))
    assert not matches(R.as_dist(R.parse_dice("2d6")), R.parse_dice("1d11+1"))
    assert not matches(R.parse_dice("1d20"), R.parse_dice("1d20+1"))


def test_a_roll_of_names_prints_each_name_with_its_chance(capsys: pytest.CaptureFixture[str]) -> None:
    source = 'let r = 2d6 in if r >= 10 then "strong hit" else if r >= 7 then "weak hit" else "miss"'
    code, out, err = dice(capsys, source)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{source}:"
    assert [line.split()[:3] for line in lines[1:]] == [["miss", "5/12", "41.6667%"], ["strong", "hit", "1/6"],
                                                        ["weak", "hit", "5/12"]]
    code, out, _ = dice(capsys, "--json", source)
    assert json.loads(out)["outcomes"][1] == {"outcome": "strong hit", "exact": "1/6", "float": 1 / 6}


def test_the_dice_page_shows_every_kind_of_die_and_named_outcomes() -> None:
    page = next(iter(emit_dice_page().values()))
    # the exploding die's mean is a hair below 21/5: the explosions stop once another is less likely than 1e-15
    for row in ("| `4dF` | -4 to 4 | 0 |", "| `1d6!` | 1 to 120 | 4.200000 |", "| `count(5d6, 6)` | 0 to 5 |",
                "| `p(1d20 + 5 >= 15)` | 0.5500 (11/20) |"):
        assert row in page, row
    assert "critical 0.0741 (2/27), full 0.3472 (25/72), partial 0.4537 (49/108), bad 0.1250 (1/8)" in page


def test_a_name_that_reads_like_a_keep_is_a_name_unless_dice_come_just_before_it() -> None:
    """Only dice notation turns 'kh1' into a keep: first in a formula, or as the sides after a bare 'd', it is a
    name like any other."""
    first = parse_formula("kh1 + 1", lambda offset: Span("f", 1, offset + 1))
    assert isinstance(first, n.BinOp) and first.left == n.Name(Span("f", 1, 1), "kh1")
    sides = parse_formula("3d kh1", lambda offset: Span("f", 1, offset + 1))
    assert isinstance(sides, n.DiceRoll) and sides.sides == n.Name(Span("f", 1, 4), "kh1")


@pytest.mark.parametrize(("source", "column"), [("2 kh1", 2), ("2d6 + 1 kh1", 8), ("2d n kh1", 5)])
def test_a_keep_after_no_written_dice_is_an_unexpected_name(source: str, column: int) -> None:
    """A keep follows the dice notation itself (3d6kh1, 2d{1,2}kl1), not a number or dice whose sides are a name:
    there the author is told where the formula went wrong, rather than the keep being guessed at."""
    with pytest.raises(FormulaSyntaxError) as caught:
        parse_formula(source, lambda offset: Span("f", 1, offset + 1))
    assert (caught.value.offset, caught.value.message) == (column, "unexpected 'kh1' after a complete formula")


@pytest.mark.parametrize(("source", "column", "message", "hint"), [
    ('x + "hit', 4, "a quoted name is not closed", 'end it with " on the same line'),
    ("'a' + 'b\n'", 6, "a quoted name is not closed", "end it with ' on the same line"),
    ("3 & 4", 2, "unexpected character '&'", "write 'and'"),
    ("2 # 3", 2, "unexpected character '#'", None),
    ("9007199254740992", 0, "the number 9007199254740992 is too large",
     "whole numbers in formulas are at most 9007199254740991 (2**53-1)"),
    ("1 + 123456789012345678901234", 4, "the number 123456789012345678901234 is too large",
     "whole numbers in formulas are at most 9007199254740991 (2**53-1)"),
    ("1 + 1234567890123456789012345", 4, "the number 12345678901234567890... is too large",
     "whole numbers in formulas are at most 9007199254740991 (2**53-1)"),
    ("1d99999999999999999", 2, "the number 99999999999999999 is too large",
     "whole numbers in formulas are at most 9007199254740991 (2**53-1)"),
])
def test_the_lexer_says_where_and_why_it_stops(source: str, column: int, message: str, hint: str | None) -> None:
    """A quote closes on its own line; a number past 2**53-1 is refused, shown whole up to 24 digits and cut to
    20 after that; a character with a likely meaning gets a hint, any other none."""
    with pytest.raises(FormulaSyntaxError) as caught:
        parse_formula(source, lambda offset: Span("f", 1, offset + 1))
    assert (caught.value.offset, caught.value.message, caught.value.hint) == (column, message, hint)


@pytest.mark.parametrize(("source", "value"), [("9007199254740991", 9007199254740991),
                                               ("0000000009007199254740991", 9007199254740991),
                                               ("00000000000000001", 1), ("000", 0)])
def test_the_largest_whole_number_is_read_and_leading_zeros_add_nothing(source: str, value: int) -> None:
    assert parse_formula(source, lambda offset: Span("f", 1, offset + 1)) == n.Num(Span("f", 1, 1), value)


def test_a_long_formula_that_is_not_deep_is_read() -> None:
    """Only depth is limited: 30 terms added up are 59 tokens, more than half MAX_NESTING, but 30 levels deep."""
    node = parse_formula(" + ".join(["1"] * 30), lambda offset: Span("f", 1, offset + 1))
    assert isinstance(node, n.BinOp) and node.op == "+"


@pytest.mark.parametrize(("source", "column", "found"), [("2 * then", 4, "'then'"), ("1 + in", 4, "'in'")])
def test_a_keyword_where_a_value_belongs_is_refused_there(source: str, column: int, found: str) -> None:
    """Only true and false are keywords that stand for a value; any other in a value's place is an error at it."""
    with pytest.raises(FormulaSyntaxError) as caught:
        parse_formula(source, lambda offset: Span("f", 1, offset + 1))
    assert (caught.value.offset, caught.value.message) == (
        column, f"expected a number, a name, a quoted name or '(', found {found}")
