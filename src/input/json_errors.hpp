#pragma once
// What both JSON readers (profiles in json.cpp, measured runs in json_runs.cpp) say about a
// document: where a byte is, nesting too deep to parse, and a value quoted in a message.
#include <algorithm>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"

namespace amdahl::detail {

/// "3:14": the line and column of a byte offset into `content`.
inline std::string line_column(std::string_view content, std::size_t offset) {
    offset = std::min(offset, content.size());
    const auto before = content.substr(0, offset);
    const auto line = 1 + std::count(before.begin(), before.end(), '\n');
    const auto newline = before.rfind('\n');
    const auto column = offset - (newline == std::string_view::npos ? 0 : newline + 1) + 1;
    return std::to_string(line) + ":" + std::to_string(column);
}

/// Rejects nesting deeper than `max_depth` before parsing, so no input can exhaust the stack.
/// Throws amdahl::Error at "source:line:column" of the first bracket too deep.
inline void check_depth(std::string_view content, const std::string& source, int max_depth) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < content.size(); ++i) {
        const char c = content[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth)
                throw Error(source + ":" + line_column(content, i),
                            "JSON nested deeper than " + std::to_string(max_depth) + " levels");
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
}

/// A JSON value as an error message quotes it: at most 40 characters, safe for a terminal.
inline std::string describe(const nlohmann::ordered_json& value) {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return printable(text);
}

}  // namespace amdahl::detail
