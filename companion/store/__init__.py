"""store layer (see docs/design.md)."""
