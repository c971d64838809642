"""Option values a command declares but Discord does not enforce (a stale client or a
hand-made request sends any value): the refusal names the option as the reader's client
names it and what it takes by the names its menu shows, in zh-CN, zh-TW and English,
and nothing runs. Before, most said only 参数无效：<value>, and /table create listed
internal codes (easy/normal/hard, jiaxing, taizhou)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    offline_bot,
    option,
)

from bot.table_options import TableOptions, TableOptionsError

ALICE = 800_000_000_000_000_001
MANAGER = 800_000_000_000_000_009
USERS = {ALICE: ("alice", DEFAULT_PERMISSIONS), MANAGER: ("mgr", ADMIN_PERMISSIONS)}

CASES: list[tuple[str, list[dict[str, Any]], str, str, str]] = [
    (
        "table create",
        [option("ai_level", "godlike")],
        "「电脑难度」只能选：简单、普通、困难（收到「godlike」）",
        "「電腦難度」只能選：簡單、普通、困難（收到「godlike」）",
        "“ai_level” must be one of: Easy, Normal, Hard (got “godlike”)",
    ),
    (
        "table create",
        [option("variant", "shanghai")],
        "「玩法」只能选：嘉兴台头胡、台州麻将（收到「shanghai」）",
        "「玩法」只能選：嘉興台頭胡、台州麻將（收到「shanghai」）",
        "“variant” must be one of: Jiaxing Taitou Hu, Taizhou Mahjong (got “shanghai”)",
    ),
    (
        "table create",
        [option("seats", 5)],
        "「人数」只能选：4 人、3 人（台州）、2 人（台州）（收到「5」）",
        "「人數」只能選：4 人、3 人（台州）、2 人（台州）（收到「5」）",
        "“seats” must be one of: 4 players, 3 players (Taizhou), 2 players (Taizhou) (got “5”)",
    ),
    (
        "table rules",
        [option("variant", "shanghai")],
        "「玩法」只能选：嘉兴台头胡、台州麻将（收到「shanghai」）",
        "「玩法」只能選：嘉興台頭胡、台州麻將（收到「shanghai」）",
        "“variant” must be one of: Jiaxing Taitou Hu, Taizhou Mahjong (got “shanghai”)",
    ),
    (
        "table dm",
        [option("mode", "maybe")],
        "「方式」只能选：开、关（收到「maybe」）",
        "「方式」只能選：開、關（收到「maybe」）",
        "“mode” must be one of: on, off (got “maybe”)",
    ),
    (
        "table ping",
        [option("mode", "x")],
        "「方式」只能选：开、关（收到「x」）",
        "「方式」只能選：開、關（收到「x」）",
        "“mode” must be one of: on, off (got “x”)",
    ),
    (
        "leaderboard",
        [option("period", "decade")],
        "「范围」只能选：周榜、月榜、总榜（收到「decade」）",
        "「範圍」只能選：週榜、月榜、總榜（收到「decade」）",
        "“period” must be one of: weekly, monthly season, all-time (got “decade”)",
    ),
    (
        "stats",
        [option("period", "decade")],
        "「时段」只能选：全部、本周、上周、本月、上月（收到「decade」）",
        "「時段」只能選：全部、本週、上週、本月、上月（收到「decade」）",
        "“period” must be one of: All time, This week, Last week, This month, Last month (got “decade”)",
    ),
    (
        "mjadmin void",
        [option("game", "ab12"), option("hand", 0), option("reason", "typo")],
        "「第几局」必须是 1 到 9999 之间的整数（收到 0）",
        "「第幾局」必須是 1 到 9999 之間的整數（收到 0）",
        "“hand” must be a whole number from 1 to 9999 (got 0)",
    ),
]


@pytest.mark.parametrize(
    ("command", "options", "zh", "zh_tw", "en"),
    CASES,
    ids=[f"{case[0]} {case[1][-1]['name']}" for case in CASES],
)
async def test_a_value_the_command_does_not_declare_names_the_option_and_its_choices(
    tmp_path: Path, command: str, options: list[dict[str, Any]], zh: str, zh_tw: str, en: str
) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        for locale, expected in (("zh-CN", zh), ("zh-TW", zh_tw), ("en-US", en)):
            record = await h.command(MANAGER, command, options, locale=locale)
            assert h.reply_text(record) == expected
        # Refused before the command ran: no table, no preference changed.
        assert h.bot.manager.by_channel(CHANNEL_ID) is None  # type: ignore[attr-defined]
        prefs = await h.bot.store.get_user_prefs(MANAGER)  # type: ignore[attr-defined]
        assert "hand_delivery" not in prefs and "ping" not in prefs


async def test_declared_values_still_run_the_command(tmp_path: Path) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        record = await h.command(ALICE, "table dm", [option("mode", "off")])
        assert "不发私信" in h.reply_text(record)
        record = await h.command(
            ALICE,
            "table create",
            [option("variant", "taizhou"), option("seats", 2), option("ai_level", "hard")],
        )
        assert h.reply_text(record).startswith("已开桌：台州麻将，2 人")


def test_a_rule_set_limit_under_the_declared_range_names_the_rule_set() -> None:
    """Jiaxing plays at most 4 rounds, under the option's declared 1-8."""
    with pytest.raises(TableOptionsError) as refused:
        TableOptions("jiaxing", rounds=5).validate()
    assert refused.value.text.zh == "嘉兴台头胡的圈数必须在 1 到 4 之间"
    assert refused.value.text.en == "Jiaxing plays 1 to 4 rounds"


def test_the_table_check_lists_choices_by_their_display_names() -> None:
    """The same request from elsewhere than the slash command (a rematch, the CLI)."""
    with pytest.raises(TableOptionsError) as refused:
        TableOptions("taizhou", ai_level="godlike").validate()
    assert refused.value.text.zh == "未知的电脑难度 'godlike'（可选：简单、普通、困难）"
    assert refused.value.text.en == "unknown AI level 'godlike' (one of: Easy, Normal, Hard)"
    with pytest.raises(TableOptionsError) as refused:
        TableOptions("shanghai").validate()
    assert refused.value.text.zh == "未知玩法 'shanghai'（可选：嘉兴台头胡、台州麻将）"
    assert "(one of: Jiaxing Taitou Hu, Taizhou Mahjong)" in refused.value.text.en


async def test_the_rounds_option_says_each_rule_sets_limit(tmp_path: Path) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        table: Any = h.bot.tree.get_command("table")  # type: ignore[attr-defined]
        rounds = table.get_command("create")._params["rounds"].description
        assert rounds.message == "Rounds to play: Jiaxing up to 4, Taizhou up to 8"
        assert rounds.extras["zh"] == "打几圈：嘉兴台头胡最多 4 圈，台州麻将最多 8 圈"
