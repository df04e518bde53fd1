# starlib compendium. `make help` lists the targets.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9]*.ipynb))
NB_TIMEOUT ?= 1800
# pytest workers (2 cores here)
JOBS ?= 2
GENERATED := paper_tables notebooks

export MPLBACKEND := Agg
export PYTHONHASHSEED := 0
export SOURCE_DATE_EPOCH := 0
export TZ := UTC
export JUPYTER_PREFER_ENV_PATH := 1
export TQDM_DISABLE := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1

# Every committed output must be the same bytes on any CPU and any thread count. The checks regenerate them under
# OpenBLAS kernels other than this machine's default, with one BLAS and one numba thread, so that a byte that
# depends on the CPU fails here too and not only on somebody else's machine.
ONE_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
NBVAL_CORETYPE ?= Zen
REPRODUCE_CORETYPE ?= Haswell

.PHONY: help venv lock all notebooks test pytest lint nbval check-clean reproduce reproduce-other-cpu bench lab html \
	site sweep simulate clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

venv: $(STAMP) ## create .venv and install the locked packages (requirements.txt) and starlib
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	touch $(STAMP)

lock: ## re-resolve requirements.in into the full lock requirements.txt (Python 3.11)
	rm -rf build/lockenv && $(PYTHON) -m venv build/lockenv
	build/lockenv/bin/python -m pip install --quiet -r requirements.in
	{ echo "# Full lock for Python 3.11 (make lock regenerates it from requirements.in). Install: pip install -r requirements.txt"; \
	  build/lockenv/bin/python -m pip freeze --all | grep -v -iE '^(starlib|pip)[= @]' | sort -f; } > requirements.txt
	cp requirements.txt binder/requirements.txt

all: venv notebooks ## set up, then run every notebook in place and write paper_tables/

notebooks: venv ## run every notebook in place (papermill, JOBS at a time), regenerating paper_tables/
	@printf '%s\n' $(NOTEBOOKS) | xargs -P $(JOBS) -I{} sh -c \
	  'echo "== {}"; $(BIN)/python tools/run_notebook.py {} --timeout $(NB_TIMEOUT)'

test: venv lint pytest nbval check-clean reproduce-other-cpu ## all checks: lint, unit tests + doctests, nbval, outputs unchanged (also on other BLAS kernels)

lint: venv ## ruff over the package, tests and tools
	$(BIN)/ruff check starlib tests tools benchmarks

pytest: venv ## unit tests and doctests
	$(BIN)/python -m pytest -q -n $(JOBS) tests starlib; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; rc=0; fi; exit $$rc

nbval: venv ## re-execute every notebook (OPENBLAS_CORETYPE=Zen, one thread) and compare outputs; rewrites paper_tables/
	@if [ -z "$(NOTEBOOKS)" ]; then echo "nbval: no notebooks"; exit 0; fi
	$(BIN)/python tools/clean_generated.py
	env OPENBLAS_CORETYPE=$(NBVAL_CORETYPE) $(ONE_THREAD) \
	  $(BIN)/python -m pytest -q -n $(JOBS) --dist loadscope --nbval --nbval-current-env \
	  --nbval-sanitize-with tools/nbval_sanitize.cfg --nbval-cell-timeout $(NB_TIMEOUT) $(NOTEBOOKS)

check-clean: ## fail if paper_tables/ or notebooks/ differ from the committed files (new, stale or changed)
	@if ! git rev-parse --git-dir >/dev/null 2>&1; then echo "check-clean: not a git checkout, skipped"; exit 0; fi
	@out=$$(git status --porcelain -- $(GENERATED)); \
	  if [ -n "$$out" ]; then echo "Regenerated files differ from the committed ones:"; echo "$$out"; \
	  git --no-pager diff --stat -- $(GENERATED); exit 1; fi; echo "check-clean: paper_tables/ and notebooks/ reproduce"

reproduce: venv ## delete generated tables, rerun every notebook with papermill, require no change
	$(BIN)/python tools/clean_generated.py
	$(MAKE) notebooks
	$(MAKE) check-clean

reproduce-other-cpu: venv ## rerun every notebook under OPENBLAS_CORETYPE=Haswell, one thread; require no change
	$(BIN)/python tools/clean_generated.py
	env OPENBLAS_CORETYPE=$(REPRODUCE_CORETYPE) $(ONE_THREAD) $(MAKE) --no-print-directory notebooks
	$(MAKE) --no-print-directory check-clean

# The ER_q sweep record (data/er_sweep.csv) that notebook 12 reads: every prime power q <= 1024, both EDST families,
# as Dask tasks. It resumes: delete the file to start over. SWEEP_ARGS adds options, e.g.
# SWEEP_ARGS="--scheduler tcp://host:8786" to run on a Dask cluster (README, "Sweeps on a cluster").
SWEEP_ARGS ?=
sweep: venv ## regenerate data/er_sweep.csv: ER_q EDSTs for every prime power q <= 1024 on Dask (about 1 hour here)
	$(BIN)/starlib sweep er --q-max 1024 --workers $(JOBS) -o data/er_sweep.csv $(SWEEP_ARGS)

