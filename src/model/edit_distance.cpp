#include "model/edit_distance.hpp"

#include <algorithm>
#include <vector>

namespace amdahl {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    return edit_distance(a, b, std::max(a.size(), b.size()));
}

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max_distance, std::size_t* cells) {
    if (a.size() > b.size()) std::swap(a, b);         // a is the shorter: its characters are the rows
    max_distance = std::min(max_distance, b.size());  // no distance exceeds the longer length
    const std::size_t beyond = max_distance + 1;
    if (b.size() - a.size() > max_distance) return beyond;  // at least |b| - |a| insertions
    // D[i][j] = distance between a[0, i) and b[0, j); row[j] holds the latest row. Cells more than
    // max_distance off the diagonal (|i - j| > max_distance) exceed it, so they are never computed
    // and read as `beyond` (values are capped there).
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = std::min(j, beyond);
    std::size_t computed = 0;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        const std::size_t first = i > max_distance ? i - max_distance : 0;
        const std::size_t last = std::min(b.size(), i + max_distance);
        std::size_t diagonal, left, row_min;
        if (first == 0) {
            diagonal = row[0];
            row[0] = left = row_min = std::min(i, beyond);
        } else {
            diagonal = row[first - 1];
            left = row_min = beyond;
        }
        for (std::size_t j = std::max<std::size_t>(first, 1); j <= last; ++j) {
            const std::size_t above = row[j];
            // D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1, D[i-1][j-1] + (a[i-1] != b[j-1]))
            const std::size_t cell = std::min({above + 1, left + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1), beyond});
            row[j] = left = cell;
            diagonal = above;
            row_min = std::min(row_min, cell);
        }
        computed += last - first + 1;
        if (row_min == beyond) {  // every path to the end passes through this row
            if (cells) *cells += computed;
            return beyond;
        }
    }
    if (cells) *cells += computed;
    return row[b.size()];
}

}  // namespace amdahl
