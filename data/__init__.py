"""Storage for mahjong-bot: balances, the ledger, leaderboards, games and guild settings.

Everything SQL-shaped lives in this package; the rest of the bot uses ``Store`` and the
plain values of ``data.models``.
"""

from .caps import apply_caps
from .models import (
    GAME_STATUSES,
    ActionConflictError,
    DuplicateGameError,
    GameRecord,
    GuildSettings,
    LeaderboardRow,
    LedgerEntry,
    SettingsError,
    SettlementEntry,
    StoredAction,
    StoreError,
    UnknownGameError,
    WeekBounds,
    settlement_entries,
    validate_timezone,
)
from .schema import LATEST_VERSION, SchemaError
from .store import Store
from .weeks import bounds_for_week_start, local_day_and_week, week_bounds

__all__ = [
    "GAME_STATUSES",
    "LATEST_VERSION",
    "ActionConflictError",
    "DuplicateGameError",
    "GameRecord",
    "GuildSettings",
    "LeaderboardRow",
    "LedgerEntry",
    "SchemaError",
    "SettingsError",
    "SettlementEntry",
    "Store",
    "StoreError",
    "StoredAction",
    "UnknownGameError",
    "WeekBounds",
    "apply_caps",
    "bounds_for_week_start",
    "local_day_and_week",
    "settlement_entries",
    "validate_timezone",
    "week_bounds",
]
