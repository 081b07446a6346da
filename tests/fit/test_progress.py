"""fit.search's progress (issue 36.2): a fit tells a callback where it is as it works: its phases in
order, the values weighed growing through the search with an estimate never below them, the values
taken, and every record audited at the end."""
from __future__ import annotations

from fit.search import Phase, Progress, fit
from tests.fit.test_search import _platform, _records


def test_a_fit_tells_its_progress_through_the_search() -> None:
    played = {"chicken.charge": 4, "dou_unready": "reverse"}
    records = _records(_platform("weile", played, 60, 61))
    seen: list[Progress] = []
    result = fit(records, "weile", progress=seen.append)
    assert result.options == played
    phases = [p.phase for p in seen]
    assert phases[0] is Phase.REPLAYING and phases[-1] is Phase.AUDITING
    assert phases == sorted(phases, key=list(Phase).index)  # each phase once, in order
    searching = [p for p in seen if p.phase is Phase.SEARCHING]
    weighed = [p.values_weighed for p in searching]
    assert weighed == sorted(weighed) and len(set(weighed)) >= 3  # it moves during the search
    assert all(p.values_estimate >= p.values_weighed for p in searching)
    assert [p.taken for p in searching][-1] == len(result.steps) == 2
    assert all(0.0 <= p.fraction <= 1.0 for p in seen)
    last = seen[-1]
    assert (last.records_done, last.records, last.fraction) == (len(records), len(records), 1.0)
    assert last.values_weighed == result.counts.pairs
    assert last.to_json()["phase"] == "auditing"
