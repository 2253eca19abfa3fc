#!/usr/bin/env bash
# Golden outputs of the installed binary: installs the build tree into a temporary prefix, runs
# its bin/amdahl on an example from the source tree (so paths in the output are relative) in every
# format, and compares stdout, stderr and the exit status byte for byte with tests/golden/.
#
#   tests/golden.sh BUILD_DIR SOURCE_DIR
#   AMDAHL_UPDATE_GOLDEN=1 tests/golden.sh BUILD_DIR SOURCE_DIR   # rewrite the golden files
#
# Fields naming a version or a commit (none today) are masked, so a release does not churn them.
set -euo pipefail
build_dir=$(cd "$1" && pwd) source_dir=$(cd "$2" && pwd)
golden=$source_dir/tests/golden
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
amdahl=$work/prefix/bin/amdahl
test -x "$amdahl"

mask() { sed -E 's/"(version|amdahl_version|commit|git_commit)": *"[^"]*"/"\1": "<masked>"/'; }

# Compares one stream with its golden file ("" expected when the file does not exist).
failed=0
check() {
  local expected=$1 actual=$2 what=$3
  if [ "${AMDAHL_UPDATE_GOLDEN:-}" = 1 ]; then
    if [ -s "$actual" ] || [ -e "$expected" ]; then cp "$actual" "$expected"; fi
    return
  fi
  local expected_text=$expected
  [ -e "$expected" ] || expected_text=/dev/null
  if ! diff -u --label "$expected (expected)" --label "$what (actual)" "$expected_text" "$actual"; then
    failed=1
  fi
}

cd "$source_dir"
args=(eval examples/transformer_step.json -s attention_softmax=10 -s 'gemm_*=2')
for format in table json csv md; do
  ext=$format
  [ "$format" = table ] && ext=txt
  status=0
  "$amdahl" "${args[@]}" --format "$format" >"$work/stdout.raw" 2>"$work/stderr.raw" || status=$?
  mask <"$work/stdout.raw" >"$work/stdout"
  mask <"$work/stderr.raw" >"$work/stderr"
  what="amdahl ${args[*]} --format $format"
  if [ "$status" -ne 0 ]; then
    echo "$what: exit status $status, expected 0" >&2
    failed=1
  fi
  check "$golden/eval.$ext" "$work/stdout" "$what: stdout"
  check "$golden/eval.$ext.stderr" "$work/stderr" "$what: stderr"
done
exit "$failed"
