// The HTML page of `amdahl report` (report/html.hpp): the eval and rank layouts (the Documents the
// text, CSV and Markdown reporters write) as HTML, under one inline style sheet.
#include "report/html.hpp"

#include <ostream>

#include "report/bars.hpp"
#include "report/document.hpp"
#include "report/svg.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

// HTML5 reads XML's escapes, and a control byte or broken UTF-8 is as wrong in a page as in an SVG.
std::string html_escape(std::string_view text) { return svg::escape_xml(text); }

namespace {

// Readable at 100% zoom, printable, the system's own fonts; the bar colour is the Okabe-Ito blue
// (colour-blind safe).
constexpr const char* style_sheet = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #1a1a1a; background: #fff; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
p.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.2em 0.7em; text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid #999; white-space: nowrap; }
tbody tr:nth-child(even) { background: #f4f6f8; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.summary th { font-weight: 600; white-space: nowrap; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.92em; }
td.bar { width: 8em; }
td.bar span { display: block; height: 0.8em; margin-top: 0.25em; background: #0072B2; }
ul.notes li { margin: 0.2em 0; }
figure { margin: 1em 0; }
footer { margin-top: 3em; color: #777; font-size: 0.85em; }
)";

void write_summary(std::string& out, const std::vector<SummaryLine>& lines) {
    out += "<table class=\"summary\">\n";
    for (const SummaryLine& line : lines) {
        if (line.text.empty()) continue;  // a value for scripts only
        out += "<tr><th>" + html_escape(line.label) + "</th><td>" + html_escape(line.text) + "</td></tr>\n";
    }
    out += "</table>\n";
}

// The table, with a bar beside the share (as the terminal draws it, report/bars.hpp).
void write_table(std::string& out, const Table& table) {
    const auto bar = bar_source(table);
    const auto header_cell = [&](const Column& column) {
        out += column.right_aligned ? "<th class=\"num\">" : "<th>";
        out += html_escape(column.header) + "</th>";
    };
    out += "<table class=\"rows\">\n<thead><tr>";
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        header_cell(table.columns[c]);
        if (bar && bar->column == c) out += "<th></th>";
    }
    out += "</tr></thead>\n<tbody>\n";
    const auto write_row = [&](const std::vector<Cell>& row) {
        out += "<tr>";
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const Column& column = table.columns[c];
            const std::string text = c < row.size() ? html_escape(row[c].human) : std::string();
            out += column.right_aligned ? "<td class=\"num\">" : "<td>";
            out += column.code ? "<code>" + text + "</code>" : text;
            out += "</td>";
            if (bar && bar->column == c) {
                double value = 0;
                if (c < row.size() && parse_double(row[c].machine, value) && value > 0) {
                    const double percent = std::min(value / bar->per_unit, 1.0) * 100;
                    out += "<td class=\"bar\"><span style=\"width:" + shortest(percent) + "%\"></span></td>";
                } else {
                    out += "<td class=\"bar\"></td>";
                }
            }
        }
        out += "</tr>\n";
    };
    detail::for_each_row(table, write_row);
    out += "</tbody>\n</table>\n";
}

void write_list(std::string& out, const std::vector<std::string>& items) {
    out += "<ul class=\"notes\">\n";
    for (const auto& item : items) out += "<li>" + html_escape(item) + "</li>\n";
    out += "</ul>\n";
}

// What Amdahl's law assumes of the phases, stated beside its numbers.
std::vector<std::string> eval_assumptions() {
    return {"The phases run one after another and add up to the time: T_old = Σ t_i.",
            "A speedup k of a phase changes only that phase's time, to t_i / k; every other phase keeps its time: "
            "T_new = Σ untouched t_i + Σ sped-up t_i / k_i.",
            "S = T_old / T_new = 1 / ((1 - f) + Σ f_i / k_i), with f the sped-up phases' share of T_old; the "
            "ceiling 1 / (1 - f) is the sped-up phases at no time.",
            "Phases that overlap (a trace's concurrent work) or wait on each other are not modelled here: "
            "amdahl eval --model replay replays a trace's dependencies."};
}

}  // namespace

void write_html(std::ostream& stream, const HtmlReport& report, const ReportOptions& options) {
    const EvalResult& eval = *report.eval;
    const Profile& profile = *eval.profile;
    const Document eval_doc = layout(eval, options);
    std::string out;
    const std::string title = "amdahl report: " + (profile.name.empty() ? profile.source : profile.name);
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + html_escape(title) + "</title>\n<style>" + style_sheet + "</style>\n</head>\n<body>\n";
    out += "<h1>" + html_escape(title) + "</h1>\n";
    std::string command = "amdahl";
    for (const auto& argument : report.arguments) command += " " + argument;
    out += "<p class=\"meta\">" + html_escape(profile.source) + " &middot; <code>" + html_escape(command) +
           "</code></p>\n";

    out += "<h2>eval: " + html_escape(eval_doc.headline) + "</h2>\n";
    write_summary(out, eval_doc.summary);
    if (!report.eval_chart.empty()) out += "<figure>\n" + report.eval_chart + "\n</figure>\n";
    if (eval_doc.table) write_table(out, *eval_doc.table);

    out += "<h2>The model and its assumptions</h2>\n";
    write_list(out, eval_assumptions());
    if (!eval_doc.notes.empty()) {
        out += "<h2>Notes</h2>\n";
        write_list(out, eval_doc.notes);
    }
    if (report.rank) {
        const Document rank_doc = layout(*report.rank, options);
        out += "<h2>rank: every phase at " + html_escape(format_factor(report.rank->set.factor, options.numbers)) +
               ", largest saving first</h2>\n";
        write_summary(out, rank_doc.summary);
        if (rank_doc.table) write_table(out, *rank_doc.table);
        if (!rank_doc.notes.empty()) write_list(out, rank_doc.notes);
    }
    out += "<footer>" + html_escape(report.generator) + "</footer>\n</body>\n</html>\n";
    stream << out;
}

}  // namespace amdahl
