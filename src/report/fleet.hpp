#pragma once
// The fleet's figures (--fleet) in every report: summary lines, the arithmetic, JSON, rank's columns.
#include <optional>
#include <string>
#include <vector>

#include "amdahl/fleet.hpp"
#include "amdahl/report.hpp"
#include "report/document.hpp"
#include "report/report.hpp"

namespace amdahl {

/// What the figures assume, in words (text, Markdown and JSON say the same).
std::string fleet_assumption(const Fleet& fleet);
/// The summary line that names the fleet, and the one that says what its figures assume.
void add_fleet_inputs_summary(std::vector<SummaryLine>& summary, const Fleet& fleet, const NumberStyle& style);
void add_fleet_assumption(std::vector<SummaryLine>& summary, const Fleet& fleet);
/// The summary lines: the fleet, the time and GPUs freed, the capacity gained, GPU-hours and
/// money a year, the effort's cost and the payback.
void add_fleet_summary(std::vector<SummaryLine>& summary, const FleetFigures& figures, const NumberStyle& style);
/// --explain: each figure's arithmetic, line by line.
std::vector<std::string> explain_fleet(const FleetFigures& figures, const NumberStyle& style);
/// Adds the summary lines and, with `explain`, the arithmetic as a section.
void add_fleet(Document& doc, const FleetFigures& figures, const ReportOptions& options);
/// `"fleet": {...}`, with --explain its arithmetic as `explanation[]`.
void write_fleet_json(JsonWriter& json, const FleetFigures& figures, const ReportOptions& options);
/// `"fleet": {...}` without the figures of one speedup (rank: each target has its own).
void write_fleet_inputs_json(JsonWriter& json, const Fleet& fleet);
/// The figures of one speedup as JSON fields (rank's targets[].fleet).
void write_fleet_figures_json(JsonWriter& json, const FleetFigures& figures);
/// Rank's columns: GPUs freed, money a year (with a cost), payback (with a cost per effort).
void add_fleet_columns(Table& table, const Fleet& fleet);
void add_fleet_cells(std::vector<Cell>& row, const FleetFigures& figures, const NumberStyle& style);

}  // namespace amdahl
