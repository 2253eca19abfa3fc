// Real kernel and copy names look like globs: `[CUDA memcpy HtoD]`, `k(float*)`, `arr[0]`. An
// exact name always wins over a glob reading, the ambiguity is said in a note, and `glob:` /
// `name:` say which reading is meant. The same in eval, --only, proposals and gates.
#include <catch2/catch.hpp>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

Profile kernels() {
    Profile profile;
    profile.source = "k.json";
    for (const char* name : {"k(float*)", "k(float**)", "k(floatX)", "[CUDA memcpy HtoD]", "arr[0]", "arr0",
                             "void laplacian_kernel<double>(double*, int) [clone .kd]"})
        profile.phases.push_back(Phase{name, "kernel", 10, std::nullopt, 0, std::nullopt});
    return profile;
}

std::vector<std::string> names(const Profile& profile, const std::vector<std::size_t>& picked) {
    std::vector<std::string> out;
    for (std::size_t i : picked) out.push_back(profile.phases[i].name);
    return out;
}

std::string kernels_json(int k_float_pointer_pointer_ms) {
    return "{\"phases\": {\"k(float*)\": 10, \"k(float**)\": " + std::to_string(k_float_pointer_pointer_ms) +
           ", \"k(floatX)\": 10, \"[CUDA memcpy HtoD]\": 40, \"arr[0]\": 10, \"arr0\": 10, \"gemm_a\": 5, "
           "\"gemm_b\": 5}}";
}

}  // namespace

TEST_CASE("selector names: an exact name wins over the glob reading", "[selector]") {
    const Profile profile = kernels();
    std::vector<std::string> notes;
    CHECK(names(profile, select_phases(profile, parse_selector("k(float*)"), &notes)) ==
          std::vector<std::string>{"k(float*)"});
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] ==
          "selector 'k(float*)' is the exact name of a phase and picks only it; as a glob it would also pick "
          "'k(float**)' and 'k(floatX)' (write glob:k(float*) for the glob)");
    notes.clear();
    CHECK(names(profile, select_phases(profile, parse_selector("[CUDA memcpy HtoD]"), &notes)) ==
          std::vector<std::string>{"[CUDA memcpy HtoD]"});
    CHECK(notes.empty());  // as a glob it picks nothing else: nothing to say
    CHECK(names(profile, select_phases(profile, parse_selector("arr[0]"), &notes)) ==
          std::vector<std::string>{"arr[0]"});
    REQUIRE(notes.size() == 1);
    CHECK_THAT(notes[0], Contains("as a glob it would also pick 'arr0'"));
    CHECK(names(profile,
                select_phases(profile, parse_selector("void laplacian_kernel<double>(double*, int) [clone .kd]"))) ==
          std::vector<std::string>{"void laplacian_kernel<double>(double*, int) [clone .kd]"});
}

TEST_CASE("selector names: glob: and name: say which reading is meant", "[selector]") {
    const Profile profile = kernels();
    CHECK(names(profile, select_phases(profile, parse_selector("glob:k(float*)"))) ==
          std::vector<std::string>{"k(float*)", "k(float**)", "k(floatX)"});
    CHECK(names(profile, select_phases(profile, parse_selector("glob:k(float?)"))) ==
          std::vector<std::string>{"k(float*)", "k(floatX)"});
    // A backslash escapes a glob character: k(float\*) is the glob that matches the literal name.
    CHECK(names(profile, select_phases(profile, parse_selector("glob:k(float\\*)"))) ==
          std::vector<std::string>{"k(float*)"});
    CHECK(names(profile, select_phases(profile, parse_selector("name:arr[0]"))) == std::vector<std::string>{"arr[0]"});
    CHECK_THROWS_WITH(select_phases(profile, parse_selector("name:k(float)")),
                      Contains("selector 'name:k(float)' matches no phase"));
    CHECK_THROWS_WITH(parse_selector("glob:"), "selector 'glob:': glob: needs a pattern");
    CHECK_THROWS_WITH(parse_selector("name:"), "selector 'name:': name: needs a phase name");
}

