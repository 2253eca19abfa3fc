// The JSON profile reader: values with their JSON paths in messages, and the full path through
// parser events (json_plain.cpp is the fast one). nlohmann/json stays in src/input/json*.cpp.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <span>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "amdahl/speedup.hpp"
#include "input/json_errors.hpp"
#include "input/json_fields.hpp"
#include "input/json_timeline.hpp"
#include "input/raw_profile.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

constexpr int max_depth = 256;

std::string where(const std::string& source, const std::string& path) { return source + ": " + path; }

// The readers below take the value's JSON path as a callable, built only for a message: a
// profile of a million phases would otherwise build millions of path strings.
// `uncertain`: a phase's time, which may be a run-to-run range ("19..23 ms") or spread ("21 ms ± 1.5").
template <std::invocable Path>
RawTime read_time(const Json& value, const std::string& source, Path&& path, const char* what, bool uncertain = false) {
    if (value.is_number()) {
        const double v = value.get<double>();
        if (!std::isfinite(v) || v < 0)
            throw Error(where(source, path()),
                        std::string(what) + " must be a finite number >= 0 (got " + describe(value) + ")");
        return RawTime{v + 0.0, std::nullopt};  // -0 is 0
    }
    if (value.is_string()) {
        try {
            const std::string& text = value.get_ref<const std::string&>();
            return uncertain ? parse_uncertain_time_text(text, std::string(), what)
                             : parse_time_text(text, std::string(), what);
        } catch (const Error& e) {
            throw Error(where(source, path()), e.message());
        }
    }
    throw Error(where(source, path()),
                std::string(what) + " must be a number or a string such as \"21 ms\" (got " + describe(value) + ")");
}

RawTime read_time(const Json& value, const std::string& source, const std::string& path, const char* what,
                  bool uncertain = false) {
    return read_time(
        value, source, [&] { return path; }, what, uncertain);
}

template <std::invocable Path>
double read_share(const Json& value, const std::string& source, Path&& path) {
    if (value.is_number()) {
        const double v = value.get<double>();
        if (!std::isfinite(v) || v < 0 || v > 1)
            throw Error(
                where(source, path()),
                "share must be a fraction between 0 and 1, or a string such as \"21%\" (got " + describe(value) + ")");
        return v + 0.0;  // -0 is 0
    }
    if (value.is_string())
        return parse_share_text(value.get_ref<const std::string&>(), false, where(source, path()), "share");
    throw Error(where(source, path()),
                "share must be a number or a string such as \"21%\" (got " + describe(value) + ")");
}

