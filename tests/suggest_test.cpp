// "Did you mean" (src/model/suggest.cpp) and how its messages show names (src/model/quoted_name.cpp):
// the nearest names under a work budget, and long names cut to their start and end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"
#include "model/edit_distance.hpp"
#include "model/quoted_name.hpp"
#include "model/suggest.hpp"
#include "model/text.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

using amdahl::test::phase;

// "phase_<i>_", 40 p's, pseudo-random letters, 40 q's and "_end": `length` characters, far from
// every other i's name, with a start and an end a message can show.
std::string long_name(int i, std::size_t length) {
    std::string name = "phase_" + std::to_string(i) + "_" + std::string(40, 'p');
    std::mt19937 rng(static_cast<unsigned>(i));
    std::uniform_int_distribution<int> letter('a', 'z');
    while (name.size() < length - 44) name += static_cast<char>(letter(rng));
    return name + std::string(40, 'q') + "_end";
}

// The rule as first written: every name's full edit distance, nothing cut short.
std::vector<std::string> exhaustive(const std::string& wanted, const std::vector<std::string>& known,
                                    std::size_t count) {
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const auto& name : known) {
        if (name.empty()) continue;
        const std::size_t distance = edit_distance(detail::lower(wanted), detail::lower(name));
        const bool contains = name.find(wanted) != std::string::npos || wanted.find(name) != std::string::npos;
        if (distance <= std::max<std::size_t>(2, wanted.size() / 3) || contains) near.emplace_back(distance, name);
    }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < near.size() && i < count; ++i) out.push_back(near[i].second);
    return out;
}

std::vector<std::string> names_of(const Suggestions& suggestions) {
    return {suggestions.names.begin(), suggestions.names.end()};
}

