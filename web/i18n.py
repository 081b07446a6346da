"""A small dict-based gettext: simplified Chinese first, English on request.

Message ids are the English text, so an untranslated id still reads; the test
suite checks that every message id passed to `_` by a template or by this
package has a Chinese entry. The language comes from `?lang=`, then the `lang` cookie, then
Chinese. Flask-Babel would need compiled catalogues for two languages and a
few dozen strings; this does not.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, g, request, url_for

from audit.vocabulary import Lang, seat_label
from web.i18n_cases import CASES_ZH
from web.i18n_pdf import PDF_ZH
from web.i18n_platforms import PLATFORMS_ZH
from web.i18n_table import TABLE_ZH

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
    "Profile": "规则方案",
    "Rule section": "规则条款（如 R8）",
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
    "at least %(total)s records: counting stopped so that the list stays fast": "至少 %(total)s 条：为保证列表速度，计数已停止",
    "count them all": "精确计数",
    "at least": "至少",
    "Page %(page)s of %(pages)s": "第 %(page)s / %(pages)s 页",
    "Page %(page)s of at least %(pages)s": "第 %(page)s 页，至少 %(pages)s 页",
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
    "follow_dealer": "跟庄",
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
    "seat %(seat)s": "%(seat)s号位",
    # step-by-step report, PDF, what-if, overview (web/report.py, overview.py)
    "Report sections": "报告目录",
    "Step by step": "逐步回放",
    "PDF": "PDF",
    "Each row shows the table after its event: every seat's concealed tiles, melds and, smaller, its discards. The acting seat is shaded and the tile of the event outlined.":
        "每一行是该步之后的牌桌：各家手牌、碰杠，以及较小的弃牌。行动的一家有底色，本步涉及的牌加框。",
    "declared ready": "已报听",
    "may not win by discard after passing a win": "过胡后暂不能接炮",
    "Event": "事件",
    "Table after the step": "本步之后的牌桌",
    "Wall": "牌墙",
    "Markers": "标记",
    "deal": "发牌",
    "the deal": "发牌",
    "No steps: the record could not be replayed (see the findings).": "没有回放：这份记录无法回放（见问题）。",
    "The steps below are replayed by the engine installed now, which finds this record %(verdict)s; re-audit to store its opinion.":
        "下面的步骤由当前安装的引擎回放，它判定本局为「%(verdict)s」；重新审计可保存这一结论。",
    "draws": "摸牌",
    "discards": "打出",
    "declares ready": "报听",
    "pongs": "碰",
    "concealed kong": "闷豆（暗杠）",
    "added kong": "转弯豆（补杠）",
    "exposed kong": "点豆（明杠）",
    "kong": "杠",
    "wins by self-draw": "自摸",
    "wins on the discard": "接炮胡",
    "robs the kong": "抢杠胡",
    "wins": "胡",
    "passes": "过",
    "from": "来自",
    "D": "庄",
    "Rulebook": "规则书",
    "settlement": "结算",
    "Totals per seat": "各家合计",
    "Computed": "审计计算",
    "Claimed": "记录声称",
    "Difference": "差额",
    "Ledger": "明细账",
    "Payer": "付款方",
    "Payee": "收款方",
    "Payment": "款项",
    "Fits the record's totals": "与记录合计相符",
    "The record gives only totals: these payments are the ones that give exactly its totals (R16.16).":
        "记录只有各家合计：上表是使合计恰好成立的款项（R16.16），据此可知记录错在哪一笔。",
    "The record gives no itemised ledger (result.items), so only its totals are compared.":
        "记录没有逐项明细，只比较合计。",
    "No payments.": "没有支付。",
    "Flip and chickens": "翻牌与鸡",
    "Turned tile (computed)": "翻开的牌（审计）",
    "Turned tile (claimed)": "翻开的牌（记录）",
    "not given": "未提供",
    "Chickens": "鸡牌",
    "Value": "分值",
    "Qualifies": "有效",
    "yes": "是",
    "no": "否",
    "No chickens: they are settled only when the hand ends with a win.": "没有鸡：只有本局有人胡牌时才结算鸡。",
    "What if": "假如换规则",
    "Audit this record under another profile or other options and compare with the stored audit. Nothing is stored.":
        "用其他规则或选项重新审计这份记录，并与已保存的审计对比。不会保存任何内容。",
    "Compare": "对比",
    "Claimed by the record": "记录声称",
    "Stored audit": "已保存的审计",
    "What-if audit": "假设审计",
    "Score": "得分",
    "Store this audit as the latest": "把这次审计保存为最新",
    "Overview": "总览",
    "%(total)s records under these filters; %(rate)s not clean.": "符合条件的记录共 %(total)s 条，其中 %(rate)s 有问题。",
    "Show the records": "查看这些记录",
    "Findings by client for": "按客户端统计的条款",
    "Times in %(zone)s": "时间均为 %(zone)s",
    "The chart shows the %(top)s largest groups; the table lists all %(count)s.":
        "图中只画出最大的 %(top)s 组，表格列出全部 %(count)s 组。",
    "Group": "分组",
    "Total": "合计",
    "Rate": "比例",
    "%(rate)s not clean": "%(rate)s 有问题",
    "%(rate)s of records": "占记录 %(rate)s",
    "The chart draws each of the %(count)s days, %(played)s of them with games; the table lists them all.":
        "图中画出全部 %(count)s 天（其中 %(played)s 天有牌局），表格逐日列出。",
    "The chart draws each of the %(count)s months, %(played)s of them with games; the table lists them all.":
        "图中画出全部 %(count)s 个月（其中 %(played)s 个月有牌局），表格逐月列出。",
    "Verdicts by day": "每日结论",
    "Verdicts by month": "每月结论",
    "no date": "无日期",
    "Records with findings, by rule section": "有问题的记录（按规则条款）",
    "Verdicts by platform": "各平台结论",
    "no platform": "无平台",
    "Verdicts by client version": "各客户端版本结论",
    "no client": "无客户端",
    "Records with %(rule)s findings, by client version": "有「%(rule)s」问题的记录（按客户端版本）",
    # errors
    "Error %(code)s": "错误 %(code)s",
    "Back to the records": "返回牌局记录",
    "Details": "详情",
    # accounts, login, notes and the audit trail (web/auth.py, admin.py, trail.py)
    "Accounts": "账号",
    "Account": "账号",
    "All accounts": "全部账号",
    "Log in": "登录",
    "Log out": "退出",
    "Password": "密码",
    "Wrong name or password.": "名字或密码不对。",
    "Uploader accounts use API tokens, not the web pages.": "上传账号只能用接口令牌，不能登录网页。",
    "Role": "角色",
    "Created by": "创建者",
    "disabled": "已停用",
    "active": "有效",
    "New account": "新建账号",
    "Platform (uploaders only)": "平台（仅上传账号）",
    "Password (empty: a random one, shown once)": "密码（留空则随机生成，只显示一次）",
    "Create": "创建",
    "Account %(name)s created.": "已创建账号 %(name)s。",
    "Its password, shown this once:": "密码只显示这一次：",
    "The new password, shown this once:": "新密码只显示这一次：",
    "The new API token, shown this once (send it as Authorization: Bearer):":
        "新的接口令牌只显示这一次（请求时放在 Authorization: Bearer 中）：",
    "Role and platform": "角色和平台",
    "Save": "保存",
    "Enable": "启用",
    "Disable": "停用",
    "New random password": "重设为随机密码",
    "API tokens": "接口令牌",
    "Token": "令牌",
    "Label": "用途",
    "revoked": "已吊销",
    "Revoke": "吊销",
    "No tokens.": "没有令牌。",
    "New token": "新建令牌",
    "admin": "管理员",
    "auditor": "审计员",
    "uploader": "上传账号",
    "Notes": "批注",
    "Case": "案件",
    "Case number": "案件编号",
    "Decision": "处理结论",
    "Add note": "添加批注",
    "No notes yet.": "还没有批注。",
    "Notes are never edited; to correct one, add another.": "批注不能修改；要更正，请再添加一条。",
    "open": "待处理",
    "confirmed": "已确认",
    "dismissed": "已驳回",
    "escalated": "已上报",
    "closed": "已结案",
    "Audit trail": "操作日志",
    "Who uploaded, viewed, re-audited, annotated or exported this record. Showing the newest %(shown)s of %(total)s.":
        "谁上传、查看、重新审计、批注或导出了这条记录。显示最新的 %(shown)s 条，共 %(total)s 条。",
    "Newest first. The trail is append-only; `flask --app app verify` checks its hash chain.":
        "最新的在前。日志只能追加；`flask --app app verify` 会检查它的哈希链。",
    "When": "时间",
    "Who": "操作人",
    "Action": "操作",
    "Record": "记录",
    "upload": "上传",
    "view": "查看",
    "export": "导出",
    "re-audit": "重新审计",
    "audit": "审计",
    "note": "批注",
    "login": "登录",
    "failed login": "登录失败",
    "logout": "退出",
    "account created": "创建账号",
    "account changed": "修改账号",
    "token created": "创建令牌",
    "token revoked": "吊销令牌",
    "first admin": "初始管理员",
    "not audited": "未审计",
    "Too many failed logins. Try again in %(seconds)s seconds.": "登录失败次数过多，请在 %(seconds)s 秒后再试。",
    "Not audited: the engine failed on this record; it is kept and will be audited again by `flask --app app reaudit`.":
        "未审计：审计引擎处理这条记录时出错；记录已保存，可用 `flask --app app reaudit` 重新审计。",
    # conformance (issue 15)
    "Conformance": "一致性检查",
    "A client team answers a kit with its own engine and uploads the answers for a build; the engine checks every case and names the rules the build gets wrong.": "客户端团队用自己的引擎作答测试包，按构建上传作答；审计引擎逐个核对用例，并指出该构建算错的规则。",
    "Kits": "测试包",
    "Kit": "测试包",
    "Test cases": "用例",
    "Client version": "客户端版本",
    "Answers file": "作答文件",
    "Check": "检查",
    "No kit yet: build one into the kits folder with zhuoji-kit build.": "还没有测试包：用 zhuoji-kit build 生成到测试包目录。",
    "Broken kits": "已损坏的测试包",
    "These folders in the kits folder are no kit the service can check answers against; answers to them are refused until the kit is built again.":
        "测试包目录里的这些文件夹不是服务能用来检查作答的测试包；在重新生成之前，针对它们的作答一律拒收。",
    "What is wrong": "问题",
    "Runs": "检查记录",
    "Passed": "通过",
    "Checked at": "检查时间",
    "No run yet.": "还没有检查记录。",
    "Conformance run %(id)s": "一致性检查 #%(id)s",
    "%(passed)s of %(total)s cases pass": "%(total)s 个用例通过 %(passed)s 个",
    "Compared with run %(id)s": "与检查 #%(id)s 对比",
    "Passed before: %(before)s; now: %(now)s.": "此前通过 %(before)s 个，现在通过 %(now)s 个。",
    "Newly failing": "新出现的未通过",
    "Newly passing": "新通过",
    "None.": "无。",
    "Compare with run": "对比检查",
    "Rules the build gets wrong": "该构建算错的规则",
    "Failing cases": "未通过的用例",
    "None: every answered case passes.": "无：所有作答的用例都通过。",
    "Pass rate per rule section": "各规则章节的通过率",
    "Pass rate per payment kind": "各结算项类别的通过率",
    "First difference": "第一处差异",
    "Answers for cases not in the kit": "测试包里没有的用例的作答",
    "Lines that could not be read": "无法读取的行",
    # the fit page (issue 21.4, docs/fit.md)
    "Fit": "拟合规则",
    "Fit a platform's profile": "按平台的牌局拟合规则配置",
    "The service finds the parameter values under which the most of a platform's records are clean, starting from a profile: the evidence for each value, the fitted profile as a profile file, and the records no value explains (the platform's real mistakes). Nothing is stored.":
        "从一个规则配置出发，找出能让平台最多牌局无误的参数取值：给出每个取值的依据、拟合出的规则配置文件，以及任何取值都解释不了的牌局（这些才是平台真正算错的）。不保存任何内容。",
    "Upload record files": "上传牌局文件",
    "Record files": "牌局文件",
    "Stored records of a platform": "某平台已保存的牌局",
    "Newest": "最近",
    "At most %(cap)s records a fit here; python -m fit takes any number.":
        "本页每次最多拟合 %(cap)s 局；python -m fit 不限局数。",
    "Start from profile": "起始规则配置",
    "Name of the fitted profile": "拟合结果的名称",
    "Items that could not be read": "无法读取的内容",
    "The fit": "拟合结果",
    "%(usable)s of %(records)s records fitted: clean under %(base)s %(before)s, under %(name)s %(after)s.":
        "共 %(records)s 局，拟合 %(usable)s 局：按 %(base)s 无误 %(before)s 局，按 %(name)s 无误 %(after)s 局。",
    "Values taken, in order": "依次采用的取值",
    "Parameter": "参数",
    "Fixes": "纠正",
    "Breaks": "弄错",
    "Changes": "改变",
    "Clean after": "之后无误",
    "as good:": "同样好的还有：",
    "decided by:": "依据的牌局：",
    "breaks:": "弄错的牌局：",
    "a pair: neither value gains alone": "成对采用：单独都不行",
    "undoes or replaces a value taken earlier": "撤销或替换先前采用的取值",
    "only together": "几个取值一起才行",
    "fixes part of records wrong for another cause too": "只纠正了牌局的一部分：这些牌局另有错误",
    "No value makes more records clean: the base profile stands.": "没有哪个取值能让更多牌局无误：沿用起始规则配置。",
    "Evidence against the fitted profile": "相对拟合结果的依据",
    "Fixes: records not clean that the value makes clean; breaks: clean records it spoils; changes: records whose settlement or verdict it changes. For a changed parameter, what its fitted value does against the base's value.":
        "纠正：原本有误、换成该取值后无误的牌局；弄错：原本无误、换成该取值后出错的牌局；改变：结算或结论因该取值而变的牌局。改动过的参数，列的是拟合取值相对起始取值的效果。",
    "Fitted": "拟合值",
    "Value taken": "采用的取值",
    "In the base profile": "起始规则配置中的取值",
    "Value tried": "试过的取值",
    "Every value tried": "试过的全部取值",
    "fitted": "拟合值",
    "Records no value explains": "任何取值都解释不了的牌局",
    "Findings under the fitted profile": "按拟合结果审计的问题",
    "Clean alone under": "单独换成这些取值时无误",
    "fixes %(fixes)s, breaks %(breaks)s": "纠正 %(fixes)s，弄错 %(breaks)s",
    "None: every record is clean under the fitted profile.": "无：按拟合结果，所有牌局都无误。",
    "Records that fail the schema": "格式无效的牌局",
    "The fitted profile": "拟合出的规则配置",
    "Put this file in the folder ZHUOJI_PROFILE_DIR names and audit under the profile %(name)s.":
        "把这个文件放进 ZHUOJI_PROFILE_DIR 指定的目录，再按规则配置 %(name)s 审计。",
    "Download %(name)s.toml": "下载 %(name)s.toml",
    "Search: %(pairs)s (record, value) pairs, %(skipped)s never tried (the record never read the parameter), %(reused)s answered by an earlier pass, %(replays)s replays, %(settlements)s settlements.":
        "搜索：共 %(pairs)s 个（牌局，取值）组合，其中 %(skipped)s 个无须尝试（该局根本没读到这个参数），%(reused)s 个沿用上一轮的答案；重放 %(replays)s 次，结算 %(settlements)s 次。",
    # fit jobs (issue 36.2) and where a fitted value changes (36.4): web/fit_jobs.py
    "In the background": "后台拟合",
    "A fit job reads every record chosen (not this page's cap: stored records of the platform, client and dates, or the files). A fit holds every record it searches in memory, about %(kb)s kB each (FIT_JOB_MEMORY_MB), so past %(cap)s stored records the values are searched on a sample of %(cap)s spread over every client build and week, then every record is audited under the base and the fitted profile; files past %(cap)s records are refused. It runs in the background, shows its progress and keeps its result.":
        "拟合任务读取所选的全部牌局（不受本页上限约束：所选平台、客户端、日期范围内的已存记录，或上传的文件）。拟合时搜索用到的每一局都留在内存中，每局约 %(kb)s 千字节（上限由服务配置的内存额度决定），所以已存牌局超过 %(cap)s 局时，先均匀抽取 %(cap)s 局（覆盖每个客户端版本和每一周）搜索取值，再按基础规则和拟合结果逐一审计全部牌局；上传文件超过 %(cap)s 局则拒收。任务在后台运行，显示进度并保存结果。",
    "Fit jobs": "拟合任务",
    "Also fit by": "另按以下分组拟合",
    "client build": "客户端版本",
    "period": "时段",
    "client build and period": "客户端版本和时段",
    "Period": "时段",
    "week": "周",
    "month": "月",
    "day": "日",
    "Fit all of them as a job": "作为后台任务拟合全部牌局",
    "Fit job %(id)s": "拟合任务 %(id)s",
    "stored records of %(platform)s": "平台 %(platform)s 的已存记录",
    "uploaded files": "上传的文件",
    "Phase": "阶段",
    "Records read": "已读牌局",
    "Values weighed": "已权衡的取值",
    "Inside the fit": "拟合内部进度",
    "Sample": "抽样",
    "more records than one fit holds (%(cap)s): the values are searched on %(n)s of the %(m)s records, spread over every client build and week, then every record is audited under the base and the fitted profile":
        "牌局数超过一次拟合能容纳的上限（%(cap)s）：先在 %(m)s 局中均匀抽取 %(n)s 局（覆盖每个客户端版本和每一周）搜索取值，再按基础规则和拟合结果逐一审计全部牌局",
    "verifying every record": "逐局核验全部牌局",
    "verifying": "核验全部牌局",
    "Records verified": "已核验牌局",
    "record #%(id)s": "记录 #%(id)s",
    "%(n)s of %(m)s": "%(n)s / %(m)s",
    "Every record, under the fitted profile": "全部牌局在拟合结果下的情况",
    "Values found on %(n)s of %(m)s records (a sample); over all %(all)s: clean under the base %(base)s, under the fitted profile %(fitted)s; unexplained: %(k)s (the first %(listed)s listed).":
        "取值由 %(m)s 局中抽样的 %(n)s 局得出；全部 %(all)s 局中：按基础规则无误 %(base)s 局，按拟合结果无误 %(fitted)s 局；仍无法解释 %(k)s 局（列出前 %(listed)s 局）。",
    "%(n)s records fail the schema and are counted apart.": "%(n)s 局不符合记录格式，另行计数。",
    "replaying": "逐局重放",
    "searching": "搜索取值",
    "auditing": "按拟合结果审计",
    "fit %(k)s of %(n)s": "第 %(k)s 次拟合，共 %(n)s 次",
    "(this fit: %(n)s of about %(m)s)": "（本次拟合：%(n)s，预计共约 %(m)s）",
    "Values taken": "已采用的取值",
    "Time left": "剩余时间",
    "about %(s)s s": "约 %(s)s 秒",
    "Updated": "更新于",
    "This page follows the job; it may be closed or reloaded, the job goes on (a restart of the server starts it again).":
        "本页会跟踪任务进度；关闭或刷新页面不影响任务（服务器重启后任务会重新开始）。",
    "Cancel the job": "取消任务",
    "Where a fitted value changes": "拟合值在哪里发生变化",
    "%(n)s records": "%(n)s 局",
    "No fitted value differs between the groups.": "各分组的拟合值没有差别。",
    "Played": "对局日期",
    "Values fitted": "拟合出的取值",
    "This job fitted the records as one set; start one by client build or period to see where a value changes.":
        "本任务把所有牌局作为一组拟合；按客户端版本或时段另建任务，可看出取值在哪里变化。",
    "Fitted in %(s)s s (%(engine)s).": "拟合用时 %(s)s 秒（%(engine)s）。",
    "dask": "Dask 集群",
    "in-process": "本进程",
    "queued": "排队中",
    "running": "运行中",
    "reading": "读取牌局",
    "fitting": "拟合中",
    "done": "已完成",
    "cancelled": "已取消",
    "Started by": "发起人",
    "No fit job yet.": "还没有拟合任务。",
    # issue 11: search, receipts, cases, safe what-if, upload totals, trail paging
    "Search": "搜索",
    "Back": "返回",
    "Receipts": "收件记录",
    "Receipt": "收件",
    "Every item ever submitted, accepted or refused: who sent it, when, the sha256 of its bytes, and what became of it.":
        "每一份提交的内容，无论收下还是拒收：谁发送、何时、内容的校验值，以及处理结果。",
    "sha256": "校验值",
    "game id, uploader, file, outcome": "牌局编号、上传者、文件、结果",
    "%(total)s receipts": "共 %(total)s 条收件",
    "No receipt matches.": "没有符合条件的收件记录。",
    "refused": "整批拒收",
    "Cases": "案件",
    "decided": "已裁定",
    "complaint upheld": "投诉成立",
    "complaint partly upheld": "投诉部分成立",
    "complaint dismissed": "投诉不成立",
    "complaint withdrawn": "投诉已撤回",
    "%(payer)s pays %(payee)s %(amount)s": "%(payer)s 付给 %(payee)s %(amount)s 分",
    "older revision": "旧版本",
    "No record attached yet.": "还没有关联牌局。",
    "case number, player, complaint": "案件编号、玩家、投诉内容",
    "Complaint": "投诉内容",
    "Opened": "立案时间",
    "No case matches.": "没有符合条件的案件。",
    "Open a case": "立案",
    "PDF: the case sheet and every record's report": "PDF：案件单及每局的审计报告",
    "All cases": "全部案件",
    "Revision (optional)": "版本（可不填）",
    "Attach": "关联",
    "Find records of this player": "查找该玩家的牌局",
    "on audit #%(id)s": "依据审计 #%(id)s",
    "superseded": "已被后来的裁定取代",
    "No decision yet.": "尚未裁定。",
    "On which audit": "依据哪次审计",
    "Who owes whom how much": "谁付给谁多少分",
    "Record the decision": "记录裁定",
    "Close the case": "结案",
    "choose": "请选择",
    "The complainant %(seat)s: difference (record − audit) %(difference)s; the record gives them %(points)s points less than the rules, so the form suggests the complaint is upheld.":
        "投诉人 %(seat)s：差额（记录 − 审计）%(difference)s，记录比规则少给了 %(points)s 分，因此建议“投诉成立”。",
    "The complainant %(seat)s: difference (record − audit) +%(difference)s; the record gives them %(difference)s points more than the rules, so the form suggests the complaint is dismissed.":
        "投诉人 %(seat)s：差额（记录 − 审计）+%(difference)s，记录比规则多给了 %(difference)s 分，因此建议“投诉不成立”。",
    "The complainant %(seat)s: difference (record − audit) 0; the record gives them what the rules do, so the form suggests the complaint is dismissed.":
        "投诉人 %(seat)s：差额（记录 − 审计）为 0，记录与规则一致，因此建议“投诉不成立”。",
    "The case names no complainant: choose the outcome.": "本案未指明投诉人，请选择处理结果。",
    "Record this decision for case %(number)s:": "确认为案件 %(number)s 记录以下裁定：",
    "Close case %(number)s with its standing decision:": "确认以现行裁定结案（案件 %(number)s）：",
    "A closed case can only be changed after reopening it.": "结案后，只有重新打开案件才能修改。",
    "Back to the case": "返回案件",
    "Case status": "案件状态",
    "no case": "未立案",
    "Payments that differ from the rules": "与规则不符的款项",
    "read a page of the service": "查看本服务的页面",
    "discarded by": "点炮者",
    "the record's totals fit %(amount)s here": "记录的得分相当于此处付 %(amount)s 分",
    "note's own label (before cases)": "备注自带标记（立案功能之前）",
    "A decision is a case's: open or find the case above.": "处理结论属于案件：请在上方立案或打开已有案件。",
    "Record the decision and close the case": "记录裁定并结案",
    "The audit finds that the record gives the complainant %(seat)s at least their due (difference %(difference)s), yet the complaint is upheld.":
        "注意：审计显示记录给投诉人 %(seat)s 的分数不少于规则（差额 %(difference)s），而此裁定为投诉成立。",
    "The audit finds that the record gives the complainant %(seat)s %(points)s points less than the rules, yet the complaint is dismissed.":
        "注意：审计显示记录比规则少给了投诉人 %(seat)s %(points)s 分，而此裁定为投诉不成立。",
    "Reopen the case": "重新打开案件",
    "receipt": "收件",
    "case opened": "立案",
    "record attached to a case": "牌局关联到案件",
    "case decided": "案件裁定",
    "case closed": "结案",
    "case reopened": "案件重新打开",
    "conformance run": "一致性检查",
    "engine failed": "审计引擎出错",
    "These options cannot be used; nothing was audited or stored.": "这些选项无法使用；没有审计，也没有保存任何内容。",
    "Parameters this profile knows (%(count)s)": "本规则方案可设的参数（%(count)s 个）",
    "Nested tables and dotted names both work: %(nested)s or %(dotted)s.":
        "可以用嵌套的表，也可以用点号连接的名字：%(nested)s 或 %(dotted)s。",
    "The record's list verdict, its report and its overview counts will follow this audit from now on. The audits before it stay.":
        "从此以后，这局的列表结论、审计报告和总览统计都以这次审计为准。之前的审计记录仍然保留。",
    "Audit to store": "将保存的审计",
    "Tick the confirmation and give a reason to store the audit.": "请勾选确认并填写理由，才能保存这次审计。",
    "Reason (kept in the audit trail)": "理由（记入操作日志）",
    "Yes, store this audit as the record's latest": "确认：把这次审计保存为这局的最新审计",
    "Cancel": "取消",
    "Sent; auditing…": "已发送，正在审计…",
    "%(count)s files chosen; press Send to upload them.": "已选择 %(count)s 个文件；按「上传」开始上传。",
    "Created %(created)s · new revision %(revision)s · duplicate %(duplicate)s · rejected %(rejected)s · failed %(failed)s":
        "新保存 %(created)s · 新版本 %(revision)s · 已存在 %(duplicate)s · 拒收 %(rejected)s · 失败 %(failed)s",
    "skipped %(skipped)s": "跳过 %(skipped)s",
    "√ scale": "平方根刻度",
    "Rejected submissions by day (receipts)": "每日拒收的提交（收件记录）",
    "Rejected submissions by month (receipts)": "每月拒收的提交（收件记录）",
    "Bar lengths and column heights follow the square root of the count, so a group of one record stays visible; the count is written beside each bar and above each column. Every day of the range is drawn, days without games as gaps.":
        "条形长度和柱子高度按数量的平方根画出，只有一局的分组也看得见；每条旁边、每根柱子上方写着确切数量。范围内的每一天都画出来，没有牌局的日子留空。",
    "%(count)s submissions were refused under these filters (they are not records; the receipts say why).":
        "符合条件的提交中有 %(count)s 份被拒收（它们不是牌局记录；收件记录里写明了原因）。",
    "Show the receipts": "查看收件记录",
    "%(total)s entries": "共 %(total)s 条",
    "This record is in no case.": "这局还没有关联任何案件。",
    "Every submission of this game (receipts)": "这局的全部提交（收件记录）",
    "Add to this case": "加入这个案件",
    "Open a case with this record": "用这局立案",
    "Date from": "起始日期",
    "Date to": "截止日期",
    "game id, player name or id, platform, client": "牌局编号、玩家名字或编号、平台、客户端",
    # report: dispute summary, replay viewer, revisions (issue 10)
    "Dispute summary": "争议摘要",
    "Scores per seat": "各家得分",
    "To undo the record": "若撤销记录",
    "Audit": "审计",
    "step %(step)s": "第%(step)s步",
    "Step %(step)s": "第%(step)s步",
    "ledger row": "账目",
    "The illegal move": "违规的一步",
    "The events not judged": "未经审核的事件",
    "The engine installed now finds this record %(verdict)s; re-audit to store its opinion.":
        "当前安装的审计引擎判定本局为“%(verdict)s”；重新审计即可保存这一结论。",
    "First step": "第一步",
    "Previous step": "上一步",
    "Next step": "下一步",
    "Last step": "最后一步",
    "Previous finding": "上一个问题",
    "Next finding": "下一个问题",
    "Key steps only": "只看关键步",
    "Events": "事件",
    "The table before this move: the rules refuse it, so the replay did not make it.":
        "这是这一步之前的牌桌：规则不允许这一步，回放没有执行它。",
    "Before and after": "前后对照",
    "Without a settlement the record's payments are listed as claimed, not compared.":
        "没有审计结算，下面只列出记录中的付款，不作比较。",
    "Counts?": "是否算分",
    "This is revision r%(revision)s, superseded: the current revision of this game is":
        "这是第 r%(revision)s 版，已被取代；本局的最新版本是",
    "what changed": "改了什么",
    "Hands of this match": "本场各局",
    "compare": "对比",
    "Revisions compared": "版本对比",
    "(none)": "（无）",
    "No difference.": "没有差别。",
    "Compare with": "对比版本",
    "The two revisions hold the same record.": "两个版本的记录相同。",
    "Fields": "字段",
    "Field": "字段",
    "%(count)s events are the same in both, in the same order.": "两版中有 %(count)s 个事件相同，顺序一致。",
    "Result entries": "结算条目",
    # the number reader (web/numbers.py)
    "%(field)s: required, a whole number from %(low)s to %(high)s": "%(field)s：必填，应为 %(low)s 到 %(high)s 之间的整数",
    "%(field)s: %(got)s is not a whole number written in the digits 0-9 (from %(low)s to %(high)s)":
        "%(field)s：%(got)s 不是用数字 0-9 写的整数（应为 %(low)s 到 %(high)s）",
    "%(field)s: %(got)s is outside %(low)s to %(high)s": "%(field)s：%(got)s 超出 %(low)s 到 %(high)s 的范围",
    # issue 23, point 1: the trail's own words
    "system": "系统",
    "json": "JSON 格式", "encoding": "编码", "format": "文件类型", "limit": "超限", "junk": "无关文件", "archive": "压缩包",
    "engine": "审计引擎", "store": "保存",
    "trail keyed": "日志启用密钥",
    "line %(line)s, column %(column)s": "第%(line)s行第%(column)s列",
    "%(count)s parameters; only the ones you change are used": "共 %(count)s 个参数；只有改动过的才会用上",
    "More options (JSON, may stay empty)": "其他选项（JSON，可不填）",
    "Programs use the same service as JSON: send an API token as": "程序可以用 JSON 使用同样的服务：请求时在请求头中带上接口令牌",
    "(an admin makes one under Accounts); add": "（管理员在「账号」里创建）；在地址后加上",
    "for messages in Chinese.": "即得到中文说明。",
    "The OpenAPI description (JSON, for programs)": "OpenAPI 描述（JSON，给程序读取）",
    "Method": "方法",
    "Nested tables and dotted names both work:": "可以用嵌套的表，也可以用点号连接的名字：",
    "Each of them is set in the options of the form below; the names to write in the JSON box are on the English page.":
        "这些参数都可以在下面表单的“选项”里逐项设置；要在 JSON 框里填写，参数的键名见本页的英文版。",
    "Path": "地址",
    "What it does": "作用",
}
"""Chinese for every message id; English is the id itself."""
ZH.update(PDF_ZH)
ZH.update(CASES_ZH)
ZH.update(PLATFORMS_ZH)
ZH.update(TABLE_ZH)


def current_language() -> str:
    """The request's language: ?lang=, then the cookie, then Chinese."""
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def api_language() -> Lang:
    """The language of the API's messages (record-format.md): `?lang=`, then the first of
    Accept-Language (by quality) whose primary tag is one we speak, then English. The page's
    cookie does not count: an API client asks explicitly."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        return Lang(chosen)
    for tag, _quality in request.accept_languages:
        primary = tag.split("-")[0].lower()
        if primary in LANGUAGES:
            return Lang(primary)
    return Lang.EN


def request_language() -> Lang:
    """The language of this response: an API path's (`api_language`), else the page's."""
    return api_language() if request.path.startswith("/api/") else Lang(g.get("lang") or current_language())


def page_language() -> Lang:
    """The language of the page being rendered (`?lang=`, the cookie, then Chinese)."""
    return Lang(g.get("lang", DEFAULT_LANGUAGE))


def gettext(message: str, **params: object) -> str:
    """Translate a message id into the request's language and fill in %(name)s parameters."""
    return gettext_in(g.get("lang", DEFAULT_LANGUAGE), message, **params)


