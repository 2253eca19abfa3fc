#include "amdahl/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "amdahl/uncertainty.hpp"
#include "input/gzip.hpp"
#include "input/profilers/naming.hpp"
#include "input/profilers/readers.hpp"
#include "input/raw_profile.hpp"
#include "input/read_counter.hpp"
#include "model/quoted_name.hpp"
#include "model/suggest.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

bool named_gz(const std::string& path) { return lower(std::filesystem::path(path).extension().string()) == ".gz"; }

// The extension that names the format: "trace.csv.gz" is a CSV.
std::string lower_extension(const std::string& path) {
    std::filesystem::path name(path);
    if (named_gz(path)) name = name.stem();
    return lower(name.extension().string());
}

std::string_view first_line_with_text(std::string_view content) {
    while (!content.empty()) {
        const auto end = content.find('\n');
        std::string_view line = content.substr(0, end);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) return line;
        if (end == std::string_view::npos) break;
        content.remove_prefix(end + 1);
    }
    return {};
}

}  // namespace

std::optional<InputFormat> parse_input_format(std::string_view name) {
    if (name == "json") return InputFormat::json;
    if (name == "csv") return InputFormat::csv;
    if (name == "tsv") return InputFormat::tsv;
    if (name == "md" || name == "markdown") return InputFormat::markdown;
    if (name == "text" || name == "txt") return InputFormat::text;
    if (name == "chrome-trace" || name == "trace" || name == "kineto") return InputFormat::chrome_trace;
    if (name == "nsys") return InputFormat::nsys;
    if (name == "rocprof-stats") return InputFormat::rocprof_stats;
    if (name == "rocprof-trace") return InputFormat::rocprof_trace;
    if (name == "nsys-trace") return InputFormat::nsys_trace;
    if (name == "rocprof-summary") return InputFormat::rocprof_summary;
    if (name == "folded") return InputFormat::folded;
    return std::nullopt;
}

std::string_view input_format_name(InputFormat format) {
    switch (format) {
        case InputFormat::json:
            return "json";
        case InputFormat::csv:
            return "csv";
        case InputFormat::tsv:
            return "tsv";
        case InputFormat::markdown:
            return "md";
        case InputFormat::text:
            return "text";
        case InputFormat::chrome_trace:
            return "chrome-trace";
        case InputFormat::nsys:
            return "nsys";
        case InputFormat::rocprof_stats:
            return "rocprof-stats";
        case InputFormat::rocprof_trace:
            return "rocprof-trace";
        case InputFormat::nsys_trace:
            return "nsys-trace";
        case InputFormat::rocprof_summary:
            return "rocprof-summary";
        case InputFormat::folded:
            return "folded";
    }
    return "?";
}

InputFormat sniff_format(std::string_view content) {
    if (const auto profiler = detail::detect_profiler_format(content)) return *profiler;
    const auto start = content.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && (content[start] == '{' || content[start] == '[')) return InputFormat::json;
    // Markdown: any line that starts with a pipe (a title may precede the table).
    for (std::size_t pos = 0; pos < content.size();) {
        auto end = content.find('\n', pos);
        if (end == std::string_view::npos) end = content.size();
        std::string_view line = content.substr(pos, end - pos);
        const auto first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos && line[first] == '|') return InputFormat::markdown;
        pos = end + 1;
        if (pos > 4096) break;
    }
    const std::string_view header = first_line_with_text(content);
    if (header.find('\t') != std::string_view::npos) return InputFormat::tsv;
    if (header.find(',') != std::string_view::npos) return InputFormat::csv;
    return InputFormat::text;
}

namespace {

// An input opened for reading in chunks: a file, or standard input for "-"; gzip data (known by
// its magic bytes, whatever the name) is inflated as it is read.
class InputReader {
public:
    /// `on_read` (ImportOptions::on_read), when set, is told the bytes read as they are.
    InputReader(const std::string& path, std::istream& stdin_stream, const ImportOptions* options = nullptr)
        : name_(path == "-" ? "<stdin>" : path), in_(&stdin_stream) {
        if (path != "-") {
            std::error_code ec;
            const auto status = std::filesystem::status(path, ec);
            if (ec || !std::filesystem::exists(status)) throw Error(path, "no such file");
            if (std::filesystem::is_directory(status)) throw Error(path, "is a directory, not a profile");
            file_.open(path, std::ios::binary);
            if (!file_) throw Error(path, std::string("cannot open: ") + std::strerror(errno));
            in_ = &file_;
            if (std::filesystem::is_regular_file(status)) {
                const auto size = std::filesystem::file_size(path, ec);
                if (!ec) {
                    size_hint_ = static_cast<std::size_t>(std::min<std::uintmax_t>(size, std::uintmax_t{1} << 30));
                    path_ = path;
                    file_size_ = size;
                }
            }
        }
        if (options && options->on_read) {
            counter_ = std::make_shared<detail::ReadCounter>();
            counter_->on_read = options->on_read;
            counter_->size = file_size_;
            counting_ = std::make_unique<detail::CountingBuffer>(in_->rdbuf(), counter_);
            counted_ = std::make_unique<std::istream>(counting_.get());
            in_ = counted_.get();
        }
        open_gzip(path != "-" && named_gz(path));
    }

