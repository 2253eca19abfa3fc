#pragma once
// "Did you mean": the known names nearest to one that matched nothing, found with bounded work.
#include <cstddef>
#include <string_view>
#include <vector>

namespace amdahl {

/// Edit-distance cells (and bytes searched) a suggestion may cost: about 20-40 ms here, however
/// many or long the names are.
inline constexpr std::size_t suggestion_work_budget = 20'000'000;

struct Suggestions {
    std::vector<std::string_view> names;  ///< closest first, then by name
    std::size_t work = 0;                 ///< cells and bytes spent, at most the budget
    bool complete = true;                 ///< false when the budget ran out before every name was weighed
};

/// The names in `known` nearest `wanted`, at most `count`, closest first: those within a third of
/// its length in edit distance (at least 2; case ignored), and those that contain it or that it
/// contains (case counts), whatever their distance. Repeated and empty names count once or not at
/// all. Names are weighed in the order of a cheap lower bound on their distance (length and letter
/// counts), and weighing stops once no further name can be nearer, or when `work_budget` is spent:
/// the answer is then the best of the names weighed, the same on every machine.
Suggestions nearest_names(std::string_view wanted, const std::vector<std::string_view>& known, std::size_t count,
                          std::size_t work_budget = suggestion_work_budget);

}  // namespace amdahl
