# Two commands for a newcomer: `make serve` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: install system translations site site-zip serve test test-fast test-js lint bench bench-bots clean clients axe

# What the tests start themselves: Debian's redis-server, redis-sentinel, nginx, haproxy,
# postgresql (the archive of finished matches), prometheus (promtool checks the alert rules) and
# chromium, node and npm for the TypeScript client check, and curl and jq for the README's
# shell examples, installed when missing (CI runs as root on a machine that may be new;
# elsewhere, install them the same way).
SYSTEM_PACKAGES := $(if $(shell command -v redis-server),,redis-server) \
	$(if $(shell command -v redis-sentinel),,redis-sentinel) \
	$(if $(or $(shell command -v nginx),$(wildcard /usr/sbin/nginx)),,nginx) \
	$(if $(or $(shell command -v haproxy),$(wildcard /usr/sbin/haproxy)),,haproxy) \
	$(if $(or $(shell command -v initdb),$(wildcard /usr/lib/postgresql/*/bin/initdb)),,postgresql) \
	$(if $(shell command -v promtool),,prometheus) \
	$(if $(wildcard /usr/bin/chromium),,chromium) \
	$(if $(shell command -v node),,nodejs) $(if $(shell command -v npm),,npm) \
	$(if $(shell command -v jq),,jq) $(if $(shell command -v curl),,curl)
CLIENTS := clients/ts

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

system:
ifneq ($(strip $(SYSTEM_PACKAGES)),)
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES)
endif

# Compiled catalogs (.mo) are build output: made from the committed .po files. The API reads
# a .po itself when its .mo is missing or older; the site reads the .po files directly.
translations: $(STAMP)
	$(BIN)/pybabel compile --statistics -d translations -D messages

# The site is rebuilt only when what it is made of changed: its pages, hooks, data and theme,
# the catalogs it reads, the contract and the engine it documents (not the web layer, but the
# package modules its hand scorer copies from the play page's vendor folder). Each
# file gets its gzip and brotli copies, which the server sends to clients that take them.
SITE_STAMP := build/site/.built
SITE_SOURCES := site/mkdocs.yml $(shell find site/docs site/hooks site/data site/overrides -type f \
	-not -name '*.pyc') $(wildcard translations/*/LC_MESSAGES/*.po) openapi.yaml \
	$(shell find api/thirtyone -name '*.py' -not -path 'api/thirtyone/web/*') \
	$(wildcard api/thirtyone/web/play/vendor/thirtyone/*.js)

$(SITE_STAMP): $(STAMP) $(SITE_SOURCES)
	$(BIN)/mkdocs build --strict --quiet -f site/mkdocs.yml
	$(BIN)/python -m whitenoise.compress --quiet build/site
	touch $@

site: $(SITE_STAMP)

# The site to read offline: unpack the archive and open site/index.html from disk. Every link
# names its file (no directory URLs); the Play buttons lead to `make serve` on 127.0.0.1:8000.
SITE_ZIP ?= build/thirtyone-site.zip
OFFLINE_DIR ?= build/site-offline
site-zip: $(STAMP) $(SITE_SOURCES)
	rm -rf $(OFFLINE_DIR) $(SITE_ZIP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet -f site/mkdocs.yml --no-directory-urls \
		-d $(abspath $(OFFLINE_DIR))/site
	# A 404 page answers a server's missing address; from disk there is none to answer.
	rm -f $(OFFLINE_DIR)/site/404.html $(OFFLINE_DIR)/site/*/404.html
	cd $(OFFLINE_DIR) && $(abspath $(BIN))/python -m zipfile -c $(abspath $(SITE_ZIP)) site
	@echo "$(SITE_ZIP): unpack it and open site/index.html"

# The API always; the rules site at / when it builds (a failed site build leaves the API up).
serve: translations
	@$(MAKE) --no-print-directory site || echo "The rules site did not build: serving the API alone."
	@test -s .secret_key || { $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(32))" > .secret_key; \
		echo "Generated a server secret in .secret_key (THIRTYONE_SECRET_KEY); keep it to keep games valid across restarts."; }
	THIRTYONE_SECRET_KEY="$$(cat .secret_key)" THIRTYONE_STORE="$${THIRTYONE_STORE:-sqlite:///.data/tables.sqlite3}" \
		$(BIN)/thirtyone serve --host 127.0.0.1 --port 8000 --workers 2

lint: $(STAMP)
	$(BIN)/ruff check api tests benchmarks site/hooks
	$(BIN)/mypy --strict api/thirtyone
	$(BIN)/mypy --strict site/hooks

# The contract as other tools read it: redocly lints it, openapi-typescript generates types,
# and tsc --strict checks a small openapi-fetch script that plays a game against them
# (tests/web/test_clients_ts.py then runs it against the API). npm packages are pinned in
# clients/ts/package-lock.json.
$(CLIENTS)/node_modules/.installed: $(CLIENTS)/package-lock.json
	cd $(CLIENTS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# axe-core for the play page's accessibility tests, pinned in tests/play/axe/package-lock.json.
AXE := tests/play/axe
$(AXE)/node_modules/.installed: $(AXE)/package-lock.json
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

axe: $(AXE)/node_modules/.installed

# Then the npm package (clients/ts/dist) is built and `node --test` checks it, and the docs'
# standalone table reader, against the conformance vectors with the tables this engine writes.
clients: $(CLIENTS)/node_modules/.installed
	cd $(CLIENTS) && npm run --silent lint && npm run --silent generate && npm run --silent check \
		&& npm run --silent build
	$(BIN)/thirtyone tables vectors $(CLIENTS)/build/tables
	cd $(CLIENTS) && npm test --silent

# The inner loop: the engine's and the web layer's unit tests and doctests, without a browser,
# the site, node, or a real server (those tests, and the heaviest random ones, are marked
# `slow`: tests/conftest.py marks every test using chromium or a real Redis).
FAST_TESTS := tests/engine tests/web tests/test_cli.py tests/test_readme.py tests/test_imports.py \
	tests/test_calibration.py \
	api/thirtyone

# Every test of test_schemathesis.py is slow, and schemathesis builds its cases as it collects
# them: half of the fast suite's collection time in each worker, for tests it deselects.
test-fast: $(STAMP) translations
	$(BIN)/python -m pytest -n 2 -q -m "not slow" --ignore=tests/web/test_schemathesis.py \
		$(FAST_TESTS)

# The play page's modules that need no browser, by node's own test runner (make test runs
# them too, through tests/play/test_unit_js.py).
test-js:
	node --test tests/play/unit/

test: $(STAMP) translations system
	$(BIN)/ruff check api tests benchmarks site/hooks
	$(BIN)/mypy --strict api/thirtyone
	$(BIN)/mypy --strict site/hooks
	@if command -v node >/dev/null; then $(MAKE) --no-print-directory clients axe; \
		else echo "node is missing: the TypeScript client is not checked (make system)"; fi
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

bench: $(STAMP)
	$(BIN)/python benchmarks/hands.py
	$(BIN)/python benchmarks/games.py
	bash benchmarks/http.sh
	$(BIN)/python benchmarks/tables.py
	$(BIN)/python benchmarks/layers.py

# The strong bot against the greedy and random ones: 2,500 seeded matches, half an hour on 2 cores.
bench-bots: $(STAMP)
	$(BIN)/python benchmarks/bots.py

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache $(CLIENTS)/node_modules $(CLIENTS)/build $(CLIENTS)/dist \
		$(AXE)/node_modules