    /// The file's size when it is a regular file (0 otherwise, at most 1 GiB): room to reserve.
    std::size_t size_hint() const { return size_hint_; }

    /// Appends up to `limit` more bytes to `content`; false at the end of the input.
    bool read_more(std::string& content, std::size_t limit) {
        char buffer[1 << 16];
        std::size_t total = 0;
        if (!peeked_.empty()) {  // a first byte taken to look for gzip's magic bytes
            content += peeked_;
            total = read_ = peeked_.size();
            peeked_.clear();
        }
        while (total < limit && *in_) {
            in_->read(buffer, static_cast<std::streamsize>(std::min(sizeof buffer, limit - total)));
            const auto got = static_cast<std::size_t>(in_->gcount());
            if (got == 0) break;
            // Text never holds NUL bytes: stop at once on binary data (or /dev/zero) rather than
            // reading it all.
            if (const void* nul = std::memchr(buffer, 0, got)) {
                const auto offset = read_ + static_cast<std::size_t>(static_cast<const char*>(nul) - buffer);
                throw Error(name_, "binary data (a NUL byte at offset " + std::to_string(offset) +
                                       "); expected a profile or profiler output as text");
            }
            content.append(buffer, got);
            total += got;
            read_ += got;
        }
        if (in_->bad()) throw Error(name_, "read error");
        if (!bom_checked_ && content.size() >= 3) {
            bom_checked_ = true;
            if (content.starts_with("\xEF\xBB\xBF")) {  // UTF-8 byte order mark
                content.erase(0, 3);
                bom_ = 3;
            }
        }
        return total > 0 && static_cast<bool>(*in_);
    }

    std::istream* stream() { return in_; }

    /// A regular file read as it is (no gzip) can be opened again at any offset of the text.
    std::optional<detail::TraceSplit> split() const {
        if (path_.empty() || inflater_ || file_size_ < bom_) return std::nullopt;
        detail::TraceSplit split;
        split.size = file_size_ - bom_;
        split.open_at = [path = path_, bom = bom_,
                         counter = counter_](std::uint64_t offset) -> std::unique_ptr<std::istream> {
            auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
            if (!*file || !file->seekg(static_cast<std::streamoff>(offset + bom))) return nullptr;
            return counter ? detail::counted(std::move(file), counter) : std::move(file);
        };
        return split;
    }
    const std::string& name() const { return name_; }

private:
    // gzip starts with the bytes 1f 8b; no text does (0x1f is a control character).
    void open_gzip(bool named_gz) {
        std::streambuf* buffer = in_->rdbuf();
        bool gzip = false;
        if (buffer->sgetc() == detail::gzip_magic[0]) {
            buffer->sbumpc();
            gzip = buffer->sgetc() == detail::gzip_magic[1];
            if (!gzip) peeked_ = std::string(1, static_cast<char>(detail::gzip_magic[0]));
        }
        if (!gzip) {
            if (named_gz)
                throw Error(name_, "is named .gz but is not gzip data (it does not start with gzip's bytes 1f 8b)");
            return;
        }
        inflater_ = std::make_unique<detail::GzipInflater>(
            *in_, name_, std::string_view(reinterpret_cast<const char*>(detail::gzip_magic), 1));
        inflated_ = std::make_unique<std::istream>(inflater_.get());
        inflated_->exceptions(std::ios::badbit);  // the inflater's errors reach the caller as they are
        in_ = inflated_.get();
        size_hint_ = 0;  // the compressed size says little about the text's
    }

    std::string name_;
    std::istream* in_;
    std::ifstream file_;
    std::shared_ptr<detail::ReadCounter> counter_;  // with ImportOptions::on_read: counts what file_ gives
    std::unique_ptr<detail::CountingBuffer> counting_;
    std::unique_ptr<std::istream> counted_;
    std::unique_ptr<detail::GzipInflater> inflater_;
    std::unique_ptr<std::istream> inflated_;
    std::string peeked_;
    std::size_t read_ = 0;
    std::size_t size_hint_ = 0;
    bool bom_checked_ = false;
    std::string path_;             // a regular file's path (empty otherwise)
    std::uint64_t file_size_ = 0;  // and its size
    std::uint64_t bom_ = 0;        // bytes of a byte order mark dropped from the text
};

constexpr std::size_t sniff_bytes = 1 << 16;

}  // namespace

std::string read_input(const std::string& path, std::istream& stdin_stream) {
    InputReader reader(path, stdin_stream);
    std::string content;
    content.reserve(reader.size_hint());
    while (reader.read_more(content, std::numeric_limits<std::size_t>::max())) {
    }
    return content;
}

