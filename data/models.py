"""Plain values the store returns and accepts. No SQL here, so callers never see any."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.variants import RULE_SETS, default_rule_set

GAME_STATUSES = ("lobby", "running", "finished", "abandoned")


class StoreError(Exception):
    """Base class for storage errors the bot may show; messages are Chinese first, then English."""


class SettingsError(StoreError, ValueError):
    """A guild setting with an unknown name or an invalid value. Said in Chinese (``zh``)
    and English (``en``) apart, so an admin reads one language; the message holds both
    for logs."""

    def __init__(self, zh: str, en: str) -> None:
        super().__init__(f"{zh} / {en}")
        self.zh, self.en = zh, en


class SettingRangeError(SettingsError):
    """A number setting outside its range; ``name``, ``low``, ``high`` and ``value`` let a
    caller say it in its own words (the Discord side names the setting as its command
    option does)."""

    def __init__(
        self, zh: str, en: str, *, name: str, low: int | None, high: int | None, value: int
    ) -> None:
        super().__init__(zh, en)
        self.name, self.low, self.high, self.value = name, low, high, value


class UnknownGameError(StoreError, KeyError):
    """No game with that id."""

    def __str__(self) -> str:  # KeyError would print the repr of the argument
        return str(self.args[0]) if self.args else "unknown game"


class DuplicateGameError(StoreError, ValueError):
    """A game with that id already exists."""


class ActionConflictError(StoreError, ValueError):
    """A different action is already stored under that sequence number: replay would diverge."""


def validate_timezone(name: str) -> ZoneInfo:
    """Return the zone for an IANA name ("Asia/Shanghai", "UTC"), or raise SettingsError."""
    if not isinstance(name, str) or not name or name != name.strip():
        raise SettingsError(f"时区名称无效：{name!r}", f"invalid time zone name: {name!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:
        raise SettingsError(
            f"未知时区 {name!r}，请使用 IANA 名称，例如 Asia/Shanghai",
            f"unknown time zone {name!r}; use an IANA name such as Asia/Shanghai",
        ) from error


@dataclass(frozen=True)
class GuildSettings:
    """Per-guild settings; every field has the default a new guild gets.

    ``min_balance``: a player needs at least this balance to sit (None: no minimum).
    ``channel_language``: what the shared table (its picture, the channel's lines, the
    leaderboard) is written in: "auto" follows the server's preferred locale, which only
    a Community server can change from en-US; "zh-CN", "zh-TW" or "en" fix it.
    ``preferred_locale`` is that locale as Discord last reported it (None: never seen),
    kept by the bot itself, so that after a restart the table is drawn in it at once.
    ``hand_cap`` / ``day_cap``: optional limits on one player's |points| in one hand and
    net win or loss per local day (None: no cap). ``max_stake``: the highest stake a
    table may be opened with (None: the bot's own limit). ``leaderboard_problem`` is kept
    by the bot: why the last weekly post failed ("permissions:2026-11-23" or
    "channel_gone:…", the week's Monday), None once a post succeeds. ``last_leaderboard_week`` is the Monday
    (local date) of the last week whose leaderboard was posted, so a restart does not
    post it twice. ``ai_hands_on_boards``: False keeps every hand with an AI seat off the
    leaderboards (what a player wins from AI seats no balance backs); balances, day caps
    and /stats still count it.
    """

    guild_id: int
    starting_balance: int = 1000
    timezone: str = "UTC"
    leaderboard_channel: int | None = None
    discard_timeout: int = 30
    claim_timeout: int = 10
    default_variant: str = field(default_factory=default_rule_set)
    min_balance: int | None = None
    hand_cap: int | None = None
    day_cap: int | None = None
    last_leaderboard_week: date | None = None
    channel_language: str = "auto"
    preferred_locale: str | None = None
    max_stake: int | None = None
    leaderboard_problem: str | None = None
    ai_hands_on_boards: bool = True

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @classmethod
    def editable_fields(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls) if f.name != "guild_id")


# The shared table's language: the server's preferred locale, or one fixed by an admin.
CHANNEL_LANGUAGES = ("auto", "zh-CN", "zh-TW", "en")

# (min, max) for integer settings; None in a bound means unbounded.
_INT_RANGES: dict[str, tuple[int | None, int | None]] = {
    "starting_balance": (0, 10**12),
    "discard_timeout": (5, 600),
    "claim_timeout": (3, 300),
    "min_balance": (-(10**12), 10**12),
    "hand_cap": (1, 10**12),
    "day_cap": (1, 10**12),
    "max_stake": (1, 1_000_000),  # bot.table_options.MAX_STAKE, the most a table takes
    "leaderboard_channel": (1, None),
}
_NULLABLE = {
    "leaderboard_channel",
    "min_balance",
    "hand_cap",
    "day_cap",
    "max_stake",
    "leaderboard_problem",
    "last_leaderboard_week",
    "preferred_locale",
}
# Settings the bot keeps itself: not shown to or set by admins.
BOT_KEPT_SETTINGS = frozenset({"last_leaderboard_week", "preferred_locale", "leaderboard_problem"})


# Why a weekly leaderboard post failed (``leaderboard_problem``): the bot lacks a
# permission in the channel, or the channel is gone.
LEADERBOARD_PROBLEMS = ("permissions", "channel_gone")


def _is_iso_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def validate_setting(name: str, value: Any) -> Any:
    """Check one setting and return it normalised (a date for the week, an int for numbers)."""
    if name not in GuildSettings.editable_fields():
        known = ", ".join(GuildSettings.editable_fields())
        raise SettingsError(
            f"未知设置 {name!r}（可用：{known}）", f"unknown setting {name!r} (known: {known})"
        )
    if value is None:
        if name in _NULLABLE:
            return None
        raise SettingsError(f"设置 {name} 不能为空", f"setting {name} cannot be empty")
    if name == "timezone":
        validate_timezone(value)
        return value
    if name == "channel_language":
        if value not in CHANNEL_LANGUAGES:
            raise SettingsError(
                f"未知语言 {value!r}（可选：{', '.join(CHANNEL_LANGUAGES)}）",
                f"unknown language {value!r} (one of {', '.join(CHANNEL_LANGUAGES)})",
            )
        return value
    if name == "default_variant":
        if value not in RULE_SETS:  # the registry, so a rule set added later is accepted
            raise SettingsError(
                f"未知玩法 {value!r}（可选：{', '.join(RULE_SETS)}）",
                f"unknown variant {value!r} (one of {', '.join(RULE_SETS)})",
            )
        return value
    if name == "preferred_locale":
        if not isinstance(value, str) or not 2 <= len(value) <= 16:
            raise SettingsError(f"语言代码无效：{value!r}", f"invalid locale: {value!r}")
        return value
    if name == "leaderboard_problem":
        kind, _, week = str(value).partition(":")
        if kind not in LEADERBOARD_PROBLEMS or not _is_iso_date(week):
            raise SettingsError(f"无效的记录：{value!r}", f"invalid problem note: {value!r}")
        return value
    if name == "ai_hands_on_boards":
        if not isinstance(value, bool):
            raise SettingsError(
                f"设置 {name} 需要 是/否，收到 {value!r}", f"setting {name} must be true or false"
            )
        return value
    if name == "last_leaderboard_week":
        if isinstance(value, datetime):
            raise SettingsError(
                "last_leaderboard_week 需要日期",
                "last_leaderboard_week needs a date, not a datetime",
            )
        if isinstance(value, str):
            try:
                value = date.fromisoformat(value)
            except ValueError as error:
                raise SettingsError(f"日期无效：{value!r}", f"invalid date: {value!r}") from error
        if not isinstance(value, date) or value.weekday() != 0:
            raise SettingsError(
                f"需要星期一的日期，收到 {value!r}", f"must be a Monday date, got {value!r}"
            )
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(
            f"设置 {name} 需要整数，收到 {value!r}",
            f"setting {name} must be an integer, got {value!r}",
        )
    low, high = _INT_RANGES[name]
    if (low is not None and value < low) or (high is not None and value > high):
        shown_low = f"{low:,}" if low is not None else "-∞"
        bounds = f"{shown_low}..{f'{high:,}' if high is not None else '∞'}"
        if low is not None and high is not None:
            allowed = f"在 {low:,} 到 {high:,} 之间"
        else:
            allowed = f"不小于 {low:,}" if low is not None else f"不大于 {high:,}"
        raise SettingRangeError(
            f"设置 {name} 超出范围：必须{allowed}，收到 {value:,}",
            f"setting {name} must be in {bounds}, got {value:,}",
            name=name, low=low, high=high, value=value,
        )  # fmt: skip
    return value


@dataclass(frozen=True)
class SettlementEntry:
    """One seat's result in a hand: ``units`` are table units (the engine's delta).

    ``user_id`` is None for an AI seat: its row is recorded, but it has no balance.
    """

    seat: int
    user_id: int | None
    units: int
    is_winner: bool = False


def settlement_entries(
    deltas: Sequence[int], users: Sequence[int | None], winner: int | None = None
) -> list[SettlementEntry]:
    """Entries for ``settle_hand`` from the engine's per-seat deltas and who sits where."""
    if len(deltas) != len(users):
        raise ValueError(f"{len(deltas)} deltas for {len(users)} seats")
    return [
        SettlementEntry(seat=seat, user_id=users[seat], units=int(delta), is_winner=seat == winner)
        for seat, delta in enumerate(deltas)
    ]


@dataclass(frozen=True)
class LedgerEntry:
    """One ledger row. ``points`` moved the balance; ``original_points`` is before caps."""

    id: int
    guild_id: int
    kind: str  # "opening" | "hand" | "penalty" | "adjustment"
    game_id: str | None
    hand_number: int | None
    seat: int | None
    user_id: int | None
    units: int
    stake: int
    points: int
    original_points: int
    capped: bool
    is_winner: bool
    reason: str
    by_user: int | None
    balance_after: int | None
    created_at: datetime
    week_start: date
    local_day: date


@dataclass(frozen=True)
class StatementLine:
    """One line of a player's account statement (``/balance``): a match's settled hands
    taken together, or one opening balance, penalty or admin adjustment.

    Why grouped: a match writes a row per hand, and a player asking where their points
    went thinks in matches; penalties and adjustments stay apart because each has its own
    reason. ``original_points`` differs from ``points`` when the guild's caps cut them.
    """

    kind: str  # "opening" | "hand" | "penalty" | "adjustment"
    points: int
    original_points: int
    balance_after: int | None
    at: datetime  # the last row's time
    game_id: str | None = None
    variant: str | None = None  # the match's rule set (hand and penalty lines)
    hands: int = 0  # settled hands of the match (hand lines)
    wins: int = 0
    reason: str = ""
    by_user: int | None = None  # who made an adjustment


@dataclass(frozen=True)
class LeaderboardRow:
    """``net``: points from hands and penalties; ``biggest``: largest single-hand win (0 if none)."""

    user_id: int
    net: int
    hands: int
    wins: int
    biggest: int


@dataclass(frozen=True)
class WeekBounds:
    """A leaderboard week: Monday 00:00 to the next Monday 00:00 in the guild's zone."""

    week_start: date  # the local Monday; the key weekly leaderboards are stored under
    start: datetime  # aware, in the guild's zone
    end: datetime  # aware, exclusive
    timezone: str


@dataclass(frozen=True)
class GameRecord:
    game_id: str
    guild_id: int
    channel_id: int | None
    variant: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    settings: dict[str, Any]
    meta: dict[str, Any]
    status: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    action_count: int = 0


@dataclass(frozen=True)
class StoredAction:
    seq: int
    hand_number: int
    action: dict[str, Any]
    created_at: datetime = field(compare=False)


@dataclass(frozen=True)
class HandOutcome:
    """How a settled hand ended, beside its ledger rows (``settle_hand(outcome=...)``).

    The ledger says who won and what moved; ``/stats`` also needs the rule set, how the
    hand was won and whose discard it was won on. ``items`` are the winner's score items
    as (key, value, unit) for the "biggest hand" line; ``win_types`` the keys counted as
    its winning types (most frequent types on the card).
    """

    variant: str
    win_by: str | None = None  # "self_draw", "discard", "rob_kong"; None for a draw
    winner_seat: int | None = None
    dealt_in_seat: int | None = None
    items: tuple[tuple[str, int, str], ...] = ()
    win_types: tuple[str, ...] = ()


@dataclass(frozen=True)
class BiggestHand:
    """A player's largest single-hand win of a period and how it was scored."""

    points: int
    variant: str
    game_id: str | None
    hand_number: int | None
    created_at: datetime
    items: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over ``[first_day, end_day)`` (local days), for ``/stats``.

    ``deal_in_hands`` counts the hands of rule sets where a discard can be won on (the
    deal-in rate's denominator); ``trend`` is the balance at the end of each local day
    with play, preceded by the balance the period opened with (if any).
    """

    user_id: int
    variant: str | None
    first_day: date | None
    end_day: date | None
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    deal_in_hands: int
    net: int
    biggest: BiggestHand | None
    win_types: tuple[tuple[str, str, int], ...]  # (variant, type key, wins), most first
    trend: tuple[tuple[date, int], ...]

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.hands if self.hands else None

    @property
    def self_draw_share(self) -> float | None:
        return self.self_draws / self.wins if self.wins else None

    @property
    def deal_in_rate(self) -> float | None:
        return self.deal_ins / self.deal_in_hands if self.deal_in_hands else None

    @property
    def mean_points(self) -> float | None:
        return self.net / self.hands if self.hands else None
