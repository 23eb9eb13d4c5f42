"""`FrozenMap`: a read-only dict for the mappings inside frozen game states.

A `MappingProxyType` would refuse changes too, but it cannot be copied, pickled or
hashed; a dict subclass that blocks mutation keeps states hashable, deep-copyable and
JSON-serialisable (json sees a dict) while staying immutable.
"""

from __future__ import annotations

from typing import Any, NoReturn


class FrozenMap(dict):
    """A dict that cannot change after it is built; hashable when its values are."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a FrozenMap cannot be changed: build a new one")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenMap], tuple[dict]]:
        return (FrozenMap, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"
