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

// The document as Markdown in three parts, so that a comment over the limit loses the least
// important first: the collapsed rows, then notes, then the end of the table; never the gates.
// The head: heading, summary, table, and the first `detail_rows` rows of the details table (`cut`
// more said to be left out).
std::string head_of(const Document& document, std::size_t detail_rows, std::size_t cut) {
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
    return std::move(out).str();
}

// The sections, the gates and the verdict, each after a blank line.
std::string body_of(const Document& document) {
    std::ostringstream out;
    for (const auto& section : document.sections) {
        out << '\n';
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
        out << "\n**Gates**\n\n";
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
    return std::move(out).str();
}

// The notes section with the first `count` notes, and a line for the rest.
std::string notes_of(const Document& document, std::size_t count) {
    if (document.notes.empty()) return "";
    std::string out = "\n#### Notes\n\n";
    for (std::size_t i = 0; i < count && i < document.notes.size(); ++i)
        out += "- " + markdown_text(document.notes[i]) + '\n';
    if (count < document.notes.size())
        out += fmt::format(
            "- *{} more notes left out to stay under the comment limit; they are on stderr and in "
            "`--format json`.*\n",
            document.notes.size() - count);
    return out;
}

// The largest n in [0, most] with size(n) <= limit, size growing with n (0 when none fits).
template <typename Size>
std::size_t most_that_fit(std::size_t most, std::size_t limit, Size size) {
    if (size(most) <= limit) return most;
    std::size_t fits = 0, too_many = most;
    while (too_many - fits > 1) {
        const std::size_t mid = fits + (too_many - fits) / 2;
        (size(mid) <= limit ? fits : too_many) = mid;
    }
    return fits;
}

// A head too long even without its collapsed rows (names thousands of characters long): cut at
// the last whole line within `limit`, any open code block or <details> closed, and said.
std::string cut_to(std::string text, std::size_t limit) {
    const std::size_t total = text.size();
    const std::size_t room = 400;  // the closing lines below fit in this
    const std::size_t end = text.rfind('\n', limit > room ? limit - room : 0);
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
    const std::size_t limit = document.max_chars;
    const std::string body = body_of(document);
    const std::string all_notes = notes_of(document, document.notes.size());
    std::string head = head_of(document, rows, 0);
    if (limit == 0 || head.size() + body.size() + all_notes.size() <= limit) {
        out << head << body << all_notes;
        return;
    }
    // 1. Fewer collapsed rows, by bisection: the text grows with every row.
    const std::size_t fixed = body.size() + all_notes.size();
    const std::size_t kept = most_that_fit(rows, limit > fixed ? limit - fixed : 0,
                                           [&](std::size_t n) { return head_of(document, n, rows - n).size(); });
    head = head_of(document, kept, rows - kept);
    std::string notes = all_notes;
    if (head.size() + body.size() + notes.size() > limit) {
        // 2. Fewer notes: the gates and the verdict stay whole.
        const std::size_t room = limit > head.size() + body.size() ? limit - head.size() - body.size() : 0;
        const std::size_t count =
            most_that_fit(document.notes.size(), room, [&](std::size_t n) { return notes_of(document, n).size(); });
        notes = notes_of(document, count);
    }
    if (head.size() + body.size() + notes.size() > limit) {
        // 3. The head cut at a line: what remains is the gates, the verdict and what fits of the table.
        notes = notes_of(document, 0);
        const std::size_t room = limit > body.size() + notes.size() ? limit - body.size() - notes.size() : 0;
        head = cut_to(std::move(head), room);
    }
    out << head << body << notes;
}

}  // namespace amdahl
