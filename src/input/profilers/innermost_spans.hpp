#pragma once
// The innermost running span of each track, as a sweep starts and ends spans in time order: on
// one track spans nest, and only the innermost one runs (it gets the time).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace amdahl::detail {

/// `Inner` is a strict total order on span indices: `inner(a, b)` when span a is more inner than
/// b. Each operation takes O(log n) comparisons amortized, n the spans running on the track, so
/// that a thread nested 80,000 deep costs no more per span than a flat one.
template <class Inner>
class InnermostSpans {
public:
    static constexpr std::uint32_t none = UINT32_MAX;

    explicit InnermostSpans(Inner inner) : inner_(std::move(inner)) {}

    void start(std::uint32_t track, std::uint32_t span) {
        if (track >= heaps_.size()) heaps_.resize(track + 1);
        if (span >= ended_.size()) ended_.resize(span + 1, false);
        ended_[span] = false;
        auto& heap = heaps_[track];
        heap.push_back(span);
        std::push_heap(heap.begin(), heap.end(), outer());
    }
    /// `span` must have started on `track` and not ended yet.
    void end(std::uint32_t track, std::uint32_t span) {
        ended_[span] = true;
        // An ended span that is not innermost stays in the heap until it comes to the top.
        auto& heap = heaps_[track];
        while (!heap.empty() && ended_[heap.front()]) {
            std::pop_heap(heap.begin(), heap.end(), outer());
            heap.pop_back();
        }
    }
    /// The innermost running span of `track`, or `none`.
    std::uint32_t top(std::uint32_t track) const {
        return track < heaps_.size() && !heaps_[track].empty() ? heaps_[track].front() : none;
    }

private:
    // The heap's order: the innermost span is the greatest.
    auto outer() const {
        return [this](std::uint32_t a, std::uint32_t b) { return inner_(b, a); };
    }

    Inner inner_;
    std::vector<std::vector<std::uint32_t>> heaps_;  // per track: started spans, the innermost first
    std::vector<bool> ended_;                        // per span index
};

}  // namespace amdahl::detail
