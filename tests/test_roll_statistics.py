"""The sampler against the exact answers: 100,000 seeded rolls of every roll table and every formula that rolls,
in the bundled content and tests/cases/good, fit the exact distribution (chi-square, p > 0.001) in Python and in
JavaScript, and both runtimes draw the very same sequence from the same seed."""

from __future__ import annotations

import array
import hashlib
import json
import math
import subprocess
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.analyze.rolls import endless, results_of, roll_spec, roll_tables
from rulesc.pipeline import Project, compile_project
from rulesc.runtime import JS_RUNTIME
from rulesc.runtime import rulesc_runtime as R
from tests.backends import node

REPO = Path(__file__).resolve().parent.parent
TIMES = 100_000
ROLLING = ("dist", "outcome", "event", "dice")


def p_value(chi2: float, df: int) -> float:
    """P(X >= chi2) for X chi-square with df degrees of freedom: the regularized upper incomplete gamma function
    Q(df/2, chi2/2), by its series below a + 1 and its continued fraction above (Numerical Recipes, 6.2), each
    run to a relative 1e-15; the standard library has lgamma but no chi-square."""
    a, x = df / 2, chi2 / 2
    if x <= 0:
        return 1.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        for n in range(1, 10_000):
            term *= x / (a + n)
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1 - front * total
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for n in range(1, 10_000):
        an, b = -n * (n - a), b + 2
        d, c = 1 / (an * d + b), b + an / c
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h


def test_p_value_matches_known_quantiles() -> None:
    """The 99.9% points of chi-square (tables: 10.828 at 1 df, 29.588 at 10, 149.449 at 100) give 0.001."""
    for chi2, df in ((10.828, 1), (29.588, 10), (149.449, 100)):
        assert p_value(chi2, df) == pytest.approx(0.001, rel=1e-3)
    assert p_value(2.0, 2) == pytest.approx(math.exp(-1), rel=1e-12)  # 2 df: exp(-x/2) exactly


def chi_square(counts: Counter[Any], chances: dict[Any, Fraction], times: int) -> tuple[float, int]:
    """Pearson's statistic and degrees of freedom, the rarest outcomes pooled (in order of their chance) until
    every pooled expected count is at least 5; an outcome of no chance that came up fails outright."""
    assert set(counts) <= set(chances), set(counts) - set(chances)
    cells: list[tuple[float, int]] = []
    expected, seen = 0.0, 0
    for outcome in sorted(chances, key=lambda o: (chances[o], str(o))):
        expected, seen = expected + float(chances[outcome]) * times, seen + counts.get(outcome, 0)
        if expected >= 5:
            cells.append((expected, seen))
            expected, seen = 0.0, 0
    if expected and cells:
        last = cells.pop()
        cells.append((last[0] + expected, last[1] + seen))
    return sum((o - e) ** 2 / e for e, o in cells), max(1, len(cells) - 1)


def digest(numbers: Iterable[int]) -> str:
    """SHA-256 of the numbers in order, each a 32-bit integer in the machine's byte order, as roll_counts.js digests
    them: a step drawn differently, or in another order, changes it (a running hash mod 2**31 - 1 took 1.0 CPU-second
    in a Python loop over the 6.7 million draws of roll formulas, this 0.2)."""
    return hashlib.sha256(array.array("i", numbers).tobytes()).hexdigest()


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def programs() -> Iterator[tuple[str, Program]]:
    """Every system of the bundled content and of the good golden cases."""
    roots = [REPO, *sorted(p for p in (REPO / "tests/cases/good").iterdir() if p.is_dir())]
    for root in roots:
        for program in compile_project(Project(root)).programs:
            yield f"{'content' if root == REPO else root.name}/{program.system.id}", program


def rolling_formulas(program: Program) -> Iterator[tuple[str, R.Dist | R.Outcomes]]:
    """Each formula whose answer rolls, at its first worked example's arguments (or none)."""
    for formula in program.formulas.values():
        if program.returns[formula.id] not in ROLLING or not (formula.examples or not formula.params):
            continue
        args = dict(formula.examples[0].args) if formula.examples else {}
        answer = program.call(formula.id, [args[p.name] for p in formula.params])
        if isinstance(answer, R.Dice):
            answer = R.as_dist(answer)
        if isinstance(answer, (R.Dist, R.Outcomes)) and len(answer.weights) > 1:
            yield formula.id, answer


@pytest.fixture(scope="module")
def jobs() -> list[dict[str, Any]]:
    """One job per distinct roll: its weights (or tables), exact chances, seed and where it comes from."""
    found: dict[Any, dict[str, Any]] = {}
    for where, program in programs():
        for name, answer in rolling_formulas(program):
            weights = [int(w) for w in answer.weights]
            key = tuple(weights)
            total = sum(weights)
            found.setdefault(key, {"weights": weights, "where": [], "chances": {
                i: Fraction(w, total) for i, w in enumerate(weights) if w}})["where"].append(f"{where}.{name}")
        specs = [roll_spec(table, lambda text: text.source) for table in roll_tables(program.tables)]
        book = R.roll_tables(specs)
        ends = [t for t in roll_tables(program.tables) if t.name not in endless(program.tables)]  # W0707: no end
        for table in ends:
            listed = results_of(book[table.name])
            chances = {str(i): table.chance(i) for i in range(len(table.rows)) if table.weights[i]} \
                if listed is None else {result_key(r): p for r, p in listed.items()}
            found[(where, table.name)] = {"tables": specs, "table": table.name, "first": listed is None,
                                          "chances": chances, "where": [f"{where}.{table.name}"]}
    for job in found.values():
        job.update(seed=seed_of(job["where"][0]), times=TIMES)
    return list(found.values())


