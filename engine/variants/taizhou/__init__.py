"""Taizhou mahjong 台州麻将 (RULES.md §2): 财神 wilds, White stands in for them, discard wins.

Everything that differs from the other rule sets lives in this package: here the options
with their ranges and defaults, the names, the flags, the AI horizon and the total
formula; the scorer and settlement in ``scoring.py`` (reached through ``Taizhou.score``)
and the scoring items' names in ``names.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..base import Variant, is_chinese_locale
from ..options import OptionError, RuleOptions
from .names import ITEM_NAMES, TERMINAL_SET_NAMES
from .scoring import score_taizhou

if TYPE_CHECKING:
    from ...types import HandResult, WinContext


@dataclass(frozen=True)
class TaizhouOptions(RuleOptions):
    """台州麻将 options (RULES.md §0, §2)."""

    allow_seven_pairs: bool = False
    wild_copies: int = 3
    remove_suits: int = 0
    multi_win_priority: str = "from_dealer"
    all_pungs_bonus: int = 4
    white_pung_tai: bool = False
    cap: int = 100
    half_rounding: str = "up"
    liability: bool = True
    rounds: int = 1
    reserve_tiles: int = 16

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "wild_copies": (3, 4),
        "remove_suits": (0, 1, 2),
        "multi_win_priority": ("from_dealer", "after_discarder"),
        "all_pungs_bonus": (2, 4),
        "half_rounding": ("up", "exact"),
    }

    def check_consistent(self) -> None:
        # Every Taizhou total below the limit is even, so only an odd limit makes an exact
        # half fractional; points are whole units everywhere (deltas, the ledger), so
        # that combination is refused rather than paid as x.5.
        if self.half_rounding == "exact" and self.cap % 2:
            raise OptionError(
                f"option 'cap' must be even with half_rounding 'exact' (got cap {self.cap}): "
                "half of an odd limit is not a whole unit; use an even cap or "
                "half_rounding 'up'",
                f"闲家减半取整选「精确」时封顶 cap 必须是偶数（现在是 {self.cap}）："
                "奇数封顶的一半不是整数；请用偶数封顶，或取整选「进位」",
            )

    SEATS_ONLY: ClassVar[dict[str, tuple[int, ...]]] = {"liability": (4,)}  # RULES.md §2
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "cap": (1, 100000),
        "rounds": (1, 8),
        "reserve_tiles": (0, 60),
    }


@dataclass(frozen=True)
class Taizhou(Variant):
    name: ClassVar[str] = "taizhou"
    name_zh: ClassVar[str] = "台州麻将"
    name_zh_tw: ClassVar[str] = "台州麻將"
    name_en: ClassVar[str] = "Taizhou Mahjong"
    short_name_en: ClassVar[str] = "Taizhou"
    wild_name_zh: ClassVar[str] = "财神"
    wild_name_en: ClassVar[str] = "Wild"
    allowed_seats: ClassVar[tuple[int, ...]] = (2, 3, 4)
    discard_wins: ClassVar[bool] = True
    white_substitutes_wild: ClassVar[bool] = True
    last_discard_winnable: ClassVar[bool] = True
    has_full_liability: ClassVar[bool] = True
    item_names: ClassVar[dict[str, tuple[str, str]]] = ITEM_NAMES
    item_alt_names: ClassVar[dict[str, tuple[str, str]]] = TERMINAL_SET_NAMES
    options_class: ClassVar[type[RuleOptions]] = TaizhouOptions
    # Taizhou hands end early (any shape wins, on discards too), so a ready hand's last
    # step comes faster than draws alone suggest.
    ai_horizon: ClassVar[float] = 0.5
    ai_ready_boost: ClassVar[float] = 2.5

    options: TaizhouOptions

    rules_text_zh: ClassVar[str] = (
        "**台州麻将**（2–4 人，可捉冲）\n"
        "• 翻开一张定财神，同种其余三张为财神；白板可替代财神那张牌，也可还原为白板。\n"
        "• 四副一将即可胡，自摸或捉冲；一炮只一人胡，按顺序优先（默认从庄家起）；过胡后，自己摸牌或吃碰之前不能再胡同一种牌。\n"
        "• 胡数：明刻 2/4、暗刻 4/8、明杠 8/16、暗杠 16/32（一九和字牌取大数）；门风/中发白对 2。"
        "胡家另加：自摸 2、嵌档 2（自摸 4）、单吊门风或中发白 2、对对胡 4、胡家奖励 10。\n"
        "• 台（每台翻倍）：门风刻、中、发 各1台，清一色 3台，混一色 1台。默认封顶 100（腊子）。\n"
        "• 庄闲之间全额，闲闲之间一半；腊子其他每家都付封顶数，不分庄闲；未胡者之间按胡数差互算。\n"
        "• 全包（仅 4 人）：清一色吃碰杠同一家三次；碰了中发白其中两种再放铳第三种；听牌时放铳生张中发白（3台以上或清一色听牌免包）。\n"
        "• 最后留 16 张不摸（默认）；摸完最后一张再打一张，只能胡不能吃碰杠。"
    )
    rules_text_en: ClassVar[str] = (
        "**Taizhou Mahjong** (2–4 players, discard wins)\n"
        "• The indicator makes the other three copies wild (财神); White may stand for the "
        "wild's own kind or stay White.\n"
        "• Any four sets and a pair wins, by self-draw or on a discard; one winner per "
        "discard, priority in play order (from the dealer by default); a skipped win locks that tile until your next "
        "draw or claim.\n"
        "• Points (胡): exposed pung 2, concealed pung 4, exposed kong 8, concealed kong 16 "
        "(double for terminals and honors); seat-wind or dragon pair 2. Winner adds self-draw 2, closed "
        "wait 2 (4 on self-draw), single wait on seat wind/dragon 2, all pungs 4, win 10.\n"
        "• Tai (each doubles): seat-wind, Red, Green pung 1 each; Full Flush 3; Half Flush 1. "
        "Limit 100 by default.\n"
        "• Dealer pays and collects in full, non-dealers half; a winner at the limit "
        "collects the limit from everyone, dealer or not; non-winners settle their differences "
        "too.\n"
        "• Full liability (4 players only) for feeding a full flush three times, the third dragon, or a live "
        "dragon while waiting (exempt with 3+ tai or a full-flush wait).\n"
        "• The last 16 tiles stay in the wall (by default); the last discard may only be won on."
    )

    def win_order(self, discarder: int, dealer: int, seats: int) -> list[int]:
        """``multi_win_priority``: from the dealer in play order (the seed), or after the discarder."""
        start = dealer if self.options.multi_win_priority == "from_dealer" else discarder + 1
        order = [(start + i) % seats for i in range(seats)]
        return [seat for seat in order if seat != discarder]

    def flee_penalty(self, seat: int, liability_active: bool, folded: bool) -> int:
        """RULES.md §2 names no penalty for leaving, so a Taizhou table keeps the base
        the bot has always charged, 32 (there is no three-claim liability to raise it)."""
        return 32

    @classmethod
    def score(cls, ctx: WinContext[TaizhouOptions]) -> HandResult:
        return score_taizhou(ctx)

    @classmethod
    def format_total(cls, result: HandResult, locale: str) -> str:
        """Total = points doubled per tai, capped at the limit, with the multiplier written
        out as players say it ("3台乘8"): zh ``52胡 × 2（1台）= 104 → 100（腊子）``, en
        ``52 pts × 2 (1 tai) = 104 → 100 (limit)``; "2^1台" read as a power of 台."""
        uncapped = result.points << result.tai
        multiplier = 1 << result.tai
        zh = is_chinese_locale(locale)
        if zh:
            text = f"{result.points}胡 × {multiplier}（{result.tai}台）= {uncapped}"
        else:
            text = f"{result.points} pts × {multiplier} ({result.tai} tai) = {uncapped}"
        if result.total < uncapped:
            text += f" → {result.total}（腊子）" if zh else f" → {result.total} (limit)"
        return text
