#!/usr/bin/env bash
# The Action's install step: put json-contracts in a private virtual environment under
# $RUNNER_TEMP (the job's PATH is left alone) and hand its path to the run step as the step
# output "executable".
#
# Inputs (environment, set by action.yml):
#   JC_INSTALL  "action" (default): this action's checkout, $GITHUB_ACTION_PATH;
#               "none": a json-contracts already on PATH, installed by the job (nothing installed);
#               anything else: a pip requirement, e.g. "json-contracts @ git+https://github.com/OWNER/json-contracts@REF"
#               (a version pin such as json-contracts==0.2.0 works once the package is on PyPI).
#   JC_PYTHON   the interpreter to build the environment with (default: python3).
set -euo pipefail

fail() {
  echo "::error title=json-contracts::$1"
  exit 1
}

install="${JC_INSTALL:-action}"
if [[ "$install" == none ]]; then
  bin="$(command -v json-contracts)" || fail "install is none, but json-contracts is not on PATH; install it in an earlier step or leave install unset"
else
  python="${JC_PYTHON:-python3}"
  command -v "$python" >/dev/null || fail "no Python found ($python); set the python-version input"
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "json-contracts needs Python 3.11 or newer, $python is $("$python" -V 2>&1); set the python-version input"
  if [[ "$install" == action ]]; then
    spec="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
  else
    spec="$install"
  fi
  venv="$(mktemp -d "${RUNNER_TEMP:?RUNNER_TEMP is not set}/json-contracts.XXXXXX")"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$spec"
  bin="$venv/bin/json-contracts"
fi

"$bin" --version
echo "executable=$bin" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
