// The verdict sentence's words (src/report/verdict.cpp): the article before a factor.
#include <catch2/catch.hpp>

#include "report/verdict.hpp"

using namespace amdahl;

TEST_CASE("verdict: the article before a factor follows how the number is read aloud", "[verdict]") {
    for (const char* an : {"8x", "8.5x", "11x", "18x", "18.25x", "80x", "89x", "800x", "899.5x", "8,000x", "11,500x",
                           "18,000,000x", "80,000x", "81,000x"})
        CHECK(capital_article(an) == "An");
    for (const char* a : {"1.8x", "2x", "10x", "12x", "1,000x", "110x", "180x", "1,100x", "1,800x", "9x", "90x"})
        CHECK(capital_article(a) == "A");
    CHECK(capital_article("inf") == "A");
    CHECK(capital_article("") == "A");
}
