"""rules layer (see docs/design.md)."""