// "calls": how many times a phase ran, a whole number (1e3 is fine, 2.5 is not).
template <std::invocable Path>
std::uint64_t read_calls(const Json& value, const std::string& source, Path&& path) {
    if (value.is_number_unsigned()) {
        if (value.get<std::uint64_t>() <= 9'000'000'000'000'000ULL) return value.get<std::uint64_t>();
        throw Error(where(source, path()), "calls must be at most 9e15 (got " + describe(value) + ")");
    }
    if (value.is_number()) {
        const double v = value.get<double>();
        if (std::isfinite(v) && v >= 0 && v == std::floor(v) && v <= max_calls) return static_cast<std::uint64_t>(v);
        if (std::isfinite(v) && v > max_calls)
            throw Error(where(source, path()), "calls must be at most 9e15 (got " + describe(value) + ")");
    }
    throw Error(where(source, path()), "calls must be a whole number >= 0 (got " + describe(value) + ")");
}

template <std::invocable Path>
std::string read_string(const Json& value, const std::string& source, Path&& path) {
    if (!value.is_string()) throw Error(where(source, path()), "expected a string (got " + describe(value) + ")");
    return value.get<std::string>();
}

std::string read_string(const Json& value, const std::string& source, const std::string& path) {
    return read_string(value, source, [&] { return path; });
}

// A phase object: {"name": ..., "time": ..., "share": ..., "kind": ...}; `name` given for the
// shorthand form, where the key is the name.
// "renamed_from": "old" or ["old", "older"]: the names this phase had before (what compare matches).
std::vector<std::string> read_renamed_from(const Json& value, const std::string& source, const std::string& path) {
    std::vector<std::string> names;
    if (value.is_string()) {
        names.push_back(value.get<std::string>());
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            names.push_back(read_string(value[i], source, path + "[" + std::to_string(i) + "]"));
    } else {
        throw Error(where(source, path), "expected a name or a list of names (got " + describe(value) + ")");
    }
    for (const auto& name : names)
        if (name.empty()) throw Error(where(source, path), "a former name is empty");
    return names;
}

constexpr std::string_view phase_keys[] = {"name",        "time",  "time_sd", "share",       "kind",
                                           "active_time", "calls", "segment", "renamed_from"};
// Every top-level key: those read in read_fields, and those only amdahl's own JSON carries
// (format, notes: what the reader found).
constexpr std::string_view profile_keys[] = {"schema_version", "name",     "unit",         "total",  "phases",
                                             "proposals",      "runs",     "overlaps",     "steps",  "classes",
                                             "timeline",       "boundary", "summary_only", "format", "notes"};

// A key amdahl does not read is an error, never dropped: a phase's "unit" or a misspelled "totl"
// would silently change the answer. A key starting with "_" (or "$schema") is a comment.
void refuse_unknown_key(const std::string& key, const std::string& source, const std::string& path,
                        std::span<const std::string_view> known) {
    if (key.starts_with('_') || key == "$schema" || std::find(known.begin(), known.end(), key) != known.end()) return;
    std::string list;
    for (std::size_t i = 0; i < known.size(); ++i)
        list += std::string(i == 0 ? "" : i + 1 == known.size() ? " and " : ", ") + std::string(known[i]);
    std::string hint;
    if (key == "unit" || key == "units" || key == "time_unit")
        hint = "; give a phase's unit with its time (\"time\": \"10 us\")";
    throw Error(where(source, path), "unknown key '" + printable(key) + "' (the keys here are " + list +
                                         "; a key starting with _ is a comment)" + hint);
}

RawPhase read_phase_object(const Json& object, const std::string& source, const std::string& path,
                           std::optional<std::string> name, std::uint64_t at, RawProfile& out) {
    RawPhase phase;
    phase.at = at;
    bool named = false;
    std::vector<std::string> former;
    std::optional<RawTime> time_sd;  // a run-to-run standard deviation of "time"
    std::string time_sd_path;
    for (const auto& item : object.items()) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        const std::string& key = item.key();
        const Json& value = item.value();
        const auto key_path = [&] { return path + "." + key; };
        if (key == "name") {
            phase.name = read_string(value, source, key_path);
            named = true;
        } else if (key == "time") {
            phase.time = read_time(value, source, key_path, "time", true);
        } else if (key == "time_sd") {
            time_sd = read_time(value, source, key_path, "time_sd");
            time_sd_path = key_path();
        } else if (key == "share") {
            phase.share = read_share(value, source, key_path);
        } else if (key == "kind") {
            phase.kind = read_string(value, source, key_path);
        } else if (key == "active_time") {
            phase.active_time = read_time(value, source, key_path, "active_time");
        } else if (key == "calls") {
            phase.calls = read_calls(value, source, key_path);
        } else if (key == "segment") {
            phase.segment = read_string(value, source, key_path);
        } else if (key == "renamed_from") {
            former = read_renamed_from(value, source, key_path());
        } else {
            refuse_unknown_key(key, source, key_path(), phase_keys);
        }
    }
    if (name) phase.name = std::move(*name);
    for (auto& old_name : former) out.renamed_from.emplace_back(std::move(old_name), phase.name);
    if (!name && !named) throw Error(where(source, path), "phase has no \"name\"");
    if (time_sd) {
        if (!phase.time) throw Error(where(source, time_sd_path), "time_sd needs a \"time\" beside it");
        if (phase.time->unit && !time_sd->unit) throw Error(where(source, time_sd_path), time_sd_without_unit);
        add_time_sd(*phase.time, *time_sd, where(source, time_sd_path) + ": ");
    }
    if (!phase.time && !phase.share)
        throw Error(where(source, path), "phase '" + printable(phase.name) + "' has no \"time\" (or \"share\")");
    return phase;
}

// An element of a "phases" array: a phase object.
void read_array_phase(const Json& value, const std::string& source, std::size_t index, RawProfile& out) {
    const auto path = [&] { return "phases[" + std::to_string(index) + "]"; };
    if (!value.is_object())
        throw Error(where(source, path()),
                    "a phase must be an object with a name and a time (got " + describe(value) + ")");
    out.add(read_phase_object(value, source, path(), std::nullopt, index + 1, out));
}

