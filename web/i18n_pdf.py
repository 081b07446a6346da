"""Chinese of the words only the record's PDF uses (templates/pdf/); `web.i18n` merges them
into its catalogue. Kept apart so the PDF's words and the pages' do not edit the same lines."""
from __future__ import annotations

PDF_ZH: dict[str, str] = {
    "Audit report": "审计报告",
    "Engine version": "审计引擎版本",
    "Audit": "审计",
    "no. %(id)s": "第 %(id)s 号",
    "Exported at": "导出时间",
    "Time zone": "时区",
    "%(zone)s, every time in this document": "%(zone)s（本文件中所有时间）",
    "Record sha256": "记录哈希 SHA-256",
    "Decision: %(decision)s": "处理结论：%(decision)s",
    "Dispute summary": "争议摘要",
    "By the rules (audit)": "按规则（审计）",
    "In the record": "记录上报",
    "Difference (%(direction)s)": "差额（%(direction)s）",
    "The record gives no itemised ledger, so only its totals are compared.": "记录没有逐项明细，只比较各家合计。",
    "step %(step)s": "第 %(step)s 步",
    "Step %(step)s": "第 %(step)s 步",
    "see the ledger": "见结算明细",
    "Step %(step)s: %(event)s": "第 %(step)s 步：%(event)s",
    "The table as the hand ended (step %(step)s: %(event)s)": "终局牌桌（第 %(step)s 步：%(event)s）",
    "The whole hand": "全局回放",
    "Every event in order: the step, the event and the tiles left in the wall. The whole table is drawn after the deal, claims, kongs, declarations, wins, pass locks, hot shots, robbed kongs, late kongs, responsibility chickens, findings and the last step, beside the events that led to it.":
        "按顺序列出每个事件：步数、事件、牌墙余牌。发牌、碰、杠、报听、胡牌、过胡、热炮、抢杠、憨包豆、责任鸡、"
        "有问题的步骤和最后一步另画整桌，画在引出它的事件旁边。",
}
"""Chinese for the PDF's message ids (English is the id itself)."""
