"""The rule sets. ``variant_for(name, options)`` gives the mechanics object the round uses."""

from .base import Variant, variant_for
from .jiaxing import Jiaxing
from .options import JiaxingOptions, OptionError, TaizhouOptions, make_options
from .taizhou import Taizhou

# The registry, in display order.
RULE_SETS: dict[str, type[Variant]] = {"jiaxing": Jiaxing, "taizhou": Taizhou}


def get_rules(name: str) -> type[Variant]:
    """The rule set called ``name``; a ``ValueError`` naming the known ones otherwise."""
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ValueError(f"unknown rule set {name!r} ({known})") from None


__all__ = [
    "RULE_SETS",
    "JiaxingOptions",
    "OptionError",
    "TaizhouOptions",
    "Variant",
    "get_rules",
    "make_options",
    "variant_for",
]