// ~800-character names like a C++ template instantiation's, differing in their arguments.
std::vector<std::string> templated_names(std::size_t count) {
    std::mt19937 rng(5);
    const char* types[] = {"float", "double", "cutlass::half_t", "cutlass::bfloat16_t", "int8_t"};
    std::uniform_int_distribution<int> type(0, 4), shape(0, 2), small(1, 8);
    const int shapes[] = {64, 128, 256};
    std::vector<std::string> names;
    while (names.size() < count) {
        std::string name = "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::threadblock::MmaPipelined<";
        for (int i = 0; i < 4; ++i)
            name += "cutlass::gemm::GemmShape<" + std::to_string(shapes[shape(rng)]) + ", " +
                    std::to_string(shapes[shape(rng)]) + ", " + std::to_string(shapes[shape(rng)] / 4) + ">, ";
        for (int i = 0; i < 3; ++i) name += std::string(types[type(rng)]) + ", cutlass::layout::RowMajor, ";
        name += "cutlass::epilogue::threadblock::Epilogue<" + std::string(types[type(rng)]) + ", " +
                std::to_string(small(rng)) + ">, cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<" +
                std::to_string(small(rng)) + ">, false>>(cutlass::gemm::kernel::Gemm::Params)";
        name.resize(std::max<std::size_t>(name.size(), 800), '_');
        names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace

TEST_CASE("suggest: a misspelt 50,000-character name is found, and the message shows its ends", "[suggest]") {
    Profile profile;
    for (int i = 0; i < 5; ++i) profile.phases.push_back(phase(long_name(i, 50'000), "kernel", 1));
    std::string misspelt = profile.phases[2].name;
    for (std::size_t at : {1'000, 20'000, 40'000}) misspelt[at] = misspelt[at] == 'x' ? 'y' : 'x';
    const std::string shown =
        "'phase_2_pppppppppppppppppppppppppppppppppppppppp\xe2\x80\xa6qqqqqqqqqqqqqqqqqqqq_end' (50000 characters)";
    CHECK_THROWS_MATCHES(select_phases(profile, parse_selector(misspelt)), Error,
                         Message("selector " + shown + " matches no phase; did you mean " + shown + "?"));
    // Nothing near: the selector alone, cut the same way.
    CHECK_THROWS_MATCHES(
        select_phases(profile, parse_selector(long_name(7, 50'000))), Error,
        Message("selector "
                "'phase_7_pppppppppppppppppppppppppppppppppppppppp\xe2\x80\xa6qqqqqqqqqqqqqqqqqqqq_end' "
                "(50000 characters) matches no phase"));
}

TEST_CASE("suggest: the nearest names are those of the exhaustive rule", "[suggest]") {
    std::mt19937 rng(77);
    std::uniform_int_distribution<int> letter(0, 5), length(0, 10), size(0, 30), edits(0, 3);
    const char alphabet[] = "abAB_c";
    const auto word = [&] {
        std::string w(static_cast<std::size_t>(length(rng)), ' ');
        for (char& c : w) c = alphabet[letter(rng)];
        return w;
    };
    for (int round = 0; round < 3000; ++round) {
        std::vector<std::string> known(static_cast<std::size_t>(size(rng)));
        for (auto& name : known) name = word();
        std::string wanted = word();
        if (!known.empty() && round % 2 == 0) {  // a misspelling of a known name
            wanted = known[static_cast<std::size_t>(round) % known.size()];
            for (int e = edits(rng); e > 0 && !wanted.empty(); --e)
                wanted[static_cast<std::size_t>(round + e) % wanted.size()] = alphabet[letter(rng)];
        }
        const std::vector<std::string_view> views(known.begin(), known.end());
        const Suggestions got = nearest_names(wanted, views, 3);
        INFO("wanted '" << wanted << "', round " << round);
        CHECK(names_of(got) == exhaustive(wanted, known, 3));
        CHECK(got.complete);
    }
}

TEST_CASE("suggest: the work stays within the budget, and what was weighed decides", "[suggest]") {
    std::vector<std::string> long_names;
    for (int i = 0; i < 5; ++i) long_names.push_back(long_name(i, 50'000));
    std::string misspelt = long_names[2];
    misspelt[30'000] = '#';
    const std::vector<std::string_view> views(long_names.begin(), long_names.end());
    Suggestions got = nearest_names(misspelt, views, 3);
    CHECK(names_of(got) == std::vector<std::string>{long_names[2]});
    CHECK(got.work <= suggestion_work_budget);
    // 200,000 names none of which is near or a part: letter counts alone rule each out.
    std::vector<std::string> numbered;
    for (int i = 0; i < 200'000; ++i) numbered.push_back("phase_" + std::to_string(1'000'000 + i));
    const std::vector<std::string_view> numbered_views(numbered.begin(), numbered.end());
    got = nearest_names("attention_softmax", numbered_views, 3);
    CHECK(got.names.empty());
    CHECK(got.complete);
    CHECK(got.work == 0);
    // No budget: nothing is weighed, and the answer says so.
    got = nearest_names(misspelt, views, 3, 0);
    CHECK(got.names.empty());
    CHECK_FALSE(got.complete);
    // 5,000 templated names of ~800 characters: the misspelt one is weighed first (its letters
    // match), then only names whose letters could still beat the third nearest.
    const std::vector<std::string> kernels = templated_names(5'000);
    std::string typo = kernels[2'500];
    typo[300] = typo[300] == '1' ? '2' : '1';
    const std::vector<std::string_view> kernel_views(kernels.begin(), kernels.end());
    got = nearest_names(typo, kernel_views, 3);
    REQUIRE(!got.names.empty());
    CHECK(got.names[0] == kernels[2'500]);
    CHECK(got.work <= suggestion_work_budget);
}

TEST_CASE("suggest: messages stay short whatever the names, and each kind counts once", "[suggest]") {
    Profile kernels;
    for (const auto& name : templated_names(5'000)) kernels.phases.push_back(phase(name, "kernel", 1));
    std::string typo = kernels.phases[100].name;
    typo[200] = typo[200] == '1' ? '2' : '1';
    try {
        select_phases(kernels, parse_selector(typo));
        FAIL("no error");
    } catch (const Error& e) {
        // The selector and three suggestions, each at most 80 characters and its length.
        CHECK(e.message().size() < 550);
        CHECK_THAT(e.message(),
                   Catch::Matchers::StartsWith("selector " + quoted_name(typo) + " matches no phase; did you mean " +
                                               quoted_name(kernels.phases[100].name) + ", "));
    }
    // 100,000 phases of one kind: the kind is weighed once.
    Profile many;
    for (int i = 0; i < 100'000; ++i) many.phases.push_back(phase("p" + std::to_string(i), "kernel", 1));
    CHECK_THROWS_MATCHES(select_phases(many, parse_selector("kind:kernal")), Error,
                         Message("selector 'kind:kernal' matches no phase; did you mean 'kind:kernel'?"));
}
