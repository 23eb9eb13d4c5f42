"""i18n layer (see docs/design.md)."""
