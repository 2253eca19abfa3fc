// The Markdown reporter (GitHub-flavoured): what people paste into a pull request or a homework.
// Names come from code, so every name is a code span and every other text is escaped: `<float>`,
// `__init__`, `*ptr*` and `[x](y)` render literally.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

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

namespace {

// The document as Markdown, with the first `detail_rows` rows of its details table; `cut` more
// rows are said to be left out.
std::string markdown_of(const Document& document, std::size_t detail_rows, std::size_t cut) {
    std::ostringstream out;
    if (!document.marker.empty()) out << document.marker << '\n';
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
    const std::optional<Table>& table = document.markdown_table ? document.markdown_table : document.table;
    if (table && (document.table_when_empty || table->rows.size() + table->generated_rows > 0)) {
        block();
        write_markdown(out, *table);
    }
    if (document.details_table && detail_rows + cut > 0) {
        block();
        // GitHub renders Markdown inside <details> when blank lines set it apart from the tags.
        out << "<details>\n<summary>" << markdown_text(document.details_summary) << "</summary>\n\n";
        if (detail_rows > 0) {
            Table shown{document.details_table->columns, {}, 0, {}};
            shown.rows.assign(document.details_table->rows.begin(),
                              document.details_table->rows.begin() + static_cast<std::ptrdiff_t>(detail_rows));
            write_markdown(out, shown);
        }
        if (cut > 0)
            out << (detail_rows > 0 ? "\n" : "")
                << fmt::format(
                       "*{} more {} left out to stay under GitHub's 65,536-character comment limit; "
                       "`--format json` has every one.*\n",
                       cut, cut == 1 ? "row" : "rows");
        out << "\n</details>\n";
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
    return std::move(out).str();
}

// Past the limit even without the collapsed rows (very long names or notes): the text up to the
// last whole line that fits, any open <details> closed, and a line that says so.
std::string cut_to(std::string text, std::size_t limit) {
    const std::size_t total = text.size();
    const std::string tail_room(400, ' ');  // the closing lines below fit in this
    std::size_t end = text.rfind('\n', limit > tail_room.size() ? limit - tail_room.size() : 0);
    text.resize(end == std::string::npos ? 0 : end + 1);
    std::size_t opened = 0, closed = 0;
    for (std::size_t at = 0; (at = text.find("<details>", at)) != std::string::npos; at += 9) ++opened;
    for (std::size_t at = 0; (at = text.find("</details>", at)) != std::string::npos; at += 10) ++closed;
    bool fenced = false;  // inside a ```text block (lines that start with ``` open and close one)
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        if (text.compare(at, 3, "```") == 0) fenced = !fenced;
        if (text.find('\n', at) == std::string::npos) break;
    }
    if (fenced) text += "```\n";
    if (opened > closed) text += "\n</details>\n";
    text += fmt::format(
        "\n*Cut at {} of {} bytes to stay under GitHub's 65,536-character comment limit; "
        "`--format json` has everything.*\n",
        text.size(), total);
    return text;
}

}  // namespace

void write_markdown(std::ostream& out, const Document& document) {
    const std::size_t rows = document.details_table ? document.details_table->rows.size() : 0;
    std::string text = markdown_of(document, rows, 0);
    const std::size_t limit = document.max_chars;
    if (limit > 0 && text.size() > limit && rows > 0) {
        // The most collapsed rows that fit, by bisection: the text grows with every row.
        std::size_t fits = 0, too_many = rows;
        while (too_many - fits > 1) {
            const std::size_t mid = fits + (too_many - fits) / 2;
            if (markdown_of(document, mid, rows - mid).size() <= limit)
                fits = mid;
            else
                too_many = mid;
        }
        text = markdown_of(document, fits, rows - fits);
    }
    if (limit > 0 && text.size() > limit) text = cut_to(std::move(text), limit);
    out << text;
}

}  // namespace amdahl
