"""Every user-facing message of the bot, zh-CN first with the English fallback.

Why apart from ``bot.i18n``: the table session never imports discord.py, yet its
messages belong in the same one table as the Discord layer's; ``bot.i18n`` re-exports
``MESSAGES`` and ``msg`` for the Discord side.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.command_names import COMMAND_FIELD, fill_commands
from bot.presenter import Text

__all__ = ["MESSAGES", "msg", "msg_each"]

# Every user-facing message the bot writes: the Discord layer's, then the table session's
# (``session.*``). Placeholders use str.format names.
MESSAGES: dict[str, tuple[str, str]] = {
    "error.generic": (
        "出了点问题，请稍后再试。",
        "Something went wrong; please try again in a moment.",
    ),
    "error.no_permission": (
        "需要「管理服务器」权限。",
        "You need the Manage Server permission for that.",
    ),
    "error.guild_only": (
        "这个命令只能在服务器频道里使用。",
        "This command only works in a server channel.",
    ),
    "error.cooldown": (
        "太快了，请 {seconds:.0f} 秒后再试。",
        "Slow down; try again in {seconds:.0f} s.",
    ),
    "error.bad_value": ("参数无效：{reason}", "Invalid value: {reason}"),
    # An option value the command does not declare (see bot.option_checks).
    "error.option_choice": (
        "「{option}」只能选：{choices}（收到「{typed}」）",
        "“{option}” must be one of: {choices} (got “{typed}”)",
    ),
    "error.option_whole.range": (
        "「{option}」必须是 {low} 到 {high} 之间的整数（收到 {typed}）",
        "“{option}” must be a whole number from {low} to {high} (got {typed})",
    ),
    "error.option_whole.min": (
        "「{option}」必须是不小于 {low} 的整数（收到 {typed}）",
        "“{option}” must be a whole number of at least {low} (got {typed})",
    ),
    "error.option_whole.max": (
        "「{option}」必须是不大于 {high} 的整数（收到 {typed}）",
        "“{option}” must be a whole number of at most {high} (got {typed})",
    ),
    "error.option_number.range": (
        "「{option}」必须在 {low} 到 {high} 之间（收到 {typed}）",
        "“{option}” must be from {low} to {high} (got {typed})",
    ),
    "error.option_number.min": (
        "「{option}」不能小于 {low}（收到 {typed}）",
        "“{option}” must be at least {low} (got {typed})",
    ),
    "error.option_number.max": (
        "「{option}」不能大于 {high}（收到 {typed}）",
        "“{option}” must be at most {high} (got {typed})",
    ),
    "error.option_length.range": (
        "「{option}」必须是 {low} 到 {high} 个字",
        "“{option}” must be {low} to {high} characters long",
    ),
    "error.option_length.min": (
        "「{option}」至少要 {low} 个字",
        "“{option}” must be at least {low} characters long",
    ),
    "error.option_length.max": (
        "「{option}」最多 {high} 个字",
        "“{option}” must be at most {high} characters long",
    ),
    # A value of another type than the option's (see bot.option_checks).
    "error.option_kind.whole": (
        "「{option}」必须是整数（收到 {typed}）",
        "“{option}” must be a whole number (got {typed})",
    ),
    "error.option_kind.number": (
        "「{option}」必须是数字（收到 {typed}）",
        "“{option}” must be a number (got {typed})",
    ),
    "error.option_kind.yes_no": (
        "「{option}」只能是 True 或 False（收到 {typed}）",
        "“{option}” must be True or False (got {typed})",
    ),
    "error.option_kind.text": (
        "「{option}」必须是文字（收到 {typed}）",
        "“{option}” must be text (got {typed})",
    ),
    "error.bot_no_balance": ("机器人没有余额", "Bots have no balance"),
    "error.user_gone": ("该用户已不在本服务器", "That user is no longer in this server"),
    "error.no_tile": ("请选一张要打的牌", "Choose a tile to discard"),
    "error.bad_tiles": ("牌写得不对：{reason_zh}", "Bad tiles: {reason_en}"),
    "play.chow_three": (
        "吃要写三张连着的牌，如 345m（你写的是 {typed}）",
        "A chow is three tiles in a row, e.g. 345m (you wrote {typed})",
    ),
    "play.no_chow": ("现在没有可吃的牌", "There is nothing you can chow now"),
    "play.which_chow": (
        "有几种吃法，请写明吃哪一种：{choices_zh}",
        "There is more than one chow; say which: {choices_en}",
    ),
    "table.none_here": (
        "这个频道没有牌桌。用 {/table create} 开一桌。",
        "No table in this channel. Use {/table create} to open one.",
    ),
    "table.none_yours": ("你不在任何牌桌上。", "You are not seated at any table."),
    "table.not_seated": ("你不在这张牌桌上。", "You are not seated at this table."),
    "table.gone": ("这张牌桌已经结束了。", "That table has ended."),
    "table.stale": (
        "这一步已经过去了，请看最新的手牌消息。",
        "That turn is over; use your latest hand message.",
    ),
    "table.not_running": ("牌局还没开始。", "The match has not started yet."),
    "table.created": (
        "已开桌：{variant}，{seats} 人，底注 {stake}。",
        "Table opened: {variant}, {seats} seats, stake {stake}.",
    ),
    "table.no_permissions": (
        "我在这个频道缺少权限，没法摆牌桌：{missing}。请服务器管理员在频道设置（权限）里给我这些权限，或换个频道开桌。",
        "I cannot run a table in this channel without these permissions: {missing}. Ask a "
        "server admin to grant them in the channel's settings (Permissions), or open the "
        "table in another channel.",
    ),
    "table.channel_closed": (
        "牌桌频道不让我发消息了（缺少权限）：牌局照常进行，手牌照常发给你。请服务器管理员恢复我在该频道的权限。",
        "The table's channel no longer lets me post (a permission was taken away): the "
        "match goes on and your hand still comes to you. Ask a server admin to restore my "
        "permissions there.",
    ),
    "admin.board_problem_permissions": (
        "⚠ {week} 那一周的排行榜没能发到 {channel}：机器人在那里缺少权限（查看频道、发送消息、"
        "附加文件）。权限恢复后，下一次检查（每 10 分钟）会补发。",
        "⚠ The leaderboard of the week of {week} could not be posted in {channel}: the bot "
        "lacks a permission there (View Channel, Send Messages, Attach Files). Once it is "
        "back, the next check (every 10 minutes) posts it.",
    ),
    "admin.board_problem_channel_gone": (
        "⚠ {week} 那一周的排行榜没能发出：频道 {channel} 已经不在了。请用 leaderboard_channel "
        "换一个频道。",
        "⚠ The leaderboard of the week of {week} could not be posted: its channel {channel} "
        "is gone. Choose another with leaderboard_channel.",
    ),
    "admin.board_no_permissions": (
        "我在 {channel} 缺少权限，没法发每周排行榜：{missing}。请先在该频道设置（权限）里给我这些权限，再设为排行榜频道。",
        "I cannot post the weekly leaderboard in {channel} without these permissions: "
        "{missing}. Grant them in that channel's settings (Permissions) first, then set it "
        "as the leaderboard channel.",
    ),
    "table.channel_deleted": (
        "牌桌所在的频道（或子区）已被删除，牌桌已结束：已打完的局照常结算，当前这一局不结算。",
        "The table's channel (or thread) was deleted, so the table has ended: finished hands "
        "stay settled, the hand in progress is not settled.",
    ),
    "table.bot_removed": (
        "机器人已被移出这个服务器，牌桌已结束：已打完的局照常结算，当前这一局不结算。",
        "The bot was removed from the server, so the table has ended: finished hands stay "
        "settled, the hand in progress is not settled.",
    ),
    "table.finished": ("整场结束。", "The match is over."),
    "table.ended": ("牌桌已结束。", "The table has been closed."),
    "table.started": (
        "开始了！手牌已私信发送，或点牌桌上的「我的手牌」。",
        "Started! Your hand is in your DMs, or press “My hand” on the table.",
    ),
    "table.joined": ("已加入。", "You joined the table."),
    "table.left": ("已离开。", "You left the table."),
    "table.left_penalty": (
        "已离开这场牌局：罚 {points} 积分，分给留下的玩家；电脑接替你的座位。",
        "You left the match: a penalty of {points} points, shared by the players who "
        "stay; an AI takes your seat.",
    ),
    "table.leave_confirm": (
        "对局还在进行：现在离开要罚 {points} 积分，分给留下的玩家，电脑接替你的座位。"
        "确定离开就点下面的按钮；不离开就不用管这条消息。",
        "The match is still on: leaving now costs a penalty of {points} points, shared by "
        "the players who stay, and an AI takes your seat. Press the button below to leave; "
        "to stay, just ignore this message.",
    ),
    "table.left_penalty_forfeit": (
        "已离开这场牌局：罚 {points} 积分（照样扣除；桌上没有别的玩家，罚分不归任何人）；电脑接替你的座位。",
        "You left the match: a penalty of {points} points (no other player is seated, so "
        "nobody receives it); an AI takes your seat.",
    ),
    "table.leave_confirm_forfeit": (
        "对局还在进行：现在离开要罚 {points} 积分（照样扣除；桌上没有别的玩家，罚分不归任何人），电脑接替你的座位。"
        "确定离开就点下面的按钮；不离开就不用管这条消息。",
        "The match is still on: leaving now costs a penalty of {points} points (no other "
        "player is seated, so nobody receives it), and an AI takes your seat. Press the "
        "button below to leave; to stay, just ignore this message.",
    ),
    "table.end_confirm": (
        "这一局还没打完：现在结束，这一局不结算，你要罚 {points} 积分，分给其他玩家。"
        "也可以打完这一局再结束，不罚分。不结束就不用管这条消息。",
        "This hand is still in play: ending now leaves it unsettled and costs you a penalty "
        "of {points} points, shared by the other players. Or end the match after this hand, "
        "free. To play on, just ignore this message.",
    ),
    "table.end_confirm_forfeit": (
        "这一局还没打完：现在结束，这一局不结算，你要罚 {points} 积分（照样扣除；桌上没有别的玩家，罚分不归任何人）。"
        "也可以打完这一局再结束，不罚分。不结束就不用管这条消息。",
        "This hand is still in play: ending now leaves it unsettled and costs you a penalty "
        "of {points} points (no other player is seated, so nobody receives it). Or end the "
        "match after this hand, free. To play on, just ignore this message.",
    ),
    "table.end_after_hand": (
        "好的：这一局结算后牌局结束。",
        "Done: the match ends once this hand is settled.",
    ),
    "table.ended_penalty": (
        "牌桌已结束：罚 {points} 积分，这一局不结算。",
        "The table has been closed: a penalty of {points} points; this hand is not settled.",
    ),
    "table.removed": ("已请 {name} 离开。", "{name} is no longer at the table."),
    "table.back": ("已取消托管，欢迎回来。", "Autoplay is off; welcome back."),
    "table.nothing_to_do": ("现在不用你出手。", "Nothing for you to do right now."),
    "table.dm_closed_notice": (
        "{mention} 的私信无法送达，手牌将通过牌桌消息上的「我的手牌」按钮（仅自己可见）显示。",
        "{mention} cannot receive DMs; their hand is shown privately through the table's “My hand” button.",
    ),
    "dm.on": ("手牌将私信发送给你。", "Your hand will be sent to you by DM."),
    "dm.on_but_closed": (
        "会再试着私信你，但你的私信上次无法送达：请在服务器的隐私设置里允许成员私信，"
        "否则手牌只能用「我的手牌」或 {/table hand} 查看。",
        "The bot will try DMs again, but your DMs could not be delivered last time: allow "
        "direct messages from server members in the server's privacy settings, or your hand "
        "is only shown through “My hand” and {/table hand}.",
    ),
    "dm.off": (
        "手牌只在「我的手牌」按钮和 {/table hand} 中私下显示（不发私信）。",
        "Your hand is shown only privately via the “My hand” button and {/table hand} (no DMs).",
    ),
    "dm.retry": (
        "已重新启用私信，下次轮到你时会再试着私信你。",
        "DMs re-enabled; the next prompt will try a DM again.",
    ),
    "hand.your_turn": ("轮到你了", "Your turn"),
    "hand.claim": ("可以{verbs}：{tile}", "You may {verbs} {tile}"),
    "hand.rob_kong": ("可以抢杠：{tile}", "You may rob the kong: {tile}"),
    "hand.santan": (
        "三摊：跟还是不跟？（超时算跟）",
        "Three claims: continue or fold? (no answer = continue)",
    ),
    # Under the 三摊 headline: who is liable, what continuing costs under the table's
    # santan_profile (RULES.md §1), and what folding means.
    "hand.santan_five_x": (
        "承包方：{pairs}。跟：照常打，能吃碰胡，输赢都按胡牌分的 5 倍——别人胡你付 5 倍，"
        "你胡，除不跟的人外每家付你 5 倍（抢杠胡只由杠牌的人付）。"
        "不跟：自动摸打，不能吃碰胡，也不付分。",
        "Liable: {pairs}. Continue: play on, may claim and win; every payment is 5× the"
        " score: you pay 5× to whoever wins, and if you win each player still in pays you"
        " 5× (a robbed kong is paid by the kong maker alone). Fold: auto-play, no claims"
        " or win, pay nothing.",
    ),
    "hand.santan_two_x": (
        "承包方：{pairs}。跟：照常打，能吃碰胡；承包方胡，你付胡牌分的 2 倍；其他跟的人胡，"
        "你付 1 倍；你胡，承包方各付你 2 倍，其他跟的人各付 1 倍（抢杠胡只由杠牌的人付）。"
        "不跟：自动摸打，不能吃碰胡，也不付分。",
        "Liable: {pairs}. Continue: play on, may claim and win; if a liable player wins you"
        " pay 2× the score, if another continuing player wins 1×; if you win, each liable"
        " player pays you 2× and each other continuing player 1× (a robbed kong is paid by"
        " the kong maker alone). Fold: auto-play, no claims or win, pay nothing.",
    ),
    "hand.wild_not_auto": (
        "摸到{wild}：自动摸打不替你打{wild}，请自己出牌。",
        "You drew the {wild}: auto-discard never throws it for you; choose your discard.",
    ),
    "hand.idle": ("等待其他玩家", "Waiting for the other players"),
    "hand.table_link": ("牌桌", "Table"),
    # The first lines of a new hand's DM (its notification): how the last hand ended.
    "hand.last_won": ("上局你胡了：{points} 积分", "Last hand: you won, {points} points"),
    "hand.last_lost": (
        "上局 {name} 胡了：你 {points} 积分",
        "Last hand: {name} won; you {points} points",
    ),
    "hand.last_draw": ("上局流局：你 {points} 积分", "Last hand: a draw; you {points} points"),
    "hand.last_draw_even": ("上局流局，没有输赢", "Last hand: a draw, no points changed hands"),
    "hand.deadline": ("截止 {when}", "deadline {when}"),
    "hand.select_placeholder": ("选择要打出的牌", "Choose a tile to discard"),
    "hand.autoplay": (
        "你正处于托管中，点「取消托管」继续自己打。",
        "You are on autoplay; press “I'm back” to play yourself.",
    ),
    "hand.result": ("本局结果", "Result of the hand"),
    "alert.turn": ("🔔 轮到你出牌了", "🔔 Your turn to play"),
    "alert.claim": ("🔔 可以{verbs}：{tile}", "🔔 You may {verbs} {tile}"),
    "alert.rob_kong": ("🔔 可以抢杠：{tile}", "🔔 You may rob the kong: {tile}"),
    "alert.santan": ("🔔 三摊：跟还是不跟？", "🔔 Three claims: continue or fold?"),
    "alert.no_dm": (
        "你的手牌不走私信：点牌桌消息上的「我的手牌」出牌（打开私信后用 {/table dm} 选「开」）",
        "Your hand is not sent by DM: press “My hand” on the table message to play "
        "(or open your DMs and use {/table dm} on)",
    ),
    "ping.on": (
        "轮到你时会私信提醒你（你出手后提醒会自动删除）。",
        "You get a DM alert when it is your turn (deleted once you have moved).",
    ),
    "ping.off": ("不再发送轮到你的提醒。", "No more turn alerts."),
    "toggle.auto_pass.off": ("自动过：关", "Auto-pass: off"),
    "toggle.auto_pass.hand": ("自动过：本局", "Auto-pass: this hand"),
    "toggle.auto_pass.always": ("自动过：一直", "Auto-pass: always"),
    "toggle.auto_win.on": ("自动胡：开", "Auto-win: on"),
    "toggle.auto_win.off": ("自动胡：关", "Auto-win: off"),
    "toggle.tsumogiri.on": ("自动摸打：开", "Auto-discard drawn tile: on"),
    "toggle.tsumogiri.off": ("自动摸打：关", "Auto-discard drawn tile: off"),
    "toggle.done": ("已更新：{what}", "Updated: {what}"),
    "play.done": ("已{move}", "Done: {move_en}"),
    "table.status.turn": ("出牌", "to play"),
    "table.status.claims": ("等待吃碰杠", "Claims open"),
    "table.status.claims_or_win": ("等待吃碰杠胡", "Claims open"),
    "table.status.rob_kong": ("等待抢杠", "The kong may be robbed"),
    "table.status.santan": ("三摊：等待选择跟或不跟", "Three claims: waiting for continue or fold"),
    "table.status.ended": ("本局结束", "Hand over"),
    "lobby.title": (
        "{variant} · {seats} 人 · 底注 {stake}",
        "{variant} · {seats} seats · stake {stake}",
    ),
    "lobby.players": ("玩家", "Players"),
    "lobby.empty": ("（还没有人）", "(nobody yet)"),
    "lobby.hint": (
        "点「加入」入座，房主点「开始」；空位由电脑补上。",
        "Press Join to sit down; the host presses Start, and the computer fills empty seats.",
    ),
    "lobby.hint_no_fill": (
        "点「加入」入座，坐满后房主点「开始」（这桌不用电脑补位，可点「加电脑」）。",
        "Press Join to sit down; once every seat is taken the host presses Start (this "
        "table does not fill seats with the computer; Add AI does).",
    ),
    "result.win": ("{name} 胡了！", "{name} wins!"),
    "result.draw": ("流局。", "Exhaustive draw."),
    # Balance points: the card's table points × the table's stake (底注), said so since
    # the two differ whenever the stake is not 1.
    "result.no_points": ("没有人输赢积分", "No points change hands"),
    "result.points": ("积分变化（底注 {stake}）：{changes}", "Points (stake {stake}): {changes}"),
    "result.match": (
        "整场结束。总积分（底注 {stake}）：{changes}",
        "Match over. Points in all (stake {stake}): {changes}",
    ),
    "score.invalid": ("不成胡：{reason}", "Not a winning hand: {reason}"),
    "balance.show": ("{name} 的余额：{balance}", "{name}'s balance: {balance}"),
    "balance.no_account": (
        "{name} 还没有在本服务器玩过（入座时的起始余额：{balance}）",
        "{name} has not played on this server yet (the starting balance on sitting down: {balance})",
    ),
    "balance.recent": ("最近的变动：", "Latest changes:"),
    "balance.match": (
        "{variant} · {hands} 局，胡 {wins} 局",
        "{variant} · {hands}, {wins} won",
    ),
    "balance.capped": ("（封顶，原 {points}）", " (capped from {points})"),
    "balance.opening": ("开户", "Opening balance"),
    "balance.adjustment": ("管理员调整（{name}）", "Adjustment by {name}"),
    "balance.adjustment_why": ("管理员调整（{name}）：{typed}", "Adjustment by {name}: {typed}"),
    "balance.penalty": ("离桌罚分", "Penalty for leaving a match"),
    "balance.penalty_share": ("离桌罚分分得", "Share of a leaving penalty"),
    "leaderboard.empty": ("这段时间还没有对局。", "No hands played in that period."),
    "leaderboard.week": ("{start} 起的一周排行榜", "Leaderboard for the week of {start}"),
    "leaderboard.alltime": ("总排行榜", "All-time leaderboard"),
    "history.empty": ("还没有记录。", "No history yet."),
    # History, replay and rematch (issue 14).
    "history.title": (
        "{name} 最近的对局 · 第 {page}/{pages} 页",
        "{name}'s recent matches · page {page}/{pages}",
    ),
    "history.stale": (
        "这个列表已过期，请重新使用 {/history}。",
        "This list has expired; run {/history} again.",
    ),
    "history.pick_match": ("查看对局的每一局…", "Open a match's hands…"),
    "history.pick_hand": ("选一局回放…", "Pick a hand to replay…"),
    "history.match_title": (
        "{variant} · {date} · 底注 {stake} · 牌局 {game}",
        "{variant} · {date} · stake {stake} · game {game}",
    ),
    "history.running": ("进行中", "in progress"),
    "history.draw": ("流局", "draw"),
    "history.won_by": ("{name} 胡", "{name} won"),
    "history.hand_line": ("第 {hand} 局", "Hand {hand}"),
    "history.more_hands": ("…另有 {count} 局", "… {count} more"),
    "history.earlier_hands": (
        "更早的 {count} 局没有列出（{/replay} 可以按局数打开任何一局）",
        "{count} earlier hands not listed ({/replay} opens any hand by its number)",
    ),
    "history.you": ("你", "you"),
    "history.total": ("合计 {points}", "total {points}"),
    "review.not_yours": (
        "这些按钮属于别人的查看窗口，请自己使用 {/history} 或 {/replay}。",
        "These buttons belong to someone else's view; use {/history} or {/replay} yourself.",
    ),
    "replay.no_game": ("没有找到牌局 {game}。", "No game {game}."),
    "replay.ambiguous": (
        "{game} 对应多个牌局，请多输入几位。",
        "{game} matches several games; type more of its id.",
    ),
    "replay.no_hand": ("这个牌局没有第 {hand} 局。", "That game has no hand {hand}."),
    "replay.not_over": (
        "第 {hand} 局还没结束，结束后才能回放。",
        "Hand {hand} is still being played; it can be replayed once it ends.",
    ),
    "replay.caption": (
        "牌局 {game} 第 {hand} 局 · 第 {step}/{steps} 步",
        "Game {game} hand {hand} · step {step}/{steps}",
    ),
    "replay.voided": (
        "（这一局已作废，不计分）",
        "(this hand was voided: it counts for nothing)",
    ),
    "replay.exported": (
        "牌局 {game} 第 {hand} 局的动画，共 {frames} 帧。",
        "Game {game} hand {hand} as an animation, {frames} frames.",
    ),
    "replay.too_big": (
        "动画超过 Discord 的上传上限，请用命令行 mahjong-bot replay 导出。",
        "The animation is over Discord's upload limit; export it with mahjong-bot replay.",
    ),
    "button.replay": ("回放", "Replay"),
    "button.export": ("导出动画", "Export"),
    "button.rematch": ("再来一场", "Rematch"),
    "rematch.not_player": (
        "只有这场的玩家可以发起或确认再来一场。",
        "Only this match's players can ask for or confirm a rematch.",
    ),
    # The lobby's line, then the message that pings the held players, with the button.
    "rematch.opened": (
        "{name} 发起再来一场：同样的玩家、规则和底注，等其他玩家在 {seconds} 秒内确认。",
        "{name} asked for a rematch: same players, rules and stake; the others have "
        "{seconds} s to confirm.",
    ),
    "rematch.call": (
        "{name} 发起再来一场：同样的玩家、规则和底注。请在 {seconds} 秒内点下面的「再来一场」确认。",
        "{name} asked for a rematch: same players, rules and stake. Press “Rematch” below "
        "within {seconds} s to confirm.",
    ),
    "rematch.confirmed": ("已确认再来一场。", "Rematch confirmed."),
    "rematch.started": (
        "大家都确认了，再来一场已开始。",
        "Everyone confirmed: the rematch has started.",
    ),
    "rematch.asked": (
        "已发起再来一场，等其他玩家在 {seconds} 秒内确认。",
        "Rematch asked for: the others have {seconds} s to confirm.",
    ),
    "rematch.already": ("你已经确认过了。", "You have already confirmed."),
    "rematch.gone": (
        "再来一场已经开始，或已经取消。",
        "This match's rematch has already started or was cancelled.",
    ),
    "rematch.timeout": (
        "再来一场无人确认，空出的座位向所有人开放。",
        "Not everyone confirmed the rematch in time; the free seats are open to everyone.",
    ),
    "rematch.held": (
        "座位正留给上一场的玩家确认再来一场。",
        "These seats are held for the last match's players to confirm a rematch.",
    ),
    "admin.settings": ("当前设置：\n{settings}", "Current settings:\n{settings}"),
    "admin.updated": ("已更新：{changes}", "Updated: {changes}"),
    "admin.set_and_clear": (
        "同一条命令不能既设置又清除「{setting}」，设置没有改动。",
        "One command cannot both set and clear “{setting}”; nothing was changed.",
    ),
    "admin.out_of_range": (
        "{setting}必须在 {low} 到 {high}{unit}之间，收到 {value}{unit}",
        "{setting} must be between {low} and {high}{unit}; got {value}{unit}",
    ),
    "admin.min_above_start": (
        "入座最低积分（{minimum}）不能高于初始积分（{starting}），否则新玩家都无法入座。设置没有改动。",
        "The minimum balance to sit ({minimum}) cannot be above the starting balance "
        "({starting}): no new player could sit down. Nothing was changed.",
    ),
    "admin.adjusted": (
        "已调整 {name} 的余额 {delta:+,d}，现在是 {balance:,}。",
        "Adjusted {name}'s balance by {delta:+,d}; it is now {balance:,}.",
    ),
    "button.join": ("加入", "Join"),
    "button.leave": ("离开", "Leave"),
    "button.leave_anyway": ("确认离开", "Leave anyway"),
    "button.end_now": ("现在结束（罚分）", "End now (penalty)"),
    "button.end_after_hand": ("打完这一局再结束", "End after this hand"),
    "button.start": ("开始", "Start"),
    "button.add_ai": ("加电脑", "Add AI"),
    "button.remove_ai": ("减电脑", "Remove AI"),
    "button.my_hand": ("我的手牌", "My hand"),
    "button.more_rules": ("更多规则", "More rules"),
    "button.back": ("取消托管", "I'm back"),
    "button.pass": ("过", "Pass"),
    "button.pung": ("碰", "Pung"),
    "button.kong": ("杠", "Kong"),
    "button.win": ("胡", "Win"),
    "button.chow": ("吃", "Chow"),
    "button.continue": ("跟", "Continue"),
    "button.fold": ("不跟", "Fold"),
    "session.not_seated": ("你不在这张桌上", "You are not seated at this table"),
    "session.not_your_turn": (
        "现在不是你的回合，在等其他玩家",
        "It is not your turn: the others are deciding",
    ),
    "session.timed_out": (
        "超时，已替你{move}（再超时 {left} 次将转为电脑托管）",
        "Time ran out, so the bot {move} for you ({left} more in a row and the computer "
        "plays for you)",
    ),
    "session.not_your_turn_whose": ("现在轮到 {name} 出牌", "It is {name}'s turn to play"),
    "session.not_running": ("牌局没有在进行", "No match is running at this table"),
    "session.not_lobby": ("牌局已经开始或已结束", "The table is no longer taking players"),
    "session.host_only": ("只有房主可以这样做", "Only the host can do that"),
    "session.table_full": ("座位已满", "The table is full"),
    "session.already_seated": ("你已经在这张桌上", "You are already at this table"),
    "session.seated_elsewhere": ("你已经在另一张桌上", "You are already seated at another table"),
    "session.seated_at": (
        "你已经在另一张桌上：{thread}",
        "You are already seated at another table: {thread}",
    ),
    "session.channel_busy": ("这个频道已经有一张桌了", "This channel already has an open table"),
    "table.busy_thread": (
        "这个子区已经有一张桌了：请回到频道里用 {/table create} 开新桌（每桌一个子区）。",
        "This thread already has a table: use {/table create} in the channel itself to open "
        "another (each table gets a thread of its own).",
    ),
    "table.busy_channel": (
        "这个频道已经有一张桌了：请换个频道开桌。",
        "This channel already has an open table: open yours in another channel.",
    ),
    "table.busy_no_threads": (
        "这个频道已经有一张桌了。请换个频道开桌；或者让管理员给机器人这些权限：{missing}，"
        "之后每桌都在自己的子区里，一个频道可以开多桌。",
        "This channel already has an open table. Open yours in another channel, or ask an "
        "admin to give the bot {missing}: each table then gets its own thread, and one "
        "channel holds several.",
    ),
    "session.closed": ("这张桌已关闭", "This table is closed"),
    "session.settling": (
        "上一局正在结算，请稍候",
        "The last hand is still being settled; please wait a moment",
    ),
    "session.failed": (
        "出错了，操作没有生效，请重试",
        "Something went wrong and the move was not made; try again",
    ),
    "session.not_held": (
        "你手里没有{tile_zh}（{kind}）",
        "You do not hold {tile_en} ({kind})",
    ),
    "session.illegal": ("现在不能这样做：{move_zh}", "That move is not legal now: {move_en}"),
    "session.hand": ("第{number}局", "Hand {number}"),
    "session.round_hand": ("{wind_zh}风圈 第{number}局", "{wind_en} round, hand {number}"),
    "session.stake_above_max": (
        "本服务器的底注最高 {most}（你选了 {stake}）",
        "This server's highest stake is {most} (you chose {stake})",
    ),
    "session.balance_low": (
        "你的余额 {balance} 低于本服务器入座所需的 {minimum}",
        "Your balance, {balance}, is below this server's minimum to sit, {minimum}",
    ),
    "session.unknown_ai_level": (
        "未知的电脑难度 {level}",
        "Unknown AI level {level!r} ({levels})",
    ),
    "admin.no_tables": ("本服务器现在没有开着的牌桌。", "No table is open on this server."),
    "admin.tables": ("开着的牌桌：{count}", "Open tables: {count}"),
    "admin.tables_page": (
        "开着的牌桌：{first}–{last} / {count}",
        "Open tables: {first}–{last} of {count}",
    ),
    "admin.table_lobby": (
        "大厅 {seated}/{seats} 人，房主 {name}",
        "lobby, {seated} of {seats} seated, host {name}",
    ),
    "admin.table_turn": ("轮到 {name}", "{name} to act"),
    "admin.table_autoplay": ("托管", "autoplay"),
    "admin.end_no_table": (
        "本服务器没有开着的牌桌“{typed}”（编号见 {/mjadmin tables}）",
        "No open table “{typed}” on this server ({/mjadmin tables} lists their ids)",
    ),
    "admin.end_confirm": (
        "结束这张牌桌？\n{table}\n不罚任何人的分；正在打的这一局不结算（之前打完的各局照常结算）。"
        "牌桌频道会看到是你结束的。不结束就不用管这条消息。",
        "End this table?\n{table}\nNobody pays a penalty; the hand in play is not paid "
        "(the hands finished before it stay settled). The table's channel is told you ended "
        "it. To leave it running, just ignore this message.",
    ),
    "admin.end_confirm_lobby": (
        "关闭这个大厅？\n{table}\n还没开局，不涉及积分。牌桌频道会看到是你关闭的。"
        "不关闭就不用管这条消息。",
        "Close this lobby?\n{table}\nNo hand has started, so no points move. The table's "
        "channel is told you closed it. To leave it open, just ignore this message.",
    ),
    "admin.ended": ("已结束牌桌 `{table}`。", "Table `{table}` has been ended."),
    "admin.confirm_not_yours": (
        "这个确认按钮属于另一位管理员的命令。",
        "This confirmation belongs to another manager's command.",
    ),
    "admin.confirm_stale": (
        "这个确认已过期，请重新使用命令。",
        "This confirmation has expired; run the command again.",
    ),
    "admin.void_not_settled": (
        "牌局 {game} 的第 {hand} 局没有结算过（没打完，或没有这一局）：没有可作废的积分。",
        "Hand {hand} of game {game} was never settled (unfinished, or no such hand): there "
        "are no points to void.",
    ),
    "admin.void_already": (
        "牌局 {game} 的第 {hand} 局已经作废过了（{name}，<t:{at}:f>）：“{typed}”",
        "Hand {hand} of game {game} was already voided ({name}, <t:{at}:f>): “{typed}”",
    ),
    "admin.void_confirm": (
        "作废牌局 `{game}` 的第 {hand} 局？每位玩家这一局入账的积分（封顶后的数额）将原数退回：",
        "Void hand {hand} of game `{game}`? Each player's points from it, as they were "
        "credited (after any cap), are reversed:",
    ),
    "admin.void_player": (
        "{name}：{reverse}（这一局入账 {paid}{capped}）",
        "{name}: {reverse} (credited {paid}{capped})",
    ),
    "admin.void_capped": ("，封顶前 {points}", ", {points} before the cap"),
    "admin.void_reason": (
        "原因（记入账本）：“{typed}”。这一局不再计入排行榜、统计和每日封顶。不作废就不用管这条消息。",
        "Reason (kept in the ledger): “{typed}”. The hand then counts on no leaderboard, in "
        "no statistics and toward no day cap. To keep it, just ignore this message.",
    ),
    "admin.void_no_players": (
        "这一局没有真人玩家的积分，没有可退回的。",
        "No player's points moved in that hand: there is nothing to reverse.",
    ),
    "admin.void_running": (
        "牌局 `{game}` 还在进行：它的总分还算着每一局。等它打完，或先用 {/mjadmin end} 结束它，再作废。",
        "Match `{game}` is still being played and its totals count every hand: void its "
        "hands once it has ended (or end it first with {/mjadmin end}).",
    ),
    "admin.voided_public": (
        "管理员 {name} 作废了牌局 `{game}` 的第 {hand} 局，积分退回：{changes}",
        "{name} voided hand {hand} of match `{game}`; its points went back: {changes}",
    ),
    "admin.voided": (
        "已作废牌局 `{game}` 的第 {hand} 局：{changes}",
        "Hand {hand} of game `{game}` is void: {changes}",
    ),
    "admin.ledger_void": ("作废的对局", "voided hands"),
    "admin.ledger_void_line": ("作废第 {hand} 局，{name} 操作", "hand {hand} voided by {name}"),
    "balance.void": ("作废一局，{name} 操作", "a hand voided by {name}"),
    "history.voided": ("已作废", "voided"),
    "button.admin_void": ("作废这一局", "Void the hand"),
    "button.admin_end": ("结束牌桌", "End the table"),
    "admin.ledger_title": (
        "账本 · {what} · 第 {page}/{pages} 页，共 {count} 条",
        "Ledger · {what} · page {page} of {pages}, {count} rows",
    ),
    "admin.ledger_empty": (
        "账本里没有这样的记录（{what}）。",
        "No ledger rows of that kind ({what}).",
    ),
    "admin.ledger_audit": ("管理员调整、作废和罚分", "adjustments, voids and penalties"),
    "admin.ledger_adjustment": ("管理员调整", "adjustments"),
    "admin.ledger_penalty": ("罚分", "penalties"),
    "admin.ledger_hand": ("对局", "hands"),
    "admin.ledger_opening": ("开户", "opening balances"),
    "admin.ledger_adjusted": ("调整，{name} 操作", "adjustment by {name}"),
    "admin.ledger_self": ("调整，{name} ⚠ 自己给自己", "adjustment by {name} ⚠ self"),
    "admin.ledger_hand_line": ("第 {hand} 局", "hand {hand}"),
    "admin.ledger_cut": (
        "-# 太长的原因在这里截短了；{/mjadmin export} 导出的文件里是全文。",
        "-# Long reasons are cut short here; {/mjadmin export} has them in full.",
    ),
    "admin.exported": (
        "已导出：{users} 个余额、{rows} 条账本记录（CSV，UTF-8，Excel 可直接打开）。",
        "Exported: {users} balances and {rows} ledger rows (CSV, UTF-8; Excel opens them).",
    ),
    "admin.exported_zip": (
        "文件超过 Discord 的上传上限（{limit} MB），已压缩为一个 zip。",
        "Over Discord's upload limit ({limit} MB), so they come as one zip.",
    ),
    "admin.exported_parts": (
        "文件超过 Discord 的上传上限（{limit} MB），账本分成 {parts} 个 zip，共 {messages} 条消息。",
        "Over Discord's upload limit ({limit} MB): the ledger comes in {parts} zip parts "
        "over {messages} messages.",
    ),
    "admin.export_too_big": (
        "账本太大，Discord 发不下（{rows} 条记录）。请托管机器人的人运行 "
        "mahjong-bot db export --guild {guild} --out 目录。",
        "The ledger is too big to send through Discord ({rows} rows). Ask whoever hosts the "
        "bot to run mahjong-bot db export --guild {guild} --out DIR.",
    ),
    "session.no_ai": ("桌上没有电脑玩家", "There is no AI player to remove"),
    "session.removed": ("房主请 {name} 离开了牌桌", "The host removed {name} from the table"),
    "session.removed_here": (
        "房主已请你离开这一桌，不能再加入",
        "The host removed you from this table; you cannot join it again",
    ),
    "session.remove_self": ("要离开请用 {/table leave}", "To leave, use {/table leave}"),
    "session.not_at_table": ("这位玩家不在这一桌", "That player is not at this table"),
    "session.missing_players": (
        "还差 {missing} 人，且本桌不用电脑补位",
        "{missing} more player(s) needed and AI fill is off",
    ),
    "session.end_not_allowed": (
        "只有房主（{name}）或服务器管理员可以结束牌局",
        "Only the host ({name}) or a server manager can end the table",
    ),
    "session.unattended": (
        "{minutes} 分钟（或 {hands} 局）没有人自己出牌，牌桌已关闭；本局不结算，之前的各局照常结算",
        "Nobody has played a move of their own for {minutes} minutes (or {hands} hands), so "
        "the table is closed; the hand in progress is not settled, the hands before it are",
    ),
    "session.unattended_soon": (
        "很久没有人自己出牌了：{minutes} 分钟（或 {hands} 局）内仍没人出牌、点「取消托管」或改快捷设置，牌桌将关闭",
        "Nobody has played a move of their own for a while: unless someone plays, presses "
        "“I'm back” or changes a shortcut within {minutes} minutes (or {hands} hands), the table "
        "closes",
    ),
    "session.ended_unsettled": (
        "牌局已被结束，本局不结算",
        "The table was ended; the current hand is not settled",
    ),
    "session.ended_penalty": (
        "{name} 结束了牌局，罚 {points} 积分；这一局不结算",
        "{name} ended the table and paid a {points}-point penalty; this hand is not settled",
    ),
    "session.end_after_hand": (
        "{name}：这一局结算后牌局结束",
        "{name}: the match ends once this hand is settled",
    ),
    "session.ended_after_hand": (
        "牌局应 {name} 的要求在这一局后结束",
        "The match ended after this hand, as {name} asked",
    ),
    "session.lobby_closed": ("牌桌已关闭", "The table was closed"),
    "session.manager_ended": (
        "管理员 {name} 结束了牌局；这一局不结算，之前的各局照常结算",
        "{name}, a server manager, ended the table; the hand in play is not settled, the "
        "hands before it are",
    ),
    "session.manager_closed_lobby": (
        "管理员 {name} 关闭了牌桌",
        "{name}, a server manager, closed the table",
    ),
    "session.manager_seated": (
        "你坐在这一桌，这一局正在打：请在牌桌里用 {/table end}（坐着的玩家现在结束要罚分，或打完这一局再结束）",
        "You sit at this table and a hand is in play: use {/table end} there (a seated player "
        "ending now pays the walk-out penalty, or ends after the hand for free)",
    ),
    "session.hands_closed": (
        "牌桌已结束：打完的局已经结算，没打完的这一局不结算。",
        "The table is over: finished hands are settled, the one in progress is not.",
    ),
    "session.hand_left": (
        "你已离开这场牌局（罚 {points} 积分），电脑接替了你的座位。",
        "You left this match (a penalty of {points} points); an AI took your seat.",
    ),
    "session.unreadable_action": ("无法理解的操作：{error}", "Cannot read that action: {error}"),
    "session.not_on_autoplay": ("你没有在托管中", "You are not on autoplay"),
    "session.autoplay_on": ("{name} 进入托管", "{name} is now on autoplay"),
    "session.autoplay_off": ("{name} 回来了", "{name} is back"),
    "session.left_penalty": (
        "{name} 离开了牌局，罚 {points} 积分，由电脑接替",
        "{name} left the match, paid a {points}-point penalty; an AI takes the seat",
    ),
    "session.settle_retrying": (
        "本局结算暂时失败，正在重试，不会漏记",
        "Settling this hand failed for now; it is being retried and will not be lost",
    ),
    "session.lobby_idle": (
        "大厅闲置 10 分钟，已关闭",
        "The lobby was idle for 10 minutes and closed",
    ),
    "session.restarted": ("机器人重启，牌局继续", "The bot restarted; the match continues"),
    # A table in its own thread (bot.discord_threads).
    "thread.starter": (
        "🀄 {host} 开了一桌：{variant}，{seats} 人，底注 {stake}。进子区加入、观战。",
        "🀄 {host} opened a table: {variant}, {seats} seats, stake {stake}. "
        "Join or watch in the thread.",
    ),
    "thread.name": ("{variant} · {host} 的牌桌", "{variant} · {host}'s table"),
    "thread.created": ("牌桌在 {thread}。", "The table is in {thread}."),
    "thread.standings": (
        "{thread} 整场结束。总积分（底注 {stake}）：{changes}",
        "{thread} is over. Points in all (stake {stake}): {changes}",
    ),
    "table.several_here": (
        "这个频道有 {count} 张牌桌：{threads}。请在牌桌的子区里使用这个命令。",
        "This channel has {count} tables: {threads}. Use the command inside the table's thread.",
    ),
}


# Values quoted as written (a player's name, what a user typed), never converted to
# Traditional characters for zh-TW readers.
QUOTED_VALUES = frozenset({"name", "host", "typed"})


def msg(key: str, **values: object) -> Text:
    """The message ``key`` in both languages, with ``values`` filled in."""
    zh, en = MESSAGES[key]
    if COMMAND_FIELD.search(zh) or COMMAND_FIELD.search(en):
        zh, en = fill_commands(zh, "zh"), fill_commands(en, "en")
    keep = tuple(str(values[name]) for name in sorted(QUOTED_VALUES & values.keys()))
    return Text(zh.format(**values), en.format(**values), keep)


def msg_each(key: str, zh: Mapping[str, object], en: Mapping[str, object]) -> Text:
    """The message ``key`` with values that differ by language (a rule set's or a
    permission's name in Chinese for the Chinese line, in English for the English)."""
    chinese, english = msg(key, **zh), msg(key, **en)
    return Text(chinese.zh, english.en, tuple(dict.fromkeys(chinese.keep + english.keep)))