def gettext_in(language: Lang | str, message: str, **params: object) -> str:
    """Translate a message id into `language` (a text stored from a page, written in its words)."""
    text = ZH.get(message, message) if Lang(language) is Lang.ZH else message
    return text % params if params else text


EN: dict[str, str] = {message: message for message in ZH}
"""English for every message id: the id itself."""


def dictionary(language: Lang | str) -> dict[str, str]:
    """Every message id in one language, in one call: what a report built before its templates
    run looks its words up in (web.report_model), instead of a call per word (issue 35.2)."""
    return ZH if Lang(language) is Lang.ZH else EN


def message_text(message: str, **params: object) -> str:
    """An error message id in the language of the answer: the API's (`api_language`) under
    /api/, the page's elsewhere; %(name)s parameters filled in."""
    if request.path.startswith("/api/"):
        language = api_language().value
    else:
        language = g.get("lang", DEFAULT_LANGUAGE)
    text = ZH.get(message, message) if language == "zh" else message
    return text % params if params else text


def lang_url(language: str) -> str:
    """The current page in another language (keeps the other query parameters)."""
    endpoint = request.endpoint or "pages.records"
    args = {key: value for key, value in request.args.to_dict().items() if not _reserved(key)}
    values = {**args, **(request.view_args or {}), "lang": language}
    return url_for(endpoint, **values)


def _reserved(key: str) -> bool:
    """Query parameters url_for would read as its own arguments (`_method`, `_anchor`, `_scheme`,
    `_external` and any other `_` name, or `endpoint`): dropped from the link, never obeyed."""
    return key.startswith("_") or key == "endpoint"


def remember_language(response: Response) -> Response:
    """Keep an explicit ?lang= choice in a cookie for later pages."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen:
        response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def seat_words(seat: Any, seats: Any = ()) -> str:
    """A seat as every page and PDF names it, the same words as the findings (catalogue.seat_label):
    `2号位 小红` / `seat 2 (小红)`; `seats` are the store's player rows or the record's seats."""
    names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats or ()]
    return seat_label(seat, page_language(), names)


def init_app(app: Flask) -> None:
    """Choose the language per request and expose `_` and helpers to templates."""

    @app.before_request
    def choose_language() -> None:
        g.lang = current_language()

    app.after_request(remember_language)
    app.jinja_env.globals.update(_=gettext, lang_url=lang_url, html_lang=lambda: HTML_LANG[g.get("lang", "zh")],
                                 seat_words=seat_words,
                                 current_language=lambda: g.get("lang", DEFAULT_LANGUAGE))
