# annotated_nn — two commands do everything on a fresh machine:
#   make docs   build the book and serve it at http://127.0.0.1:8000 (live reload)
#   make test   run every test (library, book, browser)
# Each target sets itself up on first run: a .venv with the pinned packages
# (constraints.txt) and the Debian packages it needs (graphviz, chromium, CJK fonts).

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# A local wheel directory (this workplace keeps torch's CPU wheel there) is used when present.
FIND_LINKS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels,)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEB_PACKAGES := graphviz chromium fonts-noto-cjk
PYTEST_ARGS ?=
# `make test` runs on every core (at most 4; pytest-xdist). The book is built once, in the
# background, for every worker (tests/book_site.py); `--dist loadgroup` keeps the tests that share a
# module's own expensive set-up (process groups, torchrun runs) on one worker (tests/conftest.py).
PYTEST_XDIST := -n auto --maxprocesses=4 --dist loadgroup

.PHONY: docs test build-docs diagrams annotations bench train notebook sysdeps venv clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(FIND_LINKS) -c constraints.txt -e '.[test,docs,dev,notebooks]'
	touch $(STAMP)

venv: $(STAMP)

# Debian packages: `dot` for the diagrams, chromium + Noto CJK for the browser tests.
sysdeps:
	@missing=""; \
	command -v dot >/dev/null || missing="$$missing graphviz"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$$missing fonts-noto-cjk"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

build-docs: $(STAMP) sysdeps
	$(VENV)/bin/mkdocs build --strict

docs: $(STAMP) sysdeps
	$(VENV)/bin/mkdocs serve --strict -a 127.0.0.1:8000

# Rewrite the committed DOT sources of the book's diagrams (diagrams/out/*.dot) from the code.
diagrams: $(STAMP)
	$(PY) diagrams/generate.py

test: $(STAMP) sysdeps
	$(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

# Bilingual commentary of every def and class (see CONTRIBUTING.md); exits 1 on any problem.
annotations: $(STAMP)
	$(PY) tools/annotations.py

bench: $(STAMP)
	$(PY) benchmarks/bench_module.py
	$(PY) benchmarks/bench_training.py
	$(PY) benchmarks/bench_optim.py
	$(PY) benchmarks/bench_parametrize.py
	$(PY) benchmarks/bench_ddp.py

# Train SimpleNet in annotated_nn and torch.nn side by side; fails if the losses ever differ.
train: $(STAMP)
	$(PY) -m annotated_examples.train

# Run one chapter's notebook (downloaded from the book, or site/notebooks/ after `make build-docs`)
# with the project's venv, top to bottom; the run, with its outputs, is written beside it as
# NAME.run.ipynb.
#   make notebook NB=path/to/06-call-and-forward-hooks.en.ipynb
notebook: $(STAMP)
	@test -n "$(NB)" || { echo "usage: make notebook NB=path/to/chapter.ipynb" >&2; exit 2; }
	$(VENV)/bin/jupyter execute --output '{notebook_name}.run.ipynb' "$(NB)"

clean:
	rm -rf site .pytest_cache .hypothesis
