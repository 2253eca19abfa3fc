// The text reporter: aligned columns and "label: value" lines for a terminal.
#include <optional>
#include <ostream>
#include <sstream>

#include "report/bars.hpp"
#include "report/document.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

using detail::cut;
using detail::display_width;
using detail::for_each_row;
using detail::max_text_width;
using detail::Output;
using detail::pad;

void write_text(std::ostream& stream, const Table& table) { write_text(stream, table, TerminalStyle{}); }

void write_text(std::ostream& stream, const Table& given, const TerminalStyle& style) {
    std::optional<Table> barred;
    if (style.bars) barred = with_bars(given);
    const Table& table = barred ? *barred : given;
    std::vector<std::size_t> widths(table.columns.size());
    for (std::size_t c = 0; c < table.columns.size(); ++c) widths[c] = display_width(table.columns[c].header);
    for_each_row(table, [&](const std::vector<Cell>& row) {
        for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = std::max(widths[c], table.columns[c].right_aligned || table.columns[c].code
                                                ? display_width(row[c].human)
                                                : std::min(display_width(row[c].human), max_text_width));
    });
    Output output(stream);
    std::string& out = output.text();
    const auto write_row = [&](auto&& cell_text, bool header) {
        const std::size_t start = out.size();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const std::string text(cell_text(c));
            const std::size_t fill = widths[c] - display_width(text);
            if (c > 0) out += "  ";
            if (table.columns[c].right_aligned) pad(out, fill);
            // Escapes after the widths are measured: they take no columns.
            out += styled(text, header ? "1" : "36", style.color && (header || table.columns[c].key == "share_bar"));
            if (!table.columns[c].right_aligned && c + 1 < table.columns.size()) pad(out, fill);
        }
        while (out.size() > start && out.back() == ' ') out.pop_back();
        out += '\n';
        output.row_done();
    };
    write_row([&](std::size_t c) -> std::string_view { return table.columns[c].header; }, true);
    for (std::size_t c = 0; c < widths.size(); ++c) {
        if (c > 0) out += "  ";
        out.append(widths[c], '-');
    }
    out += '\n';
    for_each_row(table, [&](const std::vector<Cell>& row) {
        // Long text is cut for a terminal; numbers (right-aligned columns) never are, and names
        // from code come cut as the layout chose (src/model/short_names.hpp: never two alike).
        write_row(
            [&](std::size_t c) -> std::string {
                if (c >= row.size()) return {};
                return table.columns[c].right_aligned || table.columns[c].code ? row[c].human : cut(row[c].human);
            },
            false);
    });
}

std::string render_text(const Table& table) {
    return detail::to_string(table, [](std::ostream& o, const Table& t) { write_text(o, t); });
}

std::vector<std::string> table_lines(const Table& table) {
    std::vector<std::string> lines;
    std::istringstream text(render_text(table));
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    return lines;
}

namespace {

void write_section(std::ostream& out, const Section& section, bool color) {
    const std::string title = styled(section.title, "1", color);
    if (!section.title.empty() && section.lines.size() == 1 && !section.preformatted) {
        out << title << ": " << section.lines.front() << '\n';
        return;
    }
    if (!section.title.empty()) out << title << ":\n";
    for (const auto& line : section.lines) out << (section.title.empty() ? "" : "  ") << line << '\n';
}

// "label: value" lines with the values aligned; a line without a label continues the one above.
void write_summary(std::ostream& out, const std::vector<SummaryLine>& lines, bool color) {
    std::size_t width = 0;
    for (const auto& line : lines)
        if (!line.text.empty()) width = std::max(width, display_width(line.label));
    for (const auto& line : lines) {
        if (line.text.empty()) continue;  // a value for scripts only
        // A continuation line starts under the values above it.
        std::string text = line.label.empty() ? std::string(width + 2, ' ') : styled(line.label, "1", color) + ":";
        if (!line.label.empty()) pad(text, width - display_width(line.label) + 1);
        out << text << line.text << '\n';
    }
}

}  // namespace

void write_text(std::ostream& out, const Document& document, bool with_table, const TerminalStyle& style) {
    bool first = true;
    const auto separate = [&] {
        if (!first) out << '\n';
        first = false;
    };
    if (with_table && document.table &&
        (document.table_when_empty || document.table->rows.size() + document.table->generated_rows > 0)) {
        separate();
        write_text(out, *document.table, style);
    }
    for (const auto& section : document.sections) {
        if (!section.before_summary) continue;
        separate();
        write_section(out, section, style.color);
    }
    if (std::any_of(document.summary.begin(), document.summary.end(),
                    [](const SummaryLine& l) { return !l.text.empty(); })) {
        separate();
        write_summary(out, document.summary, style.color);
    }
    for (const auto& section : document.sections) {
        if (section.before_summary) continue;
        separate();
        write_section(out, section, style.color);
    }
    if (!document.gates.empty()) {
        separate();
        out << styled("gates", "1", style.color) << ":\n";
        for (const auto& gate : document.gates)
            out << "  "
                << (gate.skipped  ? std::string("skip")
                    : gate.passed ? styled("pass", "32", style.color)
                                  : styled("FAIL", "1;31", style.color))
                << "  " << printable(gate.gate) << ": " << gate.detail << '\n';
    }
}

}  // namespace amdahl
