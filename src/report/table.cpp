#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "amdahl/report.hpp"
#include "model/text.hpp"

namespace amdahl {

namespace {

// Display width of UTF-8 text: one column per code point (good enough for names and arrows).
std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (unsigned char c : text) {
        if ((c & 0xC0) != 0x80) ++width;
    }
    return width;
}

void pad(std::string& out, std::size_t count) { out.append(count, ' '); }

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string markdown_field(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view name) {
    if (name == "table" || name == "text") return OutputFormat::table;
    if (name == "json") return OutputFormat::json;
    if (name == "csv") return OutputFormat::csv;
    if (name == "md" || name == "markdown") return OutputFormat::markdown;
    return std::nullopt;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (const std::size_t length = detail::utf8_sequence_length(text, i)) {
                // C1 control characters (U+0080..U+009F) are escapes too.
                if (!(length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0)) {
                    out.append(text.substr(i, length));
                    i += length;
                    continue;
                }
            }
            out += fmt::format("\\x{:02X}", c);
            ++i;
            continue;
        }
        if (c < 0x20 || c == 0x7F) {
            out += fmt::format("\\x{:02X}", c);
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    return out;
}

std::string shortest(double value) {
    if (value == 0) return "0";  // no "-0"
    // fmt's Dragonbox, with the format compiled: the shortest text that reads back the same.
    char text[32];
    return std::string(text, fmt::format_to(text, FMT_COMPILE("{}"), value));
}

namespace {

// Long names (C++ kernel signatures run to hundreds of characters) are cut for a terminal; the
// other formats keep them whole.
constexpr std::size_t max_text_width = 64;

std::string cut(std::string_view text) {
    if (display_width(text) <= max_text_width) return std::string(text);
    std::string out;
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size() && width < max_text_width - 1; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80) {
            if (width + 1 == max_text_width) break;
            ++width;
        }
        out += text[i];
    }
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0)
        out.pop_back();           // no half code point
    return out + "\xe2\x80\xa6";  // …
}

}  // namespace

namespace {

// Calls `visit(cells)` for every row: the stored ones, then the generated ones.
template <class Visit>
void for_each_row(const Table& table, Visit&& visit) {
    for (const auto& row : table.rows) visit(row);
    std::vector<Cell> cells;
    for (std::size_t i = 0; i < table.generated_rows; ++i) {
        cells.clear();
        table.make_row(i, cells);
        visit(cells);
    }
}

// Collects text and hands it to the stream in large pieces.
class Output {
public:
    explicit Output(std::ostream& out) : out_(out) {}
    ~Output() { flush(); }
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;
    std::string& text() { return text_; }
    void row_done() {
        if (text_.size() > (1 << 16)) flush();
    }

private:
    void flush() {
        out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
        text_.clear();
    }
    std::ostream& out_;
    std::string text_;
};

template <class Write>
std::string to_string(const Table& table, Write&& write) {
    std::ostringstream out;
    write(out, table);
    return std::move(out).str();
}

}  // namespace

void write_text(std::ostream& stream, const Table& table) {
    std::vector<std::size_t> widths(table.columns.size());
    for (std::size_t c = 0; c < table.columns.size(); ++c) widths[c] = display_width(table.columns[c].header);
    for_each_row(table, [&](const std::vector<Cell>& row) {
        for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = std::max(widths[c], std::min(display_width(row[c].human), max_text_width));
    });
    Output output(stream);
    std::string& out = output.text();
    const auto write_row = [&](auto&& cell_text) {
        const std::size_t start = out.size();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const std::string text(cell_text(c));
            const std::size_t fill = widths[c] - display_width(text);
            if (c > 0) out += "  ";
            if (table.columns[c].right_aligned) pad(out, fill);
            out += text;
            if (!table.columns[c].right_aligned && c + 1 < table.columns.size()) pad(out, fill);
        }
        while (out.size() > start && out.back() == ' ') out.pop_back();
        out += '\n';
        output.row_done();
    };
    write_row([&](std::size_t c) -> std::string_view { return table.columns[c].header; });
    for (std::size_t c = 0; c < widths.size(); ++c) {
        if (c > 0) out += "  ";
        out.append(widths[c], '-');
    }
    out += '\n';
    for_each_row(table, [&](const std::vector<Cell>& row) {
        write_row([&](std::size_t c) -> std::string { return c < row.size() ? cut(row[c].human) : std::string(); });
    });
}

void write_csv(std::ostream& stream, const Table& table) {
    Output output(stream);
    std::string& out = output.text();
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c > 0) out += ',';
        out += csv_field(table.columns[c].key);
    }
    out += '\n';
    for_each_row(table, [&](const std::vector<Cell>& row) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c > 0) out += ',';
            out += csv_field(row[c].machine);
        }
        out += '\n';
        output.row_done();
    });
}

void write_markdown(std::ostream& stream, const Table& table) {
    Output output(stream);
    std::string& out = output.text();
    out += '|';
    for (const auto& column : table.columns) out += " " + markdown_field(column.header) + " |";
    out += "\n|";
    for (const auto& column : table.columns) out += column.right_aligned ? " ---: |" : " --- |";
    out += '\n';
    for_each_row(table, [&](const std::vector<Cell>& row) {
        out += '|';
        for (const auto& cell : row) out += " " + markdown_field(cell.human) + " |";
        out += '\n';
        output.row_done();
    });
}

std::string render_text(const Table& table) { return to_string(table, write_text); }
std::string render_csv(const Table& table) { return to_string(table, write_csv); }
std::string render_markdown(const Table& table) { return to_string(table, write_markdown); }

std::string render_summary(const std::vector<std::pair<std::string, std::string>>& items) {
    std::size_t width = 0;
    for (const auto& [label, value] : items) width = std::max(width, display_width(label));
    std::string out;
    for (const auto& [label, value] : items) {
        out += label + ":";
        pad(out, width - display_width(label) + 1);
        out += value + "\n";
    }
    return out;
}

}  // namespace amdahl
