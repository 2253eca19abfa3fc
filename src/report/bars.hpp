#pragma once
// Pictures in a terminal's text: a share bar of Unicode block characters beside each phase, and
// colour. Only the text reporter uses them, and only when the command line says the terminal wants
// them (src/cli/terminal.cpp): output to a pipe or a file stays plain text, byte for byte.
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "amdahl/report.hpp"

namespace amdahl {

/// What the text reporter adds for a terminal.
struct TerminalStyle {
    bool bars = false;   ///< a share bar beside each row that has a share
    bool color = false;  ///< ANSI colour: bold headers and labels, coloured bars and gates
};

/// Columns a bar takes at a share of 100%.
inline constexpr std::size_t bar_columns = 20;

/// A bar of `fraction` (0..1, clamped) of `columns` columns, in eighths of a column:
/// eighths = round(fraction × columns × 8), drawn as eighths / 8 full blocks (█) and one partial
/// block of the remaining eighths (▏▎▍▌▋▊▉). Empty for 0 or NaN.
std::string share_bar(double fraction, std::size_t columns = bar_columns);

/// The column of `table` a bar is drawn beside and how its machine values read as a fraction:
/// `share_pct` (percent) or `held_share` (a fraction). Nothing when the table has no share.
struct BarSource {
    std::size_t column = 0;
    double per_unit = 1;  ///< fraction = machine value / per_unit
};
std::optional<BarSource> bar_source(const Table& table);

/// `table` with a bar column after its share column (header empty), rows made on demand as the
/// original's are; `table` itself when it has no share column.
Table with_bars(const Table& table);

/// The text table (amdahl/report.hpp's write_text) with `style`'s bars and colour.
void write_text(std::ostream& out, const Table& table, const TerminalStyle& style);

/// `text` in an ANSI style (`code`: "1" bold, "36" cyan, ...) when `on`; `text` itself otherwise
/// or when empty.
std::string styled(std::string_view text, const char* code, bool on);

}  // namespace amdahl