// A member of the shorthand "phases" object: {"gemm_qkv": 34, "attention": "21 ms", "softmax":
// "12%", "copy": {"time": 18, "kind": "copy"}}.
void read_named_phase(const std::string& name, const Json& value, const std::string& source, RawProfile& out) {
    const auto path = [&] { return "phases." + name; };
    if (value.is_object()) {
        out.add(read_phase_object(value, source, path(), name, 1, out));
        return;
    }
    RawPhase phase;
    phase.name = name;
    phase.at = 1;
    if (value.is_string() && !value.get_ref<const std::string&>().empty() &&
        value.get_ref<const std::string&>().back() == '%')
        phase.share = read_share(value, source, path);
    else
        phase.time = read_time(value, source, path, "time", true);
    out.add(std::move(phase));
}

// "proposals": [{"name": "flash-attention", "target": "attention_softmax", "factor": 10, "effort": 3}]
void read_proposals(const Json& proposals, const std::string& source, RawProfile& out) {
    if (!proposals.is_array())
        throw Error(where(source, "proposals"), "expected an array of proposals (got " + describe(proposals) + ")");
    for (std::size_t i = 0; i < proposals.size(); ++i) {
        const std::string path = "proposals[" + std::to_string(i) + "]";
        const Json& item = proposals[i];
        if (!item.is_object())
            throw Error(where(source, path),
                        "a proposal must be an object with a target and a factor (got " + describe(item) + ")");
        ProfileProposal proposal;
        proposal.where = where(source, path);
        const auto target = item.find("target");
        if (target == item.end())
            throw Error(proposal.where, "proposal has no \"target\" (a phase name, glob or kind:KIND)");
        proposal.target = read_string(*target, source, path + ".target");
        const auto factor = item.find("factor");
        if (factor == item.end()) throw Error(proposal.where, "proposal has no \"factor\"");
        if (factor->is_number())
            proposal.factor = shortest(factor->get<double>());
        else
            proposal.factor = read_string(*factor, source, path + ".factor");
        if (const auto name = item.find("name"); name != item.end())
            proposal.name = read_string(*name, source, path + ".name");
        // "effort": 3, or with its unit: "3w", "2 engineer-days".
        if (const auto effort = item.find("effort"); effort != item.end() && !effort->is_null()) {
            if (effort->is_string()) {
                try {
                    const Effort parsed = parse_effort(effort->get_ref<const std::string&>());
                    proposal.effort = parsed.value;
                    proposal.effort_unit = parsed.unit;
                } catch (const Error& e) {
                    throw Error(where(source, path + ".effort"), e.message());
                }
            } else if (!effort->is_number() || !(effort->get<double>() > 0) || !std::isfinite(effort->get<double>())) {
                throw Error(where(source, path + ".effort"),
                            "effort must be a number > 0, or a string with its unit such as \"3w\" (got " +
                                describe(*effort) + ")");
            } else {
                proposal.effort = effort->get<double>();
            }
        }
        out.proposals.push_back(std::move(proposal));
    }
}

// "overlaps": [{"phases": ["gemm", "copy"], "time": 12.5}], as `amdahl import` writes them.
void read_overlaps(const Json& overlaps, const std::string& source, RawProfile& out) {
    if (!overlaps.is_array())
        throw Error(where(source, "overlaps"), "expected an array (got " + describe(overlaps) + ")");
    for (std::size_t i = 0; i < overlaps.size(); ++i) {
        const std::string path = "overlaps[" + std::to_string(i) + "]";
        const Json& item = overlaps[i];
        if (!item.is_object() || !item.contains("phases") || !item["phases"].is_array() || !item.contains("time"))
            throw Error(where(source, path),
                        "expected {\"phases\": [names], \"time\": T} (got " + describe(item) + ")");
        constexpr std::string_view overlap_keys[] = {"phases", "time"};
        for (const auto& [key, value] : item.items()) refuse_unknown_key(key, source, path + "." + key, overlap_keys);
        Overlap overlap;
        for (std::size_t p = 0; p < item["phases"].size(); ++p)
            overlap.phases.push_back(
                read_string(item["phases"][p], source, path + ".phases[" + std::to_string(p) + "]"));
        const RawTime time = read_time(item["time"], source, path + ".time", "time");
        // Written by amdahl as a number in the profile's own unit; "3 ms" would be read as 3 units.
        if (time.unit || time.spread)
            throw Error(where(source, path + ".time"),
                        "an overlap's time is a number in the profile's unit (got " + describe(item["time"]) + ")");
        overlap.time = time.value;
        out.overlaps.push_back(std::move(overlap));
    }
}

