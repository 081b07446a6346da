# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= instance/zhuoji.sqlite
# The engine modules compiled with mypyc (the list lives in audit/native.py).
NATIVE_SRC := $(shell grep -o '"[a-z]*/[a-z_]*\.py"' audit/native.py | tr -d '"')
NATIVE := build/native.stamp
# gunicorn workers: one per core (the engine is CPU-bound), each with a few threads for I/O.
# web/gunicorn_conf.py: the worker class and gunicorn's limits, set above the app's own (request line
# 8190, gunicorn's most; 200 header fields of 32 KB) so Flask answers what it refuses, in the
# request's language and the path's format (web/errors.py); past them the worker answers in JSON.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
THREADS ?= 4

.PHONY: install system native clean-native run test test-engine-alone bench clean dist

$(BIN)/python:
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY)"; exit 1; }
	$(PY) -m venv $(VENV)

$(STAMP): requirements.txt $(BIN)/python
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

system:
	@sh scripts/install-system.sh

install: $(STAMP) system

# Compile the engine's hot modules in place (about a minute; again only when one
# of them changes). Without it everything runs as plain Python, only slower;
# audit/native.py refuses to run binaries older than their sources.
$(NATIVE): $(STAMP) $(NATIVE_SRC) audit/native.py scripts/build_native.py
	@mkdir -p build
	@echo "compiling the engine with mypyc (log: build/native.log)"
	@$(BIN)/python scripts/build_native.py > build/native.log 2>&1 || { tail -40 build/native.log; exit 1; }
	@touch $@

native: $(NATIVE)

clean-native:
	rm -rf build .mypy_cache audit/*.so records/*.so $(wildcard audit_native__mypyc*.so)

# The engine as a wheel (audit/ and its data, console scripts zhuoji-audit and zhuoji-kit), in dist/.
dist: $(STAMP)
	$(BIN)/python scripts/build_dist.py dist

run: install native
	$(BIN)/flask --app app bootstrap
	$(BIN)/flask --app app load-samples samples
	@echo "audit service: http://127.0.0.1:5000/ (log in at /login; $(WORKERS) workers)"
	FLASK_SESSION_COOKIE_SECURE=false $(BIN)/gunicorn --bind 127.0.0.1:5000 --workers $(WORKERS) \
		--threads $(THREADS) -c python:web.gunicorn_conf --timeout 120 --access-logfile - "app:create_app()"

test: install native
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# The engine's tests (tests/audit, sim, report, kit) with Flask, Werkzeug, sqlite-utils and WeasyPrint
# unimportable, in one process (issue 35.3); make test runs them with the stack present.
test-engine-alone: install native
	$(BIN)/python -m tests.engine_alone

bench: install native
	$(BIN)/pip install -q --disable-pip-version-check -r bench/requirements.txt
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/load_test.py

clean: clean-native
	rm -rf $(VENV) instance .pytest_cache .hypothesis
