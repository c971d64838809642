"""Jiaxing Taitou Hu 嘉兴台头胡 (RULES.md §1): self-draw only, a 百搭 wild, three-claim liability.

Everything that differs from the other rule sets lives in this package: here the options
with their ranges and defaults, the names, the flags, the AI horizon and the total
formula; the scorer and settlement in ``scoring.py`` (reached through ``Jiaxing.score``)
and the scoring items' names in ``names.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..base import AIProfile, Variant, is_chinese_locale
from ..options import RuleOptions
from .names import CARRIED_FAN_BONUS_NAMES, ITEM_NAMES
from .scoring import score_jiaxing

if TYPE_CHECKING:
    from ...types import HandResult, WinContext


@dataclass(frozen=True)
class JiaxingOptions(RuleOptions):
    """嘉兴台头胡 options (RULES.md §0, §1)."""

    allow_seven_pairs: bool = False
    wild_copies: int = 3
    santan_profile: str = "five_x"
    earthly_hand: str = "first_draw"
    dealer_on_draw: str = "rotate"
    rounds: int = 1
    reserve_tiles: int = 0
    flee_penalty: int = 32

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "wild_copies": (3, 4),
        "santan_profile": ("five_x", "two_x"),
        "earthly_hand": ("first_draw", "off"),
        "dealer_on_draw": ("rotate", "stay"),
    }
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "rounds": (1, 4),
        "reserve_tiles": (0, 40),
        "flee_penalty": (0, 10000),
    }


@dataclass(frozen=True)
class Jiaxing(Variant):
    name: ClassVar[str] = "jiaxing"
    name_zh: ClassVar[str] = "嘉兴台头胡"
    name_zh_tw: ClassVar[str] = "嘉興台頭胡"
    name_en: ClassVar[str] = "Jiaxing Taitou Hu"
    short_name_en: ClassVar[str] = "Jiaxing"
    wild_name_zh: ClassVar[str] = "百搭"
    wild_name_en: ClassVar[str] = "Wild"
    allowed_seats: ClassVar[tuple[int, ...]] = (4,)
    discard_wins: ClassVar[bool] = False
    has_three_claim_liability: ClassVar[bool] = True
    wins_need_a_type: ClassVar[bool] = True
    has_prevailing_wind: ClassVar[bool] = True
    has_carried_fan: ClassVar[bool] = True
    item_names: ClassVar[dict[str, tuple[str, str]]] = ITEM_NAMES
    carried_fan_bonus_names: ClassVar[dict[str, tuple[str, str]]] = CARRIED_FAN_BONUS_NAMES
    options_class: ClassVar[type[RuleOptions]] = JiaxingOptions
    # Jiaxing hands often run long (self-draw only, strict hand types), and a ready hand
    # wins by self-draw only.
    ai_horizon: ClassVar[float] = 0.8
    ai_ready_boost: ClassVar[float] = 1.0
    # Only the qualifying types win (full flush 4 tai, half flush 2, all honors 10, all
    # pungs 2, stacking with the honor pungs a pung hand tends to hold); honor tai add to
    # the hand's tai; a concealed hand earns nothing, so a useful claim is taken at once.
    ai_profile: ClassVar[AIProfile] = AIProfile(
        full_flush=4.0,
        half_flush=2.0,
        all_honors=8.0,
        all_pungs=2.0,
        any_shape_wins=False,
        honor_tai_add=True,
        white_pung_scores=True,
        claim_margin=1.0,
    )

    options: JiaxingOptions

    rules_text_zh: ClassVar[str] = (
        "**嘉兴台头胡**（硬自摸，两台起胡）\n"
        "• 只能自摸；抢补杠算自摸（单吊或与百搭成对不能抢）。\n"
        "• 翻开一张定百搭，同种其余三张为百搭，可当任何牌，不能用于吃碰杠。\n"
        "• 必须是台型之一：清一色 4台、混一色 2台、全老头 10台、对对和 2台（对对和可与其他叠加）。\n"
        "• 加台：中/发/白刻 各1台，门风刻 1台，风圈刻 1台，无百搭 1台。\n"
        "• 番（每番翻倍）：三百搭、杠上开花、单吊、海底捞月 各1番；天和、地和 2番；"
        "番池每胡取1番（老头黄、包子、百搭连庄、流局各加1番入池）。\n"
        "• 得分 = 台 × 2^番，另外三家各付。\n"
        "• 三摊：一家吃碰杠同一家的牌三次，两家互为承包方；其余玩家选择跟或不跟，不跟者自动摸打、不付分。"
    )
    rules_text_en: ClassVar[str] = (
        "**Jiaxing Taitou Hu** (hard self-draw, two tai to win)\n"
        "• Self-draw only; robbing an added kong counts as self-draw (not on a pair wait or a "
        "wild pair).\n"
        "• The flipped indicator makes the other three copies wild (百搭): any tile, never in "
        "a claimed meld.\n"
        "• The hand must be Full Flush 4, Half Flush 2, All Honors 10 or All Pungs 2 tai "
        "(All Pungs stacks with the others).\n"
        "• More tai: Red/Green/White pung 1 each, seat-wind pung 1, prevailing-wind pung 1, "
        "No Wilds 1.\n"
        "• Fan (each doubles): Three Wilds, Kong Replacement, Single Wait, Last Tile 1 each; "
        "Heavenly/Earthly Hand 2; one fan from the carried pool per win (Honor Wild, Dice "
        "Doubles, Repeat Wild and each exhaustive draw add 1 fan to the pool).\n"
        "• Score = tai × 2^fan, paid by each of the other three.\n"
        "• A player's third claim (chow, pung or kong) on the same player's discards makes "
        "the two liable (三摊); the others continue or fold (folded players auto-play and "
        "pay nothing)."
    )

    @property
    def dealer_stays_on_draw(self) -> bool:  # type: ignore[override]
        return self.options.dealer_on_draw == "stay"

    def flee_penalty(self, seat: int, liability_active: bool, folded: bool) -> int:
        """RULES.md §1 Leaving: ``flee_penalty`` (32); while three-claim liability is
        active, 72 for a folded player and 108 for anyone else."""
        if liability_active:
            return 72 if folded else 108
        return self.options.flee_penalty

    @classmethod
    def score(cls, ctx: WinContext[JiaxingOptions]) -> HandResult:
        return score_jiaxing(ctx)

    @classmethod
    def result_json(cls, result: HandResult) -> dict[str, Any]:
        return {
            "tai": result.tai,
            "fan": result.fan,
            "score": result.score,
            "carried_fan_used": result.carried_fan_used,
        }

    @classmethod
    def format_total(cls, result: HandResult, locale: str) -> str:
        """Score = tai doubled per fan, the multiplier written out: zh ``3台 × 4（2番）= 12``,
        en ``3 tai × 4 (2 fan) = 12``."""
        multiplier = 1 << result.fan
        if is_chinese_locale(locale):
            return f"{result.tai}台 × {multiplier}（{result.fan}番）= {result.score}"
        return f"{result.tai} tai × {multiplier} ({result.fan} fan) = {result.score}"