// "steps": [{"name": "ProfilerStep#3", "start": 0, "time": 9288, "used": true}], as `amdahl import`
// writes them for a trace cut with --window: what the per-step phases were averaged over.
void read_steps(const Json& steps, const std::string& source, RawProfile& out) {
    if (!steps.is_array()) throw Error(where(source, "steps"), "expected an array (got " + describe(steps) + ")");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string path = "steps[" + std::to_string(i) + "]";
        const Json& item = steps[i];
        const auto number = [&](const char* key) {
            const auto found = item.find(key);
            if (found == item.end() || !found->is_number() || !std::isfinite(found->get<double>()))
                throw Error(where(source, path + "." + key), "expected a number");
            return found->get<double>();
        };
        if (!item.is_object() || !item.contains("name"))
            throw Error(where(source, path), "expected {\"name\": N, \"start\": T, \"time\": T, \"used\": true} (got " +
                                                 describe(item) + ")");
        Step step;
        step.name = read_string(item["name"], source, path + ".name");
        step.start = number("start");
        step.time = number("time");
        if (const auto dropped = item.find("dropped"); dropped != item.end())
            step.dropped = read_string(*dropped, source, path + ".dropped");
        out.steps.push_back(std::move(step));
    }
}

// "classes": [{"class": "gemm", "name": "ampere_sgemm_128x64_tn", "rule": "'gemm' in the base name"}],
// as `amdahl import --group-by class` writes them: which kernel went to which class, and why.
void read_classes(const Json& classes, const std::string& source, RawProfile& out) {
    if (!classes.is_array()) throw Error(where(source, "classes"), "expected an array (got " + describe(classes) + ")");
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const std::string path = "classes[" + std::to_string(i) + "]";
        const Json& item = classes[i];
        if (!item.is_object() || !item.contains("class") || !item.contains("name") || !item.contains("rule"))
            throw Error(where(source, path),
                        "expected {\"class\": C, \"name\": N, \"rule\": R} (got " + describe(item) + ")");
        ClassMember member;
        member.phase = read_string(item["class"], source, path + ".class");
        member.name = read_string(item["name"], source, path + ".name");
        member.rule = read_string(item["rule"], source, path + ".rule");
        out.class_members.push_back(std::move(member));
    }
}

// "runs": [100.2, 99.8, "101 ms"]: end-to-end times of repeated runs, each > 0.
void read_runs(const Json& runs, const std::string& source, RawProfile& out) {
    out.runs_where = where(source, "runs");
    if (!runs.is_array() || runs.empty())
        throw Error(out.runs_where, "expected a non-empty array of end-to-end times (got " + describe(runs) + ")");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string path = "runs[" + std::to_string(i) + "]";
        out.runs.push_back(read_time(runs[i], source, path, "run time"));
        if (!(out.runs.back().value > 0))
            throw Error(where(source, path), "run time must be > 0 (got " + describe(runs[i]) + ")");
    }
}

// Builds one JSON value from parser events: a phase, or a top-level field.
class ValueBuilder {
public:
    bool building() const { return !open_.empty(); }
    /// Places a scalar; true when it completes the value.
    bool scalar(Json value) {
        place(std::move(value));
        return open_.empty();
    }
    void open(Json container) { open_.push_back(place(std::move(container))); }
    /// Closes the innermost container; true when that completes the value.
    bool close() {
        open_.pop_back();
        return open_.empty();
    }
    void key(std::string name) { key_ = std::move(name); }
    /// True when the object being filled already has `name`: JSON allows it, but a second "time"
    /// or "total" silently replacing the first is a wrong answer waiting to happen.
    bool has_key(const std::string& name) const {
        return !open_.empty() && open_.back()->is_object() && open_.back()->contains(name);
    }
    Json& value() { return value_; }

private:
    Json* place(Json value) {
        if (open_.empty()) {
            value_ = std::move(value);
            return &value_;
        }
        Json& parent = *open_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        Json& slot = parent[key_];
        slot = std::move(value);
        return &slot;
    }
    Json value_;
    std::vector<Json*> open_;  // the containers being filled, innermost last
    std::string key_;
};

