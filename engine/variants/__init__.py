"""The rule sets. ``variant_for(name, options)`` gives the mechanics object the round uses."""

from .base import Variant, variant_for
from .options import JiaxingOptions, OptionError, TaizhouOptions, make_options

__all__ = [
    "JiaxingOptions",
    "OptionError",
    "TaizhouOptions",
    "Variant",
    "make_options",
    "variant_for",
]