.PHONY: er-depth3
er-depth3: venv ## regenerate starlib/edst/depth/er_depth3/q*.json: depth-3 maximum EDST families of ER_q, every prime power q <= 61 (CP-SAT, one worker, ~30 min)
	$(ONE_THREAD) $(BIN)/python tools/er_depth3.py

.PHONY: slimfly-depth3
slimfly-depth3: venv ## regenerate starlib/edst/depth/slimfly_depth3/q*.json: depth-3 maximum EDST families of Slim Fly MMS(q), q = 7 (CP-SAT, one worker, ~6 min)
	$(ONE_THREAD) $(BIN)/python tools/slimfly_depth3.py

# The ns-3 record (data/simulate.csv) that notebook 15 reads: allreduce over EDSTs, one BFS tree, the ring on a
# Hamiltonian cycle and the contended ring on four networks, 1 KiB..16 MiB, simulated packet by packet and modelled
# as in notebook 08.
simulate: venv ## regenerate data/simulate.csv: the trees on the ns-3 simulator (a few minutes here)
	$(BIN)/python -m starlib.netsim.grid -o data/simulate.csv

# The schedules record (data/schedules.csv) that notebook 16 reads: every allreduce schedule (trees, weighted trees,
# one tree, rings on Hamiltonian cycles, NCCL's double binary tree, halving-doubling, the contended ring) on the
# networks of notebook 14 at radix 16 and on PolarFly q = 32 (1,057 routers), on ns-3 and SimGrid, as Dask tasks.
# It resumes: delete the file to start over. SCHEDULES_ARGS="--scheduler tcp://host:8786" runs it on a cluster.
SCHEDULES_ARGS ?=
.PHONY: schedules
schedules: venv ## regenerate data/schedules.csv: every allreduce schedule on both simulators (Dask; about 2 hours here)
	$(BIN)/starlib sweep schedules --workers $(JOBS) -o data/schedules.csv $(SCHEDULES_ARGS)

# The brute-force record that tests/edst/depth/test_coupled.py checks coupled_depth_bound against.
.PHONY: depth-optima
depth-optima: venv ## regenerate data/depth_optima_small.csv: least depth of k EDSTs, every connected graph on <= 7 vertices (brute force, ~10 s)
	$(BIN)/python tools/depth_optima_small.py -o data/depth_optima_small.csv

# The shallow family of every Table IV network (data/maximum_shallow.csv, data/maximum_shallow/).
.PHONY: maximum-shallow
maximum-shallow: venv ## regenerate data/maximum_shallow.csv: the shallow family of every Table IV network, read by notebook 13 (~10 min)
	$(BIN)/python tools/maximum_shallow.py -o data/maximum_shallow.csv

# The CP-SAT depth certificates (data/depth_certificates.csv, data/depth_certificates/) that notebook 13 reads and
# tests/paper/test_depth_certificates.py re-checks: Table IV rows with n <= 126 and n * k <= MAX_VERTEX_TREES.
.PHONY: depth-certificates
depth-certificates: venv ## regenerate data/depth_certificates.csv: least depth of k EDSTs on the small Table IV networks (CP-SAT, ~3 min)
	$(BIN)/python tools/depth_certificates.py -o data/depth_certificates.csv

# The Slim Fly depth record (data/slimfly_depth.csv) that tests/edst/depth/test_slimfly.py re-checks on a sample.
.PHONY: slimfly-depth
slimfly-depth: venv ## regenerate data/slimfly_depth.csv: Slim Fly MMS(q), maximum count, depth <= 4, every admissible q <= 128 (~50 min)
	$(BIN)/python tools/check_slimfly_depth.py --q-max 128 -o data/slimfly_depth.csv

bench: venv ## benchmarks (prints tables; never part of the tests)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b; done

lab: venv ## open the notebooks in JupyterLab from the same environment
	$(BIN)/jupyter lab --notebook-dir=notebooks

html: venv ## render the executed notebooks to static HTML in html/
	$(BIN)/jupyter nbconvert --to html --output-dir html $(NOTEBOOKS)

# The site needs only the 'site' extra of pyproject.toml (nbconvert, nbformat, MathJax, Playwright for its test), at
# the versions of the lock, not the whole environment of make venv.
SITE_STAMP := $(VENV)/.site-installed
$(SITE_STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.txt $$($(BIN)/python -c \
	  'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["site"]))')
	touch $(SITE_STAMP)

site: $(SITE_STAMP) ## the reader's site in site/: README, docs, references and every executed notebook as HTML, searchable (nothing re-run)
	$(BIN)/python tools/build_site.py --out site

clean: ## remove the virtual environment and build products (not paper_tables/)
	rm -rf $(VENV) build html site .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