// Parser events for a JSON profile: the phases are read one by one as they arrive, never held as
// a document (a million phases would take gigabytes); every other top-level field is kept whole.
class ProfileEvents : public nlohmann::json_sax<Json> {
public:
    struct Failure {
        std::size_t byte = 0;
        std::string what;
        bool overflow = false;  // a number beyond a double
    };

    ProfileEvents(const std::string& source, RawProfile& out) : source_(source), out_(out) {}

    bool null() override { return scalar(Json(nullptr)); }
    bool boolean(bool value) override { return scalar(Json(value)); }
    bool number_integer(number_integer_t value) override { return scalar(Json(value)); }
    bool number_unsigned(number_unsigned_t value) override { return scalar(Json(value)); }
    bool number_float(number_float_t value, const string_t&) override { return scalar(Json(value)); }
    bool string(string_t& value) override { return scalar(Json(std::move(value))); }
    bool binary(binary_t&) override { return false; }  // not in JSON text

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& name) override {
        if (builder_.building()) {
            if (builder_.has_key(name)) throw Error(where(source_, value_path() + "." + name), "key given twice");
            builder_.key(std::move(name));
        } else {
            if (level() == Level::object_root && name != "phases" && fields.contains(name))
                throw Error(where(source_, name), "key given twice");
            key_ = std::move(name);
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        failure = Failure{position, e.what(), e.id == 406};
        return false;
    }

    std::optional<Failure> failure;
    bool root_is_array = false, root_is_object = false, saw_phases = false;
    Json fields = Json::object();  // top-level fields but the phases; the root itself when not an object

private:
    // Where the value that starts now belongs, when no value is being built.
    enum class Level { root, object_root, phase_array, phase_object };

    bool open(Json container) {
        if (builder_.building()) {
            builder_.open(std::move(container));
            return true;
        }
        const bool array = container.is_array();
        switch (level()) {
            case Level::root:
                if (array) {
                    root_is_array = saw_phases = true;
                    out_.origin = Origin::json_index;
                    levels_.push_back(Level::phase_array);
                } else {
                    root_is_object = true;
                    levels_.push_back(Level::object_root);
                }
                return true;
            case Level::object_root:
                if (key_ == "phases") {
                    if (saw_phases) throw Error(where(source_, "phases"), "\"phases\" appears twice");
                    saw_phases = true;
                    out_.origin = array ? Origin::json_index : Origin::json_key;
                    levels_.push_back(array ? Level::phase_array : Level::phase_object);
                    return true;
                }
                break;
            case Level::phase_array:
            case Level::phase_object:
                break;
        }
        builder_.open(std::move(container));
        return true;
    }

    bool close() {
        if (builder_.building()) {
            if (builder_.close()) finish_value();
            return true;
        }
        levels_.pop_back();
        return true;
    }

    bool scalar(Json value) {
        if (builder_.building() || level() != Level::root) {
            if (builder_.scalar(std::move(value))) finish_value();
        } else {
            fields = std::move(value);  // a bare scalar document: reported as not a profile
        }
        return true;
    }

    // A value is complete: hand it to its reader.
    void finish_value() {
        Json& value = builder_.value();
        switch (level()) {
            case Level::phase_array:
                read_array_phase(value, source_, phase_count_++, out_);
                break;
            case Level::phase_object:
                read_named_phase(key_, value, source_, out_);
                break;
            case Level::object_root:
                fields[key_] = std::move(value);
                break;
            case Level::root:
                break;
        }
        value = Json();
    }

    Level level() const { return levels_.empty() ? Level::root : levels_.back(); }

    // The JSON path of the value being built, for messages.
    std::string value_path() const {
        switch (level()) {
            case Level::phase_array:
                return "phases[" + std::to_string(phase_count_) + "]";
            case Level::phase_object:
                return "phases." + key_;
            default:
                return key_;
        }
    }

    const std::string& source_;
    RawProfile& out_;
    ValueBuilder builder_;
    std::vector<Level> levels_;
    std::string key_;  // the key of the current top-level field or shorthand phase
    std::size_t phase_count_ = 0;
};

}  // namespace

