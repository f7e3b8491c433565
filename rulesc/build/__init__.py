"""The build stage: staging, the site builders, the site's finishing steps; the builders' names for the CLI."""

SITE_BUILDERS = ("mkdocs", "zensical")
DEFAULT_SITE_BUILDER = "mkdocs"
