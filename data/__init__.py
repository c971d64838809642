"""Storage for mahjong-bot: balances, the ledger, leaderboards, games and guild settings.

Everything SQL-shaped lives in this package; the rest of the bot uses ``Store`` and the
plain values of ``data.models``.

API at a glance (all ``async`` methods of ``Store``; see data/store.py for the guarantees)::

    store = await Store.open("bot.db")          # or: async with await Store.open(...) as store
    store = await open_store(target)             # "postgresql://..." -> PostgreSQL, else SQLite
    await store.settle_hand(guild, game_id, hand_number,
                            settlement_entries(result.deltas, seat_users, result.winner),
                            stake=10, winner_user=...)   # False if already settled
    await store.hand_entries(game_id, hand_number)       # what was paid (after caps)
    await store.record_penalty(guild, game_id, user, points, "leave", beneficiaries, key=...)
    await store.adjust_balance(guild, user, delta, by_user, reason)
    await store.get_balance(guild, user); await store.can_sit(guild, user)
    await store.weekly_leaderboard(guild, weeks_ago=0)   # or week_start=date(...)
    await store.alltime_leaderboard(guild); await store.history(guild, user, limit=10)
    await store.create_game(...); await store.append_action(game_id, seq, action_json, hand)
    await store.load_actions(game_id); await store.running_games()
    await store.get_settings(guild); await store.update_settings(guild, timezone="Asia/Shanghai")
    await store.set_user_pref(user, "dms_closed", True); await store.get_user_prefs(user)
"""

from .caps import apply_caps
from .ledger import VoidRefused
from .models import (
    BOT_KEPT_SETTINGS,
    CHANNEL_LANGUAGES,
    GAME_STATUSES,
    ActionConflictError,
    BiggestHand,
    DuplicateGameError,
    GameRecord,
    GuildSettings,
    HandOutcome,
    LeaderboardRow,
    LedgerEntry,
    PlayerStats,
    SettingRangeError,
    SettingsError,
    SettlementEntry,
    StatementLine,
    StoredAction,
    StoreError,
    UnknownGameError,
    WeekBounds,
    settlement_entries,
    validate_timezone,
)
from .schema import LATEST_VERSION, SchemaError
from .store import Store, is_postgres_target, open_store
from .weeks import (
    bounds_for_week_start,
    local_day_and_week,
    month_start_of,
    next_month,
    week_bounds,
)

__all__ = [
    "BOT_KEPT_SETTINGS",
    "CHANNEL_LANGUAGES",
    "GAME_STATUSES",
    "LATEST_VERSION",
    "ActionConflictError",
    "BiggestHand",
    "DuplicateGameError",
    "GameRecord",
    "GuildSettings",
    "HandOutcome",
    "LeaderboardRow",
    "LedgerEntry",
    "PlayerStats",
    "SchemaError",
    "SettingRangeError",
    "SettingsError",
    "SettlementEntry",
    "StatementLine",
    "Store",
    "StoreError",
    "StoredAction",
    "UnknownGameError",
    "VoidRefused",
    "WeekBounds",
    "apply_caps",
    "bounds_for_week_start",
    "is_postgres_target",
    "local_day_and_week",
    "month_start_of",
    "next_month",
    "open_store",
    "settlement_entries",
    "validate_timezone",
    "week_bounds",
]
