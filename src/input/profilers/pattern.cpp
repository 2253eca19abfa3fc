#include "input/profilers/pattern.hpp"

#include <re2/re2.h>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"

namespace amdahl::detail {

Pattern::Pattern(const std::string& pattern, const std::string& option, const std::string& shown) {
    if (pattern.empty()) throw Error(option, "'" + printable(shown) + "': the regular expression is empty");
    RE2::Options options;
    options.set_log_errors(false);
    re_ = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re_->ok())
        throw Error(option,
                    "'" + printable(shown) + "' is not a valid regular expression (" + printable(re_->error()) + ")");
}

Pattern::~Pattern() = default;
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;

bool Pattern::found_in(std::string_view text) const {
    return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

std::optional<std::string_view> Pattern::first_group(std::string_view text) const {
    re2::StringPiece groups[2];
    const int wanted = re_->NumberOfCapturingGroups() >= 1 ? 2 : 1;
    if (!re_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups, wanted))
        return std::nullopt;
    const re2::StringPiece& chosen = wanted == 2 && groups[1].data() != nullptr ? groups[1] : groups[0];
    return std::string_view(chosen.data(), chosen.size());
}

}  // namespace amdahl::detail
