// The JSON profile reader: the only file that includes nlohmann/json.
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "io_internal.hpp"

namespace amdahl::detail {

namespace {

using Json = nlohmann::ordered_json;

constexpr int max_depth = 256;

// "3:14" for a byte offset into `content`.
std::string line_column(std::string_view content, std::size_t offset) {
    offset = std::min(offset, content.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (content[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

// Rejects nesting deeper than max_depth before parsing, so no input can exhaust the stack.
void check_depth(std::string_view content, const std::string& source) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < content.size(); ++i) {
        const char c = content[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '{' || c == '[') {
            if (++depth > max_depth) {
                throw Error(source + ":" + line_column(content, i),
                            "JSON nested deeper than " + std::to_string(max_depth) + " levels");
            }
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
}

std::string describe(const Json& value) {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return printable(text);
}

std::string where(const std::string& source, const std::string& path) { return source + ": " + path; }

RawTime read_time(const Json& value, const std::string& source, const std::string& path, const std::string& what) {
    if (value.is_number()) {
        const double v = value.get<double>();
        if (!std::isfinite(v) || v < 0)
            throw Error(where(source, path), what + " must be a finite number >= 0 (got " + describe(value) + ")");
        return RawTime{v, std::nullopt};
    }
    if (value.is_string()) return parse_time_text(value.get_ref<const std::string&>(), where(source, path), what);
    throw Error(where(source, path), what + " must be a number or a string such as \"21 ms\" (got " + describe(value) + ")");
}

double read_share(const Json& value, const std::string& source, const std::string& path) {
    if (value.is_number()) {
        const double v = value.get<double>();
        if (!std::isfinite(v) || v < 0 || v > 1)
            throw Error(where(source, path), "share must be a fraction between 0 and 1, or a string such as \"21%\" (got " +
                                                 describe(value) + ")");
        return v;
    }
    if (value.is_string()) return parse_share_text(value.get_ref<const std::string&>(), false, where(source, path), "share");
    throw Error(where(source, path), "share must be a number or a string such as \"21%\" (got " + describe(value) + ")");
}

std::string read_string(const Json& value, const std::string& source, const std::string& path) {
    if (!value.is_string()) throw Error(where(source, path), "expected a string (got " + describe(value) + ")");
    return value.get<std::string>();
}

// A phase object: {"name": ..., "time": ..., "share": ..., "kind": ...}; `name` given for the
// shorthand form, where the key is the name.
RawPhase read_phase_object(const Json& object, const std::string& source, const std::string& path,
                           std::optional<std::string> name, std::uint64_t at) {
    RawPhase phase;
    phase.at = at;
    for (const auto& [key, value] : object.items()) {
        const std::string key_path = path + "." + key;
        if (key == "name") phase.name = read_string(value, source, key_path);
        else if (key == "time") phase.time = read_time(value, source, key_path, "time");
        else if (key == "share") phase.share = read_share(value, source, key_path);
        else if (key == "kind") phase.kind = read_string(value, source, key_path);
        else if (key == "active_time") phase.active_time = read_time(value, source, key_path, "active_time");
    }
    if (name) phase.name = std::move(*name);
    if (phase.name.empty() && !object.contains("name")) throw Error(where(source, path), "phase has no \"name\"");
    if (!phase.time && !phase.share)
        throw Error(where(source, path), "phase '" + printable(phase.name) + "' has no \"time\" (or \"share\")");
    return phase;
}

void read_phases(const Json& phases, const std::string& source, RawProfile& out) {
    if (phases.is_array()) {
        out.origin = Origin::json_index;
        out.reserve(phases.size());
        for (std::size_t i = 0; i < phases.size(); ++i) {
            const std::string path = "phases[" + std::to_string(i) + "]";
            if (!phases[i].is_object())
                throw Error(where(source, path), "a phase must be an object with a name and a time (got " +
                                                     describe(phases[i]) + ")");
            out.add(read_phase_object(phases[i], source, path, std::nullopt, i + 1));
        }
    } else if (phases.is_object()) {
        // Shorthand: {"gemm_qkv": 34, "attention": "21 ms", "copy": {"time": 18, "kind": "copy"}}.
        out.origin = Origin::json_key;
        out.reserve(phases.size());
        for (const auto& [name, value] : phases.items()) {
            const std::string path = "phases." + name;
            if (value.is_object()) {
                out.add(read_phase_object(value, source, path, name, 1));
                continue;
            }
            RawPhase phase;
            phase.name = name;
            phase.at = 1;
            if (value.is_string() && !value.get_ref<const std::string&>().empty() &&
                value.get_ref<const std::string&>().back() == '%')
                phase.share = read_share(value, source, path);
            else
                phase.time = read_time(value, source, path, "time");
            out.add(std::move(phase));
        }
    } else {
        throw Error(where(source, "phases"), "expected an array of phases or an object of name: time (got " +
                                                 describe(phases) + ")");
    }
}

// "proposals": [{"name": "flash-attention", "target": "attention_softmax", "factor": 10, "effort": 3}]
void read_proposals(const Json& proposals, const std::string& source, RawProfile& out) {
    if (!proposals.is_array())
        throw Error(where(source, "proposals"), "expected an array of proposals (got " + describe(proposals) + ")");
    for (std::size_t i = 0; i < proposals.size(); ++i) {
        const std::string path = "proposals[" + std::to_string(i) + "]";
        const Json& item = proposals[i];
        if (!item.is_object())
            throw Error(where(source, path), "a proposal must be an object with a target and a factor (got " +
                                                 describe(item) + ")");
        ProfileProposal proposal;
        proposal.where = where(source, path);
        const auto target = item.find("target");
        if (target == item.end()) throw Error(proposal.where, "proposal has no \"target\" (a phase name, glob or kind:KIND)");
        proposal.target = read_string(*target, source, path + ".target");
        const auto factor = item.find("factor");
        if (factor == item.end()) throw Error(proposal.where, "proposal has no \"factor\"");
        if (factor->is_number()) proposal.factor = shortest(factor->get<double>());
        else proposal.factor = read_string(*factor, source, path + ".factor");
        if (const auto name = item.find("name"); name != item.end())
            proposal.name = read_string(*name, source, path + ".name");
        if (const auto effort = item.find("effort"); effort != item.end() && !effort->is_null()) {
            if (!effort->is_number() || !(effort->get<double>() > 0) || !std::isfinite(effort->get<double>()))
                throw Error(where(source, path + ".effort"), "effort must be a number > 0 (got " + describe(*effort) + ")");
            proposal.effort = effort->get<double>();
        }
        out.proposals.push_back(std::move(proposal));
    }
}

// "overlaps": [{"phases": ["gemm", "copy"], "time": 12.5}], as `amdahl import` writes them.
void read_overlaps(const Json& overlaps, const std::string& source, RawProfile& out) {
    if (!overlaps.is_array()) throw Error(where(source, "overlaps"), "expected an array (got " + describe(overlaps) + ")");
    for (std::size_t i = 0; i < overlaps.size(); ++i) {
        const std::string path = "overlaps[" + std::to_string(i) + "]";
        const Json& item = overlaps[i];
        if (!item.is_object() || !item.contains("phases") || !item["phases"].is_array() || !item.contains("time"))
            throw Error(where(source, path), "expected {\"phases\": [names], \"time\": T} (got " + describe(item) + ")");
        Overlap overlap;
        for (std::size_t p = 0; p < item["phases"].size(); ++p)
            overlap.phases.push_back(read_string(item["phases"][p], source, path + ".phases[" + std::to_string(p) + "]"));
        const RawTime time = read_time(item["time"], source, path + ".time", "time");
        overlap.time = time.value;  // written by amdahl in the profile's own unit
        out.overlaps.push_back(std::move(overlap));
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

}  // namespace

RawProfile read_json_profile(std::string_view content, const std::string& source) {
    check_depth(content, source);
    Json doc;
    try {
        doc = Json::parse(content.begin(), content.end());
    } catch (const Json::parse_error& e) {
        // nlohmann's text: "[json.exception.parse_error.101] parse error at line 3, column 5: <reason>"
        std::string reason = e.what();
        if (const auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
            reason = reason.substr(colon + 2);
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        throw Error(source + ":" + line_column(content, offset), "malformed JSON: " + printable(reason));
    } catch (const Json::out_of_range& e) {
        // "number overflow parsing '1e999'": a number no double can hold.
        std::string what = e.what();
        const auto quote = what.find('\'');
        throw Error(source, "number too large for a double" +
                                (quote == std::string::npos ? std::string() : ": " + printable(what.substr(quote))));
    }

    RawProfile out;
    out.source = source;
    if (doc.is_array()) {
        read_phases(doc, source, out);
        return out;
    }
    if (!doc.is_object()) throw Error(source, "expected a JSON object with \"phases\" (got " + describe(doc) + ")");
    for (const auto& [key, value] : doc.items()) {
        if (key == "name") {
            out.name = read_string(value, source, "name");
        } else if (key == "unit") {
            const std::string text = read_string(value, source, "unit");
            out.unit = parse_unit(text);
            if (!out.unit)
                throw Error(where(source, "unit"), "unknown unit '" + printable(text) + "' (expected ns, us, ms, s, min or h)");
        } else if (key == "total") {
            out.total = read_time(value, source, "total", "total");
            out.total_where = where(source, "total");
        }
    }
    const auto phases = doc.find("phases");
    if (phases == doc.end()) throw Error(source, "no \"phases\" in the profile");
    read_phases(*phases, source, out);
    if (const auto proposals = doc.find("proposals"); proposals != doc.end()) read_proposals(*proposals, source, out);
    if (const auto runs = doc.find("runs"); runs != doc.end()) read_runs(*runs, source, out);
    if (const auto overlaps = doc.find("overlaps"); overlaps != doc.end()) read_overlaps(*overlaps, source, out);
    if (const auto boundary = doc.find("boundary"); boundary != doc.end()) out.boundary = read_string(*boundary, source, "boundary");
    if (const auto summary = doc.find("summary_only"); summary != doc.end()) {
        if (!summary->is_boolean()) throw Error(where(source, "summary_only"), "expected true or false");
        out.summary_only = summary->get<bool>();
    }
    return out;
}

}  // namespace amdahl::detail
