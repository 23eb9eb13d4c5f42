"""ui layer (see docs/design.md)."""
