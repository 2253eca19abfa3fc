// Share bars and colour for a terminal (report/bars.hpp).
#include "report/bars.hpp"

#include <cmath>
#include <memory>

#include "amdahl/numbers.hpp"

namespace amdahl {

std::string share_bar(double fraction, std::size_t columns) {
    if (!(fraction > 0)) return {};  // 0, negative or NaN: no bar
    fraction = std::min(fraction, 1.0);
    // eighths = round(fraction × columns × 8)
    const auto eighths = static_cast<std::size_t>(std::lround(fraction * static_cast<double>(columns) * 8));
    static constexpr const char* partial[] = {"",
                                              "\u258F",   // ▏ 1/8
                                              "\u258E",   // ▎ 2/8
                                              "\u258D",   // ▍ 3/8
                                              "\u258C",   // ▌ 4/8
                                              "\u258B",   // ▋ 5/8
                                              "\u258A",   // ▊ 6/8
                                              "\u2589"};  // ▉ 7/8
    std::string bar;
    for (std::size_t i = 0; i < eighths / 8; ++i) bar += "\u2588";  // █
    bar += partial[eighths % 8];
    return bar;
}

std::optional<BarSource> bar_source(const Table& table) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (table.columns[c].key == "share_pct") return BarSource{c, 100};
        if (table.columns[c].key == "held_share") return BarSource{c, 1};
    }
    return std::nullopt;
}

namespace {

Cell bar_cell(const std::vector<Cell>& row, const BarSource& source) {
    double value = 0;
    if (source.column >= row.size() || !parse_double(row[source.column].machine, value)) return Cell("", "");
    return Cell(share_bar(value / source.per_unit), "");
}

}  // namespace

Table with_bars(const Table& table) {
    const auto source = bar_source(table);
    if (!source) return table;
    Table out;
    out.columns = table.columns;
    const auto at = static_cast<std::ptrdiff_t>(source->column + 1);
    out.columns.insert(out.columns.begin() + at, Column{"", "share_bar"});
    out.rows.reserve(table.rows.size());
    for (const auto& row : table.rows) {
        auto cells = row;
        cells.insert(cells.begin() + std::min(at, static_cast<std::ptrdiff_t>(cells.size())), bar_cell(row, *source));
        out.rows.push_back(std::move(cells));
    }
    out.generated_rows = table.generated_rows;
    if (table.generated_rows > 0) {
        out.make_row = [make_row = table.make_row, source = *source, at](std::size_t i, std::vector<Cell>& cells) {
            make_row(i, cells);
            Cell bar = bar_cell(cells, source);
            cells.insert(cells.begin() + std::min(at, static_cast<std::ptrdiff_t>(cells.size())), std::move(bar));
        };
    }
    return out;
}

std::string styled(std::string_view text, const char* code, bool on) {
    if (!on || text.empty()) return std::string(text);
    return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}

}  // namespace amdahl
