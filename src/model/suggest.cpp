#include "model/suggest.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <unordered_set>
#include <utility>

#include "model/edit_distance.hpp"
#include "model/text.hpp"

namespace amdahl {

namespace {

// ASCII lower case, as detail::lower (std::tolower in the C locale), without a call a byte.
unsigned char lower_byte(char c) {
    const auto b = static_cast<unsigned char>(c);
    return b >= 'A' && b <= 'Z' ? static_cast<unsigned char>(b - 'A' + 'a') : b;
}

// A lower bound on the edit distance from `wanted` to other names, from letter counts alone: each
// edit adds or removes at most one surplus letter on each side, so the distance is at least the
// larger surplus (which is at least the difference in length). No surplus on one side is also
// what one name needs to contain the other. O(length of the other name).
struct Letters {
    std::size_t bound = 0;
    bool may_contain = false;
};

class LetterBound {
public:
    explicit LetterBound(std::string_view wanted) : size_(wanted.size()) {
        for (char c : wanted) ++unmatched_[lower_byte(c)];
    }

    Letters operator()(std::string_view name) {
        std::size_t matched = 0;
        for (char c : name) {
            const unsigned char b = lower_byte(c);
            if (unmatched_[b] > 0) {
                --unmatched_[b];
                ++taken_[b];
                ++matched;
            }
        }
        for (char c : name) {  // put the counts back for the next name
            const unsigned char b = lower_byte(c);
            unmatched_[b] += taken_[b];
            taken_[b] = 0;
        }
        return {std::max(size_ - matched, name.size() - matched), matched == size_ || matched == name.size()};
    }

private:
    std::size_t size_;
    std::array<std::size_t, 256> unmatched_{}, taken_{};
};

// True when `needle` occurs in `haystack`, in time linear in both (Knuth-Morris-Pratt), so that a
// hostile pair such as "aaa...ab" in "aaaa..." costs what the budget charges for it.
bool contains(std::string_view haystack, std::string_view needle) {
    if (needle.size() > haystack.size()) return false;
    if (needle.size() <= 64) return haystack.find(needle) != std::string_view::npos;  // at most 64 x |haystack|
    std::vector<std::size_t> border(needle.size(), 0);  // longest proper border of needle[0, i]
    for (std::size_t i = 1, k = 0; i < needle.size(); ++i) {
        while (k > 0 && needle[i] != needle[k]) k = border[k - 1];
        if (needle[i] == needle[k]) ++k;
        border[i] = k;
    }
    for (std::size_t i = 0, k = 0; i < haystack.size(); ++i) {
        while (k > 0 && haystack[i] != needle[k]) k = border[k - 1];
        if (haystack[i] == needle[k] && ++k == needle.size()) return true;
    }
    return false;
}

}  // namespace

Suggestions nearest_names(std::string_view wanted, const std::vector<std::string_view>& known, std::size_t count,
                          std::size_t work_budget) {
    Suggestions out;
    if (count == 0) return out;
    const std::string wanted_lower = detail::lower(wanted);
    const std::size_t threshold = std::max<std::size_t>(2, wanted.size() / 3);

    // Every name that could qualify, with a lower bound on its distance (linear in the names'
    // length): near enough by its letters, or made of letters the other has.
    struct Entry {
        Letters letters;
        std::size_t index;
    };
    std::vector<Entry> order;
    LetterBound letter_bound(wanted);
    for (std::size_t i = 0; i < known.size(); ++i) {
        if (known[i].empty()) continue;
        const Letters letters = letter_bound(known[i]);
        if (letters.bound <= threshold || letters.may_contain) order.push_back({letters, i});
    }
    std::sort(order.begin(), order.end(), [](const Entry& a, const Entry& b) {
        return a.letters.bound != b.letters.bound ? a.letters.bound < b.letters.bound : a.index < b.index;
    });

    std::vector<std::pair<std::size_t, std::string_view>> best;  // (distance, name), at most `count`
    const auto cutoff = [&] {
        return best.size() < count ? std::numeric_limits<std::size_t>::max() : best.back().first;
    };
    std::string name_lower;
    std::unordered_set<std::string_view> weighed;  // a name repeated (kinds are) is weighed once
    for (const auto& [letters, index] : order) {
        if (letters.bound > cutoff()) break;  // neither this name nor any later one can be nearer
        const std::size_t limit = std::min(threshold, cutoff());
        if (!letters.may_contain && letters.bound > limit) continue;  // neither near nor a part: no work
        const std::string_view name = known[index];
        if (!weighed.insert(name).second) continue;
        std::size_t distance;
        if (letters.may_contain) {
            const std::size_t search_cost = std::max(name.size(), wanted.size());
            if (out.work + search_cost > work_budget) {
                out.complete = false;
                break;
            }
            out.work += search_cost;
        }
        if (letters.may_contain && (name.size() < wanted.size() ? contains(wanted, name) : contains(name, wanted))) {
            distance = std::max(name.size(), wanted.size()) - std::min(name.size(), wanted.size());  // insertions only
        } else {
            if (letters.bound > limit) continue;
            // The widest band the rest of the budget pays for: rows x (2 k + 1) cells.
            const std::size_t rows = std::min(name.size(), wanted.size()) + 1;
            const std::size_t band = (work_budget - out.work) / rows;
            const std::size_t max_distance = std::min(limit, band > 0 ? (band - 1) / 2 : 0);
            if (band == 0 || max_distance < letters.bound) {
                out.complete = false;
                continue;
            }
            name_lower = detail::lower(name);
            distance = edit_distance(wanted_lower, name_lower, max_distance, &out.work);
            if (distance > max_distance) {
                if (max_distance < limit) out.complete = false;
                continue;
            }
        }
        const std::pair<std::size_t, std::string_view> found{distance, name};
        const auto at = std::lower_bound(best.begin(), best.end(), found);
        if (at == best.end() && best.size() == count) continue;
        best.insert(at, found);
        if (best.size() > count) best.pop_back();
    }
    for (const auto& [distance, name] : best) out.names.push_back(name);
    return out;
}

}  // namespace amdahl
