// The CSV reporter: RFC 4180 rows with machine keys and full-precision values on stdout; the
// summary for people goes to stderr, and as data to --summary-csv.
#include <algorithm>
#include <ostream>

#include "report/document.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

using detail::for_each_row;
using detail::Output;

namespace {

// RFC 4180, and never a control byte a terminal or a spreadsheet would act on (ESC, BEL, NUL from
// JSON escapes in a name): those are written as \xNN.
std::string csv_field(std::string_view raw) {
    const bool control = std::any_of(raw.begin(), raw.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7F;
    });
    const std::string escaped = control ? printable(raw) : std::string();
    const std::string_view text = control ? std::string_view(escaped) : raw;
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

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

std::string render_csv(const Table& table) {
    return detail::to_string(table, [](std::ostream& o, const Table& t) { write_csv(o, t); });
}

void write_csv(std::ostream& out, std::ostream& talk, const Document& document) {
    if (document.csv_table)
        write_csv(out, *document.csv_table);
    else if (document.table)
        write_csv(out, *document.table);
    else
        write_summary_csv(out, document);  // a report without rows (law, --phases none): its summary is the data
    // Everything else is for people: the text reporter's lines, on the other stream.
    write_text(talk, document, false);
}

void write_summary_csv(std::ostream& out, const Document& document) {
    out << "key,value\n";
    for (const auto& line : document.summary)
        if (!line.key.empty()) out << csv_field(line.key) << ',' << csv_field(line.machine) << '\n';
}

}  // namespace amdahl