namespace {

// "a JSON profile", "a chrome-trace profile": the input as an error message names it.
std::string described(InputFormat format) {
    switch (format) {
        case InputFormat::json:
            return "a JSON profile";
        case InputFormat::csv:
            return "a CSV profile";
        case InputFormat::tsv:
            return "a TSV profile";
        case InputFormat::markdown:
            return "a Markdown profile";
        case InputFormat::text:
            return "a text profile";
        default:
            break;
    }
    return "a " + std::string(input_format_name(format)) + " profile";
}

// --model replay replays a whole trace: checked before a run's folder is read, as for one file.
// --model replay of a JSON profile: it replays the timeline `import --keep-timeline` wrote, which
// holds what the trace's reading settled (the queue gap, the names): options that would change
// that are errors here, not ignored.
void check_timeline(const detail::RawProfile& raw, const ImportOptions& options) {
    if (!raw.dependencies) {
        throw Error(raw.source,
                    "--model replay: this JSON profile has no \"timeline\" to replay; import the trace with "
                    "`amdahl import TRACE --keep-timeline`, or give the trace itself");
    }
    if (options.queue_gap_set) {
        throw Error("--queue-gap",
                    "does not apply to a JSON profile: its timeline was built when the trace was imported; give "
                    "--queue-gap to amdahl import --keep-timeline");
    }
    if (!options.renames.empty() || !options.rename_patterns.empty()) {
        throw Error(!options.renames.empty() ? "--rename" : "--rename-regex",
                    "does not apply to --model replay of a JSON profile: its timeline keeps the names it was "
                    "imported with; rename when importing (amdahl import TRACE --keep-timeline --rename ...)");
    }
}

void check_replay_options(const ImportOptions& options) {
    if (!options.dependencies) return;
    if (options.total) throw Error("--model replay", "does not take --total: its baseline is the trace's makespan");
}

// An option that does not apply to the input is an error, never ignored: --window on a CSV used
// to give whole-run numbers as if they were per step.
void check_options_apply(InputFormat format, const ImportOptions& options) {
    const bool timeline = format == InputFormat::chrome_trace || format == InputFormat::rocprof_trace ||
                          format == InputFormat::nsys_trace;
    const bool summary =
        format == InputFormat::nsys || format == InputFormat::rocprof_stats || format == InputFormat::rocprof_summary;
    const bool folded = format == InputFormat::folded;
    const auto refuse = [&](const char* option, const std::string& what) {
        throw Error(option, "does not apply to " + described(format) + " (" + what + ")");
    };
    if (options.lane != Lane::automatic && !timeline && format != InputFormat::nsys &&
        format != InputFormat::rocprof_summary)
        refuse("--lane",
               "it picks the events of a trace or the tables of a summary: chrome-trace, rocprof-trace, nsys-trace, "
               "nsys or "
               "rocprof-summary input");
    if (!options.window.empty() && !timeline)
        refuse("--window", "it picks the steps of a trace: chrome-trace, rocprof-trace or nsys-trace input");
    const auto trace_only = [&](bool given, const char* option, const char* what) {
        if (given && !timeline)
            refuse(option, std::string(what) + " of a trace: chrome-trace, rocprof-trace or nsys-trace input");
    };
    trace_only(options.window_any, "--window-any", "it widens the steps");
    trace_only(options.keep_partial_steps, "--keep-partial-steps", "it keeps the partial steps");
    trace_only(!options.step.empty(), "--step", "it picks one of the steps");
    trace_only(options.keep_profiler_events, "--keep-profiler-events", "it keeps the bookkeeping events");
    trace_only(!options.exclude.empty(), "--exclude", "it filters the events");
    trace_only(!options.pids.empty(), "--pid", "it filters the events");
    trace_only(!options.tids.empty(), "--tid", "it filters the events");
    trace_only(!options.streams.empty(), "--stream", "it filters the events");
    trace_only(!options.devices.empty(), "--device", "it filters the events");
    trace_only(!options.categories.empty(), "--cat", "it filters the events");
    if (options.dependencies) {
        // A JSON profile may hold the timeline of the trace it was imported from: read, then checked.
        if (options.keep_timeline && !timeline)
            refuse("--keep-timeline",
                   "it keeps the events of a trace: chrome-trace, rocprof-trace or nsys-trace input");
        if (!timeline && format != InputFormat::json)
            refuse("--model replay",
                   "it replays the events of a trace (chrome-trace, rocprof-trace or nsys-trace input), or a JSON "
                   "profile imported with --keep-timeline");
        check_replay_options(options);
    }
    if (options.window.empty()) {
        if (!options.step.empty()) throw Error("--step", "picks one of the steps --window finds; give --window too");
        if (options.window_any) throw Error("--window-any", "widens what --window matches; give --window too");
        if (options.keep_partial_steps)
            throw Error("--keep-partial-steps", "keeps steps --window finds; give --window too");
    }
    if (options.depth && !folded) refuse("--depth", "it cuts folded stacks: folded input");
    if (options.leaf && !folded) refuse("--leaf", "it cuts folded stacks: folded input");
    if (options.sample_period && !folded) refuse("--sample-period", "it times folded stacks: folded input");
    if (options.timeunit && format != InputFormat::nsys && format != InputFormat::nsys_trace)
        refuse("--timeunit", "it is the unit of nsys stats columns: nsys or nsys-trace input");
    if (options.group_by != "name" && !timeline && !summary && !folded)
        refuse("--group-by", "it groups the events or rows of profiler output");
    if (options.total && folded) refuse("--total", "the end-to-end time of folded stacks is the samples they hold");
    if (options.total && timeline && !options.window.empty())
        throw Error("--total",
                    "does not apply with --window (--total is the end-to-end time of the whole run; with --window the "
                    "profile is one step)");
}

// --rename and --rename-regex on amdahl's own formats, once the times are in one unit: the same
// meaning as on profiler output, where phases renamed to one name are one phase (their times,
// active times and calls added).
void rename_phases(Profile& profile, const ImportOptions& options) {
    if (options.renames.empty() && options.rename_patterns.empty()) return;
    const detail::PhaseNamer namer(options);
    std::unordered_map<std::string, std::size_t> index;
    std::vector<Phase> phases;
    phases.reserve(profile.phases.size());
    std::vector<std::string> first_names;         // per merged phase: the name of its first part, for messages
    std::unordered_set<std::size_t> mixed_noted;  // merged phases whose mixed kinds a note has named
    const char* const option = options.renames.empty() ? "--rename-regex" : "--rename";
    // 'unattributed', the declared total less the other phases, moves against their ranges; the
    // uncertainty bounds know it by its name (analysis/uncertainty.cpp). Renamed or merged, it would
    // be read as a range of its own, independent of theirs (a of 10..20 ms and the rest merged
    // into 65..75 ms, where they are 70 ms exactly), and its JSON would not read back.
    const bool rest_moves = profile.total_declared && has_spread(profile);
    for (Phase& phase : profile.phases) {
        std::string old_name = namer(phase.name, {});
        std::swap(old_name, phase.name);
        if (rest_moves && old_name == unattributed_phase && phase.kind == unattributed_phase && phase.name != old_name)
            throw Error(option, profile.source + ": would rename '" + old_name + "' (to '" + printable(phase.name) +
                                    "'): it is the declared total less the other phases, whose times are ranges, so "
                                    "its time moves with theirs, which a phase of its own cannot carry; leave it as "
                                    "it is (a selector can pick it beside others)");
        const auto [it, inserted] = index.emplace(phase.name, phases.size());
        if (inserted) {
            phases.push_back(std::move(phase));
            first_names.push_back(std::move(old_name));
            continue;
        }
        Phase& into = phases[it->second];
        // A phase runs in one barrier segment: merging two would move one segment's time into another.
        if (into.segment != phase.segment) {
            throw Error(option, profile.source + ": would make '" + printable(first_names[it->second]) +
                                    "' (segment '" + printable(into.segment) + "') and '" + printable(old_name) +
                                    "' (segment '" + printable(phase.segment) + "') one phase '" +
                                    printable(phase.name) +
                                    "': a phase runs in one barrier segment; select both with a glob instead");
        }
        // Ranges add at their ends; spreads of independent phases add in quadrature.
        if (into.spread || phase.spread) {
            const TimeSpread a = into.spread.value_or(TimeSpread{into.time, into.time, 0});
            const TimeSpread b = phase.spread.value_or(TimeSpread{phase.time, phase.time, 0});
            into.spread = TimeSpread{a.low + b.low, a.high + b.high, std::hypot(a.sd, b.sd)};
        }
        if (into.active_time || phase.active_time)
            into.active_time = into.active_time.value_or(into.time) + phase.active_time.value_or(phase.time);
        into.time += phase.time;
        time_at_range_midpoint(into);
        into.calls = detail::add_calls(
            into.calls, phase.calls,
            [&] { return (options.renames.empty() ? "--rename-regex: " : "--rename: ") + profile.source; }, phase.name,
            "parts");
        // Mixed kinds: none is true of the sum, so kind:KIND no longer picks it; said once a phase.
        if (into.kind != phase.kind) {
            const auto kind_of = [](const std::string& kind) { return kind.empty() ? std::string("none") : kind; };
            if (mixed_noted.insert(it->second).second)
                profile.notes.push_back(std::string(options.renames.empty() ? "--rename-regex" : "--rename") + ": '" +
                                        first_names[it->second] + "' (kind " + kind_of(into.kind) + ") and '" +
                                        old_name + "' (kind " + kind_of(phase.kind) + ") are one phase '" + into.name +
                                        "' now, which has no kind: kind: selectors do not pick it");
            into.kind.clear();
        }
    }
    profile.phases = std::move(phases);
}

// --total on amdahl's own formats: the same meaning as on profiler output.
void apply_total(detail::RawProfile& raw, const ImportOptions& options) {
    if (options.total) {
        const detail::RawTime given{options.total->value, options.total->unit};
        if (raw.total) {
            const Unit unit = raw.total->unit.value_or(raw.unit.value_or(Unit::ms));
            // In the total's unit: in ns, 1e306 ms and 2e306 ms both overflowed and agreed.
            const double declared = raw.total->value;
            const double wanted = convert(given.value, given.unit.value_or(unit), unit);
            if (std::fabs(declared - wanted) > detail::rounding_tolerance * std::max(declared, wanted))
                throw Error("--total", shortest(options.total->value) + " " +
                                           std::string(unit_name(given.unit.value_or(unit))) +
                                           " disagrees with the profile's total (" +
                                           format_duration(raw.total->value, unit) + ")");
        }
        raw.total = given;
        raw.total_where = "--total";
    }
}

}  // namespace

