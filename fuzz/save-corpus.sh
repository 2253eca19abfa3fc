#!/usr/bin/env bash
# Keeps what the fuzzers grew: merges each target's corpus (build-fuzz/corpus/TARGET/) down to the
# inputs that add coverage (libFuzzer -merge=1) and packs them as fuzz/corpus/TARGET.tar.xz, to be
# committed. fuzz/run.sh unpacks it into an empty corpus directory, so a new machine's runs (and
# CI's smoke) start from the coverage the last one reached, not from the seeds.
# Usage: fuzz/save-corpus.sh [TARGET...]   (default: every target with a corpus)
# The archive is deterministic (sorted names, no times or owners): an unchanged set packs the same.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${AMDAHL_FUZZ_BUILD:-build-fuzz}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in "$build"/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
mkdir -p fuzz/corpus
for t in "${targets[@]}"; do
  [ -d "$build/corpus/$t" ] || { echo "$t: no corpus in $build/corpus/$t" >&2; continue; }
  merged=$(mktemp -d)
  # -merge=1 copies into the first directory the inputs of the others that add coverage.
  "$build/fuzz/$t" -merge=1 -rss_limit_mb=2048 -timeout=10 "$merged" "$build/corpus/$t" >"$build/merge-$t.log" 2>&1 ||
    { echo "$t: merge failed, see $build/merge-$t.log" >&2; rm -rf "$merged"; exit 1; }
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$merged" -cf - . | xz -9 >"fuzz/corpus/$t.tar.xz"
  echo "$t: $(find "$merged" -type f | wc -l) inputs, $(du -k "fuzz/corpus/$t.tar.xz" | cut -f1) KiB packed"
  rm -rf "$merged"
done
