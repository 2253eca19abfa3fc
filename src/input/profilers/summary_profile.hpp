#pragma once
// What the summary readers (nsys stats, rocprof stats and --summary tables) share: their rows
// named by --rename/--group-by and summed, then checked like any profile (input/raw_profile.hpp's
// finish_profile), with --total turning the rest of the end-to-end time into `unattributed`.
// Summaries hold per-name totals only, so they say nothing about overlap: the profile is marked
// summary_only and says so in a note.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"
#include "input/profilers/naming.hpp"

namespace amdahl::detail {

class SummaryBuilder {
public:
    /// `unit`: the unit of the times passed to add().
    SummaryBuilder(const ImportOptions& options, std::string source, Unit unit);

    /// Adds a row's total time to the phase its name maps to. `category` is what --group-by cat
    /// groups by, `kind` the phase kind; rows of different kinds in one phase make kind "mixed".
    /// `calls`: how many calls the row's time is made of, when the summary says (Instances, Calls).
    void add(std::string_view raw_name, std::string_view category, std::string_view kind, double time, std::size_t line,
             std::optional<std::uint64_t> calls = std::nullopt);
    std::size_t rows() const { return rows_; }

    /// The checked profile. `format` names the reader ("nsys"); `summed` says what the rows are
    /// in words ("kernel times in the nsys summary") for the boundary and the notes.
    Profile finish(const std::string& format, const std::string& summed, std::vector<std::string> notes);

private:
    struct Entry {
        std::string name;
        std::string kind;
        std::vector<double> times;
        std::size_t line = 0;                ///< of the first row
        std::optional<std::uint64_t> calls;  ///< the rows' sum; none when a row does not say
    };
    const ImportOptions& options_;
    PhaseNamer namer_;
    std::string source_;
    Unit unit_;
    std::vector<Entry> entries_;
    std::unordered_map<std::string, std::size_t> index_;
    /// One raw (name, category, kind) of the rows: the phase it maps to, and where it was seen.
    struct Row {
        std::string phase;
        std::string raw_name;
        std::size_t first_line = 0, second_line = 0;
        std::size_t rows = 0;
    };
    std::unordered_map<std::string, Row> name_cache_;  // raw name + category + kind -> its Row
    std::vector<const Row*> repeated_;                 // rows whose raw name came again, in order
    std::size_t rows_ = 0;
};

}  // namespace amdahl::detail