namespace {

Profile parse_any(std::string_view content, const std::string& source, std::optional<InputFormat> format,
                  const ImportOptions& options) {
    if (content.find_first_not_of(" \t\r\n") == std::string_view::npos) throw Error(source, "empty input: no phases");
    const InputFormat chosen = format ? *format : sniff_format(content);
    check_options_apply(chosen, options);
    detail::RawProfile raw;
    switch (chosen) {
        case InputFormat::chrome_trace:
            return detail::read_chrome_trace(content, nullptr, source, options);
        case InputFormat::nsys:
            return detail::read_nsys_stats(content, source, options);
        case InputFormat::rocprof_stats:
            return detail::read_rocprof_stats(content, source, options);
        case InputFormat::rocprof_trace:
            return detail::read_rocprof_trace(content, source, options);
        case InputFormat::nsys_trace:
            return detail::read_nsys_trace(content, source, options);
        case InputFormat::rocprof_summary:
            return detail::read_rocprof_summary(content, source, options);
        case InputFormat::folded:
            return detail::read_folded(content, source, options);
        case InputFormat::json:
            raw = detail::read_json_profile(content, source);
            detail::refuse_total_as_phase(raw, detail::TotalAdvice::json);
            if (options.dependencies) check_timeline(raw, options);
            break;
        case InputFormat::csv:
            raw = detail::read_delimited_profile(content, source, ',');
            break;
        case InputFormat::tsv:
            raw = detail::read_delimited_profile(content, source, '\t');
            break;
        case InputFormat::markdown:
            raw = detail::read_markdown_profile(content, source);
            break;
        case InputFormat::text:
            raw = detail::read_text_profile(content, source);
            break;
    }
    if (chosen != InputFormat::json) detail::refuse_total_as_phase(raw, detail::TotalAdvice::table);
    apply_total(raw, options);
    Profile profile = detail::finish_profile(std::move(raw));
    rename_phases(profile, options);
    profile.format = input_format_name(chosen);
    return profile;
}

Profile load_any(const std::string& path, std::istream& stdin_stream, std::optional<InputFormat> format,
                 const ImportOptions& options) {
    // One run's output folder (rocprofv3's traces, nsys trace exports) is one input.
    if (std::error_code ec; path != "-" && std::filesystem::is_directory(path, ec)) {
        if (format && format != InputFormat::rocprof_trace && format != InputFormat::nsys_trace) {
            throw Error(path,
                        "is a folder: only rocprof-trace and nsys-trace read one run's folder (got --input-format " +
                            std::string(input_format_name(*format)) + ")");
        }
        check_replay_options(options);
        Profile profile = detail::read_run_folder(path, options);
        check_options_apply(*parse_input_format(profile.format), options);
        return profile;
    }
    InputReader reader(path, stdin_stream, &options);
    // A format the user named is the format: content that looks like profiler output (a phase
    // called traceEvents, an nsys-like header) does not override it.
    const bool named = format.has_value();
    if (!format && path != "-") {
        const std::string ext = lower_extension(path);
        if (ext == ".csv")
            format = InputFormat::csv;
        else if (ext == ".tsv")
            format = InputFormat::tsv;
        else if (ext == ".md" || ext == ".markdown")
            format = InputFormat::markdown;
    }
    std::string content;
    bool more = reader.read_more(content, sniff_bytes);
    // Profiler output is recognised by its content whatever the file is called (a .csv may be an
    // nsys or rocprof table, a .json a trace).
    if (!named) {
        if (const auto untimed = detail::untimed_profiler_file(content)) throw Error(reader.name(), "is " + *untimed);
        if (const auto profiler = detail::detect_profiler_format(content)) format = profiler;
    }
    if (!format && path != "-" && lower_extension(path) == ".json") format = InputFormat::json;
    if (format == InputFormat::chrome_trace || (!format && sniff_format(content) == InputFormat::chrome_trace)) {
        check_options_apply(InputFormat::chrome_trace, options);
        const auto split = reader.split();
        return detail::read_chrome_trace(content, more ? reader.stream() : nullptr, reader.name(), options,
                                         more && split ? &*split : nullptr);
    }
    content.reserve(reader.size_hint());
    while (more) more = reader.read_more(content, std::numeric_limits<std::size_t>::max());
    return parse_any(content, reader.name(), format, options);
}

// A rename that renamed nothing is a typo or a name that changed: said, never silent. Its new name
// is then no phase (a rename that did apply made one).
void note_unused_renames(Profile& profile, const ImportOptions& options) {
    if (options.renames.empty() && options.rename_patterns.empty()) return;
    std::unordered_set<std::string_view> names;
    std::vector<std::string_view> known;
    for (const Phase& phase : profile.phases) {
        names.insert(phase.name);
        known.push_back(phase.name);
    }
    for (const auto& [old_name, new_name] : options.renames) {
        if (names.count(new_name)) continue;
        std::string note = "--rename " + printable(old_name + "=" + new_name) + ": nothing is named '" +
                           printable(old_name) + "', so nothing was renamed";
        const Suggestions near = nearest_names(old_name, known, 3);
        for (std::size_t i = 0; i < near.names.size(); ++i)
            note += (i == 0 ? "; did you mean '" : "', '") + printable(near.names[i]) +
                    (i + 1 == near.names.size() ? "'?" : "");
        profile.notes.push_back(note);
    }
    for (const auto& [pattern, new_name] : options.rename_patterns) {
        if (names.count(new_name)) continue;
        profile.notes.push_back("--rename-regex " + printable(pattern + "=" + new_name) + ": '" + printable(pattern) +
                                "' is found in no name, so nothing was renamed");
    }
}

}  // namespace

