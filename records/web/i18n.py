"""A small dict-based gettext: simplified Chinese first, English on request.

Message ids are the English text, so an untranslated id still reads; the test
suite checks that every message id passed to `_` by a template or by this
package has a Chinese entry. The language comes from `?lang=`, then the `lang` cookie, then
Chinese. Flask-Babel would need compiled catalogues for two languages and a
few dozen strings; this does not.
"""
from __future__ import annotations

from flask import Flask, Response, g, request, url_for

LANGUAGES = ("zh", "en")
DEFAULT_LANGUAGE = "zh"
COOKIE = "lang"
HTML_LANG = {"zh": "zh-CN", "en": "en"}

ZH: dict[str, str] = {
    # layout
    "Zhuoji hand audit": "捉鸡麻将牌局审计",
    "Upload": "上传",
    "Records": "牌局记录",
    "API": "接口",
    "Language": "语言",
    "中文": "中文",
    "English": "English",
    "Skip to content": "跳到正文",
    # verdicts and statuses
    "invalid": "无效",
    "illegal": "违规",
    "missettled": "结算有误",
    "clean": "无误",
    "all": "全部",
    "created": "已保存",
    "revision": "新版本",
    "duplicate": "已存在",
    "rejected": "已拒收",
    "skipped": "已跳过",
    "failed": "失败",
    "schema": "格式",
    # upload page
    "Upload records": "上传牌局记录",
    "Drop files here, or choose them": "把文件拖到这里，或点击选择",
    "Accepted: .json (a record or a match), .jsonl (one record per line), .zip of those.":
        "可上传：.json（单局或整场）、.jsonl（每行一局）以及装有这些文件的 .zip。",
    "Limit per request: %(size)s.": "每次请求上限：%(size)s。",
    "Files": "文件",
    "Uploader": "上传者",
    "Send": "上传",
    "Results": "结果",
    "Uploading…": "正在上传…",
    "Upload failed": "上传失败",
    "Network error": "网络错误",
    "Stored %(stored)s of %(hands)s hands; %(rejected)s rejected, %(skipped)s skipped.":
        "共 %(hands)s 局，保存 %(stored)s 局；拒收 %(rejected)s，跳过 %(skipped)s。",
    "No file was chosen.": "没有选择文件。",
    "Source": "来源",
    "Status": "状态",
    "Errors": "错误",
    # list page
    "Filters": "筛选",
    "Verdict": "结论",
    "Profile": "规则",
    "Rule section": "规则条款",
    "Platform": "平台",
    "Client": "客户端",
    "Player": "玩家",
    "Played from": "开始日期",
    "Played to": "结束日期",
    "Game id": "牌局编号",
    "Revisions": "版本",
    "current only": "仅最新",
    "all revisions": "全部版本",
    "Sort": "排序",
    "Order": "顺序",
    "newest first": "降序",
    "oldest first": "升序",
    "upload order": "上传顺序",
    "played at": "对局时间",
    "Apply": "筛选",
    "Reset": "重置",
    "Played at": "对局时间",
    "Players": "玩家",
    "Findings": "问题",
    "Uploaded": "上传时间",
    "No record matches these filters.": "没有符合条件的记录。",
    "%(total)s records": "共 %(total)s 条",
    "Page %(page)s of %(pages)s": "第 %(page)s / %(pages)s 页",
    "Previous": "上一页",
    "Next": "下一页",
    "Per page": "每页",
    # report
    "Record %(id)s": "记录 %(id)s",
    "Game": "牌局",
    "Dealer": "庄家",
    "Dealer streak": "连庄",
    "Base": "底分",
    "Seat": "座位",
    "Name": "名字",
    "Player id": "玩家编号",
    "Raw record": "原始记录",
    "Download the bytes as received": "下载原始字节",
    "No findings.": "没有发现问题。",
    "Step": "步",
    "Rule": "条款",
    "Kind": "类别",
    "Message": "说明",
    "Expected": "应为",
    "Actual": "实际",
    "Settlement": "结算",
    "No settlement: the replay did not reach the end of the hand.":
        "没有结算：回放未能合法走到本局结束。",
    "Scores": "得分",
    "Next dealer": "下局庄家",
    "Next dealer streak": "下局连庄",
    "Flip": "翻牌",
    "none": "无",
    "From": "付",
    "To": "收",
    "Amount": "分数",
    "Note": "备注",
    "hand": "胡牌",
    "dealer": "庄家",
    "dou": "豆",
    "chicken": "鸡",
    "hot_shot": "热炮",
    "draw_settle": "查叫",
    "current": "最新",
    "Audits": "审计记录",
    "Engine": "引擎",
    "Options": "选项",
    "Created": "时间",
    "latest": "最新",
    "Audit again": "重新审计",
    "as recorded": "按记录中的规则",
    "Options (JSON)": "选项（JSON）",
    "Re-audit": "重新审计",
    "Received": "收到记录",
    "Uploads": "上传记录",
    "Outcome": "结果",
    "Match hand %(index)s": "整场第 %(index)s 局",
    "seat %(seat)s": "%(seat)s 号位",
    # errors
    "Error %(code)s": "错误 %(code)s",
    "Back to the records": "返回牌局记录",
    "Details": "详情",
}
"""Chinese for every message id; English is the id itself."""


def current_language() -> str:
    """The request's language: ?lang=, then the cookie, then Chinese."""
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def gettext(message: str, **params: object) -> str:
    """Translate a message id into the request's language and fill in %(name)s parameters."""
    language = g.get("lang", DEFAULT_LANGUAGE)
    text = ZH.get(message, message) if language == "zh" else message
    return text % params if params else text


def lang_url(language: str) -> str:
    """The current page in another language (keeps the other query parameters)."""
    endpoint = request.endpoint or "pages.records"
    values = {**request.args.to_dict(), **(request.view_args or {}), "lang": language}
    return url_for(endpoint, **values)


def remember_language(response: Response) -> Response:
    """Keep an explicit ?lang= choice in a cookie for later pages."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen:
        response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    """Choose the language per request and expose `_` and helpers to templates."""

    @app.before_request
    def choose_language() -> None:
        g.lang = current_language()

    app.after_request(remember_language)
    app.jinja_env.globals.update(_=gettext, lang_url=lang_url, html_lang=lambda: HTML_LANG[g.get("lang", "zh")],
                                 current_language=lambda: g.get("lang", DEFAULT_LANGUAGE))
