// Candidates for rank and plan (src/analysis/candidate.cpp): phases at one factor, proposals on
// the phases their selectors pick, proposals stored in a profile, and the speedup of a saving.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "amdahl/candidate.hpp"
#include "amdahl/error.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

using amdahl::test::phase;

Profile step() {
    Profile profile;
    profile.source = "step.json";
    profile.phases = {
        phase("copy", "copy", 18),
        phase("gemm_qkv", "kernel", 34),
        phase("attention_softmax", "kernel", 21),
        phase("gemm_proj", "kernel", 12),
        phase("layernorm", "kernel", 6),
        phase("overhead", "overhead", 5),
        phase("unattributed", "unattributed", 4),
    };
    return profile;
}

std::vector<std::string> names(const std::vector<Candidate>& candidates) {
    std::vector<std::string> out;
    for (const Candidate& c : candidates) out.push_back(c.name);
    return out;
}

Proposal proposal(std::string name, const char* spec) { return Proposal{std::move(name), parse_speedup(spec)}; }

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("candidates: every phase but the bookkeeping ones, at one factor", "[candidate]") {
    const auto candidates = phase_candidates(step(), {}, Factor{10});
    CHECK(names(candidates) == Names{"copy", "gemm_qkv", "attention_softmax", "gemm_proj", "layernorm", "overhead"});
    const Candidate& gemm = candidates[1];
    CHECK(gemm.kind == "kernel");
    CHECK(gemm.phases == std::vector<std::size_t>{1});
    CHECK(gemm.time == Approx(34));
    CHECK(gemm.factor == Approx(10));
    CHECK(gemm.saved == Approx(30.6));
    CHECK_FALSE(gemm.effort);

    const auto at_infinity = phase_candidates(step(), {}, Factor{infinity});
    CHECK(std::isinf(at_infinity[0].factor));
    CHECK(at_infinity[0].saved == Approx(18));
}

TEST_CASE("candidates: --only selectors pick the phases, each once, in profile order", "[candidate]") {
    CHECK(names(phase_candidates(step(), {parse_selector("kind:kernel")}, Factor{2})) ==
          Names{"gemm_qkv", "attention_softmax", "gemm_proj", "layernorm"});
    CHECK(names(phase_candidates(step(),
                                 {parse_selector("layernorm"), parse_selector("gemm_*"), parse_selector("gemm_qkv")},
                                 Factor{2})) == Names{"gemm_qkv", "gemm_proj", "layernorm"});
    // Bookkeeping time is a candidate only by name.
    CHECK(names(phase_candidates(step(), {parse_selector("unattributed")}, Factor{2})) == Names{"unattributed"});
    CHECK_THROWS_MATCHES(phase_candidates(step(), {parse_selector("kind:kernal")}, Factor{2}), Error,
                         Message("selector 'kind:kernal' matches no phase; did you mean 'kind:kernel'?"));
}

