#pragma once
// `amdahl report`: one self-contained HTML page (inline CSS and SVG; no scripts, fonts or anything
// else from outside) with a profile's eval and its ranking, for a browser or a CI artifact.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/results.hpp"
#include "report/report.hpp"

namespace amdahl {

/// What the page shows: the eval of the speedups given, and the ranking of every phase.
struct HtmlReport {
    const EvalResult* eval = nullptr;
    const RankResult* rank = nullptr;
    std::string eval_chart;              ///< an inline <svg> of the eval (empty: none)
    std::string generator;               ///< "amdahl 0.1.0 (git abc1234)"
    std::vector<std::string> arguments;  ///< the command line after "amdahl"
};

/// `text` safe in HTML text and in a quoted attribute: & < > " ' as character references, control
/// bytes and broken UTF-8 as U+FFFD (svg::escape_xml).
std::string html_escape(std::string_view text);

/// The eval as an inline <svg>: the time before and after (untouched and sped-up phases) and the
/// ceiling (report/eval_chart.cpp).
std::string eval_chart(const EvalResult& result, const NumberStyle& style);

/// Writes the page.
void write_html(std::ostream& out, const HtmlReport& report, const ReportOptions& options);

}  // namespace amdahl
