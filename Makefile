# Two commands for a newcomer: `make demo` and `make test`. Both create the virtual environment, install everything,
# obtain and start a local Neo4j (unless NEO4J_URI is set) and apply the migrations.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export MEMORA_HOME ?= $(CURDIR)/.memora
PYTEST_ARGS ?=
# Worker processes for the parallel part of `make test`: 2 on a 2-core machine (a third showed no gain in a clean
# clone and adds contention to the tests that wait on a clock: docs/BENCHMARKS.md, "Test suite").
TEST_WORKERS ?= 2
# make eval EVAL_ARGS='--data /path/to/bench' adds the external dev sets (or set MEMORA_BENCH_DATA): locomo-dev/,
# realtalk-dev/, xquad-es-dev/; EVAL_ARGS='--data DIR --only realtalk' runs one set
EVAL_ARGS ?=
# make bench-scale SCALE_ARGS='--sizes 1000,10000,100000 --embedder hash' (see docs/evaluation.md, "Scale benchmark")
SCALE_ARGS ?= --sizes 1000,10000
# make bench-load LOAD_ARGS='--sizes 10000,100000' (1, 2, 4, 8 clients; see docs/BENCHMARKS.md, "Load")
LOAD_ARGS ?= --sizes 10000
# make bench BENCH_ARGS='--data /path/to/bench --only locomo' (peers side by side; never part of `make test`)
BENCH_ARGS ?=

.PHONY: demo test check install db-start db-stop db-status migrate lint docs serve eval bench bench-scale bench-load clean

# setuptools' build warnings (an editable install, data folders that are not packages) are not the user's business.
PIP = PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip

$(BIN)/memora: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade --quiet pip
	$(PIP) install --quiet -e '.[dev]'
	touch $(BIN)/memora

install: $(BIN)/memora

# The torch-based embedding providers (sentence-transformers, FlagEmbedding) are an optional extra the tests need,
# and so is matplotlib (extra `plot`: timeline pictures).
$(VENV)/.ml-installed: $(BIN)/memora
	$(PIP) install --quiet -e '.[dev,ml,plot]'
	touch $@

db-start: install
	$(BIN)/memora db start

db-stop: install
	$(BIN)/memora db stop

db-status: install
	$(BIN)/memora db status

migrate: db-start
	$(BIN)/memora migrate

demo: migrate
	$(BIN)/memora demo

# The bench extra too: tests/test_bench_peers.py smoke-runs bench/peers.py so it cannot silently rot.
# Two parts: the tests that keep to their own projects on TEST_WORKERS processes (pytest-xdist, one module per worker
# at a time), then the `serial` ones alone. A part with nothing selected (exit 5) is not a failure.
test: migrate $(VENV)/.ml-installed $(VENV)/.bench-installed $(VENV)/axe/axe.min.js
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not serial" $(PYTEST_ARGS) \
	  || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]

# axe-core, the accessibility rules the browser tests run in each page (tests/web/): fetched from the npm registry at
# install time and checked against the integrity hash npm publishes. The browser is Debian's chromium.
$(VENV)/axe/axe.min.js: $(BIN)/memora
	$(BIN)/python -m tests.web.fetch_axe $@

lint: install
	$(BIN)/ruff check graph inference ingest queries api tests bench
	$(BIN)/mypy graph inference ingest queries api

# The edit loop: lint, then the tests that need neither the database nor a budget of minutes (markers in
# pyproject.toml), with the quick Hypothesis profile. `make test` runs everything.
check: lint
	MEMORA_TEST_PROFILE=quick $(BIN)/python -m pytest -q -m "not neo4j and not slow" $(PYTEST_ARGS)

# The pages of docs/ generated from the code; tests/house/test_docs_*.py fail when one is out of date.
docs: install
	$(BIN)/python -m api.settings_doc > docs/configuration.md
	$(BIN)/python -m api.cli_doc > docs/cli.md
	$(BIN)/python -m api.api_doc > docs/api.md
	$(BIN)/python -m api.cypher_doc docs/cypher
	$(BIN)/python -m api.architecture_doc docs/architecture.md

serve: migrate
	$(BIN)/memora serve

eval: migrate
	$(BIN)/python bench/run_evals.py $(EVAL_ARGS)

# Not part of `make test`: one synthetic project per size, ingested, served and searched (minutes to hours).
bench-scale: migrate $(VENV)/.ml-installed
	$(BIN)/python bench/scale.py $(SCALE_ARGS) --json scale.json --plot scale.png

# Not part of `make test`: searches per second and latency with 1, 2, 4 and 8 clients on synthetic projects.
bench-load: migrate $(VENV)/.ml-installed
	$(BIN)/python bench/bench_load.py $(LOAD_ARGS) --json load.json --plot load.png

# neo4j-graphrag (extra `bench`) for the peers side by side.
$(VENV)/.bench-installed: $(BIN)/memora
	$(PIP) install --quiet -e '.[dev,bench]'
	touch $@

bench: migrate $(VENV)/.bench-installed
	$(BIN)/python -m bench.peers $(BENCH_ARGS)

clean: db-stop
	rm -rf $(MEMORA_HOME)
