// The JSON reader for measured runs. A sibling of json.cpp rather than part of it: the runs
// schema ({"runs": [{"n", "time"}]}) shares nothing with the profile schema but the parser, and
// keeping nlohmann to these two files keeps its compile cost and its exceptions out of the rest.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/json_errors.hpp"
#include "input/measurements_internal.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

using Json = nlohmann::ordered_json;

// Far deeper than the schema goes; rejects pathological nesting before nlohmann recurses into it.
constexpr int max_depth = 64;

// A number or string field as text; a number under a key with a unit ("time_ms": 532.4) carries it.
std::string field_text(const Json& value, const RunColumn& column, const std::string& where) {
    if (value.is_number()) {
        std::string text = shortest(value.get<double>());
        if (column.unit) text += " " + std::string(unit_name(*column.unit));
        return text;
    }
    if (value.is_string()) return with_unit(value.get<std::string>(), column.unit);
    throw Error(where, "expected a number or a string (got " + describe(value) + ")");
}

}  // namespace

RawRuns read_json_runs(std::string_view content, const std::string& source,
                       const std::vector<MeasuredQuantity>& accepted) {
    check_depth(content, source, max_depth);
    Json doc;
    try {
        doc = Json::parse(content.begin(), content.end());
    } catch (const Json::parse_error& e) {
        std::string reason = e.what();
        if (const auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
            reason = reason.substr(colon + 2);
        throw Error(source + ":" + line_column(content, e.byte > 0 ? e.byte - 1 : 0),
                    "malformed JSON: " + printable(reason));
    } catch (const Json::exception& e) {
        // A number too large for a double is an out_of_range error, not a parse_error.
        throw Error(source, "malformed JSON: " + printable(e.what()));
    }
    RawRuns out;
    out.source = source;
    const Json* runs = &doc;
    std::string prefix;
    if (doc.is_object()) {
        if (const auto unit = doc.find("unit"); unit != doc.end()) {
            if (!unit->is_string() || !parse_unit(unit->get<std::string>()))
                throw Error(source + ": unit",
                            "unknown unit " + describe(*unit) + " (expected ns, us, ms, s, min or h)");
            out.unit = parse_unit(unit->get<std::string>());
        }
        const auto found = doc.find("runs");
        if (found == doc.end())
            throw Error(source, "no \"runs\" in the JSON (expected {\"runs\": [{\"n\": 1, \"time\": 900}, ...]})");
        runs = &*found;
        prefix = "runs";
    }
    if (!runs->is_array())
        throw Error(source + (prefix.empty() ? "" : ": " + prefix),
                    "expected an array of runs such as [{\"n\": 1, \"time\": 900}] (got " + describe(*runs) + ")");
    std::optional<MeasuredQuantity> quantity;
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const Json& item = (*runs)[i];
        const std::string path = prefix + "[" + std::to_string(i) + "]";
        const std::string where = source + ": " + path;
        if (!item.is_object())
            throw Error(where,
                        "a run must be an object such as {\"n\": 4, \"time\": 250} (got " + describe(item) + ")");
        RawRun run;
        run.where = where;
        bool has_n = false, has_value = false;
        std::map<MeasuredQuantity, std::pair<std::string, std::string>> values;  // a key and its text
        // Time stamps: the key and its text, when the run has them.
        std::optional<std::pair<std::string, std::string>> start, end;
        for (const auto& [key, value] : item.items()) {
            const auto column = classify_run_column(key);
            if (!column) continue;
            const std::string key_where = where + "." + key;
            if (column->kind == RunColumn::Kind::n && !has_n) {
                run.n = field_text(value, *column, key_where);
                has_n = true;
            } else if (column->kind == RunColumn::Kind::start || column->kind == RunColumn::Kind::end) {
                auto& stamp = column->kind == RunColumn::Kind::start ? start : end;
                if (!stamp) stamp.emplace(key, field_text(value, *column, key_where));
            } else if (column->kind == RunColumn::Kind::value &&
                       std::find(accepted.begin(), accepted.end(), column->quantity) != accepted.end()) {
                // The first key of each quantity (the keys come sorted, not as written).
                if (!values.contains(column->quantity))
                    values.emplace(column->quantity, std::pair{key, field_text(value, *column, key_where)});
            }
        }
        // A time and a speedup: the time is read, and the speedup checked against the times.
        if (values.size() > 1 && values.contains(MeasuredQuantity::time) &&
            values.contains(MeasuredQuantity::speedup)) {
            auto& [key, text] = values.at(MeasuredQuantity::speedup);
            run.speedup = text;
            if (out.speedup_label.empty()) out.speedup_label = key;
            values.erase(MeasuredQuantity::speedup);
        }
        if (!values.empty()) {
            const auto& [kind, given] = *values.begin();
            if (quantity && *quantity != kind)
                throw Error(where + "." + given.first, "this run gives a " + quantity_name(kind) +
                                                           " but the first gives a " + quantity_name(*quantity) +
                                                           "; give one kind for every run");
            quantity = kind;
            run.value = given.second;
            has_value = true;
        }
        if (!has_n) throw Error(where, "run has no \"n\" (the processor count)");
        const bool times = std::find(accepted.begin(), accepted.end(), MeasuredQuantity::time) != accepted.end();
        if (!has_value && times && start && end &&
            quantity.value_or(MeasuredQuantity::time) == MeasuredQuantity::time) {
            run.start = start->second;
            run.value = end->second;
            quantity = MeasuredQuantity::time;
            has_value = true;
            if (out.notes.empty())
                out.notes.push_back(where + ": the run time is \"" + printable(end->first) + "\" minus \"" +
                                    printable(start->first) + "\"");
        } else if (!has_value && times && (start || end)) {
            const bool is_start = start.has_value();
            const std::string& key = (is_start ? start : end)->first;
            throw Error(where + "." + key, "\"" + printable(key) + "\" holds " + (is_start ? "a start" : "an end") +
                                               " time, not a duration, and the run has no duration or " +
                                               (is_start ? "end" : "start"));
        }
        if (!has_value) {
            std::string keys;
            for (std::size_t k = 0; k < accepted.size(); ++k)
                keys += (k == 0 ? "\"" : " or \"") + quantity_name(accepted[k]) + "\"";
            throw Error(where, "run has no " + keys);
        }
        out.runs.push_back(std::move(run));
    }
    out.quantity = quantity.value_or(accepted.front());
    return out;
}

}  // namespace amdahl::detail