Profile parse_profile(std::string_view content, const std::string& source, std::optional<InputFormat> format,
                      const ImportOptions& options) {
    Profile profile = parse_any(content, source, format, options);
    note_unused_renames(profile, options);
    return profile;
}

Profile load_profile(const std::string& path, std::istream& stdin_stream, std::optional<InputFormat> format,
                     const ImportOptions& options) {
    Profile profile = load_any(path, stdin_stream, format, options);
    note_unused_renames(profile, options);
    return profile;
}

namespace detail {

namespace {
std::string lower_trimmed(std::string_view name) {
    std::string key;
    for (char c : trim(name)) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
}

// `key` is `word`, or starts with it followed by a space, ':' or '(' ("Total (ms)", "End-to-end latency").
bool starts_with_word(const std::string& key, std::string_view word, std::string_view after) {
    return key == word || (key.starts_with(word) && key.size() > word.size() &&
                           after.find(key[word.size()]) != std::string_view::npos);
}
}  // namespace

bool is_total_row_name(std::string_view name) {
    const std::string key = lower_trimmed(name);
    // "Total", "Total:", "Total (ms)"; "End-to-end latency", "end to end". Not "Total step", which
    // may be a phase: that and other total-sounding names are totals only by their time.
    return starts_with_word(key, "total", ":(") || starts_with_word(key, "end-to-end", " :(") ||
           starts_with_word(key, "end to end", " :(");
}

bool sounds_like_total_row_name(std::string_view name) {
    const std::string key = lower_trimmed(name);
    // "Total ..." and "End-to-end ..." whatever follows; "Sum", "Overall", "All" alone, with a
    // colon or a unit ("Sum (ms)"), or of the phases ("all phases", "sum of phases"). Not "all
    // reduce", "Sum (reduction)" or "sum of squares": those are work.
    for (std::string_view word : {"total", "end-to-end", "end to end"})
        if (starts_with_word(key, word, " :(")) return true;
    for (const std::string word : {"sum", "overall", "all"}) {
        if (key == word || key == word + ":" || key == word + " phases" || key == word + " of phases" ||
            key == word + " of all phases")
            return true;
        if (key.starts_with(word) && key.size() > word.size() + 2 && key.back() == ')') {
            const std::string_view rest = trim(std::string_view(key).substr(word.size()));
            if (rest.front() == '(' && (rest == "(%)" || parse_unit(trim(rest.substr(1, rest.size() - 2)))))
                return true;
        }
    }
    return false;
}

bool names_like_a_total(std::string_view name) {
    if (is_total_row_name(name) || sounds_like_total_row_name(name)) return true;
    const std::string key = lower_trimmed(name);
    if (key.find("σ") != std::string::npos || key.find("Σ") != std::string::npos || key.find("∑") != std::string::npos)
        return true;
    // A whole word: "Grand total", "step total", "wall clock"; not "subtotals_kernel", "wallace".
    const auto word_at = [&](std::size_t at, std::size_t size) {
        const auto letter = [&](std::size_t i) { return std::isalnum(static_cast<unsigned char>(key[i])) != 0; };
        return (at == 0 || !letter(at - 1)) && (at + size == key.size() || !letter(at + size));
    };
    for (const std::string_view word : {"total", "sum", "overall", "wall"})
        for (auto at = key.find(word); at != std::string::npos; at = key.find(word, at + 1))
            if (word_at(at, word.size())) return true;
    return false;
}

namespace {
// Half a unit of the last decimal place `value` was written to, as far as a double can say:
// 100 -> 0.5, 33.3 -> 0.05. Past 9 decimals, half a unit of its 15th significant digit (all a
// double keeps): 8.9e-49 is that precise, not within 5e-10 of 0.
double half_last_place(double value) {
    double place = 1;
    for (int decimals = 0; decimals < 9; ++decimals, place /= 10) {
        const double scaled = value / place;
        const double whole = std::round(scaled);
        if ((whole != 0 || value == 0) && std::fabs(scaled - whole) <= 1e-9 * std::max(1.0, scaled)) return place / 2;
    }
    return std::pow(10.0, std::floor(std::log10(value)) - 14) / 2;
}
}  // namespace

bool is_sum_of_the_others(const RawProfile& raw, std::size_t index, SumPrecision precision) {
    if (raw.phases.size() < 3 || !raw.extra[index].has_time) return false;
    Summation others;
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        if (i == index) continue;
        if (!raw.extra[i].has_time) return false;
        others.add(raw.time_in_profile_unit(i));
    }
    const double written = raw.phases[index].time;
    const double time = raw.in_profile_unit(index, written);
    const double tolerance = precision == SumPrecision::rounded ? rounding_tolerance * time
                                                                : raw.in_profile_unit(index, half_last_place(written));
    // Never a total the others then exceed beyond rounding (30 beside 10.2 + 20.2 + 0.1 = 30.5).
    return std::fabs(time - others.value()) <= tolerance && others.value() <= time * (1 + rounding_tolerance);
}

