"""A built page's theme keeps one line break per run of white space (rulesc/emit/site/compact.py): its tags, scripts,
styles, code and comments as written, and its content untouched."""

from __future__ import annotations

from rulesc.emit.site.compact import compact_theme

CONTENT = '<div class="md-content" data-md-component="content">\n  <p>\n\n  Kept  \n  as is</p>\n</div>\n'


def test_each_run_of_white_space_with_a_line_break_before_the_content_becomes_one_line_break() -> None:
    theme = ('<!doctype html>\n<html>\n  <head>\n    <title>\n      Rules\n    </title>\n  </head>\n  <body>\n'
             '    <nav class="md-nav">\n      <a href="#x" class="md-nav__link">\n        <span>\n\n   Home  \n'
             '        </span>\n      </a>  <a>Two  words</a>\n    </nav>\n')
    assert compact_theme(theme + CONTENT) == (
        '<!doctype html>\n<html>\n<head>\n<title>\nRules\n</title>\n</head>\n<body>\n<nav class="md-nav">\n'
        '<a href="#x" class="md-nav__link">\n<span>\nHome\n</span>\n</a>  <a>Two  words</a>\n</nav>\n' + CONTENT)


def test_scripts_styles_code_comments_attributes_and_no_break_spaces_keep_their_white_space() -> None:
    theme = ('<head>\n  <script>\n  if (a >\n   b) {}\n  </script>\n  <style>\n  .a {}\n  </style>\n</head>\n'
             '<body>\n  <pre>\n  one\n\n  two</pre>\n  <code>a\n\n  b</code> <KBD>c\n  d</KBD>\n'
             '  <!-- a > b\n\n   c -->\n  <meta content="one\n\n   two">\n  x\u00a0\n  y\n'
             '  <textarea>\n\n </textarea>\n')
    assert compact_theme(theme + CONTENT) == (
        '<head>\n<script>\n  if (a >\n   b) {}\n  </script>\n<style>\n  .a {}\n  </style>\n</head>\n'
        '<body>\n<pre>\n  one\n\n  two</pre>\n<code>a\n\n  b</code> <KBD>c\n  d</KBD>\n'
        '<!-- a > b\n\n   c -->\n<meta content="one\n\n   two">\nx\u00a0\ny\n<textarea>\n\n </textarea>\n' + CONTENT)


def test_a_page_without_content_is_left_alone_and_a_compact_page_stays_as_it_is() -> None:
    bare = "<html>\n  <body>\n    <p>x</p>\n  </body>\n</html>\n"
    assert compact_theme(bare) == bare
    once = compact_theme("<body>\n   \n  <nav>\n </nav>\n" + CONTENT)
    assert once == "<body>\n<nav>\n</nav>\n" + CONTENT and compact_theme(once) == once
