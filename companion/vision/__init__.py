"""vision layer (see docs/design.md)."""