RawTime parse_time_text(std::string_view text, const std::string& where, const std::string& what) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error& e) {
        // A no-break space copied from a document looks like a space and is none ("12 ms").
        const std::string spaces = unusual_spaces(text);
        throw Error(where, what + " must be a finite number >= 0 with an optional unit (got '" + printable(text) +
                               "': " +
                               (spaces.empty() ? e.message()
                                               : "it holds " + spaces +
                                                     ", a space that is not a plain one; write a "
                                                     "plain space, or none") +
                               ")");
    }
    // A phase's time in percent is a share of the total (the "share" field or column); a spread or
    // an active time has no share form.
    if (q.percent) {
        const bool time = what.ends_with("time") && !what.ends_with("_time");
        throw Error(where, what + " is a percentage ('" + printable(text) + "'); " +
                               (time ? "give it as a share" : "give it as a time, in the time's unit"));
    }
    if (q.value < 0) throw Error(where, what + " must be a finite number >= 0 (got '" + printable(text) + "')");
    return RawTime{q.value, q.unit};
}

RawTime parse_uncertain_time_text(std::string_view text, const std::string& where, const std::string& what) {
    const std::string shown = printable(text);
    std::string_view separator;
    std::size_t at = std::string_view::npos;
    for (std::string_view candidate : {"..", "\xc2\xb1", "+/-", "+-"}) {
        at = text.find(candidate);
        if (at != std::string_view::npos) {
            separator = candidate;
            break;
        }
    }
    if (at == std::string_view::npos) return parse_time_text(text, where, what);
    const bool range = separator == "..";
    const std::string_view left = trim(text.substr(0, at)), right = trim(text.substr(at + separator.size()));
    if (left.empty() || right.empty())
        throw Error(where,
                    what + " '" + shown + "': " +
                        (range ? "a range needs both ends, such as \"19..23 ms\""
                               : "a spread needs a time and a standard deviation, such as \"21 ms \xc2\xb1 1.5\""));
    RawTime first = parse_time_text(left, where, what);
    // "21 ms ± 5%": a relative spread, which amdahl does not take; said with the time it would be.
    if (!range && right.ends_with('%')) {
        const RawTime percent = parse_time_text(right.substr(0, right.size() - 1), where, "the spread");
        throw Error(where, what + " '" + shown +
                               "': the spread is a percentage; give the standard deviation as a time, such as \"" +
                               std::string(left) + " \xc2\xb1 " + shortest(first.value * percent.value / 100) + "\"");
    }
    RawTime second = parse_time_text(right, where, what);
    // One unit for both: "19..23 ms" and "21 ms \xc2\xb1 1.5" write it once.
    const std::optional<Unit> unit = first.unit ? first.unit : second.unit;
    if (first.unit && second.unit) second.value = convert(second.value, *second.unit, *first.unit);
    RawTime out{first.value, unit};
    if (range) {
        if (first.value > second.value)
            throw Error(where, what + " '" + shown + "': the range is reversed (write the smaller end first)");
        // The point is the range's midpoint; the range is kept as the spread's ends.
        out.spread = TimeSpread{first.value, second.value, 0};
        out.value = range_midpoint(*out.spread);
    } else {
        out.spread = TimeSpread{first.value, first.value, second.value};
    }
    return out;
}

