"""Benchmark input: a deterministic synthetic rulebook of N rules that uses every content feature."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path

from rulesc.build.site_config import CONFIG

RULES_PER_CHAPTER = 100
CHAPTERS_PER_SYSTEM = 10
GROUP = 20  # each group of 20 rules repeats the full mix of kinds and features
ADJECTIVES = ["amber", "azure", "brisk", "calm", "dusky", "eager", "fierce", "gilded", "hollow", "iron", "jade", "keen",
              "lunar", "molten", "noble", "onyx", "pale", "quiet", "rusted", "silent", "tidal", "umber", "vivid",
              "wild", "ashen", "bright", "cinder", "distant", "ember", "frozen"]
NOUNS = ["anchor", "beacon", "current", "drift", "echo", "flare", "gale", "harbor", "ingot", "jolt", "kettle",
         "lantern", "meadow", "needle", "orbit", "pillar", "quarry", "ripple", "spindle", "tether", "upland", "vessel",
         "warden", "yoke", "zenith", "bastion", "cradle", "dune", "fathom", "grove"]
FILLER = ["the", "a", "each", "every", "one", "your", "its", "their", "this", "that", "when", "while", "after",
          "before", "unless", "until", "and", "or", "but", "so"]
VERBS = ["moves", "holds", "spends", "gains", "loses", "marks", "shifts", "trades", "blocks", "raises", "lowers",
         "counts", "names", "keeps", "drops"]
THINGS = ["turn", "round", "step", "token", "marker", "point", "track", "pool", "die", "result", "bonus", "penalty",
          "edge", "mark", "zone", "reach"]
Extra = Callable[["_Chapter", int, int], None]  # what a kind of rule adds to its YAML
SUCCESS_FACE = 5  # successes((n)d6, 5): a die succeeds on 5 or 6


def write_rulebook(target: Path, rules: int, site_from: Path) -> Path:
    """Write a project of `rules` rules into `target` (content/, schema/, mkdocs.yml, site_overrides/)."""
    for folder in ("schema", "site_overrides"):
        if (site_from / folder).is_dir():
            shutil.copytree(site_from / folder, target / folder)
    shutil.copy2(site_from / CONFIG, target / CONFIG)
    for index, count in enumerate(_split(rules, RULES_PER_CHAPTER * CHAPTERS_PER_SYSTEM)):
        _write_system(target / "content" / f"synth-{index}", index, count)
    return target


def _split(total: int, size: int) -> list[int]:
    """`total` in parts of at most `size`, the last one holding the rest."""
    return [min(size, total - start) for start in range(0, total, size)]


def _write_system(folder: Path, index: int, rules: int) -> None:
    folder.mkdir(parents=True)
    chapters = _split(rules, RULES_PER_CHAPTER)
    terms = [_term(index, t, rules) for t in range(max(1, rules // 10))]
    (folder / "system.yaml").write_text(_system_yaml(index, terms), encoding="utf-8")
    for number, count in enumerate(chapters):
        book = _Chapter(index, number, count, terms)
        (folder / f"part-{number:03d}.yaml").write_text(book.yaml(), encoding="utf-8")


def _term(system: int, t: int, rules: int) -> dict[str, object]:
    adjective, noun = ADJECTIVES[t % len(ADJECTIVES)], NOUNS[(t // len(ADJECTIVES)) % len(NOUNS)]
    name = f"{adjective.title()} {noun.title()}" + (f" {t // 900 + 1}" if t >= 900 else "")
    term: dict[str, object] = {"id": f"term-{t}", "name": name,
                               "definition": f"A synthetic game notion ({adjective} {noun}) used by many rules.",
                               "rule": _rule_id(t * 10 // RULES_PER_CHAPTER, t * 10 % RULES_PER_CHAPTER)}
    if t % 3 == 0:
        term["abbreviations"] = [f"{adjective[0]}{noun[0]}{t}".upper()]
    if t % 4 == 1:
        term["aliases"] = [f"{name} marks"]
    return term


FACT_KINDS = ("{id: action, label: Action, type: count, units: [Action]}", "{id: kp, label: KP, type: cost, unit: KP}",
              "{id: experience, label: Experience, type: cost, unit: Experience}",
              "{id: limit, label: Limit, type: limit, per: [round, encounter]}",
              "{id: maneuver_type, label: Type, type: choice, options: [standard, instant, counter, modifier, "
              "special-modifier]}", "{id: modifies, label: Modifies, type: rule}",
              "{id: exploit, label: Exploit, type: text}", "{id: requires, label: Requires, type: requires}",
              "{id: excludes, label: Excludes, type: excludes}", "{id: times, label: Times, type: times}")


def _system_yaml(index: int, terms: list[dict[str, object]]) -> str:
    lines = [f"id: synth-{index}", f"title: Synthetic Book {index}",
             "summary: A generated rulebook that exercises every content feature, for benchmarks.",
             "sources:", "  - {id: synthetic, file: synthetic.txt, title: Generated text}",
             "dice:", "  base_die: d10",
             "  summary: Roll one ten-sided die and add bonuses; pools of d6 count successes.",
             "facts:", *(f"  - {kind}" for kind in FACT_KINDS), "terms:"]
    lines += [f"  - {json.dumps(term, sort_keys=False)}" for term in terms]
    return "\n".join(lines) + "\n"


def _rule_id(chapter: int, position: int) -> str:
    return f"r{chapter}-{position}"


class _Chapter:
    """One chapter file: groups of 20 rules, each group a section with the full mix of kinds under it."""

    def __init__(self, system: int, number: int, count: int, terms: list[dict[str, object]]):
        self.system, self.number, self.count, self.terms = system, number, count, terms
        self.rng = random.Random(f"{system}-{number}")
        self.lines = ["# yaml-language-server: $schema=../../schema/chapter.schema.json", f"id: part-{number}",
                      f"title: Part {number}", f"order: {number}",
                      "summary: Generated rules grouped in sections of twenty.", "rules:"]

    def yaml(self) -> str:
        for position in range(self.count):
            self._rule(position)
        return "\n".join(self.lines) + "\n"

    def _rule(self, position: int) -> None:
        slot, group = position % GROUP, position - position % GROUP
        complete = group + GROUP <= self.count  # a cut-off last group holds plain rules only
        kind, extra = _SLOTS.get(slot, ("general", _plain)) if complete else ("general", _plain)
        parent = _parent(slot, group, self.number) if complete else None
        self.lines += [f"  - id: {_rule_id(self.number, position)}", f"    name: {self._name(position)}",
                       f"    kind: {kind}"]
        if parent:
            self.lines.append(f"    parent: {parent}")
        self.lines += ["    text: >-", *(f"      {line}" for line in self._text(position, slot))]
        self.lines.append(f"    provenance: {{source: synthetic, section: Part {self.number} group {group // GROUP}}}")
        extra(self, position, group)

    def _name(self, position: int) -> str:
        return f"{self.rng.choice(ADJECTIVES).title()} {self.rng.choice(NOUNS).title()} {self.number}.{position}"

    def _text(self, position: int, slot: int) -> list[str]:
        words = [self._sentence() for _ in range(5)]
        links = self._links(position)
        words.insert(2, f"See [[{links[0]}]] and [[{links[1]}|the rule before]].")
        term = self.terms[(position * 7 + self.number) % len(self.terms)]
        words.insert(4, f"It uses the [[{term['id']}]] and every {term['name']} counts.")
        if slot in _VALUE_SLOTS:
            words.append(f"The step is {{{{{_name(self.number, position, 'step')}}}}}.")
        return _wrap(" ".join(words))

    def _links(self, position: int) -> tuple[str, str]:
        earlier = _rule_id(self.number, max(0, position - 1))
        other = _rule_id(max(0, self.number - 1), (position * 13) % RULES_PER_CHAPTER) if self.number else earlier
        return other, earlier

    def _sentence(self) -> str:
        rng = self.rng
        words = [rng.choice(FILLER), rng.choice(ADJECTIVES), rng.choice(NOUNS), rng.choice(VERBS),
                 rng.choice(FILLER), rng.choice(THINGS), rng.choice(FILLER), rng.choice(NOUNS), rng.choice(VERBS),
                 rng.choice(THINGS)]
        return " ".join(words).capitalize() + "."


def _wrap(text: str, width: int = 100) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line]


def _name(chapter: int, position: int, what: str) -> str:
    return f"{what}_{chapter}_{position}"


_VALUE_SLOTS = {1, 2, 9}
_PARENT_SLOT = {5: 4, 7: 6, 8: 6}  # a special modifier sits under its maneuver, sub-upgrades under their upgrade


def _parent(slot: int, group: int, chapter: int) -> str | None:
    if slot == 0:
        return None
    return _rule_id(chapter, group + _PARENT_SLOT.get(slot, 0))


def _plain(chapter: _Chapter, position: int, group: int) -> None:
    if position % GROUP == 1:
        chapter.lines += ["    values:", f"      {_name(chapter.number, position, 'step')}: {position % 7 + 1}"]


def _table(chapter: _Chapter, position: int, group: int) -> None:
    c, name = chapter.number, _name(chapter.number, position, "ladder")
    chapter.lines += ["    values:", f"      {_name(c, position, 'step')}: 2",
                      "    table:", f"      name: {name}", "      caption: Bonus and pool by level", "      columns:",
                      "        - {key: level, label: Level, type: int}",
                      "        - {key: bonus, label: Bonus, type: int}",
                      "        - {key: pool, label: Pool, type: dice}",
                      "        - {key: band, label: Band, type: range}",
                      "      rows:"]
    chapter.lines += [f"        - {{level: {lv}, bonus: {_bonus(lv)}, pool: {lv}d6, band: {lv * 10}-{lv * 10 + 9}}}"
                      for lv in range(1, 11)]
    chapter.lines += ["    formulas:", *_formula(f"bonus_{c}_{group}", "The bonus at a level, read from the ladder.",
                                                  ["level: int 1 10"], "int", f"lookup({name}, bonus, level)",
                                                  [({"level": lv}, _bonus(lv)) for lv in (1, 4, 10)]),
                      *_formula(f"pool_{c}_{group}", "The dice pool at a level.", ["level: int 1 10"], "dice",
                                f"lookup({name}, pool, level)", [({"level": lv}, f"{lv}d6") for lv in (2, 7)])]


def _bonus(level: int) -> int:
    return level * 3 - 1


def _list(chapter: _Chapter, position: int, group: int) -> None:
    chapter.lines.append("    items:")
    chapter.lines += [f"      - Step {i + 1}, {chapter._sentence()}" for i in range(4)]


def _maneuver(chapter: _Chapter, position: int, group: int) -> None:
    kind = ("standard", "instant", "counter", "modifier")[(group // GROUP) % 4]
    chapter.lines += ["    facts:", "      action: 1", "      kp: 3", "      limit: [{count: 1, per: round}]",
                      f"      maneuver_type: {kind}", "      exploit: A natural 10"]


def _special(chapter: _Chapter, position: int, group: int) -> None:
    base = _rule_id(chapter.number, group + 4)
    chapter.lines += ["    facts:", "      action: 1", "      kp: 2", "      limit: [{count: 2, per: encounter}]",
                      "      maneuver_type: special-modifier", f"      modifies: {base}"]


def _upgrade(requires: int | None, excludes: int | None, max_times: int | None) -> Extra:
    def extra(chapter: _Chapter, position: int, group: int) -> None:
        chapter.lines += ["    facts:", "      experience: 1"]
        if requires is not None:
            chapter.lines.append(f"      requires: [{_rule_id(chapter.number, group + requires)}]")
        if excludes is not None:
            chapter.lines.append(f"      excludes: [{_rule_id(chapter.number, group + excludes)}]")
        if max_times is not None:
            chapter.lines.append(f"      times: {max_times}")
    return extra


def _action(chapter: _Chapter, position: int, group: int) -> None:
    c, step = chapter.number, _name(chapter.number, position, "step")
    chapter.lines += ["    values:", f"      {step}: 4", "    formulas:",
                      *_formula(f"total_{c}_{group}", "The level bonus plus the extra effort, each worth the step.",
                                ["level: int 1 10", "effort: int 0 5"], "int",
                                f"bonus_{c}_{group}(level) + effort * {step}",
                                [({"level": 3, "effort": 2}, _bonus(3) + 8), ({"level": 10, "effort": 0}, _bonus(10))])]


def _successes(chapter: _Chapter, position: int, group: int) -> None:
    c = chapter.number
    chapter.lines += ["    formulas:",
                      *_formula(f"hit_chance_{c}_{group}", "The chance to roll at least the successes needed.",
                                ["dice: int 1 12", "need: int 0 12"], "num",
                                f"p_at_least(successes((dice)d6, {SUCCESS_FACE}), need)",
                                [({"dice": d, "need": k}, _fraction(_p_successes(d, k))) for d, k in ((1, 1), (4, 2))])]


def _p_successes(dice: int, need: int) -> Fraction:
    p = Fraction(7 - SUCCESS_FACE, 6)
    return sum((comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(need, dice + 1)), Fraction(0))


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _recovery(chapter: _Chapter, position: int, group: int) -> None:
    c = chapter.number
    chapter.lines += ["    formulas:",
                      *_formula(f"recover_mean_{c}_{group}",
                                "The average of a d10 plus a bonus, less 3, never below 0.",
                                ["bonus: int 0 10"], "num", "mean(let r = 1d10 in max(0, r + bonus - 3))",
                                [({"bonus": b}, _fraction(_recover_mean(b))) for b in (0, 5)])]


def _recover_mean(bonus: int) -> Fraction:
    return Fraction(sum(max(0, r + bonus - 3) for r in range(1, 11)), 10)


def _calculator(chapter: _Chapter, position: int, group: int) -> None:
    c = chapter.number
    chapter.lines += ["    calculators:", f"      - id: calc-{c}-{group}",
                      f"        title: Group {group // GROUP} figures", "        inputs:",
                      "          - {name: level, type: int, label: Level, min: 1, max: 10, default: 3}",
                      "          - {name: effort, type: int, label: Effort, min: 0, max: 5, default: 1}",
                      "          - {name: dice, type: int, label: Dice in the pool, min: 1, max: 12, default: 4}",
                      "          - {name: need, type: int, label: Successes needed, min: 0, max: 12, default: 2}",
                      "          - {name: rested, type: bool, label: Rested, default: false}",
                      "        outputs:",
                      f"          - {{name: total, label: Total, expr: 'total_{c}_{group}(level, effort)'}}",
                      f"          - {{name: pool, label: Pool, expr: 'pool_{c}_{group}(level)'}}",
                      f"          - {{name: chance, label: Chance, expr: 'hit_chance_{c}_{group}(dice, need)', "
                      "format: percent}",
                      "          - {name: mean, label: Mean recovery, "
                      f"expr: 'recover_mean_{c}_{group}(if rested then 2 else 0)'}}"]
    if c == 0 and group == 0:
        chapter.lines += [f"      - id: upgrade-builder-{chapter.system}", "        title: Upgrade set builder",
                          "        inputs:", "          - {name: chosen, type: upgrades, label: Upgrades taken}",
                          "        outputs:",
                          "          - {name: problems, label: Problems, expr: upgrade_problems(chosen)}",
                          "          - {name: picks, label: Picks, expr: upgrade_count(chosen)}"]


def _formula(fid: str, summary: str, params: list[str], returns: str, expr: str,
             examples: list[tuple[dict[str, int], object]]) -> list[str]:
    lines = [f"      - id: {fid}", f"        summary: {summary}", "        params:"]
    for param in params:
        name, spec = param.split(": ")
        type_, low, high = spec.split()
        lines.append(f"          - {{name: {name}, type: {type_}, label: {name.title()}, min: {low}, max: {high}}}")
    lines += [f"        returns: {returns}", f"        expr: {json.dumps(expr)}"]
    if examples:
        lines.append("        examples:")
        lines += [f"          - {json.dumps({'args': args, 'expect': expect})}" for args, expect in examples]
    return lines


_SLOTS: dict[int, tuple[str, Extra]] = {
    0: ("section", _calculator), 1: ("general", _plain), 2: ("table", _table), 3: ("list", _list),
    4: ("maneuver", _maneuver), 5: ("maneuver", _special), 6: ("upgrade", _upgrade(None, None, 3)),
    7: ("upgrade", _upgrade(6, 8, None)), 8: ("upgrade", _upgrade(6, 7, None)), 9: ("action", _action),
    10: ("stunt", _successes), 11: ("keyword", _plain), 12: ("condition", _recovery),
}

__all__ = ["write_rulebook"]