def result_key(result: Sequence[tuple[str, int]]) -> str:
    return " ".join(sorted(f"{table}:{row}" for table, row in result))


def python_counts(job: dict[str, Any]) -> tuple[Counter[Any], str]:
    """What the Python runtime rolls for a job, counted as roll_counts.js counts, and the digest of every step."""
    rng = R.seeded(job["seed"])
    if "weights" in job:
        drawn = R.samples(R.Dist(0, tuple(job["weights"]), sum(job["weights"])), rng, job["times"])
        return Counter(drawn), digest(drawn)
    table = R.roll_tables(job["tables"])[job["table"]]
    rolls = [tuple(R.roll_on(table, rng)) for _ in range(job["times"])]
    counts: Counter[Any] = Counter()
    for steps, times in Counter(rolls).items():  # 20 to 4,662 kinds of roll: each keyed once, not each roll
        counts[str(steps[0].row) if job["first"] else result_key([(s.table, s.row) for s in steps if s.kept])] += times
    return counts, digest(s.row for steps in rolls for s in steps)


@pytest.mark.slow  # compiles every good case and the content
def test_there_is_something_to_roll(jobs: list[dict[str, Any]]) -> None:
    """The golden cases bring roll tables of every shape (d66, d666, 1d20+2, chains, an endless chain) and the
    content its rolling formulas."""
    tables = [job for job in jobs if "tables" in job]
    assert len(tables) == 6 and [job["table"] for job in tables if job["first"]] == ["hoard"]
    assert len(jobs) - len(tables) >= 30


@pytest.fixture(scope="module")
def node_rolling(jobs: list[dict[str, Any]],
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    """Node rolling every job (tests/roll_counts.js), started before Python rolls them so that the two runtimes
    roll side by side; test_javascript_draws_the_same_rolls_and_they_fit reads its answer."""
    sent = tmp_path_factory.mktemp("rolls") / "jobs.json"
    sent.write_text(json.dumps([{k: v for k, v in job.items() if k not in ("chances", "where")} for job in jobs]),
                    encoding="utf-8")
    with sent.open(encoding="utf-8") as given:
        process = subprocess.Popen([node(), str(REPO / "tests/roll_counts.js"), str(JS_RUNTIME)], stdin=given,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield process
    process.kill()  # only if no test read its answer (a failure before it); an answered process is left as it is
    process.communicate()


@pytest.fixture(scope="module")
def python_rolled(jobs: list[dict[str, Any]],
                  node_rolling: subprocess.Popen[str]) -> list[tuple[Counter[Any], str]]:
    return [python_counts(job) for job in jobs]


@pytest.mark.slow  # 100,000 rolls of each of some 70 rolls
def test_python_rolls_fit_the_exact_distribution(jobs: list[dict[str, Any]],
                                                 python_rolled: list[tuple[Counter[Any], str]]) -> None:
    unfit = []
    for job, (counts, _) in zip(jobs, python_rolled, strict=True):
        chi2, df = chi_square(counts, job["chances"], TIMES)
        if p_value(chi2, df) <= 0.001:
            unfit.append((job["where"], chi2, df))
    assert unfit == []


@pytest.mark.slow  # 100,000 rolls of each of some 70 rolls
def test_javascript_draws_the_same_rolls_and_they_fit(jobs: list[dict[str, Any]],
                                                      python_rolled: list[tuple[Counter[Any], str]],
                                                      node_rolling: subprocess.Popen[str]) -> None:
    out, err = node_rolling.communicate(timeout=300)
    assert node_rolling.returncode == 0, err
    for job, got, (counts, digested) in zip(jobs, json.loads(out), python_rolled, strict=True):
        js_counts = Counter({(int(k) if "weights" in job else k): v for k, v in got["counts"].items()})
        assert (js_counts, got["digest"]) == (counts, digested), job["where"]
        chi2, df = chi_square(js_counts, job["chances"], TIMES)
        assert p_value(chi2, df) > 0.001, job["where"]


def test_chi_square_finds_a_wrong_distribution() -> None:
    """A fair d6 rolled against the chances of a loaded one fails, so the fit tests can fail."""
    drawn = Counter(R.samples(R.as_dist(R.parse_dice("1d6")), R.seeded(7), TIMES))
    loaded = {face: Fraction(2 if face == 6 else 1, 7) for face in range(1, 7)}
    assert p_value(*chi_square(drawn, loaded, TIMES)) < 1e-100
    fair = {face: Fraction(1, 6) for face in range(1, 7)}
    assert p_value(*chi_square(drawn, fair, TIMES)) > 0.001
