#!/usr/bin/env bash
# Installs the built tree into a temporary prefix and builds a consumer project against it.
set -euo pipefail
build_dir=$1 consumer_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/amdahl"
test -f "$work/prefix/include/amdahl/evaluate.hpp"
for schema in eval law rank plan compare scale fit import profile; do
  test -f "$work/prefix/share/amdahl/schemas/$schema.schema.json"
done
# The man pages (one per command) and the completions, where man and the shells look for them.
for page in amdahl amdahl-eval amdahl-law amdahl-rank amdahl-plan amdahl-compare amdahl-scale amdahl-fit \
            amdahl-import amdahl-completions; do
  test -f "$work/prefix/share/man/man1/$page.1.gz"
done
test -f "$work/prefix/share/bash-completion/completions/amdahl"
test -f "$work/prefix/share/zsh/vendor-completions/_amdahl"
test -f "$work/prefix/share/fish/vendor_completions.d/amdahl.fish"
cmake -S "$consumer_dir" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
