#pragma once
// Levenshtein distance for "did you mean" suggestions, with a bound that keeps it cheap.
#include <cstddef>
#include <string_view>

namespace amdahl {

/// The least number of single-character insertions, deletions and substitutions that turn `a`
/// into `b` (bytes, case counts). O(|a| |b|) time: prefer the bounded form below.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The same when it is at most `max_distance`, else `max_distance + 1`. Only the band of cells
/// within `max_distance` of the diagonal is computed, and the work stops at the first row whose
/// cells all exceed it: O(min(|a|, |b|) (2 max_distance + 1)) time at most, O(max(|a|, |b|))
/// memory. When `cells` is given, the number of cells computed is added to it.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max_distance,
                          std::size_t* cells = nullptr);

}  // namespace amdahl