// The top-level fields besides "phases": schema_version, name, unit, total, proposals, runs, overlaps, ...
void read_fields(const Json& doc, const std::string& source, RawProfile& out) {
    for (const auto& [key, value] : doc.items()) {
        if (key == "schema_version") {
            // What `amdahl import` writes first; a later version may mean what this reader cannot.
            if (!value.is_number() || value.get<double>() != 1)
                throw Error(where(source, "schema_version"),
                            "this amdahl reads profiles of schema_version 1 (got " + describe(value) + ")");
        } else if (key == "name") {
            out.name = read_string(value, source, "name");
        } else if (key == "unit") {
            const std::string text = read_string(value, source, "unit");
            out.unit = parse_unit(text);
            if (!out.unit)
                throw Error(where(source, "unit"),
                            "unknown unit '" + printable(text) + "' (expected ns, us, ms, s, min or h)");
        } else if (key == "total") {
            out.total = read_time(value, source, "total", "total");
            out.total_where = where(source, "total");
        } else {
            refuse_unknown_key(key, source, key, profile_keys);
        }
    }
    if (const auto proposals = doc.find("proposals"); proposals != doc.end()) read_proposals(*proposals, source, out);
    if (const auto runs = doc.find("runs"); runs != doc.end()) read_runs(*runs, source, out);
    if (const auto overlaps = doc.find("overlaps"); overlaps != doc.end()) read_overlaps(*overlaps, source, out);
    if (const auto steps = doc.find("steps"); steps != doc.end()) read_steps(*steps, source, out);
    if (const auto classes = doc.find("classes"); classes != doc.end()) read_classes(*classes, source, out);
    if (const auto timeline = doc.find("timeline"); timeline != doc.end())
        out.dependencies = read_timeline(*timeline, source);
    if (const auto boundary = doc.find("boundary"); boundary != doc.end())
        out.boundary = read_string(*boundary, source, "boundary");
    if (const auto summary = doc.find("summary_only"); summary != doc.end()) {
        if (!summary->is_boolean()) throw Error(where(source, "summary_only"), "expected true or false");
        out.summary_only = summary->get<bool>();
    }
}

RawProfile read_json_profile(std::string_view content, const std::string& source) {
    check_depth(content, source, max_depth);
    if (auto plain = read_plain_json_profile(content, source)) return std::move(*plain);
    return read_json_profile_events(content, source);
}

RawProfile read_json_profile_events(std::string_view content, const std::string& source) {
    RawProfile out;
    out.source = source;
    // Every phase but the last is followed by a comma and takes at least 6 bytes ("a":1,).
    const auto commas = static_cast<std::size_t>(std::count(content.begin(), content.end(), ','));
    out.reserve(std::min(commas + 1, content.size() / 6 + 1));
    ProfileEvents events(source, out);
    const char* const begin = content.data();
    Json::sax_parse(begin, begin + content.size(), &events);
    if (events.failure) {
        const ProfileEvents::Failure& failure = *events.failure;
        const std::size_t offset = failure.byte > 0 ? failure.byte - 1 : 0;
        const std::string at = source + ":" + line_column(content, offset);
        if (failure.overflow) {
            // "number overflow parsing '1e999'": a number no double can hold.
            const auto quote = failure.what.find('\'');
            throw Error(
                at, "number too large for a double" +
                        (quote == std::string::npos ? std::string() : ": " + printable(failure.what.substr(quote))));
        }
        // nlohmann's text: "[json.exception.parse_error.101] parse error at line 3, column 5: <reason>"
        std::string reason = failure.what;
        if (const auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
            reason = reason.substr(colon + 2);
        throw Error(at, "malformed JSON: " + printable(reason));
    }
    if (events.root_is_array) return out;

    const Json& doc = events.fields;
    if (!events.root_is_object)
        throw Error(source, "expected a JSON object with \"phases\" (got " + describe(doc) + ")");
    if (!events.saw_phases) {
        const auto phases = doc.find("phases");
        if (phases == doc.end()) throw Error(source, "no \"phases\" in the profile");
        throw Error(where(source, "phases"),
                    "expected an array of phases or an object of name: time (got " + describe(*phases) + ")");
    }
    read_fields(doc, source, out);
    return out;
}

}  // namespace amdahl::detail
