#!/bin/sh
# Instructions per hand of a batch worker's partition against the engine alone on the same hands
# (issue 24.4), counted by valgrind's callgrind so the load of the other core does not move them
# (docs/batch.md, "Per worker against the engine alone"). The hands are bench_batch.py's long
# corpus; each figure is a run of N hands minus a run of W hands, so imports, the first profiles
# and the attribution's what-if tables drop out. The engine alone audits documents parsed
# beforehand (as bench_batch.py times it): a run that only parses is subtracted from its count.
#   sh bench/callgrind_batch.sh [N] [W]     # default 700 and 200; about 4 minutes compiled
set -eu
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (Debian package valgrind)"; exit 2; }
N=${1:-700}
W=${2:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH=. .venv/bin/python -c "
from pathlib import Path
from bench.bench_batch import long_corpus
long_corpus(Path('$work/long.jsonl'), $N)
"
head -n "$W" "$work/long.jsonl" > "$work/warm.jsonl"

# $1: engine | parse | partition; $2: the corpus file. Prints the instructions of the whole run.
count() {
  out="$work/callgrind.out"
  PYTHONPATH=. valgrind --tool=callgrind --callgrind-out-file="$out" .venv/bin/python -c "
import json, sys
from pathlib import Path
mode, path = '$1', '$2'
if mode in ('engine', 'parse'):
    from audit.engine import audit_hand
    docs = [json.loads(line) for line in Path(path).read_bytes().splitlines() if line.strip()]
    for doc in docs if mode == 'engine' else ():
        audit_hand(doc)
else:
    from batch.inputs import Sizes, plan
    from batch.rows import Settings
    from batch.work import FINDINGS_DIR, HANDS_DIR, PARTS_DIR, run_partition
    out = Path('$work/out-' + Path(path).stem)
    for folder in (HANDS_DIR, FINDINGS_DIR, PARTS_DIR):  # what the driver makes before any partition
        (out / folder).mkdir(parents=True, exist_ok=True)
    (partition,) = plan([path], Sizes(hands=10**9)).partitions
    run_partition(0, partition, Settings(), str(out))
" >/dev/null 2>"$work/log" || { tail -20 "$work/log" >&2; echo "the $1 run on $2 failed" >&2; exit 1; }
  grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}'
}
hands=$((N - W))
engine=$(( ($(count engine "$work/long.jsonl") - $(count parse "$work/long.jsonl")
            - $(count engine "$work/warm.jsonl") + $(count parse "$work/warm.jsonl")) / hands ))
partition=$(( ($(count partition "$work/long.jsonl") - $(count partition "$work/warm.jsonl")) / hands ))
PYTHONPATH=. .venv/bin/python -c "
from audit import native
engine, partition = $engine, $partition
mode = 'compiled' if native.compiled() else 'plain Python'
print(f'engine alone {engine:,} instructions per hand (documents parsed beforehand, {mode})')
print(f'run_partition {partition:,} instructions per hand: {partition / engine:.3f}x the engine')
"
