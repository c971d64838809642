"""What a rule set must say: the mechanics of a hand, its scoring, its names and flags.

The round, scoring, the AI, the renderer and the bot ask a rule set these questions and
never compare its name to a literal, so adding a regional rule set is one new module
(``engine/variants/<name>.py``) holding one subclass, plus one line in the registry
(``engine.variants.RULE_SETS``) or a call to ``engine.variants.register``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .options import OptionError, RuleOptions

if TYPE_CHECKING:
    from ..types import HandResult, WinContext


def is_chinese_locale(locale: str) -> bool:
    """``"zh-CN"``, ``"zh-TW"``, ``"zh"``: anything starting ``zh`` reads Chinese."""
    return str(locale).lower().startswith("zh")


@dataclass(frozen=True)
class AIProfile:
    """How the built-in AI weighs hands under a rule set: tuning, not rules.

    Target values are in units of the rule set's plain win. The defaults suit a rule set
    where any shape wins and tai double a total (Taizhou-like); a rule set only needs its
    own profile when its scoring rewards other things.
    """

    full_flush: float = 5.0
    half_flush: float = 2.5
    all_honors: float = 0.0  # 0: not a target of its own
    all_pungs: float = 1.8
    any_shape_wins: bool = True  # a plain four-sets-and-a-pair hand is worth playing for
    honor_tai_add: bool = False  # honor pungs add to a target's value (True) or double it
    white_pung_scores: bool = False  # a White pung earns tai by default
    claim_margin: float = 1.05  # how much better a claim must look than passing


@dataclass(frozen=True)
class Variant:
    # Names: the registry key, display names (Simplified, Traditional, English) and the
    # short English name used inside sentences ("Jiaxing", "Taizhou").
    name: ClassVar[str] = ""
    name_zh: ClassVar[str] = ""
    name_zh_tw: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    short_name_en: ClassVar[str] = ""
    wild_name_zh: ClassVar[str] = ""
    wild_name_en: ClassVar[str] = ""
    # The rules summary ``/table rules`` shows (Markdown), Chinese and English.
    rules_text_zh: ClassVar[str] = ""
    rules_text_en: ClassVar[str] = ""

    # Capability flags the round, the views and the presenters read.
    allowed_seats: ClassVar[tuple[int, ...]] = (4,)
    discard_wins: ClassVar[bool] = False  # may a discard be won on?
    has_three_claim_liability: ClassVar[bool] = False
    white_substitutes_wild: ClassVar[bool] = False
    has_prevailing_wind: ClassVar[bool] = False
    has_carried_fan: ClassVar[bool] = False
    last_discard_winnable: ClassVar[bool] = (
        False  # after the last draw, one more discard may be won on
    )
    dealer_stays_on_draw: ClassVar[bool] = False
    # A complete shape wins only as one of the rule set's qualifying types (Jiaxing: two
    # tai to win), so some waits of a ready shape never win; else every shape wins on a
    # self-draw and a ready hand's waits are its shape's.
    wins_need_a_type: ClassVar[bool] = False
    # Taizhou-style full liability 全包: a discarder can be made to pay for everyone.
    has_full_liability: ClassVar[bool] = False

    # Each scoring item's stable key -> (zh-CN, English) name, in display order.
    item_names: ClassVar[dict[str, tuple[str, str]]] = {}
    # Other names an item is shown by in some hands (Taizhou: a set of terminals or
    # honors), so every word the images may draw reaches the font subset.
    item_alt_names: ClassVar[dict[str, tuple[str, str]]] = {}
    # What adds to the carried pool at a hand's start (``Round.carried_fan_bonuses``).
    carried_fan_bonus_names: ClassVar[dict[str, tuple[str, str]]] = {}
    options_class: ClassVar[type[RuleOptions]] = RuleOptions

    # AI policy: the share of the remaining wall a seat can expect to draw before the
    # hand ends, and how much faster a ready hand finishes than draws alone suggest.
    ai_horizon: ClassVar[float] = 0.5
    ai_ready_boost: ClassVar[float] = 1.0
    ai_profile: ClassVar[AIProfile] = AIProfile()

    options: RuleOptions

    # ------------------------------------------------------------------ mechanics
    def reserve(self) -> int:
        return int(getattr(self.options, "reserve_tiles", 0))

    def remove_suits(self) -> int:
        return int(getattr(self.options, "remove_suits", 0))

    def check_deal(self, seats: int) -> None:
        """Refuse a table whose deal (and the flipped indicator) would eat into the tiles
        kept back: Taizhou with both suits removed has 64 tiles, and four seats would
        leave nothing to draw. Asked when a table is set up, so the host hears it then,
        and by every hand (``Round``)."""
        from ..wall import tile_kinds_in_play

        tiles = 4 * len(tile_kinds_in_play(self.remove_suits()))
        dealt = 13 * seats + 1 + (0 if int(self.options.wild_copies) == 4 else 1)
        if tiles - dealt < self.reserve():
            raise OptionError(
                f"not enough tiles: {tiles} tiles, {dealt} dealt and "
                f"{self.reserve()} kept in reserve with {seats} seats "
                "(use fewer seats, fewer removed suits or a smaller reserve_tiles)",
                f"牌不够：共 {tiles} 张，{seats} 人发 {dealt} 张，还要留 {self.reserve()} 张"
                "（请减少人数、少去掉花色或减少留牌张数）",
            )

    def win_order(self, discarder: int, dealer: int, seats: int) -> list[int]:
        """Seats in the order they get priority when several can win on one tile."""
        start = (discarder + 1) % seats
        return [(start + i) % seats for i in range(seats) if (start + i) % seats != discarder]

    def flee_penalty(self, seat: int, liability_active: bool, folded: bool) -> int:
        """Units ``seat`` pays for leaving a hand in play (RULES.md §1 Leaving).

        Rule sets without a leaving rule of their own (Taizhou: RULES.md names none) use
        Jiaxing's base of 32, so a table never lets a player leave for free."""
        return 32

    # ------------------------------------------------------------------ scoring
    @classmethod
    def score(cls, ctx: WinContext[Any]) -> HandResult:
        """Score and settle a won hand (``engine.scoring.score_hand`` dispatches here).

        An illegal win comes back with ``valid`` False and zero deltas, never raised."""
        raise NotImplementedError(f"rule set {cls.name!r} has no scorer")

    @classmethod
    def result_json(cls, result: HandResult) -> dict[str, Any]:
        """The rule-set-specific fields of ``HandResult.to_json`` (points, tai, totals)."""
        return {
            "points": result.points,
            "tai": result.tai,
            "total": result.total,
            "totals": list(result.totals or [0] * result.seats),
        }

    # ------------------------------------------------------------------ display
    @classmethod
    def format_total(cls, result: HandResult, locale: str) -> str:
        """The displayed total formula of a won hand (a plain number by default)."""
        return str(result.total)

    @classmethod
    def display_name(cls, locale: str) -> str:
        """The rule set's name for ``locale`` (zh-TW gets Traditional characters)."""
        if str(locale).lower() in ("zh-tw", "zh_tw", "zh-hk", "zh_hk"):
            return cls.name_zh_tw or cls.name_zh
        return cls.name_zh if is_chinese_locale(locale) else cls.name_en

    @classmethod
    def wild_name(cls, locale: str) -> str:
        return cls.wild_name_zh if is_chinese_locale(locale) else cls.wild_name_en

    @classmethod
    def make(cls, options: RuleOptions | dict[str, Any] | None = None) -> Variant:
        """The mechanics object for one table: options parsed (a dict) and checked."""
        if options is None or isinstance(options, dict):
            options = cls.options_class.from_dict(options)
        return cls(options)


def variant_for(name: str, options: RuleOptions | dict[str, Any] | None = None) -> Variant:
    """The mechanics object for rule set ``name`` (``ValueError`` if it is not registered)."""
    from . import get_rules

    return get_rules(name).make(options)
