# The README's commands are these targets. Each installs what is missing first.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
BUILD_STAMP := $(VENV)/.installed-build
PORT    ?= 5000
HOST    ?= 127.0.0.1
# Benchmarks read the embedded snapshot unless SNAPSHOT names another AtomicCards file. The tests read
# it too, or the file MENTALMAGIC_TEST_CARDS names (passed through from the caller's environment).
SNAPSHOT ?= cards/AtomicCards.json.xz

NPM_STAMP := node_modules/.package-lock.json
PO      := $(wildcard mentalmagic/web/translations/*/LC_MESSAGES/messages.po)
MO      := $(PO:.po=.mo)
BABEL_EXTRACT := $(BIN)/pybabel extract -F babel.cfg -k _plural:2,3 -k N_ -k Nn_:1,2 -k Np_:1c,2 --no-wrap --project=mentalmagic \
                 -o mentalmagic/web/translations/messages.pot .

.PHONY: setup serve-setup npm browser netns wrk serve table dev test test-core lint bench capacity shards clean messages screenshots dist dist-check

# Two sets of packages: what serving needs (requirements.txt), and what tests, lint and benchmarks
# add (requirements-dev.txt). `make serve` installs the first only; `make setup` and `make test` both.
setup: $(DEV_STAMP) $(NPM_STAMP) $(MO)

serve-setup: $(STAMP) $(MO)

$(STAMP): requirements.txt pyproject.toml
	@echo "setup: installing the packages the server runs on into $(VENV)" >&2
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

$(DEV_STAMP): requirements-dev.txt requirements-build.txt $(STAMP)
	@echo "setup: installing the test, lint and benchmark packages into $(VENV)" >&2
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(DEV_STAMP) $(BUILD_STAMP)

# make dist needs only the build tools, not the test toolchain.
$(BUILD_STAMP): requirements-build.txt
	@echo "setup: installing the build tools into $(VENV)" >&2
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
	touch $(BUILD_STAMP)

# axe-core (the page tests only) from package.json's lockfile, into node_modules/ (ignored); the
# mana font is vendored in the package. Without npm, as root, Debian's is installed. If npm can't
# run, setup goes on: the app needs nothing from npm, the page tests then ask for it.
$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "warning: no npm (sudo apt-get install npm): the page tests fail without axe-core" >&2; \
	elif echo "setup: installing axe-core (page tests) with npm ci" >&2 && npm ci --no-audit --no-fund --loglevel=error; then touch $(NPM_STAMP); \
	else echo "warning: npm ci failed: the page tests fail without axe-core" >&2; fi

npm: $(NPM_STAMP)

# The pages' translations: .po files are committed, their .mo compiled here (ignored).
%.mo: %.po $(STAMP)
	$(BIN)/pybabel compile -i $< -o $@

# After changing a page's text: extract the messages and merge them into every .po.
messages: $(STAMP)
	$(BABEL_EXTRACT)
	$(BIN)/pybabel update -i mentalmagic/web/translations/messages.pot -d mentalmagic/web/translations --no-wrap --ignore-pot-creation-date

# The page is tested in Debian's real Chromium (Playwright drives it; it never downloads a browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "install Debian's chromium (sudo apt-get install chromium) to run the page tests" >&2; exit 1; fi; }

# The real-network test (tests/test_table_network.py) makes a network namespace and a veth pair: `ip`.
netns:
	@command -v ip >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null; \
	  else echo "install Debian's iproute2 (sudo apt-get install iproute2) for the real-network test" >&2; fi; }

# Production: waitress, a worker process per core and one more (settings: mentalmagic/web/serving.py).
serve: serve-setup
	@echo "serve: checking the card database (the first start imports the cards: a few seconds)" >&2
	PORT=$(PORT) $(BIN)/mentalmagic serve --host $(HOST) --port $(PORT)

# For phones at the table: listens on the laptop's network, prints the addresses phones reach and a QR
# code of the console (docs/console.md, "Seating the players"; docs/deployment.md, "The table's network").
table: serve-setup
	@echo "table: checking the card database (the first start imports the cards: a few seconds)" >&2
	$(BIN)/mentalmagic serve --table --port $(PORT)

# Development only: Flask's reloading debug server, one process.
dev: serve-setup
	$(BIN)/flask --app app run --debug --host $(HOST) --port $(PORT)

# The tests run on every core (pytest-xdist), JOBS workers, a module's tests on one of them (its
# app, server or browser built once): `make test JOBS=0` runs them in this process.
JOBS    ?= auto
# The core tier: the tests with none of the markers of pyproject.toml (docs/development.md, "Tests").
CORE    := not snapshot and not browser and not processes and not fuzz
PYTEST  := $(BIN)/python -m pytest -q -n $(JOBS) --dist loadfile

# The whole suite: the core tier and the marked tests (the full card snapshot, Chromium, server processes, fuzzing).
# Python keeps its bytecode for the workers and the servers the tests start, whatever the caller's environment.
test test-core: export PYTHONDONTWRITEBYTECODE :=
test: setup browser netns
	$(PYTEST)

# The core tier alone, the fast loop: the mini pool's cards (tests/minipool.py), in-process, no browser.
test-core: setup
	$(PYTEST) -m "$(CORE)"

# Style (ruff) and the import rules (import-linter: the contracts in pyproject.toml).
lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The bench drives the servers with Debian's wrk, a real load generator.
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; \
	  else echo "install Debian's wrk (sudo apt-get install wrk) to run the bench" >&2; exit 1; fi; }

bench: setup wrk
	MENTALMAGIC_RATE_LIMIT=0 MENTALMAGIC_GAMES_PER_HOUR=0 MENTALMAGIC_ACCESS_LOG=0 $(BIN)/python bench/run.py --cards $(SNAPSHOT)

# What one machine holds (docs/performance.md, "What one machine holds"): about a minute, on a temporary database.
capacity: setup wrk
	MENTALMAGIC_RATE_LIMIT=0 MENTALMAGIC_GAMES_PER_HOUR=0 MENTALMAGIC_ACCESS_LOG=0 $(BIN)/python bench/capacity.py --cards $(SNAPSHOT)

# Two instances behind nginx (docs/shards.nginx.conf), sharded by game id, on loopback. Needs nginx.
shards: setup
	@command -v nginx >/dev/null 2>&1 || { echo "install Debian's nginx (sudo apt-get install nginx-light)" >&2; exit 1; }
	MENTALMAGIC_RATE_LIMIT=0 MENTALMAGIC_GAMES_PER_HOUR=0 $(BIN)/python bench/shards.py --cards $(SNAPSHOT)

# The wheel and sdist a judge installs (docs/install.md): `python -m build` into dist/; setup.py
# compiles the catalogues into the wheel. dist-check installs the wheel in a fresh virtual
# environment outside the checkout and runs the server, a self-check and a French look-up there.
dist: $(BUILD_STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

dist-check: dist $(STAMP)
	$(BIN)/python scripts/dist_check.py dist/mentalmagic-*.whl

# The console's main screens, desktop and phone, for the README (docs/screenshots/*.png).
screenshots: setup browser
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis .ruff_cache .import_linter_cache node_modules dist build $(MO)
