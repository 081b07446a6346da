"""fit.sample (issue 36.2, docs/decisions.md 36.2c): a sample's share of each group, taken evenly
over the group's records in their order, the same each time."""
from __future__ import annotations

from fit.sample import quotas, spread


def test_quotas_sum_to_the_size_and_give_every_group_one() -> None:
    counts = {"a": 90, "b": 9, "c": 1}
    q = quotas(counts, 10)
    assert sum(q.values()) == 10 and q["c"] == 1 and q["b"] >= 1 and q["a"] > q["b"]
    assert quotas(counts, 200) == counts  # room for all: every record
    assert sum(quotas(counts, 2).values()) == 2  # fewer than the groups: the largest shares
    assert all(quotas(counts, k)[g] <= counts[g] for k in range(1, 101) for g in counts)
    assert all(sum(quotas(counts, k).values()) == k for k in range(1, 101))


def test_spread_takes_each_groups_quota_evenly_and_the_same_each_time() -> None:
    items = [(i, "x" if i % 4 else "y") for i in range(100)]
    counts = {"x": 75, "y": 25}
    q = quotas(counts, 20)
    chosen = list(spread(items, counts, q))
    assert chosen == list(spread(items, counts, q))
    assert len(chosen) == 20 and sum(1 for i in chosen if i % 4 == 0) == q["y"]
    xs = [i for i in chosen if i % 4]
    gaps = {b - a for a, b in zip(xs, xs[1:])}
    assert max(gaps) - min(gaps) <= 2 and xs[-1] >= 90  # spread to the end, not the first records
