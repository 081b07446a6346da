"""Chinese of the words only the table view (templates/report/table.html, web/table_html.py) and
the match page (templates/match.html) use; `web.i18n` merges them into its catalogue. Kept apart so
that these pages' words and the others' do not edit the same lines."""
from __future__ import annotations

TABLE_ZH: dict[str, str] = {
    # the table view
    "The table": "牌桌",
    "Seen from": "视角",
    "Score before this hand": "本局前得分",
    "By the rules after this hand": "按规则本局后得分",
    "Timeline": "时间轴",
    "The win": "胡牌",
    "Exhaustive draw (荒庄)": "荒庄（流局）",
    "wins on": "胡",
    "won": "胡牌",
    "drawn": "刚摸的牌",
    "ponged by %(seat)s": "被 %(seat)s 碰走",
    "konged by %(seat)s": "被 %(seat)s 杠走",
    "won on by %(seat)s": "%(seat)s 胡此牌",
    "Hand": "手牌",
    "Discards": "牌河",
    # the match page
    "The whole match": "整场对局",
    "Match": "整场对局",
    "Hands": "局数",
    "Hands without a settlement": "无结算的局",
    "counted as 0 in the totals by the rules": "按规则合计时记为 0",
    "Totals over the match": "整场合计",
    "Difference: claimed minus the rules (record − audit), as on every record's page.":
        "差额＝记录声称 − 按规则（记录 − 审计），与每局记录页相同。",
    "Hands in order": "各局（按顺序）",
    "Continuity": "前后衔接",
    "Same players": "玩家相同",
    "Dealer follows": "庄家衔接",
    "Streak follows": "连庄数衔接",
    "holds": "符合",
    "broken": "不符",
    "not checked": "未检查",
    "streak %(n)s": "连庄 %(n)s",
    "Running total by the rules": "按规则累计",
    "first hand": "第一局",
}
