#pragma once
// What the text, CSV and Markdown reporters write: a command's result laid out once as a
// headline, a summary, a table of rows and sections of lines. Each command has a layout function
// (src/report/<command>.cpp) from its result to a Document; the reporters know no command.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/report.hpp"
#include "report/bars.hpp"
#include "report/numbers.hpp"

namespace amdahl {

/// One summary line: "speedup: 1.2330x" for people, `speedup,1.2330...` for scripts.
struct SummaryLine {
    std::string label;    ///< for people: "time saved"
    std::string text;     ///< for people, with units and words: "18.9 ms (15.9% of baseline)"
    std::string key;      ///< for scripts (--summary-csv); empty: a line for people only
    std::string machine;  ///< full precision, no units: "18.9"
};

/// Lines under a title, after the summary: the arithmetic, gates, why a plan is unreachable.
struct Section {
    std::string title;  ///< "The arithmetic"; empty: the lines stand alone
    std::vector<std::string> lines;
    bool before_summary = false;  ///< the arithmetic reads before the result it leads to
    bool preformatted = false;    ///< aligned text (Markdown: a code block, not a list)
};

/// A CI gate's outcome: `--fail-if-slower 2%` and what was measured.
struct GateLine {
    bool passed = true;
    std::string gate;      ///< as the user wrote it
    std::string detail;    ///< what was measured, in words
    bool skipped = false;  ///< it checked nothing (passed)
};

struct Document {
    std::string command;   ///< "eval"
    std::string headline;  ///< one line for a Markdown heading: "1.2330x end to end"
    std::vector<SummaryLine> summary;
    std::optional<Table> table;      ///< the rows: phases, targets, steps
    std::optional<Table> csv_table;  ///< CSV's rows, when they are not the people's table
    bool table_when_empty = true;    ///< print the header even with no rows (text)
    std::vector<Section> sections;
    std::vector<GateLine> gates;
    std::string verdict;             ///< "all 2 gates passed", "1 of 2 gates failed"
    std::vector<std::string> notes;  ///< assumptions and caveats (Markdown: a notes section)

    // Markdown only (a pull-request comment):
    std::optional<Table> markdown_table;  ///< when set, the rows the table shows instead of `table`'s
    std::optional<Table> details_table;   ///< more rows, in a collapsed <details> block after the table
    std::string details_summary;          ///< the block's one-line summary: "985 more phases, smaller changes"
    std::string marker;                   ///< an HTML comment as the first line, for a workflow to find its comment
    /// The most bytes the Markdown may take (0: no limit): rows of `details_table` are cut to fit,
    /// and it says how many.
    std::size_t max_chars = 0;
};

/// The three formats for people and for spreadsheets.
/// The text for people; `style` adds share bars and colour for a terminal (report/bars.hpp).
void write_text(std::ostream& out, const Document& document, bool with_table = true, const TerminalStyle& style = {});
/// Markdown for a pull request or a homework: heading, headline table, rows, sections, notes;
/// every name in a code span.
void write_markdown(std::ostream& out, const Document& document);
/// CSV rows on `out`; the summary and sections are talk, on `talk` (stderr).
void write_csv(std::ostream& out, std::ostream& talk, const Document& document);
/// The summary as data: `key,value` rows.
void write_summary_csv(std::ostream& out, const Document& document);

/// Escapes Markdown's special characters so `text` renders literally (outside code spans), control
/// characters (a newline would end a heading or a row) as \xNN, as printable() shows them.
std::string markdown_text(std::string_view text);
/// `text` as a Markdown code span: backticks handled, and in a table cell pipes too (GFM ends a
/// cell at a pipe even in a code span; elsewhere a backslash in a code span shows as itself).
std::string markdown_code(std::string_view text, bool in_table_cell = true);

}  // namespace amdahl
