// amdahl rank PROFILE: which single target is worth it, by saving, saving per effort or ceiling.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/rank.hpp"
#include "cli/candidate_options.hpp"
#include "cli/commands.hpp"

namespace amdahl::cli {

namespace {

struct RankOptions {
    ProfileOptions profile;
    CandidateOptions candidates;
    std::string by = "saving";
    std::optional<std::size_t> top;
    std::vector<std::string> grid;
    bool explain = false;
};

std::vector<double> parse_grid(const std::vector<std::string>& texts) {
    std::vector<double> grid;
    for (const auto& text : texts) {
        try {
            grid.push_back(parse_factor(text).value);
        } catch (const Error& e) {
            throw Error("--grid", e.message());
        }
    }
    return grid;
}

int run_rank(const RankOptions& options, Context& context) {
    const Profile profile = load_profile(options.profile, context);
    const CandidateSet set = build_candidates(profile, options.candidates);
    const RankBy by = options.by == "effort"    ? RankBy::effort
                      : options.by == "ceiling" ? RankBy::ceiling
                                                : RankBy::saving;
    if (by == RankBy::effort && !set.from_proposals)
        throw Error("--by",
                    "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT or \"proposals\" in the profile)");
    const std::vector<double> grid = parse_grid(options.grid);
    const double baseline = profile.total();
    std::vector<RankedTarget> ranked;
    try {
        ranked = rank_candidates(set.candidates, baseline, by, grid);
    } catch (const Error& e) {
        throw Error("--by effort", e.message());
    }
    if (options.top && *options.top < ranked.size()) ranked.resize(*options.top);

    const int p = options.profile.precision;
    const std::string unit(unit_name(profile.unit));
    const std::string& effort_unit = options.candidates.effort_unit;
    const bool any_effort = std::any_of(set.candidates.begin(), set.candidates.end(),
                                        [](const Candidate& c) { return c.effort.has_value(); });
    const OutputFormat format = output_format(options.profile.format);

    if (format == OutputFormat::json) {
        JsonWriter json(&context.out);
        json.begin_object().field("schema_version", 1).field("command", "rank");
        json.field("unit", unit).field("baseline_time", baseline).field("by", options.by);
        if (set.from_proposals)
            json.key("factor").null();
        else
            json.field("factor", set.factor);
        json.field("effort_unit", effort_unit);
        json.key("targets").begin_array();
        for (std::size_t r = 0; r < ranked.size(); ++r) {
            const Candidate& c = set.candidates[ranked[r].candidate];
            json.begin_object().field("rank", r + 1).field("name", c.name);
            json.key("phases").begin_array();
            for (std::size_t ph : c.phases) json.value(profile.phases[ph].name);
            json.end_array();
            json.field("kind", c.kind).field("time", c.time).field("share", c.time / baseline);
            json.field("factor", c.factor).field("speedup", ranked[r].speedup).field("time_saved", c.saved);
            json.field("ceiling", ranked[r].ceiling)
                .field("effort", c.effort)
                .field("saved_per_effort", ranked[r].saved_per_effort);
            if (!grid.empty()) {
                json.key("grid").begin_array();
                for (std::size_t g = 0; g < grid.size(); ++g)
                    json.begin_object().field("factor", grid[g]).field("speedup", ranked[r].grid[g]).end_object();
                json.end_array();
            }
            json.end_object();
        }
        json.end_array().end_object();
        context.out << json.str();
        return exit_ok;
    }

    Table table;
    table.columns = {{"rank", "rank", true},
                     {"target", "name"},
                     {"kind", "kind"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"share", "share_pct", true},
                     {"factor", "factor", true},
                     {"speedup", "speedup", true},
                     {"saved (" + unit + ")", "time_saved_" + unit, true},
                     {"ceiling", "ceiling", true}};
    if (any_effort) {
        table.columns.push_back({"effort (" + effort_unit + ")", "effort", true});
        table.columns.push_back({"saved/" + effort_unit + " (" + unit + ")", "saved_per_effort_" + unit, true});
    }
    for (double k : grid) table.columns.push_back({"at " + format_factor(k), "speedup_at_" + machine_factor(k), true});
    // Rows made as they are written: ranking a million phases must not hold them as text too.
    table.generated_rows = ranked.size();
    table.make_row = [&](std::size_t r, std::vector<Cell>& row) {
        const RankedTarget& t = ranked[r];
        const Candidate& c = set.candidates[t.candidate];
        row.emplace_back(std::to_string(r + 1));
        row.emplace_back(printable(c.name), c.name);
        row.emplace_back(printable(c.kind), c.kind);
        row.emplace_back(format_time(c.time, p), shortest(c.time));
        row.emplace_back(format_percent(c.time / baseline), shortest(c.time * 100 / baseline));
        row.emplace_back(format_factor(c.factor), machine_factor(c.factor));
        row.emplace_back(format_speedup(t.speedup, p), shortest(t.speedup));
        row.emplace_back(format_time(c.saved, p), shortest(c.saved));
        row.emplace_back(format_speedup(t.ceiling, p), shortest(t.ceiling));
        if (any_effort) {
            row.push_back(c.effort ? Cell(shortest(*c.effort)) : Cell("-", ""));
            row.push_back(t.saved_per_effort ? Cell(format_time(*t.saved_per_effort, p), shortest(*t.saved_per_effort))
                                             : Cell("-", ""));
        }
        for (double s : t.grid) row.emplace_back(format_speedup(s, p), shortest(s));
    };
    write(context.out, table, format);

    std::ostream& talk = format == OutputFormat::table ? context.out : context.err;
    if (options.explain) {
        talk << (format == OutputFormat::table ? "\n" : "") << "The arithmetic (T = " << format_time(baseline, p) << " "
             << unit << "):\n";
        for (std::size_t r = 0; r < ranked.size(); ++r) {
            const Candidate& c = set.candidates[ranked[r].candidate];
            const std::string saved_expr =
                std::isinf(c.factor)
                    ? format_time(c.time, p)
                    : fmt::format("{} - {} / {}", format_time(c.time, p), format_time(c.time, p), shortest(c.factor));
            talk << fmt::format(
                "  {}: saved = {} = {} {}; S = T / (T - saved) = {} / {} = {}; ceiling = T / (T - {}) = {}",
                printable(c.name), saved_expr, format_time(c.saved, p), unit, format_time(baseline, p),
                format_time(baseline - c.saved, p), format_speedup(ranked[r].speedup, p), format_time(c.time, p),
                format_speedup(ranked[r].ceiling, p));
            if (ranked[r].saved_per_effort)
                talk << fmt::format("; per {} = {} / {} = {} {}", effort_unit, format_time(c.saved, p),
                                    shortest(*c.effort), format_time(*ranked[r].saved_per_effort, p), unit);
            talk << '\n';
        }
    }
    if (format == OutputFormat::table && !ranked.empty()) {
        const Candidate& first = set.candidates[ranked.front().candidate];
        const char* what = by == RankBy::effort    ? "most time saved per unit of effort"
                           : by == RankBy::ceiling ? "highest ceiling"
                                                   : "largest saving";
        context.out << fmt::format(
            "\n{}: {} ({}, {} {} saved, {} end to end{})\n", what, printable(first.name), format_factor(first.factor),
            format_time(first.saved, p), unit, format_speedup(ranked.front().speedup, p),
            ranked.front().saved_per_effort
                ? fmt::format(", {} {} per {}", format_time(*ranked.front().saved_per_effort, p), unit, effort_unit)
                : "");
    }
    return exit_ok;
}

}  // namespace

void setup_rank(CLI::App& app, Action& action) {
    auto options = std::make_shared<RankOptions>();
    CLI::App* command = app.add_subcommand("rank", "Rank targets: which phase (or proposal) is worth speeding up");
    add_profile_options(*command, options->profile);
    add_candidate_options(*command, options->candidates);
    command->add_option("--by", options->by, "Order by saving (default), effort (saved per unit of effort) or ceiling")
        ->check(CLI::IsMember({"saving", "effort", "ceiling"}));
    command->add_option("--top", options->top, "Show only the first N")->check(positive_number());
    command
        ->add_option("--grid", options->grid, "Also show each target's end-to-end speedup at these factors: 2,4,8,inf")
        ->delimiter(',')
        ->allow_extra_args(false);
    command->add_flag("--explain", options->explain, "Show the arithmetic behind each row");
    command->callback([options, &action] { action = [options](Context& c) { return run_rank(*options, c); }; });
}

}  // namespace amdahl::cli
