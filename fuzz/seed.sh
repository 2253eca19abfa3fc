#!/usr/bin/env bash
# Builds the seed corpora, one directory per fuzz target, from tests/data/, examples/, the
# regression inputs and fuzz/seeds/. Usage: fuzz/seed.sh [DIR] (default build-fuzz/seeds; never
# committed). Files are cut at 32 KiB so the fuzzer mutates small inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-fuzz/seeds}
max_bytes=32768

# add TARGET FILE...: copies each file into TARGET's corpus, named by its content's hash.
add() {
  local target=$1; shift
  mkdir -p "$out/$target"
  local file hash
  for file in "$@"; do
    [ -f "$file" ] || continue
    hash=$(head -c "$max_bytes" "$file" | sha1sum | cut -c1-16)
    head -c "$max_bytes" "$file" >"$out/$target/$hash"
  done
}

# add_lines TARGET FILE [bytes]: each line of FILE is one input (but for a # comment); for
# fuzz_cli its words become newline-separated arguments (fuzz_cli splits its input on NUL or
# newline). With "bytes", each word's backslash escapes are expanded first (printf's %b: \xNN, \e,
# \t), so a line can give an argument bytes a text file should not hold: ESC, C1 controls, bidi
# marks, broken UTF-8.
add_lines() {
  local target=$1 file=$2 escapes=${3:-} line tmp
  local -a words
  tmp=$(mktemp)
  while IFS= read -r line; do
    [ -n "$line" ] && [ "${line:0:1}" != "#" ] || continue
    if [ "$target" != fuzz_cli ]; then
      printf '%s' "$line" >"$tmp"
    elif [ "$escapes" = bytes ]; then
      read -ra words <<<"$line"
      printf '%b\n' "${words[@]}" | head -c -1 >"$tmp"
    else
      printf '%s' "$line" | tr ' ' '\n' >"$tmp"
    fi
    add "$target" "$tmp"
  done <"$file"
  # Every line at once as well: several speedups evaluated together.
  [ "$target" = fuzz_cli ] || add "$target" "$file"
  rm -f "$tmp"
}

rm -rf "$out"
mapfile -t examples < <(find examples -type f | sort)
mapfile -t profilers < <(find tests/data/profilers -type f ! -name README.txt | sort)
for target in fuzz_json fuzz_csv fuzz_markdown fuzz_text fuzz_chrome_trace fuzz_nsys fuzz_rocprof fuzz_folded; do
  # Every profile and profiler file seeds every reader: misread formats are inputs too.
  add "$target" "${examples[@]}" "${profilers[@]}"
done
# gzip: the compressed samples, one member and two.
mapfile -t gzipped < <(find tests/data/gzip -type f -name '*.gz' | sort)
add fuzz_gzip "${gzipped[@]}"
mapfile -t harness < <(find tests/data/harness -type f -name '*.json' | sort)
add fuzz_harness "${harness[@]}"
add_lines fuzz_speedup fuzz/seeds/speedup.txt
add_lines fuzz_cli fuzz/seeds/cli.txt
add_lines fuzz_cli fuzz/seeds/cli-bytes.txt bytes
# Every file the harness can name (its "@name" table in fuzz/harness.cpp), in each command that
# reads a profile and on either side of a compare. The twenty-fifth stop's run found by chance a
# pairing no seed gave, a trace as compare's AFTER: 24 edges at once.
mapfile -t named < <(grep -oE '^ *\{"@[a-z0-9_]+"' fuzz/harness.cpp | grep -oE '@[a-z0-9_]+')
matrix=$(mktemp)
# add_command LINE: one fuzz_cli input, LINE's words as its arguments.
add_command() {
  printf '%s' "$1" | tr ' ' '\n' >"$matrix"
  add fuzz_cli "$matrix"
}
for name in "${named[@]}"; do
  for line in "eval $name -s *=2" "eval $name --explain -s *=2 --format md" "rank $name" \
    "plan $name --target 1.1" "import $name --format json" "report $name -s *=2" \
    "compare $name @before" "compare @before $name --format json" "compare $name $name"; do
    add_command "$line"
  done
done
# Each option that selects from a trace or a stack, in each of those commands (a seed had given
# most of them to eval alone).
for command in "eval @kineto -s *=2" "rank @kineto" "plan @kineto --target 1.1" "compare @kineto @sync" \
  "import @kineto" "report @kineto -s *=2"; do
  for options in "--pid 1" "--tid 7" "--stream 7" "--device 0" "--cat kernel" "--exclude nccl" \
    "--keep-profiler-events" "--window ProfilerStep#.* --step last --keep-partial-steps" \
    "--window ProfilerStep --window-any --step 1" "--lane cpu" "--lane all" "--depth 2" "--total 1s" \
    "--group-by class" "--rename-regex gemm=mm" "--no-grouping --color always"; do
    add_command "$command $options"
  done
  for options in "--leaf --sample-period 1ms" "--depth 2 --sample-period 1us"; do
    add_command "${command//@kineto/@folded} $options"
  done
  add_command "${command//@kineto/@nsys_console} --timeunit ns"
done
# Each output form of those commands for each kind of profile: a trace's overlap and lanes, a
# replay, ranks, repeated runs, a profiler's table, stacks and a benchmark harness's report.
for name in @kineto "@replay --model replay" @ranks @before_runs @nsys @folded @hf_before; do
  for command in "eval $name -s *=2" "rank $name" "plan $name --target 1.1" "import $name" \
    "report $name" "compare $name @after"; do
    for options in "--format json" "--format md" "--format csv" "--explain" "--plot p.svg" \
      "--bars always --unit us --precision 1"; do
      add_command "$command $options"
    done
  done
done
rm -f "$matrix"
# Inputs that once found bugs.
for dir in tests/data/fuzz-regressions/*/; do
  [ -d "$dir" ] || continue
  mapfile -t files < <(find "$dir" -type f | sort)
  add "$(basename "$dir")" "${files[@]}"
done
for dir in "$out"/*/; do echo "$(basename "$dir"): $(find "$dir" -type f | wc -l) seeds"; done
