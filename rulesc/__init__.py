"""rulesc: compiles canonical rule data into an engine, a reference site and a JSON export."""

__version__ = "0.1.0"
