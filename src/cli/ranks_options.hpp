#pragma once
// --ranks (eval and rank): a profile per rank, from files or globs, grouped into barrier segments.
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/ranks.hpp"
#include "cli/common.hpp"
#include "cli/run.hpp"

namespace amdahl::cli {

/// Adds --ranks FILE|GLOB (repeatable) to `command`, and makes PROFILE optional: one of the two.
void add_ranks_option(CLI::App& command, std::vector<std::string>& ranks);

/// The files `patterns` name: each a file, or a glob in its file name (`runs/rank*.json`), its
/// matches in natural order (rank2 before rank10). Throws amdahl::Error for a glob that matches
/// nothing or a pattern in a directory name.
std::vector<std::string> expand_rank_files(const std::vector<std::string>& patterns);

/// A rank's name from its file's: the name without its directory and extension ("rank3").
std::string rank_name(const std::string& path);

/// Loads every rank's profile (with PROFILE's input options) and groups them into segments.
RankSet load_ranks(const std::vector<std::string>& patterns, const ProfileOptions& options, Context& context);

/// Throws amdahl::Error when `command` was given one of `options`, which --ranks does not take.
void reject_with_ranks(const CLI::App& command, std::initializer_list<const char*> options);

/// eval --ranks: the speedups on their ranks, the step before and after.
int run_eval_ranks(const std::vector<std::string>& ranks, const ProfileOptions& options,
                   const std::vector<std::string>& speedups, bool explain, std::optional<double> require_speedup,
                   Context& context);
/// rank --ranks: the (segment, rank) pairs that hold the most step time, the first `top`.
int run_rank_ranks(const std::vector<std::string>& ranks, const ProfileOptions& options, std::optional<std::size_t> top,
                   Context& context);

}  // namespace amdahl::cli
