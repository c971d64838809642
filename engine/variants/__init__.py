"""The rule sets and their registry.

``RULE_SETS`` lists every rule set in display order (the first is the default); a new
rule set is one module under ``engine/variants`` and one line here, or a call to
``register`` (a plugin or a test). Everything outside the engine reads names, flags and
options through ``get_rules(name)`` and never compares a rule set's name to a literal.
``variant_for(name, options)`` gives the mechanics object the round uses.
"""

from __future__ import annotations

from .base import Variant, is_chinese_locale, variant_for
from .jiaxing import Jiaxing, JiaxingOptions
from .options import OptionError, RuleOptions, make_options
from .taizhou import Taizhou, TaizhouOptions

RULE_SETS: dict[str, type[Variant]] = {
    Jiaxing.name: Jiaxing,
    Taizhou.name: Taizhou,
}


def get_rules(name: str) -> type[Variant]:
    """The rule set called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return RULE_SETS[name]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise ValueError(f"unknown rule set {name!r} ({known})") from None


def register(rules_class: type[Variant]) -> type[Variant]:
    """Add a rule set to the registry (after the built-in ones) and return it.

    Usable as a class decorator. The registry is read when it is needed (CLI choices
    when the parser is built, slash-command choices when the cog is built), so register
    before building those. ``ValueError`` if the name is empty or already taken."""
    if not rules_class.name:
        raise ValueError("a rule set needs a name")
    if rules_class.name in RULE_SETS:
        raise ValueError(f"rule set {rules_class.name!r} is already registered")
    RULE_SETS[rules_class.name] = rules_class
    return rules_class


def unregister(name: str) -> None:
    """Remove a rule set added by ``register`` (the built-in ones stay)."""
    if name in (Jiaxing.name, Taizhou.name):
        raise ValueError(f"rule set {name!r} is built in")
    RULE_SETS.pop(name, None)


def default_rule_set() -> str:
    """The name of the default rule set: the first in the registry."""
    return next(iter(RULE_SETS))


__all__ = [
    "RULE_SETS",
    "Jiaxing",
    "JiaxingOptions",
    "OptionError",
    "RuleOptions",
    "Taizhou",
    "TaizhouOptions",
    "Variant",
    "default_rule_set",
    "get_rules",
    "is_chinese_locale",
    "make_options",
    "register",
    "unregister",
    "variant_for",
]
