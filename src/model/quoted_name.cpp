#include "model/quoted_name.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "model/text.hpp"

namespace amdahl {

namespace {

bool starts_character(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

std::string quoted_name(std::string_view name) {
    constexpr std::size_t head = 48, tail = 24;
    std::size_t characters = 0;
    for (char c : name) characters += starts_character(c) ? 1 : 0;
    if (characters <= quoted_name_limit) return "'" + std::string(name) + "'";
    // Byte offsets where the head ends and the tail starts.
    std::size_t head_end = 0;
    for (std::size_t kept = 0; kept < head || !starts_character(name[head_end]); ++head_end) {
        if (starts_character(name[head_end])) ++kept;
    }
    std::size_t tail_start = name.size();
    for (std::size_t kept = 0; kept < tail;) {
        --tail_start;
        if (starts_character(name[tail_start])) ++kept;
    }
    return "'" + std::string(name.substr(0, head_end)) + "\xe2\x80\xa6" + std::string(name.substr(tail_start)) + "' (" +
           std::to_string(characters) + " characters)";
}

// The spaces in a name that a terminal shows as a plain space but are not one (U+00A0 no-break
// space, U+2000..U+200B, U+202F, U+205F, U+3000, U+FEFF), as "U+00A0"; a selector typed with plain
// spaces never matches such a name. "" when it has none.
std::string unusual_spaces(std::string_view name) {
    std::vector<std::string> found;
    for (std::size_t i = 0; i < name.size();) {
        const std::size_t length =
            static_cast<unsigned char>(name[i]) >= 0x80 ? detail::utf8_sequence_length(name, i) : 1;
        if (length < 2) {
            i += 1;
            continue;
        }
        std::uint32_t code = static_cast<unsigned char>(name[i]) & (0xFFu >> (length + 1));
        for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3Fu);
        if (code == 0xA0 || (code >= 0x2000 && code <= 0x200B) || code == 0x202F || code == 0x205F || code == 0x3000 ||
            code == 0xFEFF) {
            char text[8];
            std::snprintf(text, sizeof text, "U+%04X", static_cast<unsigned>(code));
            if (std::find(found.begin(), found.end(), text) == found.end()) found.emplace_back(text);
        }
        i += length;
    }
    std::string list;
    for (const std::string& code : found) list += (list.empty() ? "" : ", ") + code;
    return list;
}

}  // namespace amdahl
