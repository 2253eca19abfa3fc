#include "input/rank_table.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/csv_records.hpp"
#include "model/text.hpp"

namespace amdahl::detail {

namespace {

// A cell written back as RFC 4180 wants it: quoted when it holds the delimiter, a quote or a line break.
void append_cell(std::string& out, std::string_view cell, char delimiter) {
    if (cell.find_first_of(std::string{delimiter, '"', '\n', '\r'}) == std::string_view::npos) {
        out += cell;
        return;
    }
    out += '"';
    for (char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ei = i, ej = j;
            while (ei < a.size() && digit(a[ei])) ++ei;
            while (ej < b.size() && digit(b[ej])) ++ej;
            std::string_view x(a.data() + i, ei - i), y(b.data() + j, ej - j);
            while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
            while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
            if (x.size() != y.size()) return x.size() < y.size();
            if (x != y) return x < y;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::optional<std::vector<RankRows>> split_by_rank(std::string_view content, const std::string& source,
                                                   char delimiter) {
    std::size_t pos = 0, line = 1;
    Record record;
    // The header: the first line with text.
    std::size_t header_line = 0;
    while (pos < content.size()) {
        header_line = line;
        read_record(content, pos, line, delimiter, record, source);
        if (!(record.cells.size() == 1 && trim(record.cells.front()).empty())) break;
        record.clear();
    }
    if (record.cells.empty()) return std::nullopt;
    const auto is_rank = [](std::string_view cell) {
        std::string lower(trim(cell));
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return lower == "rank";
    };
    const auto column = std::find_if(record.cells.begin(), record.cells.end(), is_rank);
    if (column == record.cells.end()) return std::nullopt;
    const auto rank_column = static_cast<std::size_t>(column - record.cells.begin());
    const std::string rank_header(trim(*column));  // the record is reused for the rows

    // Each rank's table: the header and its own rows as written, less the rank cell; each line
    // remembers its line in the file, for messages.
    const auto write_row = [&](const Record& row, std::size_t first_line, std::size_t last_line, RankRows& into) {
        const std::size_t start = into.content.size();
        bool first = true;
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            if (i == rank_column) continue;
            if (!first) into.content += delimiter;
            first = false;
            append_cell(into.content, row.cells[i], delimiter);
        }
        into.content += '\n';
        // A line of its own for each line the row takes here (a quoted line break is one), at the
        // file's lines the record took (a line break the record reader dropped counts as its last).
        const auto written = static_cast<std::size_t>(
            std::count(into.content.begin() + static_cast<std::ptrdiff_t>(start), into.content.end(), '\n'));
        for (std::size_t l = 0; l < written; ++l) into.file_lines.push_back(std::min(first_line + l, last_line));
    };
    RankRows header;
    write_row(record, header_line, line - 1, header);
    std::map<std::string, RankRows> ranks;
    while (pos < content.size()) {
        const std::size_t row_line = line;
        read_record(content, pos, line, delimiter, record, source);
        if (record.cells.size() == 1 && trim(record.cells.front()).empty()) continue;
        if (rank_column >= record.cells.size() || trim(record.cells[rank_column]).empty())
            throw Error(source + ":" + std::to_string(row_line),
                        "the row has no rank (column '" + printable(rank_header) + "' of the header)");
        std::string_view cell = trim(record.cells[rank_column]);
        // A rank is a whole number (03 is 3, named rank3 as the file rank3.csv is) or a name
        // (node-b); a number of another kind (-1, 1.0, 1e0) is no rank.
        double number = 0;
        if (!all_digits(cell) && parse_double(cell, number))
            throw Error(source + ":" + std::to_string(row_line),
                        "rank '" + printable(cell) + "' is not a whole number >= 0 (write 3 for rank3, or a name)");
        if (all_digits(cell))
            while (cell.size() > 1 && cell.front() == '0') cell.remove_prefix(1);
        const std::string rank = all_digits(cell) ? "rank" + std::string(cell) : std::string(cell);
        const auto [it, inserted] = ranks.try_emplace(rank, header);
        if (inserted) it->second.rank = rank;
        write_row(record, row_line, line - 1, it->second);
    }
    std::vector<RankRows> out;
    for (auto& [rank, rows] : ranks) out.push_back(std::move(rows));
    std::sort(out.begin(), out.end(),
              [](const RankRows& a, const RankRows& b) { return natural_less(a.rank, b.rank); });
    return out;
}

std::string at_file_line(const std::string& text, const RankRows& rows, const std::string& source) {
    if (!text.starts_with(source + ":")) return text;
    const std::size_t start = source.size() + 1;
    std::size_t end = start, line = 0;
    while (end < text.size() && end - start < 18 && std::isdigit(static_cast<unsigned char>(text[end])))
        line = line * 10 + static_cast<std::size_t>(text[end++] - '0');
    if (end == start || line == 0 || line > rows.file_lines.size()) return text;
    return source + ":" + std::to_string(rows.file_lines[line - 1]) + text.substr(end);
}

Error at_file_line(const Error& error, const RankRows& rows, const std::string& source) {
    return Error(at_file_line(error.location(), rows, source), error.message());
}

}  // namespace amdahl::detail
