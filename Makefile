# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= instance/zhuoji.sqlite

.PHONY: install system run test bench clean

$(BIN)/python:
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY)"; exit 1; }
	$(PY) -m venv $(VENV)

$(STAMP): requirements.txt $(BIN)/python
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

system:
	@sh scripts/install-system.sh

install: $(STAMP) system

run: install
	$(BIN)/flask --app app bootstrap
	$(BIN)/flask --app app load-samples samples
	@echo "audit service: http://127.0.0.1:5000/ (log in at /login)"
	$(BIN)/flask --app app run --host 127.0.0.1 --port 5000

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/pip install -q --disable-pip-version-check -r bench/requirements.txt
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/load_test.py

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis
