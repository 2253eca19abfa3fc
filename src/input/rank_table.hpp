#pragma once
// One table of every rank (a `rank` column) for --ranks: a table per rank, read as that rank's profile.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/error.hpp"

namespace amdahl::detail {

/// rank2 before rank10: runs of digits compare by their value (how --ranks orders files and ranks).
bool natural_less(const std::string& a, const std::string& b);

/// One rank's rows of a table that has a `rank` column.
struct RankRows {
    std::string rank;     ///< "rank3" for a rank written 3 (as a file rank3.csv is named), else the cell
    std::string content;  ///< the header and the rank's rows, without the rank column
    std::vector<std::size_t> file_lines;  ///< the file's line of each line of `content`
};

/// Splits a CSV (`delimiter` ',') or TSV ('\t') table whose header has a column named `rank`
/// (any case) into a table per rank, in natural order (rank2 before rank10); linear in the file.
/// Nothing when the header has no such column. Throws amdahl::Error at "source:line" for a row
/// without a rank.
std::optional<std::vector<RankRows>> split_by_rank(std::string_view content, const std::string& source, char delimiter);

/// A message or location about `rows` read as a profile named `source`, at the line of the file:
/// "all.csv:2: ..." for the rank's second line, when it was the file's fifth, is "all.csv:5: ...".
/// Any other text as it is.
std::string at_file_line(const std::string& text, const RankRows& rows, const std::string& source);
/// The same for an error's location.
Error at_file_line(const Error& error, const RankRows& rows, const std::string& source);

}  // namespace amdahl::detail
