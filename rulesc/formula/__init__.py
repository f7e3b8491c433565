"""The formula language: lexer, parser, type checker, evaluator and the Python and JavaScript backends."""
