"""Learner aids as a line of text for the player's own hand message (``engine.aids``)."""

from __future__ import annotations

from engine.aids import LearnerAids
from engine.tiles import kind_str, name_en, name_zh

from .presenter import Text

MAX_WAITS_LISTED = 10  # a hand message stays well under Discord's 2,000 characters


def _points(units: int | None, stake: int) -> tuple[str, str]:
    if units is None:
        return "不成胡", "no valid win"
    return f"{units * stake:+d}", f"{units * stake:+d}"


def aids_text(aids: LearnerAids, stake: int) -> Text:
    """Waits with unseen copies and previews (points at this table's stake), or the
    discard hint; Chinese and English."""
    if aids.waits:
        zh_parts, en_parts = [], []
        for wait in aids.waits[:MAX_WAITS_LISTED]:
            tile = kind_str(wait.tile)
            self_zh, self_en = _points(wait.self_draw_units, stake)
            zh = f"{tile}{name_zh(wait.tile)} 剩{wait.unseen}张 自摸{self_zh}"
            en = f"{tile} {name_en(wait.tile)}: {wait.unseen} unseen, self-draw {self_en}"
            if wait.discard_units is not None:
                zh += f" 捉冲{wait.discard_units * stake:+d}"
                en += f", on a discard {wait.discard_units * stake:+d}"
            zh_parts.append(zh)
            en_parts.append(en)
        if len(aids.waits) > MAX_WAITS_LISTED:
            zh_parts.append("…")
            en_parts.append("…")
        total = sum(wait.unseen for wait in aids.waits)
        if all(wait.self_draw_units is None and wait.discard_units is None for wait in aids.waits):
            # A complete shape on every wait, and no valid win on any (Jiaxing's
            # qualifying types): the hand image shows no 听牌, and neither does this.
            return Text(
                "牌型听了，但这些牌都不成胡：" + "；".join(zh_parts),
                "A ready shape, but none of these would be a valid win: " + "; ".join(en_parts),
            )
        return Text(
            f"听牌（共剩 {total} 张）：" + "；".join(zh_parts),
            f"Waiting ({total} unseen): " + "; ".join(en_parts),
        )
    hint = aids.hint
    if hint is None:
        return Text("", "")
    tile = kind_str(hint.tile)
    if hint.shanten <= 0:
        waits = " ".join(kind_str(kind) for kind in hint.waits)
        return Text(
            f"建议打 {tile}{name_zh(hint.tile)}：打后听牌（{waits}），有效牌 {hint.useful} 张",
            f"Suggested discard {tile} {name_en(hint.tile)}: ready after it (waits {waits}), "
            f"{hint.useful} useful tiles unseen",
        )
    return Text(
        f"建议打 {tile}{name_zh(hint.tile)}：打后还差 {hint.shanten} 步听牌，有效牌 {hint.useful} 张",
        f"Suggested discard {tile} {name_en(hint.tile)}: {hint.shanten} from ready after it, "
        f"{hint.useful} useful tiles unseen",
    )


__all__ = ["aids_text"]
