"""The words of case work (issue 23): the refusals of `records.cases` and of the case forms by
their stable code, and the Chinese of the case pages' own message ids (merged into
`web.i18n.ZH`, as `web.i18n_pdf` is). Kept apart so the case pages' words live in one file."""
from __future__ import annotations

from audit.vocabulary import Lang

CASE_ERRORS: dict[str, str] = {
    "case_number_taken": "number: case %(number)s already exists on platform %(platform)s",
    "case_number_unknown": "number: no case of platform %(platform)s has the number %(number)s",
    "case_complaint_missing": "complaint: a case needs the complaint's text",
    "case_missing": "case: case %(case)s does not exist",
    "case_closed": "case: case %(number)s is closed; reopen it first",
    "case_record_missing": "record: record %(record)s does not exist",
    "case_revision_missing": "revision: game %(game)s has no revision %(revision)s",
    "case_other_platform": "record: record %(record)s is of platform %(platform)s, the case of %(case_platform)s",
    "case_outcome_unknown": "outcome: unknown outcome %(outcome)s",
    "case_note_missing": "note: a decision needs a note saying why",
    "case_payment_to_self": "payment %(index)s: the payer and the payee are the same (%(seat)s)",
    "case_payment_incomplete": "payment %(index)s: a row needs the payer, the payee and the amount",
    "case_payment_seat_unknown": "payment %(index)s: %(seat)s is not a seat of this case's records",
    "case_audit_not_attached": "audit: audit %(audit)s is not an audit of a record attached to this case",
    "case_not_decided": "case: case %(number)s has no decision yet; decide it before closing",
    "case_not_closed": "case: case %(number)s is not closed",
}
"""Every refusal of case work by code (records.cases.CaseError.code and web.cases), in English;
the Chinese is in CASES_ZH under the same text."""

CASES_ZH: dict[str, str] = {
    CASE_ERRORS["case_number_taken"]: "案件编号：平台 %(platform)s 已有编号为 %(number)s 的案件",
    CASE_ERRORS["case_number_unknown"]: "案件编号：平台 %(platform)s 没有编号为 %(number)s 的案件",
    CASE_ERRORS["case_complaint_missing"]: "投诉内容：立案需要填写投诉内容",
    CASE_ERRORS["case_missing"]: "案件：案件 %(case)s 不存在",
    CASE_ERRORS["case_closed"]: "案件：案件 %(number)s 已结案，请先重新打开",
    CASE_ERRORS["case_record_missing"]: "记录：记录 %(record)s 不存在",
    CASE_ERRORS["case_revision_missing"]: "版本：牌局 %(game)s 没有第 %(revision)s 版",
    CASE_ERRORS["case_other_platform"]: "记录：记录 %(record)s 属于平台 %(platform)s，案件属于平台 %(case_platform)s",
    CASE_ERRORS["case_outcome_unknown"]: "处理结果：没有“%(outcome)s”这种结果",
    CASE_ERRORS["case_note_missing"]: "说明：决定需要写明理由",
    CASE_ERRORS["case_payment_to_self"]: "第 %(index)s 笔付款：付款方与收款方相同（%(seat)s）",
    CASE_ERRORS["case_payment_incomplete"]: "第 %(index)s 笔付款：需要付款方、收款方和金额",
    CASE_ERRORS["case_payment_seat_unknown"]: "第 %(index)s 笔付款：%(seat)s 不是本案件记录中的座位",
    CASE_ERRORS["case_audit_not_attached"]: "审计：审计 #%(audit)s 不是本案件所附记录的审计",
    CASE_ERRORS["case_not_decided"]: "案件：案件 %(number)s 尚无决定，请先作出决定再结案",
    CASE_ERRORS["case_not_closed"]: "案件：案件 %(number)s 尚未结案",
    # the record page's case bar, the case page and the upload results
    "Case number (editable)": "案件编号（可修改）",
    "Attach the other revisions of this game too": "同时附上本局的其他版本",
    "Record #%(id)s": "记录 #%(id)s",
    "Attach r%(revision)s (#%(id)s)": "附上 r%(revision)s（#%(id)s）",
    "Other revisions of these games": "这些牌局的其他版本",
    "disputed": "争议记录",
    "The form starts from audit #%(id)s (the disputed record's).": "下面的表单依据审计 #%(id)s（争议记录的审计）填写。",
    "The form starts from audit #%(id)s.": "下面的表单依据审计 #%(id)s 填写。",
    "Start from this audit": "依据此审计填写",
    "Filled in from the ledger differences of the audit: who owes whom how much.":
        "已按审计与记录的逐笔差额填好：谁付给谁多少。",
    "Filled in from the seats' differences of the audit (the record lists no payments).":
        "已按审计与记录的各家得分差额填好（记录没有逐笔结算）。",
    "The audit finds an illegal move: the rows undo the record's payments. Decide before keeping them.":
        "审计发现违规行牌：以下各行是撤销记录付款的做法，请先判断是否采用。",
    "The audit and the record agree: no payment is due.": "审计与记录一致：无需付款。",
    "%(amount)s points cannot be balanced between the seats (the record's scores do not sum to zero).":
        "有 %(amount)s 分无法在各家之间抵平（记录的得分总和不为零）。",
    "More rows": "增加行",
    "blank: the next number": "留空则自动编号",
    "current; every revision of what a search finds": "最新版本；搜索时列出全部版本",
    "Decided on audit #%(id)s: %(headline)s": "依据审计 #%(id)s 裁定：%(headline)s",
    "No payment": "无付款",
}
"""Chinese for every message id of this file (errors and case pages)."""


def case_error(code: str, lang: Lang | str, **params: object) -> str:
    """A refusal's message in `lang`, its parameters filled in."""
    english = CASE_ERRORS[code]
    text = CASES_ZH[english] if Lang(lang) is Lang.ZH else english
    return text % params


__all__ = ["CASES_ZH", "CASE_ERRORS", "case_error"]
