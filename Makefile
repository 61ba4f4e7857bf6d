# The README's commands are these targets. Each installs what is missing first.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PORT    ?= 5000
HOST    ?= 127.0.0.1
# Tests, CI and benchmarks read the full snapshot beside the project; never copied in.
SNAPSHOT ?= $(abspath ../shared/cards/AtomicCards.json.xz)

.PHONY: setup browser wrk serve dev test lint bench clean

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# The page is tested in Debian's real Chromium (Playwright drives it; it never downloads a browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "install Debian's chromium (sudo apt-get install chromium) to run the page tests" >&2; exit 1; fi; }

# Production: gunicorn, a worker process per core (settings: mentalmagic/web/serving.py).
serve: setup
	PORT=$(PORT) $(BIN)/mentalmagic serve --host $(HOST) --port $(PORT)

# Development only: Flask's reloading debug server, one process.
dev: setup
	$(BIN)/flask --app app run --debug --host $(HOST) --port $(PORT)

test: setup browser
	MENTALMAGIC_TEST_CARDS=$(SNAPSHOT) $(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .

# The bench drives the servers with Debian's wrk, a real load generator.
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; \
	  else echo "install Debian's wrk (sudo apt-get install wrk) to run the bench" >&2; exit 1; fi; }

bench: setup wrk
	$(BIN)/python bench/run.py --cards $(SNAPSHOT)

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis .ruff_cache
