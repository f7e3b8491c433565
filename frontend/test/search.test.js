import assert from "node:assert/strict";
import {test} from "node:test";
import {boostNear, exactFirst, nameRank} from "../src/site/ranking.js";
import {pageOf, resultsStatus, searchState} from "../src/site/search_page.js";
import {hitPlace} from "../src/site/results.js";
import {snippetOf, unpack} from "../src/site/snippets.js";

const words = (found) => found.words.map((w) => (w.hit ? `[${w.word}]` : w.word)).join(" ");

test("a snippet is 24 words from a third before the first match, each matching word marked", () => {
  const text = Array.from({length: 40}, (_, i) => `w${i}`).join(" ").replace("w20", "Dash,");
  const found = snippetOf(text, "dash");
  assert.equal(found.words.length, 24);
  assert.equal(found.words[0].word, "w12");
  assert.equal(words(found).split(" ")[8], "[Dash,]");
  assert.deepEqual([found.before, found.after], [true, true]);
});

test("a snippet matches words by their start, case and punctuation aside", () => {
  assert.equal(words(snippetOf("The (Focus) of a focused mind", "FOC mind")), "The [(Focus)] of a [focused] [mind]");
  assert.equal(words(snippetOf("Short text", "absent")), "Short text");
  assert.deepEqual([snippetOf("Short text", "absent").before, snippetOf("Short text", "").after], [false, false]);
});

test("addresses and places come base64-coded as UTF-8", () => {
  assert.equal(unpack(Buffer.from("dbu/core-rules/#déjà").toString("base64")), "dbu/core-rules/#déjà");
  assert.equal(unpack(undefined), "");
});

test("hits of the system being read score twice; ties go by id, whatever Pagefind's order", () => {
  const hits = [{id: "a", score: 3}, {id: "b", score: 2}, {id: "c", score: 1.5}, {id: "d"}];
  assert.deepEqual(boostNear(hits, new Set(["c", "d"])).map((h) => h.id), ["a", "c", "b", "d"]);
  const tied = [{id: "q", score: 1}, {id: "m", score: 1}, {id: "z", score: 1}];
  assert.deepEqual(boostNear(tied, new Set()).map((h) => h.id), ["m", "q", "z"]);
  assert.deepEqual(boostNear([...tied].reverse(), new Set()).map((h) => h.id), ["m", "q", "z"]);
});

test("an exact name comes first: a rule, then a calculator of that name, then a term", () => {
  const data = (names, kind) => ({meta: {title: "", href: "", crumbs: "", text: "", names}, filters: {kind}});
  const found = [data("Dash", ["term"]), data("Dashing", ["maneuver"]), data("dash|sprint", ["maneuver"]),
    data(undefined, []), data("Dash", ["calculator"]), data("Dash", ["general", "term"])];
  assert.deepEqual(found.map((d) => nameRank(d, "DASH")), [2, 3, 0, 3, 1, 0]);
  assert.deepEqual(exactFirst(["term", "other", "rule", "none", "calc", "merged"], found, "dash"),
    ["rule", "merged", "calc", "term", "other", "none"]);
  assert.deepEqual(exactFirst(["x", "y"], found.slice(0, 2), null), ["x", "y"]);
});

test("a hit's place line says what it is, then where it sits", () => {
  const coded = (s) => Buffer.from(s).toString("base64");
  const hit = (what) => ({meta: {title: "", href: "", text: "", crumbs: coded("Book \u203a Moves"), what}, filters: {}});
  assert.equal(hitPlace(hit(coded("Rule (maneuver)"))), "Rule (maneuver) \u00b7 Book \u203a Moves");
  assert.equal(hitPlace(hit(undefined)), "Book \u203a Moves");
});

test("the search page's address holds its query, filters, boosted system and page", () => {
  const checked = [{name: "kind", value: "rule"}, {name: "kind", value: "term"}, {name: "system", value: "dbu"}];
  const state = searchState({query: " dash ", checked, near: "annulus", page: 3});
  assert.equal(state.query, "q=dash&kind=rule&kind=term&system=dbu&near=annulus&page=3");
  assert.deepEqual(state.filters, {kind: {any: ["rule", "term"]}, system: {any: ["dbu"]}});
  assert.equal(searchState({query: "", checked: [], near: "", page: 1}).query, "");
  assert.deepEqual(["page=4", "page=0", "page=x", ""].map((q) => pageOf(new URLSearchParams(q))), [4, 1, 1, 1]);
});

test("the status line counts the results and the page shown", () => {
  assert.equal(resultsStatus(0, 1, 1, 1, 0), "No results");
  assert.equal(resultsStatus(5, 1, 1, 1, 5), "5 results");
  assert.equal(resultsStatus(45, 3, 3, 41, 5), "45 results, page 3 of 3 (41\u201345)");
});
