# Two commands set up a fresh clone: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test lint bench pipelines notebooks notebooks-html clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# torch first: the local CPU build; any looser requirement pulls CUDA.
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,pipelines,notebooks]'
	# the notebooks' kernel: this venv's Python, named as notebooks/*.ipynb name it
	$(BIN)/python -m ipykernel install --sys-prefix --name factstore --display-name 'factstore (.venv)'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/factstore demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q --durations=25

lint: $(STAMP)
	$(BIN)/ruff check .

# The Dagster UI on http://127.0.0.1:3000 (DAGSTER_HOME under .factstore/dagster).
pipelines: $(STAMP)
	mkdir -p .factstore/dagster
	DAGSTER_HOME=$(CURDIR)/.factstore/dagster $(BIN)/dagster dev -m pipelines.definitions -h 127.0.0.1 -p 3000

# JupyterLab on http://127.0.0.1:8888 over notebooks/, the store under .factstore.
# Jupyter refuses to run as root unless told; containers and CI machines often are root.
NOTEBOOK_PORT ?= 8888
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
notebooks: $(STAMP)
	FACTSTORE_HOME=$(CURDIR)/.factstore $(BIN)/jupyter lab --ip 127.0.0.1 --no-browser \
		--port $(NOTEBOOK_PORT) $(AS_ROOT) --notebook-dir $(CURDIR)/notebooks

# Executed HTML copies of every notebook under .factstore/notebooks/, for reading only.
notebooks-html: $(STAMP)
	mkdir -p .factstore/notebooks
	FACTSTORE_HOME=$(CURDIR)/.factstore $(BIN)/jupyter nbconvert --to html --execute \
		--ExecutePreprocessor.timeout=900 --output-dir $(CURDIR)/.factstore/notebooks \
		notebooks/*.ipynb

bench: $(STAMP)
	$(BIN)/python evals/perf/bench_store.py

clean:
	rm -rf $(VENV) .factstore .pytest_cache
