# Two commands a newcomer needs: `make run` (the wizard) and `make test` (the whole suite).
# Both create .venv and install the project into it on first use.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-core test-window screens install lint format bench sample clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "gpuwizard needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1)."; exit 1; }
	@$(PYTHON) -m venv --help >/dev/null 2>&1 || \
	  { echo "Python's venv module is missing. Install it with:"; \
	    echo "  sudo apt-get install -y python3-venv"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m wizard.launch

# Compiled once up front: the tests start the program in many subprocesses, and a machine that
# sets PYTHONDONTWRITEBYTECODE would otherwise compile every module again in each of them.
test: $(STAMP)
	$(PY) -m compileall -q wizard reports
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n auto

# The engine, io and hardening tests in an environment without Qt and reportlab: the layers
# below the GUI and the reports must not need them (the report-rendering hardening tests stay in
# `make test`).
CORE := .venv-core
test-core:
	$(PYTHON) -m venv $(CORE)
	$(PYTHON) scripts/core_requirements.py > $(CORE)/requirements.txt
	$(CORE)/bin/python -m pip install --quiet -r $(CORE)/requirements.txt
	$(CORE)/bin/python -m pip install --quiet --no-deps -e .
	$(CORE)/bin/python -m compileall -q wizard
	$(CORE)/bin/python -m pytest -p no:cacheprovider tests/engine tests/io tests/hardening \
	  --ignore=tests/hardening/test_corpus.py --ignore=tests/hardening/test_tiny_numbers.py \
	  --ignore=tests/hardening/test_every_reader.py

# The program in a real X11 window (Qt's xcb plugin) under Xvfb: a missing system library fails
# here instead of at a user's first start.
test-window: $(STAMP)
	@command -v xvfb-run >/dev/null && command -v openbox >/dev/null || { \
	  echo "test-window needs Xvfb and a window manager. Install them with:"; \
	  echo "  sudo apt-get install -y xvfb xauth openbox"; exit 1; }
	xvfb-run -a -s "-screen 0 1280x800x24" $(PY) -m pytest -p no:cacheprovider -m real_window tests/window

# Every page in a real window under a window manager on 1024 x 700 and 1366 x 768 screens, as the
# README shows them (needs xvfb-run and openbox).
screens: $(STAMP)
	for size in 1024x700 1366x768; do \
	  xvfb-run -a -s "-screen 0 $${size}x24" $(PY) scripts/real_screens.py \
	    --example enterprise --out docs/screenshots/small || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

sample: $(STAMP)
	$(PY) -m wizard example enterprise -o docs/sample-enterprise.json
	$(PY) -m wizard report docs/sample-enterprise.json -o docs/sample-enterprise.pdf --date 2026-11-02
	$(PY) -m wizard report docs/sample-enterprise.json -o docs/sample-enterprise.docx --date 2026-11-02
	$(PY) -m wizard example hgx-h200-llm -o docs/sample-hgx-h200-llm.json
	$(PY) -m wizard report docs/sample-hgx-h200-llm.json -o docs/sample-hgx-h200-llm.pdf --date 2026-11-23
	$(PY) -m wizard report docs/acme-two-clusters.json -o docs/sample-acme-two-clusters.pdf --date 2026-11-23
	rm -f docs/pages/*.png
	$(PY) scripts/proposal_pages.py docs/sample-enterprise.pdf docs/sample-hgx-h200-llm.pdf --out docs/pages

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) $(CORE) build dist *.egg-info .pytest_cache .ruff_cache
