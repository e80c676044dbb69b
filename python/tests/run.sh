#!/usr/bin/env bash
# Builds the Python package in a fresh venv with `pip install ./python` (as a user would, from the repository
# root), type-checks it with mypy, and runs its tests against the command built from the same sources. Called
# by .ci/run.
#   usage: python/tests/run.sh   (VENV=dir to choose the venv's place, default target/python-venv;
#   PGNKIT_SPARK=1 also installs pyspark and pandas for the Spark example's test, as .ci/run does)
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${VENV:-target/python-venv}
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# The venv builds with the repository's target directory: the dependencies compiled for the command are reused.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$(pwd)/target}
"$VENV/bin/python" -m pip install --quiet ./python pytest mypy
if [ "${PGNKIT_SPARK:-0}" = 1 ]; then
    "$VENV/bin/python" -m pip install --quiet pyspark "pandas>=2.2"
fi
# Types (python/pyproject.toml's [tool.mypy], strict): the package's sources with the native module's stub; a
# typed program against the installed package (so py.typed must be in it), where an option value outside its
# Literal must stay an error; the stub against the built module (names, parameters, defaults).
MYPYPATH=python "$VENV/bin/python" -m mypy --config-file python/pyproject.toml -p pgnkit
"$VENV/bin/python" -m mypy --config-file python/pyproject.toml python/tests/test_typed_usage.py
"$VENV/bin/python" -m mypy.stubtest pgnkit._native --mypy-config-file python/pyproject.toml
cargo build --release --quiet
# The extension module's own unit tests (python/ is not a default member of the workspace).
cargo test --release --quiet -p pgnkit-python
PGNKIT_BIN=$CARGO_TARGET_DIR/release/pgnkit "$VENV/bin/python" -m pytest -q python/tests
