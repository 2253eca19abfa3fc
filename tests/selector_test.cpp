// Selectors (src/model/selector.cpp): names, globs, kind:KIND and *, which phases each picks, the
// "did you mean" suggestion when it picks none (its search: suggest_test.cpp).
#include <catch2/catch.hpp>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

using amdahl::test::phase;

// The transformer step of examples/, plus the phases amdahl adds for bookkeeping.
Profile step() {
    Profile profile;
    profile.source = "step.json";
    profile.phases = {
        phase("Host\xe2\x86\x92"
              "device input copy",
              "copy", 18),
        phase("gemm_qkv", "kernel", 34),
        phase("attention_softmax", "kernel", 21),
        phase("gemm_proj", "kernel", 12),
        phase("layernorm", "kernel", 6),
        phase("elementwise_gelu", "kernel", 4),
        phase("Host launch gaps / framework overhead", "overhead", 5),
        phase("unattributed", "unattributed", 3),
        phase("idle", "idle", 2),
        phase("overlapped", "overlapped", 1),
    };
    return profile;
}

std::vector<std::size_t> picked(const char* selector) { return select_phases(step(), parse_selector(selector)); }

using Indices = std::vector<std::size_t>;

}  // namespace

TEST_CASE("selector: parse_selector tells names, globs, kinds and * apart", "[selector]") {
    const struct {
        const char* text;
        Selector::Type type;
        const char* pattern;
    } cases[] = {
        {"attention_softmax", Selector::Type::name, "attention_softmax"},
        {" layernorm ", Selector::Type::name, "layernorm"},
        {"Host launch gaps / framework overhead", Selector::Type::name, "Host launch gaps / framework overhead"},
        {"gemm_*", Selector::Type::glob, "gemm_*"},
        {"gemm_???", Selector::Type::glob, "gemm_???"},
        {"gemm_[pq]*", Selector::Type::glob, "gemm_[pq]*"},
        {"kind:copy", Selector::Type::kind, "copy"},
        {"kind: copy ", Selector::Type::kind, "copy"},
        {"kind:kern*", Selector::Type::kind, "kern*"},
        {"*", Selector::Type::all, "*"},
        {" * ", Selector::Type::all, "*"},
    };
    for (const auto& c : cases) {
        INFO("'" << c.text << "'");
        const Selector selector = parse_selector(c.text);
        CHECK(selector.type == c.type);
        CHECK(selector.pattern == c.pattern);
        CHECK(selector.text == c.text);  // as written, for messages
    }
}

TEST_CASE("selector: parse_selector refuses an empty selector and a kind: without a kind", "[selector]") {
    CHECK_THROWS_MATCHES(parse_selector(""), Error,
                         Message("empty selector (expected a phase name, a glob, kind:KIND or *)"));
    CHECK_THROWS_MATCHES(parse_selector(" \t "), Error,
                         Message("empty selector (expected a phase name, a glob, kind:KIND or *)"));
    CHECK_THROWS_MATCHES(parse_selector("kind:"), Error, Message("selector 'kind:': kind: needs a kind name"));
    CHECK_THROWS_MATCHES(parse_selector("kind:  "), Error, Message("selector 'kind:  ': kind: needs a kind name"));
}

TEST_CASE("selector: names match exactly, globs and kinds by pattern, * everything but bookkeeping", "[selector]") {
    CHECK(picked("attention_softmax") == Indices{2});
    CHECK(picked("Host\xe2\x86\x92"
                 "device input copy") == Indices{0});
    CHECK(picked("gemm_*") == Indices{1, 3});
    CHECK(picked("gemm_???") == Indices{1});
    CHECK(picked("gemm_[p]*") == Indices{3});
    CHECK(picked("*_*") == Indices{1, 2, 3, 5});
    CHECK(picked("Host*") == Indices{0, 6});
    CHECK(picked("kind:kernel") == Indices{1, 2, 3, 4, 5});
    CHECK(picked("kind:copy") == Indices{0});
    CHECK(picked("kind:*o*") == Indices{0, 6});
    CHECK(picked("*") == Indices{0, 1, 2, 3, 4, 5, 6});
    // Bookkeeping time is no one's work: only its name picks it, never a glob, a kind or *.
    CHECK(picked("unattributed") == Indices{7});
    CHECK(picked("idle") == Indices{8});
    CHECK(picked("overlapped") == Indices{9});
    CHECK(picked("*e*") == Indices{0, 1, 2, 3, 4, 5, 6});
    CHECK_THROWS_MATCHES(picked("idl?"), Error, Message("selector 'idl?' matches no phase"));
}

