#include "model/suggest.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <string>
#include <unordered_set>
#include <utility>

#include "model/edit_distance.hpp"
#include "model/text.hpp"

namespace amdahl {

namespace {

unsigned char lower_byte(char c) { return static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c))); }

// A lower bound on the edit distance from `wanted` to other names, from letter counts alone: each
// edit adds or removes at most one surplus letter on each side, so the distance is at least the
// larger surplus (which is at least the difference in length). O(length of the other name).
class LetterBound {
public:
    explicit LetterBound(std::string_view wanted) : size_(wanted.size()) {
        for (char c : wanted) ++unmatched_[lower_byte(c)];
    }

    std::size_t operator()(std::string_view name) {
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
        return std::max(size_ - matched, name.size() - matched);
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

    // Every distinct name once, with a lower bound on its distance (linear in the names' length).
    struct Entry {
        std::size_t bound, index;
    };
    std::vector<Entry> order;
    std::unordered_set<std::string_view> seen;
    LetterBound letter_bound(wanted);
    for (std::size_t i = 0; i < known.size(); ++i) {
        if (known[i].empty() || !seen.insert(known[i]).second) continue;
        order.push_back({letter_bound(known[i]), i});
    }
    std::sort(order.begin(), order.end(), [](const Entry& a, const Entry& b) {
        return a.bound != b.bound ? a.bound < b.bound : a.index < b.index;
    });

    std::vector<std::pair<std::size_t, std::string_view>> best;  // (distance, name), at most `count`
    const auto cutoff = [&] {
        return best.size() < count ? std::numeric_limits<std::size_t>::max() : best.back().first;
    };
    std::string name_lower;
    for (const Entry& entry : order) {
        if (entry.bound > cutoff()) break;  // neither this name nor any later one can be nearer
        const std::string_view name = known[entry.index];
        const std::size_t search_cost = std::max(name.size(), wanted.size());
        if (out.work + search_cost > work_budget) {
            out.complete = false;
            break;
        }
        out.work += search_cost;
        std::size_t distance;
        if (name.size() < wanted.size() ? contains(wanted, name) : contains(name, wanted)) {
            distance = std::max(name.size(), wanted.size()) - std::min(name.size(), wanted.size());  // insertions only
        } else {
            const std::size_t limit = std::min(threshold, cutoff());
            if (entry.bound > limit) continue;
            // The widest band the rest of the budget pays for: rows x (2 k + 1) cells.
            const std::size_t rows = std::min(name.size(), wanted.size()) + 1;
            const std::size_t band = (work_budget - out.work) / rows;
            const std::size_t max_distance = std::min(limit, band > 0 ? (band - 1) / 2 : 0);
            if (band == 0 || max_distance < entry.bound) {
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
