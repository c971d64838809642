"""Is a text in Traditional characters? The check the zh-TW tests share.

Big5 (Taiwan's encoding) holds no Simplified-only character, but it does hold 122 of
GB2312's Simplified characters with another meaning or as variants (几, 机, 里, 后…), so
those are listed: GB2312's characters whose Taiwan form differs, less 台 (Taiwan writes
台數 too).
"""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff]")

SIMPLIFIED_IN_BIG5 = frozenset(
    "肮痹辟并采蚕厂虫丑触党淀斗吨儿范丰复干赶杠构雇挂柜后划怀坏伙机极几价茧荐杰洁惊据夸蜡腊棱厘"
    "篱离里栗怜帘岭么霉宁泞苹扑仆朴栖凄气确扰洒晒胜圣尸虱适体听涂托洼万网瓮污咸羡蝎泄凶熏岩痒异佣"
    "踊涌优游于余与郁吁愿岳云占征种筑庄准咨睾忏檐昵肴腌膻炖虮蚝跖"
)


def simplified_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The Simplified characters ``text`` still holds once ``names`` are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    left = []
    for char in CJK.findall(text):
        try:
            char.encode("big5")
        except UnicodeEncodeError:
            left.append(char)
            continue
        if char in SIMPLIFIED_IN_BIG5:
            left.append(char)
    return left
