// The table model's shared pieces: output formats by name, and text made safe for a terminal.

#include <unordered_map>

#include "amdahl/report.hpp"
#include "model/short_names.hpp"
#include "model/text.hpp"
#include "report/report.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

std::optional<OutputFormat> parse_output_format(std::string_view name) {
    if (name == "table" || name == "text") return OutputFormat::table;
    if (name == "json") return OutputFormat::json;
    if (name == "csv") return OutputFormat::csv;
    if (name == "md" || name == "markdown") return OutputFormat::markdown;
    return std::nullopt;
}

namespace {

// "\x1B": by hand, as fmt::format built and freed a string for every byte of a binary name.
void append_escape(std::string& out, unsigned char c) {
    constexpr char hex[] = "0123456789ABCDEF";
    const char escaped[] = {'\\', 'x', hex[c >> 4], hex[c & 0xF]};
    out.append(escaped, sizeof escaped);
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (const std::size_t length = detail::utf8_sequence_length(text, i)) {
                // C1 control characters (U+0080..U+009F) are escapes too, and so are the
                // bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), which
                // make a terminal show text in another order than it is.
                const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
                const bool c1 = length == 2 && c == 0xC2 && byte(1) < 0xA0;
                const bool bidi = length == 3 && c == 0xE2 &&
                                  ((byte(1) == 0x80 && byte(2) >= 0xAA && byte(2) <= 0xAE) ||
                                   (byte(1) == 0x81 && byte(2) >= 0xA6 && byte(2) <= 0xA9));
                if (!c1 && !bidi) {
                    out.append(text.substr(i, length));
                    i += length;
                    continue;
                }
            }
            append_escape(out, c);
            ++i;
            continue;
        }
        if (c < 0x20 || c == 0x7F) {
            append_escape(out, c);
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    return out;
}

std::vector<std::string> displayed_names(const std::vector<std::string_view>& names, const ReportOptions& options,
                                         const Profile* profile) {
    if (options.full_names) return {};
    if (!profile) return short_names(names, options.name_width);
    std::vector<std::string_view> all;
    all.reserve(profile->phases.size() + names.size());
    std::unordered_map<std::string_view, std::size_t> index;
    for (const Phase& phase : profile->phases)
        if (index.emplace(phase.name, all.size()).second) all.push_back(phase.name);
    for (std::string_view name : names)
        if (index.emplace(name, all.size()).second) all.push_back(name);
    std::vector<std::string> shown = short_names(all, options.name_width);
    if (shown.empty()) return shown;
    std::vector<std::string> out;
    out.reserve(names.size());
    for (std::string_view name : names) out.push_back(shown[index.at(name)]);
    return out;
}

std::vector<std::string> json_short_names(const std::vector<std::string_view>& names, const Profile* profile) {
    return displayed_names(names, ReportOptions{}, profile);
}

std::string render_summary(const std::vector<std::pair<std::string, std::string>>& items) {
    std::size_t width = 0;
    for (const auto& [label, value] : items) width = std::max(width, detail::display_width(label));
    std::string out;
    for (const auto& [label, value] : items) {
        out += label + ":";
        detail::pad(out, width - detail::display_width(label) + 1);
        out += value + "\n";
    }
    return out;
}

}  // namespace amdahl
