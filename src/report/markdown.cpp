// The Markdown reporter (GitHub-flavoured): what people paste into a pull request or a homework.
// Names come from code, so every name is a code span and every other text is escaped: `<float>`,
// `__init__`, `*ptr*` and `[x](y)` render literally.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "report/document.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

using detail::for_each_row;
using detail::Output;

std::string markdown_text(std::string_view raw) {
    // Control characters as \xNN first: a newline would end a heading, a list item or a row.
    const std::string text = printable(raw);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        // CommonMark lets a backslash escape any ASCII punctuation; these are the ones that start
        // emphasis, links, HTML, code, strike-through, entities or a table cell.
        if (std::string_view("\\`*_[]<>|~&#").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string markdown_code(std::string_view raw, bool in_table_cell) {
    const std::string text = printable(raw);
    // A fence longer than any run of backticks inside; spaces keep a backtick at an edge apart.
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool spaced = !text.empty() && (text.front() == '`' || text.back() == '`' || text.front() == ' ');
    std::string out = fence + (spaced ? " " : "");
    for (char c : text) {
        if (c == '|' && in_table_cell) out += '\\';  // a pipe ends a table cell even inside a code span (GFM)
        out += c;
    }
    return out + (spaced ? " " : "") + fence;
}

void write_markdown(std::ostream& stream, const Table& table) {
    Output output(stream);
    std::string& out = output.text();
    out += '|';
    for (const auto& column : table.columns) out += " " + markdown_text(column.header) + " |";
    out += "\n|";
    for (const auto& column : table.columns) out += column.right_aligned ? " ---: |" : " --- |";
    out += '\n';
    for_each_row(table, [&](const std::vector<Cell>& row) {
        out += '|';
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool code = c < table.columns.size() && table.columns[c].code && !row[c].machine.empty();
            out += " " + (code ? markdown_code(row[c].human) : markdown_text(row[c].human)) + " |";
        }
        out += '\n';
        output.row_done();
    });
}

std::string render_markdown(const Table& table) {
    return detail::to_string(table, [](std::ostream& o, const Table& t) { write_markdown(o, t); });
}

void write_markdown(std::ostream& out, const Document& document) {
    out << "### amdahl " << document.command;
    if (!document.headline.empty()) out << ": " << markdown_text(document.headline);
    out << '\n';
    // Blocks are separated by one blank line, with none after the last.
    const auto block = [&out] { out << '\n'; };
    if (std::any_of(document.summary.begin(), document.summary.end(),
                    [](const SummaryLine& l) { return !l.text.empty(); })) {
        block();
        out << "| result | value |\n| --- | --- |\n";
        for (const auto& line : document.summary)
            if (!line.text.empty())
                out << "| " << markdown_text(line.label) << " | " << markdown_text(line.text) << " |\n";
    }
    if (document.table &&
        (document.table_when_empty || document.table->rows.size() + document.table->generated_rows > 0)) {
        block();
        write_markdown(out, *document.table);
    }
    for (const auto& section : document.sections) {
        block();
        if (!section.title.empty()) out << "**" << markdown_text(section.title) << "**\n\n";
        if (section.preformatted) {
            out << "```text\n";
            for (const auto& line : section.lines) out << line << '\n';
            out << "```\n";
        } else {
            for (const auto& line : section.lines) out << "- " << markdown_text(line) << '\n';
        }
    }
    if (!document.gates.empty()) {
        block();
        out << "**Gates**\n\n";
        bool passed = true;
        for (const auto& gate : document.gates) {
            out << (gate.skipped  ? "- \xe2\x9a\xa0\xef\xb8\x8f "  // a warning sign: it checked nothing
                    : gate.passed ? "- \xe2\x9c\x85 "
                                  : "- \xe2\x9d\x8c ")
                << markdown_code(gate.gate, false) << ": " << markdown_text(gate.detail) << '\n';
            passed = passed && gate.passed;
        }
        out << "\n**Verdict: " << (passed ? "\xe2\x9c\x85 " : "\xe2\x9d\x8c ") << markdown_text(document.verdict)
            << "**\n";
    }
    if (!document.notes.empty()) {
        block();
        out << "#### Notes\n\n";
        for (const auto& note : document.notes) out << "- " << markdown_text(note) << '\n';
    }
}

}  // namespace amdahl
