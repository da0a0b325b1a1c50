# Probierlabor. The README's two commands: `make serve` (build and serve the site) and
# `make test` (every test). Both set up what is missing on a fresh machine and are idempotent.

PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
HOST   ?= 127.0.0.1
# pytest workers (pytest-xdist), one per core of the 2-core CI machine; `make test JOBS=0` runs in one process
JOBS   ?= 2

.PHONY: serve test test-unit test-browser screenshots lint site bench setup vendor browser words clean bundle

serve: site
	$(BIN)/python tools/serve.py site --host $(HOST) --port $(PORT)

PYTEST := $(BIN)/python -m pytest -n $(JOBS) --dist worksteal --durations=20

# Both kinds in one session: the workers take tests from one queue, so unit tests fill the time a long
# browser test holds the other worker, where two sessions in a row would each end with one worker idle.
test: lint site browser words
	$(PYTEST)

# Without Chromium (the tests marked browser: tests/browser/ and any test that opens a page)
test-unit: lint site words
	$(PYTEST) -m "not browser"

test-browser: site browser
	$(PYTEST) -m browser

# The browser tests again, keeping their pictures for a person to look at (out/screenshots, out/phone)
screenshots: site browser
	PL_SCREENSHOTS=1 $(PYTEST) -m browser

# ruff (rules in pyproject.toml) for Python, import-linter (contracts in pyproject.toml: the engine imports
# nothing of the page side or the recorder, no import cycles), eslint (eslint.config.mjs) for the browser side and the Node tools
lint: setup
	$(BIN)/ruff check --quiet .
	$(BIN)/lint-imports --no-logo --no-cache
	npx --no-install eslint --max-warnings 0 .

site: setup
	$(BIN)/mkdocs build --quiet

# One zip for a school or a USB stick: the site, start.bat/start.sh/start.command and LIESMICH.txt.
bundle: site
	$(BIN)/python tools/bundle.py site --out dist

# `make bench REFERENCE=../old/site`: slider → repaint of every page side by side with another build
bench: site browser
	$(BIN)/python tools/bench.py $(if $(REFERENCE),--reference $(REFERENCE))
	$(BIN)/python -m recorder.bench

setup: $(VENV)/.installed node_modules/.package-lock.json vendor

# The virtualenv is rebuilt when the pinned requirements change.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps -e .
	touch $@

node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Checks every vendored file by sha256 (tools/vendor.sha256, wheels against the official Pyodide lock);
# prints one line when already up to date.
vendor: node_modules/.package-lock.json
	$(BIN)/python tools/vendor_runtime.py

browser:
	tools/ensure_chromium.sh

# Debian's German word list (wngerman) for model/wordcheck.py and its tests
words:
	tools/ensure_deb.sh /usr/share/dict/ngerman wngerman

clean:
	rm -rf site dist static/vendor .pytest_cache .hypothesis

# Peer check of engine/ against Transformers' LlamaForCausalLM (random weights, nothing downloaded), in
# its own venv so that `make test` stays free of torch.
PEER_VENV := .venv-peer
.PHONY: test-peer
test-peer: $(PEER_VENV)/.installed
	$(PEER_VENV)/bin/python -m pytest -q -s -p no:cacheprovider tests/peer

$(PEER_VENV)/.installed: requirements-peer.txt
	$(PYTHON) -m venv $(PEER_VENV)
	$(PEER_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-peer.txt
	touch $@

# Retrains the site's two language models and exports them (never part of `make test`; CI checks the
# committed files in model/weights/ instead): the corpus in .venv (it reads the lessons), model/train.py in
# .venv-peer (torch, about 30 min on 2 cores), then model/export.py in .venv (float16 files, MANIFEST.json,
# the loss curve and the report in model/README.md).
# `make model SMOKE=1`: a few steps only, to prove the pipeline.
.PHONY: model
model: setup words $(PEER_VENV)/.installed
	$(BIN)/python -m model.corpus --out out/model/corpus
	$(PEER_VENV)/bin/python -m model.train --corpus out/model/corpus --out out/model $(if $(SMOKE),--smoke)
	$(BIN)/python -m model.export out/model
	$(BIN)/python -m tools.embedding_table
