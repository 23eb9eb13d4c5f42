"""voice layer (see docs/design.md)."""
