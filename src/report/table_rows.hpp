#pragma once
// What the table reporters share (src/report/text.cpp, csv.cpp, markdown.cpp): widths, rows made on
// demand, and output handed to the stream in large pieces.
#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/report.hpp"

namespace amdahl::detail {

// Display width of UTF-8 text: one column per code point (good enough for names and arrows).
inline std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (const char c : text) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
    }
    return width;
}

inline void pad(std::string& out, std::size_t count) { out.append(count, ' '); }

// Long names (C++ kernel signatures run to hundreds of characters) are cut for a terminal; the
// other formats keep them whole.
inline constexpr std::size_t max_text_width = 64;

inline std::string cut(std::string_view text) {
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

}  // namespace amdahl::detail