TEST_CASE("selector: matches() and is_bookkeeping_phase on single phases", "[selector]") {
    const Phase gemm = phase("gemm_qkv", "kernel", 1);
    CHECK(parse_selector("gemm_qkv").matches(gemm));
    CHECK_FALSE(parse_selector("GEMM_QKV").matches(gemm));  // names are case-sensitive
    CHECK_FALSE(parse_selector("gemm").matches(gemm));
    CHECK(parse_selector("gemm*").matches(gemm));
    CHECK(parse_selector("kind:kernel").matches(gemm));
    CHECK_FALSE(parse_selector("kind:Kernel").matches(gemm));
    CHECK_FALSE(parse_selector("kind:kern").matches(gemm));
    CHECK(parse_selector("*").matches(gemm));
    CHECK(parse_selector("kind:*").matches(phase("untyped", "", 1)));
    for (const char* name : {"unattributed", "idle", "overlapped"}) {
        INFO(name);
        const Phase bookkeeping = phase(name, "", 1);
        CHECK(is_bookkeeping_phase(bookkeeping));
        CHECK(parse_selector(name).matches(bookkeeping));
        CHECK_FALSE(parse_selector("*").matches(bookkeeping));
        CHECK_FALSE(parse_selector(std::string(name).substr(0, 3) + "*").matches(bookkeeping));
        CHECK_FALSE(parse_selector("kind:*").matches(bookkeeping));
    }
    CHECK_FALSE(is_bookkeeping_phase(gemm));
    CHECK_FALSE(is_bookkeeping_phase(phase("Idle", "idle", 1)));
}

TEST_CASE("selector: a selector that picks nothing is an error with the nearest names", "[selector]") {
    // A misspelt name or kind: within a third of its length, closest first.
    CHECK_THROWS_MATCHES(picked("atention_softmax"), Error,
                         Message("selector 'atention_softmax' matches no phase; did you mean 'attention_softmax'?"));
    CHECK_THROWS_MATCHES(picked("LayerNorm"), Error,
                         Message("selector 'LayerNorm' matches no phase; did you mean 'layernorm'?"));
    CHECK_THROWS_MATCHES(picked("kind:kernal"), Error,
                         Message("selector 'kind:kernal' matches no phase; did you mean 'kind:kernel'?"));
    // A part of names suggests those names, at most three, closest first (then by name).
    CHECK_THROWS_MATCHES(picked("gemm"), Error,
                         Message("selector 'gemm' matches no phase; did you mean 'gemm_qkv' or 'gemm_proj'?"));
    Profile many = step();
    many.phases.push_back(phase("gemm_up", "kernel", 1));
    many.phases.push_back(phase("gemm_out", "kernel", 1));
    CHECK_THROWS_MATCHES(
        select_phases(many, parse_selector("gemm")), Error,
        Message("selector 'gemm' matches no phase; did you mean 'gemm_up', 'gemm_out' or 'gemm_qkv'?"));
    // Nothing near, and globs and * get no suggestion.
    CHECK_THROWS_MATCHES(picked("xyz"), Error, Message("selector 'xyz' matches no phase"));
    CHECK_THROWS_MATCHES(picked("zz*"), Error, Message("selector 'zz*' matches no phase"));
    CHECK_THROWS_MATCHES(picked("kind:zzzzzz"), Error, Message("selector 'kind:zzzzzz' matches no phase"));
    Profile bookkeeping_only;
    bookkeeping_only.phases = {phase("unattributed", "unattributed", 1), phase("idle", "idle", 1)};
    CHECK_THROWS_MATCHES(select_phases(bookkeeping_only, parse_selector("*")), Error,
                         Message("selector '*' matches no phase"));
    // The selector is quoted as written.
    CHECK_THROWS_MATCHES(picked(" layernorn "), Error,
                         Message("selector ' layernorn ' matches no phase; did you mean 'layernorm'?"));
}
