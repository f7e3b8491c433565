"""Emitters: one output each (engine, pages, export); each returns {relative path: text}."""
