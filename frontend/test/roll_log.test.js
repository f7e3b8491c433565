import assert from "node:assert/strict";
import {test} from "node:test";
import {LOG_SIZE, parseLog, withEntry} from "../src/shared/roll_log.js";

test("the log keeps the newest first and the last 20 only", () => {
  let log = [];
  for (let i = 0; i < LOG_SIZE + 3; i++) log = withEntry(log, {title: "T", href: "h", result: String(i)});
  assert.equal(log.length, 20);
  assert.deepEqual([log[0].result, log[19].result], ["22", "3"]);
});

test("stored text that is not a log reads as an empty log; stray entries are dropped", () => {
  assert.deepEqual(parseLog(null), []);
  assert.deepEqual(parseLog("{not json"), []);
  assert.deepEqual(parseLog('{"title": "x"}'), []);
  assert.deepEqual(parseLog('[{"title": "A", "href": "h", "result": "4"}, {"title": 3}, null]'),
    [{title: "A", href: "h", result: "4"}]);
});
