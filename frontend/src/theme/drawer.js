// @ts-check
/* The drawer: a link to a heading (the phone's table of contents sits in the drawer) closes it, and search. */
import {openTarget} from "./details.js";
import {setToggle} from "./dom.js";
import {quietTop} from "./follow.js";

export function bindHashChange() {
  window.addEventListener("hashchange", () => {
    openTarget();
    quietTop();
    setTimeout(() => {
      setToggle("drawer", false);
      setToggle("search", false);
    }, 125);
  });
}
