"""Components: custom ids carry table and turn, parse back, and offer only legal moves."""

from __future__ import annotations

import re
from dataclasses import replace

import discord

from bot.discord_views import (
    ActionButton,
    DiscardSelect,
    TableButton,
    action_from_code,
    hand_facts,
    hand_view,
    lobby_view,
    table_view,
)
from bot.presenter import LobbyInfo, PrivatePrompt, SeatInfo
from engine.tiles import kind_str, name_zh, parse_tile
from engine.types import Action
from render.samples import sample_player_view

TABLE = "a1b2c3d4e5f6"


def prompt_with(
    legal: tuple[Action, ...], kind: str = "turn", drawn: int | None = None
) -> PrivatePrompt:
    view = replace(sample_player_view("taizhou"), legal=legal, drawn=drawn)
    return PrivatePrompt(TABLE, 42, view.seat, view, kind, 1_800_000_030.0, 123_456, "taizhou")


def custom_ids(view: discord.ui.View) -> list[str]:
    """The play components' ids; the shortcut buttons (``mj:o:``) are checked apart."""
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    return [custom_id for custom_id in ids if not custom_id.startswith("mj:o:")]


def shortcut_ids(view: discord.ui.View) -> list[str]:
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    return [custom_id for custom_id in ids if custom_id.startswith("mj:o:")]


def test_hand_view_offers_exactly_the_legal_moves() -> None:
    seat = 0
    legal = (
        Action("discard", seat, tile=parse_tile("5m")),
        Action("discard", seat, tile=parse_tile("1z")),
        Action("kong", seat, tile=parse_tile("7z")),
        Action("win", seat),
    )
    view = hand_view(prompt_with(legal, drawn=parse_tile("1z")))
    ids = custom_ids(view)
    assert ids[0] == f"mj:d:{TABLE}:123456"
    select = view.children[0]
    assert isinstance(select, DiscardSelect)
    assert [o.value for o in select.item.options] == ["1z", "5m"]  # the drawn tile first
    assert ids[1:] == [f"mj:a:{TABLE}:123456:win", f"mj:a:{TABLE}:123456:kong:7z"]
    assert all(len(custom_id) <= 100 for custom_id in ids)
    payload = view.to_components()
    assert len(payload) <= 5 and all(len(row["components"]) <= 5 for row in payload)


def test_claim_and_idle_views() -> None:
    seat = 1
    legal = (
        Action("chow", seat, tiles=(parse_tile("3m"), parse_tile("4m"), parse_tile("5m"))),
        Action("chow", seat, tiles=(parse_tile("4m"), parse_tile("5m"), parse_tile("6m"))),
        Action("pung", seat),
        Action("pass", seat),
    )
    ids = custom_ids(hand_view(prompt_with(legal, kind="claim")))
    assert ids == [
        f"mj:a:{TABLE}:123456:pung",
        f"mj:a:{TABLE}:123456:chow:345m",
        f"mj:a:{TABLE}:123456:chow:456m",
        f"mj:a:{TABLE}:123456:pass",
    ]
    idle = hand_view(prompt_with((), kind="idle"))
    assert custom_ids(idle) == []
    # Every hand carries the player's shortcuts, each naming what pressing it sets.
    assert shortcut_ids(idle) == [f"mj:o:{TABLE}:ap_hand", f"mj:o:{TABLE}:aw_on",
                                  f"mj:o:{TABLE}:tg_on"]  # fmt: skip


def test_custom_ids_parse_back_into_actions() -> None:
    templates = {
        cls: cls.__discord_ui_compiled_template__  # type: ignore[attr-defined]
        for cls in (DiscardSelect, ActionButton, TableButton)
    }
    match = templates[ActionButton].fullmatch(f"mj:a:{TABLE}:77:chow:345m")
    assert match is not None and match["turn"] == "77" and match["table"] == TABLE
    assert action_from_code(match["code"], match["tiles"]) == {"type": "chow", "tiles": "345m"}
    assert action_from_code("kong", "7z") == {"type": "kong", "tile": "7z"}
    assert action_from_code("cont", None) == {"type": "continue"}
    assert templates[DiscardSelect].fullmatch(f"mj:d:{TABLE}:5")
    assert templates[TableButton].fullmatch(f"mj:t:{TABLE}:hand")
    # Ids that are not ours, or tampered with, do not match at all.
    for bad in (
        f"mj:a:{TABLE}:x:pung",
        f"mj:t:{TABLE}:admin",
        "mj:d:../etc:1",
        f"mj:a:{TABLE}:1:pung:5!",
    ):
        assert not any(template.fullmatch(bad) for template in templates.values()), bad
    assert re.fullmatch(r"[0-9a-f]{12}", TABLE)
    # An id that matches but names no tile is refused when parsed (the click is answered).
    for code, tiles in (("pung", "zz"), ("nope", None)):
        try:
            action_from_code(code, tiles)
        except ValueError:
            continue
        raise AssertionError(f"{code}:{tiles} parsed")


def test_lobby_and_table_buttons() -> None:
    lobby = LobbyInfo(TABLE, 1, 2, 3, "taizhou", {}, 4, 1, (SeatInfo(0, "a", 3),), "lobby")
    assert custom_ids(lobby_view(lobby)) == [
        f"mj:t:{TABLE}:{w}" for w in ("join", "leave", "ai", "start")
    ]
    assert custom_ids(table_view(TABLE)) == [f"mj:t:{TABLE}:hand"]  # nobody on autoplay
    assert custom_ids(table_view(TABLE, back=True)) == [f"mj:t:{TABLE}:hand", f"mj:t:{TABLE}:back"]


def test_discard_menu_marks_the_drawn_tile_and_the_wild() -> None:
    base = prompt_with(())
    wild = base.view.public.wild
    assert wild is not None
    other = next(k for k in range(34) if k != wild)
    legal = (Action("discard", 0, tile=wild), Action("discard", 0, tile=other))
    for variant, name in (("taizhou", "财神"), ("jiaxing", "百搭")):
        public = replace(base.view.public, variant=variant)
        view = replace(base.view, legal=legal, drawn=wild, public=public)
        select = hand_view(replace(base, view=view)).children[0]
        assert isinstance(select, DiscardSelect)
        notes = {o.value: o.description for o in select.item.options}
        assert notes == {kind_str(wild): f"刚摸到 {name} / just drawn, wild", kind_str(other): None}


def test_the_hand_text_says_what_a_phone_cannot_read_in_the_image() -> None:
    """Tiles left, the wild and the waits, as message text in the reader's language: a
    phone shows the hand image about 360 px wide, where its labels are 6-8 px high."""
    view = replace(sample_player_view("taizhou"), waits=(parse_tile("3m"), parse_tile("6m")))
    prompt = PrivatePrompt(TABLE, 42, view.seat, view, "turn", None, 1, "taizhou")
    wild = view.public.wild
    assert wild is not None
    left = view.public.tiles_left
    zh = hand_facts(prompt, "zh-CN")
    assert zh == f"-# 余牌 {left} · 财神 {name_zh(wild)} · 听 三万 六万"
    assert hand_facts(prompt, "zh-TW").startswith(f"-# 餘牌 {left} · 財神")
    en = hand_facts(prompt, "en-US")
    assert en.startswith(f"-# {left} tiles left · Wild: {kind_str(wild)}")
    assert en.endswith("waiting on 3m 6m")
    not_ready = replace(prompt, view=replace(view, waits=()))
    assert "听" not in hand_facts(not_ready, "zh-CN")
