import assert from "node:assert/strict";
import {test} from "node:test";
import {chapterAddress} from "../src/shared/chapter.js";
import {permalink} from "../src/site/copy_link.js";

test("a whole chapter's page is its own address, without its query or hash", () => {
  assert.equal(chapterAddress("https://example.org/g/basics/?a.n=2#top", null), "https://example.org/g/basics/");
  assert.equal(permalink("file:///s/g/basics/index.html?x=1#top", "dash"), "file:///s/g/basics/index.html#dash");
});

test("a part page's rules link to the chapter's page, which sends them on to the part", () => {
  assert.equal(permalink("https://example.org/g/long/dash/?a.n=2#x", "dash", "../"), "https://example.org/g/long/#dash");
  assert.equal(chapterAddress("file:///s/g/long/dash/index.html#x", "../"), "file:///s/g/long/index.html");
});
