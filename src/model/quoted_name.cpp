#include "model/quoted_name.hpp"

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

}  // namespace amdahl