void throw_calls_past_max(const std::string& where, std::string_view name, std::string_view parts) {
    throw Error(where,
                "phase '" + printable(name) + "': its " + std::string(parts) + "' calls add up to more than 9e15");
}

void add_time_sd(RawTime& time, RawTime sd, const std::string& where) {
    if (time.spread && time.spread->sd > 0)
        throw Error(where + "the time already has a spread (written with \xc2\xb1): give it once");
    if (sd.unit && time.unit)
        sd.value = convert(sd.value, *sd.unit, *time.unit);
    else if (sd.unit)
        throw Error(where + "time_sd has a unit and the time has none: give both a unit, or neither");
    if (!time.spread) time.spread = TimeSpread{time.value, time.value, 0};
    time.spread->sd = sd.value;
}

double parse_share_text(std::string_view text, bool percent_scale, const std::string& where, const std::string& what) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error& e) {
        throw Error(where, what + " must be a fraction (0.21) or a percentage (21%) (got '" + printable(text) + "')");
    }
    if (q.unit)
        throw Error(where, what + " must be a fraction or a percentage, not a time (got '" + printable(text) + "')");
    const double share = (q.percent || percent_scale) ? q.value / 100 : q.value;
    if (share < 0 || share > 1 + rounding_tolerance)
        throw Error(where, what + " must be between 0% and 100% (got '" + printable(text) + "')");
    return share;
}

