# Two entry points a newcomer needs; both create .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/python: requirements.txt requirements-dev.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(BIN)/python

.PHONY: setup demo test lint bench
# Bytecode for our modules up front: with PYTHONDONTWRITEBYTECODE set (as in many agent
# sandboxes) every cold `mem.py` call would otherwise recompile them (~10-30 ms).
# The int8 form of the model is derived here once (~3 s) rather than in the first `mem.py` call.
setup: $(BIN)/python
	@$(BIN)/python -m compileall -q -x '/(\.venv|tests|bench|demo)/' .
	@$(BIN)/python -c 'import embedder; embedder.prepare()'

demo: setup
	$(BIN)/python demo/run_demo.py

test: setup
	$(BIN)/python -m pytest -n 2 -q --durations=30 tests

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python bench/locomo.py