TEST_CASE("candidates: a proposal covers the phases its selector picks", "[candidate]") {
    const auto candidates =
        proposal_candidates(step(), {proposal("flash-attention", "attention_softmax=10@3"),
                                     proposal("gemm_*=2", "gemm_*=2"), proposal("everything", "*=-50%@8")});
    REQUIRE(candidates.size() == 3);
    const Candidate& flash = candidates[0];
    CHECK(flash.name == "flash-attention");
    CHECK(flash.phases == std::vector<std::size_t>{2});
    CHECK(flash.kind == "kernel");
    CHECK(flash.time == Approx(21));
    CHECK(flash.saved == Approx(18.9));
    REQUIRE(flash.effort);
    CHECK(*flash.effort == Approx(3));

    const Candidate& gemm = candidates[1];
    CHECK(gemm.phases == std::vector<std::size_t>{1, 3});
    CHECK(gemm.kind == "kernel");  // the kind they share
    CHECK(gemm.time == Approx(46));
    CHECK(gemm.saved == Approx(23));
    CHECK_FALSE(gemm.effort);

    const Candidate& everything = candidates[2];
    CHECK(everything.phases == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
    CHECK(everything.kind.empty());  // kinds differ
    CHECK(everything.time == Approx(96));
    CHECK(everything.factor == Approx(2));
    CHECK(everything.saved == Approx(48));

    CHECK_THROWS_MATCHES(proposal_candidates(step(), {proposal("fast copy", "cpy=2")}), Error,
                         Message("proposal 'fast copy': selector 'cpy' matches no phase; did you mean 'copy'?"));
}

TEST_CASE("candidates: proposals stored in a profile are parsed, named and placed", "[candidate]") {
    Profile profile = step();
    profile.proposals = {
        ProfileProposal{"flash-attention", "attention_softmax", "10x", 3.0, "", "step.json: proposals[0]"},
        ProfileProposal{"", "kind:kernel", "-30%", std::nullopt, "", "step.json: proposals[1]"},
    };
    const auto proposals = profile_proposals(profile);
    REQUIRE(proposals.size() == 2);
    CHECK(proposals[0].name == "flash-attention");
    CHECK(proposals[0].spec.text == "flash-attention");
    CHECK(proposals[0].spec.selector.pattern == "attention_softmax");
    CHECK(proposals[0].spec.factor.value == Approx(10));
    REQUIRE(proposals[0].spec.effort);
    CHECK(*proposals[0].spec.effort == Approx(3));
    // Without a name, the proposal is called by its target and factor.
    CHECK(proposals[1].name == "kind:kernel=-30%");
    CHECK(proposals[1].spec.selector.type == Selector::Type::kind);
    CHECK(proposals[1].spec.factor.value == Approx(1 / 0.7));
    CHECK_FALSE(proposals[1].spec.effort);

    profile.proposals.push_back(ProfileProposal{"bad", "layernorm", "0", std::nullopt, "", "step.json: proposals[2]"});
    CHECK_THROWS_MATCHES(
        profile_proposals(profile), Error,
        Message("step.json: proposals[2]: bad factor '0': a speedup factor must be > 0 (0.5 is a 2x slowdown)"));
    profile.proposals.back() = ProfileProposal{"", "", "2", std::nullopt, "", "step.json: proposals[2]"};
    CHECK_THROWS_MATCHES(
        profile_proposals(profile), Error,
        Message("step.json: proposals[2]: empty selector (expected a phase name, a glob, kind:KIND or *)"));
}

TEST_CASE("candidates: the end-to-end speedup of a saving, T / (T - saved)", "[candidate]") {
    CHECK(speedup_from_saving(100, 18.9) == Approx(100 / 81.1));
    CHECK(speedup_from_saving(100, 0) == Approx(1));
    CHECK(speedup_from_saving(100, -10) == Approx(100.0 / 110));
    CHECK(std::isinf(speedup_from_saving(100, 100)));
}

TEST_CASE("candidates: 30,000 proposals by name each find their phase, among globs and misses", "[candidate]") {
    // More than a handful of selectors look exact names up in an index (as eval does); the
    // candidates must be what a scan of every phase gives.
    Profile profile;
    profile.source = "big.json";
    for (int i = 0; i < 30'000; ++i)
        profile.phases.push_back(phase("phase_" + std::to_string(i), i % 2 ? "kernel" : "copy", 1 + i % 7));
    profile.phases.push_back(phase("unattributed", "unattributed", 4));
    std::vector<Proposal> proposals;
    for (int i = 29'999; i >= 0; --i)
        proposals.push_back(proposal("p" + std::to_string(i), ("phase_" + std::to_string(i) + "=4@2").c_str()));
    proposals.push_back(proposal("glob", "phase_1?=2"));
    proposals.push_back(proposal("kind", "kind:copy=2"));
    proposals.push_back(proposal("bookkeeping", "unattributed=inf"));
    const auto candidates = proposal_candidates(profile, proposals);
    REQUIRE(candidates.size() == 30'003);
    for (std::size_t c = 0; c < 30'000; ++c) {
        const std::size_t phase_index = 29'999 - c;
        REQUIRE(candidates[c].phases == std::vector<std::size_t>{phase_index});
        CHECK(candidates[c].time == Approx(1 + static_cast<double>(phase_index % 7)));
        CHECK(candidates[c].saved == Approx(candidates[c].time * 0.75));
    }
    CHECK(candidates[30'000].phases == std::vector<std::size_t>{10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
    CHECK(candidates[30'001].phases.size() == 15'000);
    CHECK(candidates[30'002].phases == std::vector<std::size_t>{30'000});
    CHECK(candidates[30'002].saved == Approx(4));
    // A misspelt name among many still fails with the suggestion.
    proposals.push_back(proposal("typo", "phase_2999x=2"));
    CHECK_THROWS_MATCHES(
        proposal_candidates(profile, proposals), Error,
        Message("proposal 'typo': selector 'phase_2999x' matches no phase; did you mean 'phase_2999', 'phase_29990' "
                "or 'phase_29991'?"));
}