// A phase named like a total whose time is the others' sum is a total written as a phase, which
// would double the baseline: a JSON profile gives it as its "total" field, a table as a row
// named "Total" (a last row that is the sum is taken as the total in table.cpp; another row is
// no total and a phase at once).
// The same test as a table's last row: a name that sounds like a total row is equal within
// rounding; any other total-like name ("osrt_sum", "wall clock") only to the precision it was
// written in, and only without a kind. Tables take the same test, so amdahl's JSON of a table
// reads back, with or without the "total" field (not written when a time is a range); so do
// profilers' summaries (summary_profile.cpp), which have no total row at all.
// A declared "total" of another time says what the total is: that phase is not it.
void refuse_total_as_phase(const RawProfile& raw, TotalAdvice advice) {
    // Compared in the profile's unit (RawProfile::in_profile_unit), as is_sum_of_the_others does.
    const Unit bare = raw.unit.value_or(Unit::ms);
    const double declared = raw.total ? convert(raw.total->value, raw.total->unit.value_or(bare), bare) : 0;
    // No phase is the sum of others of which one has no time.
    if (std::any_of(raw.extra.begin(), raw.extra.end(), [](const auto& extra) { return !extra.has_time; })) return;
    // The others, whose sum never exceeds the phase's time by more than rounding, are the whole
    // less the phase: only a phase of about half the whole can be their sum, which at most two are
    // (or every phase of a whole of 0, and the first is refused). That screen keeps this linear
    // (each exact sum is a pass over all phases: 50,000 rows named like "k_sum_N" took 18 s).
    double whole = -1;  // summed when the first phase named like a total needs it
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        if (!names_like_a_total(raw.phases[i].name)) continue;
        if (whole < 0) {
            Summation sum;
            for (std::size_t j = 0; j < raw.phases.size(); ++j) sum.add(raw.time_in_profile_unit(j));
            whole = sum.value();
        }
        const double time = raw.time_in_profile_unit(i);
        if (time * (2 + rounding_tolerance) < whole * (1 - 1e-9)) continue;
        if (raw.total && std::fabs(time - declared) > rounding_tolerance * std::max(time, declared)) continue;
        const bool sounds_like_total = sounds_like_total_row_name(raw.phases[i].name);
        if (!sounds_like_total && !raw.phases[i].kind.empty()) continue;
        if (!is_sum_of_the_others(raw, i, sounds_like_total ? SumPrecision::rounded : SumPrecision::written)) continue;
        const char* what = advice == TotalAdvice::json
                               ? "phases: give it as the profile's \"total\" field, or rename it if it is a phase"
                           : advice == TotalAdvice::table
                               ? "rows: name it 'Total' if it is the total, or rename it if it is a phase"
                               : "rows: a summary has no total row; remove it (give --total for the measured "
                                 "end-to-end time), or rename it if it is a kernel";
        throw Error(raw.where(i), "phase '" + printable(raw.phases[i].name) +
                                      "' is named like a total and its time is the sum of the other " + what);
    }
}

}  // namespace detail
}  // namespace amdahl
