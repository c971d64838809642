"""Every rule option reachable from Discord: the "more rules" panel, server defaults in
/mjadmin, /table rules; values checked by the engine's own option check; a table created
with non-default options plays by them (strict harness, discord.py's own dispatch)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import fields
from pathlib import Path

import pytest
from chinese_script import simplified_left
from discord_harness import CHANNEL_ID, InteractionRecord, StoredMessage, option
from test_discord_bot import ADMIN, ALICE, BOB, Env, play_turn, start_bot, stop_bot

from bot.rules_flow import OPTION_LABELS, option_specs, parse_value, spec_of
from bot.table_options import TableOptionsError
from engine.variants import RULE_SETS


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await start_bot(tmp_path / "bot.db", seed=5)
    yield environment
    await stop_bot(environment)


# ---------------------------------------------------------------------- the option list


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_every_option_of_every_rule_set_is_offered_with_its_range_and_default(
    variant: str,
) -> None:
    options_class = RULE_SETS[variant].options_class
    specs = {spec.name: spec for spec in option_specs(variant)}
    assert list(specs) == [field.name for field in fields(options_class)]
    for name, spec in specs.items():
        assert spec.default == getattr(options_class, name)
        assert name in OPTION_LABELS  # a name players can read, in both languages
        if name in options_class.CHOICES:
            assert spec.values == tuple(options_class.CHOICES[name])
        elif name in options_class.RANGES:
            assert (spec.low, spec.high) == options_class.RANGES[name]
        # Every offered value is one the engine accepts.
        for value in spec.values:
            options_class.from_dict({name: value})
    assert len(specs) <= 25  # one select can list them all


def test_values_are_parsed_by_type_and_bad_ones_explained_in_both_languages() -> None:
    cap = spec_of("taizhou", "cap")
    assert parse_value(cap, " 50 ") == 50
    with pytest.raises(TableOptionsError) as error:
        parse_value(cap, "fifty")
    assert "封顶" in error.value.text.zh and "Cap" in error.value.text.en
    liability = spec_of("taizhou", "liability")
    assert parse_value(liability, "false") is False and parse_value(liability, "开") is True
    with pytest.raises(TableOptionsError):
        parse_value(liability, "maybe")
    with pytest.raises(TableOptionsError):
        spec_of("jiaxing", "cap")  # Taizhou's option, not Jiaxing's


# ---------------------------------------------------------------------- the panel


def _latest_ephemeral(env: Env, user: int) -> StoredMessage:
    messages = env.h.ephemeral_messages(user)
    assert messages
    return messages[-1]


def _button(message: StoredMessage, suffix: str) -> str:
    ids = [cid for cid in message.custom_ids() if cid.startswith("mj:r:") and cid.endswith(suffix)]
    assert ids, f"no {suffix} component on {message.custom_ids()}"
    return ids[0]


async def _open_panel(env: Env, user: int = ALICE) -> StoredMessage:
    created = next(m for m in reversed(env.h.ephemeral_messages(user)) if m.component("mj:r:"))
    await env.h.click(user, created, _button(created, ":open"))
    return _latest_ephemeral(env, user)


async def _pick(env: Env, panel: StoredMessage, name: str, user: int = ALICE) -> InteractionRecord:
    return await env.h.click(user, panel, _button(panel, ":pick"), [name])


def _stored_options(path: Path) -> dict[str, object]:
    connection = sqlite3.connect(path)
    row = connection.execute(
        "SELECT options FROM games WHERE status IN ('lobby', 'running')"
    ).fetchone()
    connection.close()
    return json.loads(row[0])


async def _set_by_modal(env: Env, panel: StoredMessage, name: str, text: str) -> str:
    opened = await _pick(env, panel, name)
    assert opened.modal is not None and opened.modal["custom_id"].endswith(f":m:{name}")
    submitted = await env.h.submit_modal(ALICE, opened, [text])
    return env.h.reply_text(submitted)


async def _set_by_select(env: Env, panel: StoredMessage, name: str, value: str) -> str:
    await _pick(env, panel, name)
    panel = env.h.remote.messages[panel.id]  # the panel now shows the value select
    record = await env.h.click(ALICE, panel, _button(panel, f":v:{name}"), [value])
    return env.h.reply_text(record) or env.h.remote.messages[panel.id].payload["content"]


async def test_more_rules_sets_every_kind_of_option_and_the_match_plays_by_them(
    env: Env, tmp_path: Path
) -> None:
    await env.h.command(ALICE, "table create", [option("variant", "taizhou")])
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None
    panel = await _open_panel(env)
    assert "cap" in panel.payload["content"] and "liability" in panel.payload["content"]

    # Wide integer ranges go through a modal; bad input is refused and changes nothing.
    before = dict(table.options)
    for bad in ("abc", "0", "100001", "-5"):
        reply = await _set_by_modal(env, panel, "cap", bad)
        assert "封顶" in reply, reply
        assert table.options == before and _stored_options(tmp_path / "bot.db") == before
    assert "封顶" in await _set_by_modal(env, panel, "cap", "2")
    assert table.options["cap"] == 2
    # Options checked together, by the rule set's own consistency check: an odd cap is
    # refused once halves are paid exactly.
    await _set_by_select(env, panel, "half_rounding", "exact")
    assert table.options["half_rounding"] == "exact"
    reply = await _set_by_modal(env, panel, "cap", "3")
    assert "cap" in reply and table.options["cap"] == 2
    await _set_by_select(env, panel, "half_rounding", "up")

    # Choices, yes/no and small ranges go through a second select.
    await _set_by_select(env, panel, "liability", "false")
    await _set_by_select(env, panel, "multi_win_priority", "after_discarder")
    await _set_by_select(env, panel, "allow_seven_pairs", "true")
    await _set_by_select(env, panel, "rounds", "1")
    expected = {"cap": 2, "liability": False, "multi_win_priority": "after_discarder",
                "allow_seven_pairs": True, "half_rounding": "up"}  # fmt: skip
    for name, value in expected.items():
        assert table.options[name] == value
    assert _stored_options(tmp_path / "bot.db") == table.options

    # Only the host may change the rules.
    await env.h.command(BOB, "table join")
    record = await env.h.click(BOB, panel, _button(panel, ":pick"), ["cap"])
    assert "房主" in env.h.reply_text(record) and record.modal is None

    # /table rules shows the table's actual options.
    record = await env.h.command(ALICE, "table rules")
    text = env.h.reply_text(record)
    assert "**2**" in text and "本桌规则选项" in text
    # In Taiwan's characters for a zh-TW reader, the table's option lines too.
    record = await env.h.command(ALICE, "table rules", locale="zh-TW")
    text = env.h.reply_text(record)
    assert "本桌規則選項" in text and simplified_left(text) == []

    # The match plays by them: the engine's options, and every win paid at the limit of 2.
    await env.h.command(ALICE, "table start")
    await env.h.advance(2)
    assert table.match is not None
    for name, value in expected.items():
        assert getattr(table.match.options, name) == value
    clicks = 0
    while table.status == "running" and clicks < 3000:
        moved = False
        for user in (ALICE, BOB):
            if table.status == "running" and await play_turn(env, user):
                clicks += 1
                moved = True
                await env.h.advance(1.6)
        if not moved:
            await env.h.advance(2)
    assert table.status == "finished"
    connection = sqlite3.connect(tmp_path / "bot.db")
    outcomes = connection.execute(
        "SELECT items FROM hand_outcomes WHERE win_by IS NOT NULL"
    ).fetchall()
    units = connection.execute("SELECT units FROM ledger WHERE kind = 'hand'").fetchall()
    connection.close()
    assert outcomes, "no hand was won in the match"
    for (items,) in outcomes:
        assert ["limit", 2, "points"] in json.loads(items)
    assert all(abs(value) <= 2 * 3 for (value,) in units)
    # Once started, the rules are fixed.
    record = await env.h.click(ALICE, panel, _button(panel, ":pick"), ["cap"])
    assert record.modal is None and env.h.reply_text(record)


async def test_server_defaults_apply_to_new_tables_and_are_validated(env: Env) -> None:
    record = await env.h.command(
        ADMIN, "mjadmin rules",
        [option("variant", "jiaxing"), option("option", "santan_profile"),
         option("value", "two_x")],
    )  # fmt: skip
    assert "two_x" in env.h.reply_text(record) or "两倍" in env.h.reply_text(record)
    for bad_option, bad_value in (("santan_profile", "ten_x"), ("reserve_tiles", "41"),
                                  ("cap", "50"), ("flee_penalty", "-1")):  # fmt: skip
        record = await env.h.command(
            ADMIN, "mjadmin rules",
            [option("variant", "jiaxing"), option("option", bad_option),
             option("value", bad_value)],
        )  # fmt: skip
        assert await env.store.rule_defaults(env.bot.guilds[0].id, "jiaxing") == {
            "santan_profile": "two_x"
        }, bad_option
    # A member without Manage Server cannot change them.
    await env.h.command(
        ALICE, "mjadmin rules",
        [option("variant", "jiaxing"), option("option", "reserve_tiles"), option("value", "8")],
    )  # fmt: skip
    assert await env.store.rule_defaults(env.bot.guilds[0].id, "jiaxing") == {
        "santan_profile": "two_x"
    }
    await env.h.command(ALICE, "table create", [option("variant", "jiaxing")])
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.options["santan_profile"] == "two_x"
    # reset goes back to the rule set's default for the next table.
    await env.h.command(
        ADMIN, "mjadmin rules",
        [option("variant", "jiaxing"), option("option", "santan_profile"),
         option("value", "reset")],
    )  # fmt: skip
    assert await env.store.rule_defaults(env.bot.guilds[0].id, "jiaxing") == {}


async def test_mjadmin_rules_autocompletes_the_rule_sets_options(env: Env) -> None:
    choices = await env.h.autocomplete(
        ADMIN, "mjadmin rules",
        [option("variant", "taizhou"), option("option", "ca", focused=True)],
    )  # fmt: skip
    assert [choice["value"] for choice in choices] == ["cap"]
    assert "1–100000" in choices[0]["name"] and "100" in choices[0]["name"]


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_the_rule_pickers_read_in_english_for_an_english_host(variant: str) -> None:
    """The option and value menus an English host gets hold no Chinese (the random
    players found the option menu's placeholder bilingual)."""
    from chinese_script import CJK

    from bot.rules_flow import RulesPick, RulesValue

    texts = []
    for item in (RulesPick("t1", variant, zh=False), *(
        RulesValue("t1", spec, None, zh=False) for spec in option_specs(variant)
    )):  # fmt: skip
        select = item.item
        texts.append(select.placeholder or "")
        texts += [f"{option.label} {option.description or ''}" for option in select.options]
    assert len(texts) > 20
    assert not [text for text in texts if CJK.search(text)]


def test_the_modal_title_fits_discord_for_an_option_without_a_label() -> None:
    """An option the panel has no label for shows its raw name (up to 40 characters);
    the modal's title stays within Discord's 45."""
    from types import SimpleNamespace

    from bot.rules_flow import OptionSpec, RulesModal

    spec = OptionSpec("an_option_with_a_very_long_raw_name_here", "int", 3, low=0, high=99)
    table = SimpleNamespace(table_id="t1", options={})
    for locale in ("zh-CN", "en-US"):
        modal = RulesModal(table, spec, locale)  # type: ignore[arg-type]
        assert 0 < len(modal.title) <= 45


def test_an_option_line_says_each_value_once_and_a_choice_may_be_typed_as_shown() -> None:
    """The panel named the current value up to three times (as itself, among the
    choices, as the default), and refused a choice typed as it showed it (都付五倍)."""
    from bot.rules_flow import options_lines

    lines = options_lines("jiaxing", {"santan_profile": "two_x"}, True)
    wilds = next(line for line in lines if "`wild_copies`" in line)
    assert wilds.count("3 张（翻牌离场）") == 1 and "也可 4 张" in wilds and "默认" in wilds
    santan = next(line for line in lines if "`santan_profile`" in line)
    assert santan.startswith("• 三摊赔付 `santan_profile`: **承包方之间五倍")
    assert "默认 都付五倍" in santan
    spec = spec_of("jiaxing", "santan_profile")
    assert parse_value(spec, "都付五倍") == "five_x"
    assert parse_value(spec, "Everyone pays 5×") == "five_x"  # English, any case
    assert parse_value(spec_of("jiaxing", "dealer_on_draw"), "连庄") == "stay"
    assert parse_value(spec_of("jiaxing", "wild_copies"), "4 张") == 4


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_full_liability_reads_as_not_applying_below_four_players(
    env: Env, seats: int
) -> None:
    """全包 is 4 players only (RULES.md §2): /table rules and the host's panel said
    全包 liability: 开 at a 2- or 3-player table, where the scoring never applies it."""
    await env.h.command(
        ALICE, "table create", [option("variant", "taizhou"), option("seats", seats)]
    )
    chinese = env.h.reply_text(await env.h.command(ALICE, "table rules"))
    english = env.h.reply_text(await env.h.command(ALICE, "table rules", locale="en-US"))
    traditional = env.h.reply_text(await env.h.command(ALICE, "table rules", locale="zh-TW"))
    panel = (await _open_panel(env)).payload["content"]
    [line] = [ln for ln in chinese.splitlines() if "`liability`" in ln]
    [english_line] = [ln for ln in english.splitlines() if "`liability`" in ln]
    [panel_line] = [ln for ln in panel.splitlines() if "`liability`" in ln]
    if seats == 4:
        assert line.startswith("• 全包 `liability`: 开（默认")
        assert english_line.startswith("• Full liability `liability`: on (default")
    else:
        assert line == f"• 全包 `liability`: 本桌 {seats} 人，不适用（仅 4 人时生效）"
        assert english_line == (
            f"• Full liability `liability`: does not apply at {seats} players (4 players only)"
        )
        assert panel_line == line
    assert simplified_left(traditional) == []
    assert RULE_SETS["taizhou"].options_class.applies("liability", seats) == (seats == 4)
