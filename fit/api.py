"""The fit as plain JSON for the service (web/fit.py): the search's answer with its messages in one
language and the fitted profile file beside it."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from audit.vocabulary import Lang
from fit.search import Progress, fit, records_of


def fit_records(records: Sequence[tuple[str, object]], *, profile: str = "weile", name: str | None = None,
                min_gain: int = 1, lang: Lang | str = Lang.EN,
                progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
    """A platform's own profile from its records (issue 21.4, docs/fit.md): the fit as JSON with its
    messages in `lang`, plus `profile_file`, the fitted profile as a profile file (TOML).

    `records` are (where it came from, the parsed document) pairs; a `zhuoji-match/1` gives one
    record per hand. A record's own `rules` are not read: the fit starts from `profile`
    (ProfileError when there is none). `progress` is told how far the fit has come as it works
    (`fit.search.Progress`)."""
    found = fit([r for source, doc in records for r in records_of(doc, source)], profile, name=name,
                min_gain=min_gain, progress=progress)
    return {**found.to_json(Lang(lang)), "profile_file": found.profile_text()}
