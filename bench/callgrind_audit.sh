#!/bin/sh
# Instructions per audited hand, counted by valgrind's callgrind: unlike wall or CPU time
# they do not move with the load of the other core, so they are the fair before/after
# measure on a shared machine (docs/performance.md). The corpus is bench_audit.py's
# (30 reference games + 5 worked examples); a run of 1 round is subtracted from a run
# of 4 so that imports, table building and profile loading drop out.
#   sh bench/callgrind_audit.sh            # about 2 minutes compiled, 5 plain
set -eu
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (Debian package valgrind)"; exit 2; }
total() {
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" .venv/bin/python -c "
import sys
sys.path[:0] = ['.', 'bench']
from bench_audit import corpus
from audit.engine import audit_hand
docs = corpus()
for _ in range($1):
    for d in docs:
        audit_hand(d)
print(len(docs))
" 2>/dev/null > "$out.n"
  echo "$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}') $(cat "$out.n")"
  rm -f "$out" "$out.n"
}
set -- $(total 1)
one=$1 docs=$2
set -- $(total 4)
echo "$(( ($1 - one) / (3 * docs) )) instructions per hand ($(.venv/bin/python -c 'from audit import native; print("compiled" if native.compiled() else "plain Python")'))"
