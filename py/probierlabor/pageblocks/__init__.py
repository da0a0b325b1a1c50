"""Build-only code: the HTML the MkDocs hooks put around each experiment and replay panel. Not in the
browser bundle."""
