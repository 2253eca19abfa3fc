#pragma once
// The user's regular expressions (--window, --rename, --group-by regex:), run by RE2: time linear
// in the text whatever the pattern, where std::regex backtracks without bound (fuzz_cli found
// `--window '.?*f'` taking seconds on a two-line file). RE2's syntax is ECMAScript's without
// backreferences and lookaround.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace amdahl::detail {

class Pattern {
public:
    /// Compiles `pattern`; throws amdahl::Error naming `option` and `shown` (the text as the
    /// user gave it) when it is empty or not a valid regular expression.
    Pattern(const std::string& pattern, const std::string& option, const std::string& shown);
    ~Pattern();
    Pattern(Pattern&&) noexcept;
    Pattern& operator=(Pattern&&) noexcept;

    /// True when the pattern matches somewhere in `text`.
    bool found_in(std::string_view text) const;
    /// The first capture group of the first match, or the whole match when the pattern has no
    /// group (or the group took no part); none when the pattern is not found.
    std::optional<std::string_view> first_group(std::string_view text) const;

private:
    std::unique_ptr<re2::RE2> re_;
};

}  // namespace amdahl::detail
