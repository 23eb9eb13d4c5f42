"""referee layer (see docs/design.md)."""