TEST_CASE("selector names: eval, --only, proposals and gates use the same rules", "[selector][cli]") {
    const std::string path = test::write_temp("kernels_names.json", kernels_json(10));
    // eval: only the exact phase is sped up, and stderr says what the glob would have picked.
    auto r = test::run_cli({"eval", path, "-s", "k(float*)=10", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nk(float*),,10,10,10,1,9\n"));
    CHECK_THAT(r.out, Contains("\nk(float**),,10,10,1,10,0\n"));
    CHECK_THAT(r.err, Contains("note: selector 'k(float*)' is the exact name of a phase and picks only it"));
    r = test::run_cli({"eval", path, "-s", "[CUDA memcpy HtoD]=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\"time_saved\": 20,"));
    // The JSON carries the note too.
    r = test::run_cli({"eval", path, "-s", "arr[0]=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("as a glob it would also pick 'arr0'"));
    // rank --only and proposals.
    r = test::run_cli({"rank", path, "--only", "k(float*)", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 2);  // header and one target
    r = test::run_cli({"rank", path, "-s", "[CUDA memcpy HtoD]=2@1", "-s", "glob:gemm_*=2@1", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\n1,[CUDA memcpy HtoD]=2@1,,40,"));
    CHECK_THAT(r.out, Contains("\n2,glob:gemm_*=2@1,,10,"));
    // A compare gate on an exact name that looks like a glob.
    const std::string after = test::write_temp("kernels_names_after.json", kernels_json(20));
    r = test::run_cli({"compare", path, after, "--fail-if-phase-slower", "k(float*)=5%"});
    CHECK(r.exit_code == 0);  // k(float**) doubled, but the gate names k(float*) exactly
    CHECK_THAT(r.err, Contains("note: selector 'k(float*)' is the exact name of a phase and picks only it; as a glob "
                               "it would also pick 'k(float**)' and 'k(floatX)' (write glob:k(float*) for the glob)"));
    r = test::run_cli({"compare", path, after, "--fail-if-phase-slower", "k(float*)=5%", "--format", "json"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("is the exact name of a phase and picks only it"));
    r = test::run_cli({"compare", path, after, "--fail-if-phase-slower", "glob:k(float*)=5%"});
    CHECK(r.exit_code == 1);
}

TEST_CASE("selector names: a short name picks the one phase it is", "[selector][short_names]") {
    Profile profile;
    profile.source = "k.json";
    for (const char* name : {"void a::gemm<float>(float*)", "void b::gemm<float>(float*)",
                             "void at::native::reduce_kernel<512>(T3)", "gemm_qkv", "idle"})
        profile.phases.push_back(test::phase(name, "kernel", 10));
    std::vector<std::string> notes;
    CHECK(names(profile, select_phases(profile, parse_selector("reduce_kernel"), &notes)) ==
          std::vector<std::string>{"void at::native::reduce_kernel<512>(T3)"});
    CHECK(notes == std::vector<std::string>{"selector 'reduce_kernel' is the short name of phase "
                                            "'void at::native::reduce_kernel<512>(T3)' and picks it"});
    // Any reading of one phase's name picks it, the one a table shows included.
    CHECK(names(profile, select_phases(profile, parse_selector("native::reduce_kernel"))) ==
          std::vector<std::string>{"void at::native::reduce_kernel<512>(T3)"});
    CHECK(names(profile, select_phases(profile, parse_selector("a::gemm"))) ==
          std::vector<std::string>{"void a::gemm<float>(float*)"});
    CHECK(names(profile, select_phases(profile, parse_selector("name:b::gemm"))) ==
          std::vector<std::string>{"void b::gemm<float>(float*)"});
    // A full name wins over a short name; a glob stays a glob.
    CHECK(names(profile, select_phases(profile, parse_selector("gemm_qkv"))) == std::vector<std::string>{"gemm_qkv"});
    CHECK(names(profile, select_phases(profile, parse_selector("gemm*"))) == std::vector<std::string>{"gemm_qkv"});
    // Shared by two: an error that lists both and how each is shown.
    CHECK_THROWS_WITH(select_phases(profile, parse_selector("gemm")),
                      "selector 'gemm' is the short name of 2 phases: 'void a::gemm<float>(float*)' (shown as "
                      "'a::gemm') and 'void b::gemm<float>(float*)' (shown as 'b::gemm'); select one by the name "
                      "shown, or by its full name (--names full prints them)");
    // kind: selectors are not names.
    CHECK_THROWS_WITH(select_phases(profile, parse_selector("kind:reduce_kernel")),
                      Contains("selector 'kind:reduce_kernel' matches no phase"));
}
