// Edit distance (src/model/edit_distance.cpp): the full table, and the banded form that stops at a
// bound, which must agree with it wherever the distance is within the bound.
#include <catch2/catch.hpp>

#include <random>

#include "model/edit_distance.hpp"

using namespace amdahl;

TEST_CASE("edit_distance counts insertions, deletions and substitutions", "[edit_distance]") {
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("abc", "") == 3);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("layernorm", "layernorm") == 0);
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("sitting", "kitten") == 3);
    CHECK(edit_distance("flaw", "lawn") == 2);
    CHECK(edit_distance("atention_softmax", "attention_softmax") == 1);
    CHECK(edit_distance("kernal", "kernel") == 1);
    CHECK(edit_distance("ab", "ba") == 2);  // a transposition is two edits
    CHECK(edit_distance("gemm", "gemm_qkv") == 4);
    CHECK(edit_distance("Gemm", "gemm") == 1);  // case counts; callers lower both
}

TEST_CASE("edit_distance with a bound: exact within it, bound + 1 beyond it", "[edit_distance]") {
    CHECK(edit_distance("kitten", "sitting", 3) == 3);
    CHECK(edit_distance("kitten", "sitting", 2) == 3);
    CHECK(edit_distance("kitten", "sitting", 0) == 1);
    CHECK(edit_distance("same", "same", 0) == 0);
    CHECK(edit_distance("gemm", "gemm_qkv", 3) == 4);  // the lengths alone rule it out
    CHECK(edit_distance("", "abc", 5) == 3);
    CHECK(edit_distance("abc", "xyz", std::size_t(-1)) == 3);  // no overflow at the largest bound

    std::mt19937 rng(2024);
    std::uniform_int_distribution<int> letter('a', 'd'), length(0, 14), bound(0, 8);
    const auto word = [&] {
        std::string w(static_cast<std::size_t>(length(rng)), ' ');
        for (char& c : w) c = static_cast<char>(letter(rng));
        return w;
    };
    for (int round = 0; round < 5000; ++round) {
        const std::string a = word(), b = word();
        const auto max_distance = static_cast<std::size_t>(bound(rng));
        const std::size_t full = edit_distance(a, b);
        INFO(a << " / " << b << " within " << max_distance);
        CHECK(edit_distance(a, b, max_distance) == std::min(full, max_distance + 1));
    }
}

TEST_CASE("edit_distance with a bound computes only the band, and stops early", "[edit_distance]") {
    const std::string a(10'000, 'a');
    std::string b = a;
    b[5'000] = 'b';
    std::size_t cells = 0;
    CHECK(edit_distance(a, b, 2, &cells) == 1);
    CHECK(cells <= 10'001 * 5);  // rows x (2 x 2 + 1), not 10,001^2
    // Far apart from the start: every cell of a row soon exceeds the bound.
    cells = 0;
    CHECK(edit_distance(a, std::string(10'000, 'z'), 100, &cells) == 101);
    CHECK(cells <= 102 * 201);
}
