"""Migration: `rulesc migrate` rewrites a project's systems from one content format to the next, as text edits."""
