# The README's commands are these targets. Each installs what is missing first.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PORT    ?= 5000
HOST    ?= 127.0.0.1
# Tests, CI and benchmarks read the full snapshot beside the project; never copied in.
SNAPSHOT ?= $(abspath ../shared/cards/AtomicCards.json.xz)

.PHONY: setup browser serve test lint bench clean

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

serve: setup
	PORT=$(PORT) $(BIN)/mentalmagic serve --host $(HOST) --port $(PORT)

test: setup browser
	MENTALMAGIC_TEST_CARDS=$(SNAPSHOT) $(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .

bench: setup
	MENTALMAGIC_RATE_LIMIT=0 MENTALMAGIC_GAMES_PER_HOUR=0 MENTALMAGIC_ACCESS_LOG=0 $(BIN)/python bench/run.py --cards $(SNAPSHOT)

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis .ruff_cache
