// Names people can read, end to end: short names in tables (--names short), whole ones with
// --names full, both in JSON, selectors that take a short name when it is one phase's; and
// --group-by class with the rule behind each kernel under --explain. On a hand-made trace of real
// kernel names (tests/data/profilers/handmade/kernel_names_trace.json) and the real samples.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using amdahl::test::run_cli;
using amdahl::test::source_path;
using Json = nlohmann::json;

namespace {

std::string trace() { return source_path("tests/data/profilers/handmade/kernel_names_trace.json"); }

const std::string add_kernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, "
    "3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)";
const std::string fill_kernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> "
    ">(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
const std::string reduce_kernel =
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
    "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
    "unsigned int, float, 4>)";

const std::string notes =
    "note: " + trace() + ": 8 trace events, 8 with a duration\nnote: " + trace() +
    ": lane: gpu (kernels, memory copies, memsets); boundary: wall time from the first to the last event on the "
    "lane: 1,000.0 us\n";

}  // namespace

TEST_CASE("names: tables print short names, never two alike, cut in the middle", "[names][cli]") {
    const auto r = run_cli({"eval", trace(), "--phases", "all"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == notes);
    CHECK(r.out.substr(0, r.out.find("\n\n")) ==
          "phase                                                             kind    calls  time (us)  share  factor  "
          "new time "
          "(us)  saved (us)\n"
          "----------------------------------------------------------------  ------  -----  ---------  -----  ------  "
          "-------------  ----------\n"
          "ampere_sgemm_128x64_tn                                            kernel      1      300.0  30.0%       -   "
          "       "
          "300.0         0.0\n"
          "Memcpy HtoD (Pinned -> Device)                                    copy        1      150.0  15.0%       -   "
          "       "
          "150.0         0.0\n"
          "ncclDevKernel_AllReduce_Sum_f32_RING_LL                           kernel      1      150.0  15.0%       -   "
          "       "
          "150.0         0.0\n"
          "softmax_warp_forward                                              kernel      1      120.0  12.0%       -   "
          "       "
          "120.0         0.0\n"
          "vectorized_elementwis\xe2\x80\xa6"
          " CUDAFunctor_add<float>, Array<char*, 3> >  kernel      1      100.0  10.0%       "
          "-          100.0         0.0\n"
          "reduce_kernel                                                     kernel      1       80.0   8.0%       -   "
          "        "
          "80.0         0.0\n"
          "vectorized_elementwis\xe2\x80\xa6"
          "l<4, FillFunctor<float>, Array<char*, 1> >  kernel      1       50.0   5.0%       "
          "-           50.0         0.0\n"
          "Memset (Device)                                                   memset      1       50.0   5.0%       -   "
          "        "
          "50.0         0.0");

    // Markdown has no width: the short names whole, each in a code span.
    const auto md = run_cli({"eval", trace(), "--format", "md"});
    REQUIRE(md.exit_code == 0);
    CHECK(md.out.find("| `vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3> >` | kernel |") !=
          std::string::npos);
    CHECK(md.out.find("| `reduce_kernel` | kernel |") != std::string::npos);

    // CSV is data: the full names.
    const auto csv = run_cli({"eval", trace(), "--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(csv.out.find("\n\"" + reduce_kernel + "\",kernel,1,80,8,1,80,0\n") != std::string::npos);
}

TEST_CASE("names: --names full prints them whole, ready for a selector", "[names][cli]") {
    const auto r = run_cli({"rank", trace(), "--names", "full", "--only", "kind:kernel"});
    REQUIRE(r.exit_code == 0);
    for (const std::string& name : {add_kernel, fill_kernel, reduce_kernel}) {
        INFO(name);
        const auto at = r.out.find("  " + name + "  ");
        REQUIRE(at != std::string::npos);
        // What rank printed is a selector as it stands.
        const auto picked = run_cli({"eval", trace(), "-s", name + "=2", "--phases", "changed", "--format", "csv"});
        CHECK(picked.exit_code == 0);
        CHECK(picked.out.find("\n\"" + name + "\",kernel,") != std::string::npos);
    }
    CHECK(r.out.find("largest saving: ampere_sgemm_128x64_tn (10x, 270.0 us saved") != std::string::npos);

    const auto bad = run_cli({"rank", trace(), "--names", "long"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "error: --names: long not in {short,full}\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n");
}

TEST_CASE("names: a selector takes a short name that is one phase's", "[names][selector][cli]") {
    const auto r = run_cli({"eval", trace(), "-s", "reduce_kernel=2", "--phases", "changed"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == notes +
                       "note: selector 'reduce_kernel' is the short name of phase 'void "
                       "at::native::reduce_kernel<512, 1, at::nativ\xe2\x80\xa6"
                       "unsigned int, float, 4>)' (243 "
                       "characters) and picks it\n");
    CHECK(r.out.substr(0, r.out.find("\n\n")) ==
          "phase          kind    calls  time (us)  share  factor  new time (us)  saved (us)\n"
          "-------------  ------  -----  ---------  -----  ------  -------------  ----------\n"
          "reduce_kernel  kernel      1       80.0   8.0%      2x           40.0        40.0");

    // The name a table shows for one of two look-alikes picks that one.
    const auto shown =
        run_cli({"eval", trace(), "-s", "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >=2",
                 "--phases", "changed", "--format", "csv"});
    REQUIRE(shown.exit_code == 0);
    CHECK(shown.out.find("\n\"" + fill_kernel + "\",kernel,1,50,5,2,25,25\n") != std::string::npos);

    // A short name two phases share picks neither: the error lists them.
    const auto shared = run_cli({"eval", trace(), "-s", "vectorized_elementwise_kernel=2"});
    CHECK(shared.exit_code == 2);
    CHECK(shared.out.empty());
    CHECK(shared.err ==
          notes + "error: " + trace() +
              ": selector 'vectorized_elementwise_kernel' is the short name of 2 phases: "
              "'void at::native::vectorized_elementwise_kernel<4\xe2\x80\xa6"
              "detail::Array<char*, 3>)' (185 characters) "
              "(shown as 'vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3> >') and "
              "'void at::native::vectorized_elementwise_kernel<4\xe2\x80\xa6"
              "detail::Array<char*, 1>)' (177 characters) "
              "(shown as 'vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >'); select one by the "
              "name shown, or by its full name (--names full prints them)\n");

    // A full name always wins; rank --only and plan take short names too.
    const auto only = run_cli({"rank", trace(), "--only", "softmax_warp_forward", "--format", "csv"});
    REQUIRE(only.exit_code == 0);
    CHECK(only.out.find("\"void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, false, false>(") !=
          std::string::npos);
}

TEST_CASE("names: JSON has the full name and the short name", "[names][json]") {
    const auto eval = run_cli({"eval", trace(), "--format", "json"});
    REQUIRE(eval.exit_code == 0);
    const Json e = Json::parse(eval.out);
    std::vector<std::pair<std::string, std::string>> names;
    for (const auto& phase : e["phases"]) names.emplace_back(phase["name"], phase["short_name"]);
    CHECK(names ==
          std::vector<std::pair<std::string, std::string>>{
              {"ampere_sgemm_128x64_tn", "ampere_sgemm_128x64_tn"},
              {"Memcpy HtoD (Pinned -> Device)", "Memcpy HtoD (Pinned -> Device)"},
              {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
               "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
              {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, false, false>(float*, "
               "float const*, int, int, int, bool const*, int, bool)",
               "softmax_warp_forward"},
              {add_kernel, "vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3> >"},
              {reduce_kernel, "reduce_kernel"},
              {fill_kernel, "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >"},
              {"Memset (Device)", "Memset (Device)"}});

    const auto rank = run_cli({"rank", trace(), "--top", "1", "--only", "reduce_kernel", "--format", "json"});
    REQUIRE(rank.exit_code == 0);
    const Json r = Json::parse(rank.out);
    CHECK(r["targets"][0]["name"] == reduce_kernel);
    CHECK(r["targets"][0]["short_name"] == "reduce_kernel");

    const auto plan = run_cli({"plan", trace(), "--target", "1.05", "--only", "kind:kernel", "--format", "json"});
    REQUIRE(plan.exit_code == 0);
    const Json p = Json::parse(plan.out);
    CHECK(p["steps"][0]["name"] == "ampere_sgemm_128x64_tn");
    CHECK(p["steps"][0]["short_name"] == "ampere_sgemm_128x64_tn");

    const auto compare = run_cli({"compare", trace(), trace(), "--format", "json"});
    REQUIRE(compare.exit_code == 0);
    const Json c = Json::parse(compare.out);
    bool found = false;
    for (const auto& row : c["phases"])
        if (row["name"] == reduce_kernel) {
            found = true;
            CHECK(row["short_name"] == "reduce_kernel");
        }
    CHECK(found);
}

TEST_CASE("names: compare's table shows short names", "[names][cli]") {
    const auto r = run_cli({"compare", trace(), trace()});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\nreduce_kernel  ") != std::string::npos);
    CHECK(r.out.find("\nvectorized_elementwis\xe2\x80\xa6"
                     "l<4, FillFunctor<float>, Array<char*, 1> >  ") != std::string::npos);
}

TEST_CASE("group by class: kernels in the classes a GPU engineer expects, kinds kept", "[group_by][cli]") {
    const auto r = run_cli({"eval", trace(), "--group-by", "class", "-s", "kind:copy=2", "--explain"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == notes);
    CHECK(r.out ==
          "phase          kind    calls  time (us)  share  factor  new time (us)  saved (us)\n"
          "-------------  ------  -----  ---------  -----  ------  -------------  ----------\n"
          "gemm           kernel      1      300.0  30.0%       -          300.0         0.0\n"
          "elementwise    kernel      2      150.0  15.0%       -          150.0         0.0\n"
          "memcpy         copy        1      150.0  15.0%      2x           75.0        75.0\n"
          "communication  kernel      1      150.0  15.0%       -          150.0         0.0\n"
          "attention      kernel      1      120.0  12.0%       -          120.0         0.0\n"
          "reduction      kernel      1       80.0   8.0%       -           80.0         0.0\n"
          "memset         memset      1       50.0   5.0%       -           50.0         0.0\n"
          "\n"
          "The arithmetic:\n"
          "  T_old = 300.0 + 150.0 + 150.0 + 150.0 + 120.0 + 80.0 + 50.0 = 1,000.0 us\n"
          "  T_new = 300.0 + 150.0 + 150.0 / 2 + 150.0 + 120.0 + 80.0 + 50.0\n"
          "        = 300.0 + 150.0 + 75.0 + 150.0 + 120.0 + 80.0 + 50.0 = 925.0 us\n"
          "  S = T_old / T_new = 1,000.0 / 925.0 = 1.0811x\n"
          "  saved = T_old - T_new = 1,000.0 - 925.0 = 75.0 us (7.5% of T_old)\n"
          "  f = T_affected / T_old = 150.0 / 1,000.0 = 0.15\n"
          "  ceiling = 1 / (1 - f) = 1 / 0.85 = 1.1765x\n"
          "  captured = saved / T_affected = 75.0 / 150.0 = 50.0%\n"
          "  check: S = 1 / ((1 - f) + f / k) = 1 / (0.85 + 0.15 / 2) = 1.0811x\n"
          "\n"
          "Kernel classes (--group-by class, the first rule that holds):\n"
          "  gemm: 'gemm' in the name: ampere_sgemm_128x64_tn\n"
          "  elementwise: 'elementwise' in the name: vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, "
          "Array<char*, 3> >, vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >\n"
          "  memcpy: kind copy: Memcpy HtoD (Pinned -> Device)\n"
          "  communication: 'nccl' in the name: ncclDevKernel_AllReduce_Sum_f32_RING_LL\n"
          "  attention: 'softmax' in the name: softmax_warp_forward\n"
          "  reduction: 'reduce' in the name: reduce_kernel\n"
          "  memset: kind memset: Memset (Device)\n"
          "\n"
          "baseline:          1,000.0 us\n"
          "new time:          925.0 us\n"
          "speedup:           1.0811x\n"
          "time saved:        75.0 us (7.5% of baseline)\n"
          "affected fraction: 15.0% (f)\n"
          "ceiling:           1.1765x (1 / (1 - f): the affected phases at no time)\n"
          "headroom captured: 50.0% of the ceiling's saving (75.0 of 150.0 us)\n"
          "boundary:          wall time from the first to the last event on the lane: 1,000.0 us\n"
          "verdict:           A 2x speedup of memcpy, 15.0% of device time, buys 7.5% of it (1.0811x); even an "
          "infinitely fast one would buy 15.0%: more time is in gemm (30.0%).\n");

    // JSON's explanation has the same lines.
    const auto json = run_cli({"eval", trace(), "--group-by", "class", "--explain", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const Json j = Json::parse(json.out);
    const auto& lines = j["explanation"];
    CHECK(std::find(lines.begin(), lines.end(), "class reduction: 'reduce' in the name: reduce_kernel") != lines.end());

    // Without --explain, no classes section.
    const auto plain = run_cli({"eval", trace(), "--group-by", "class"});
    REQUIRE(plain.exit_code == 0);
    CHECK(plain.out.find("Kernel classes") == std::string::npos);
}

TEST_CASE("group by: kind:copy still picks copies after --group-by cat", "[group_by][selector][cli]") {
    // It used to fail: the category became the kind (gpu_memcpy), and kind:copy matched nothing.
    const auto r = run_cli({"eval", trace(), "--group-by", "cat", "-s", "kind:copy=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out ==
          "name,kind,calls,time_us,share_pct,factor,new_time_us,saved_us\n"
          "kernel,kernel,6,800,80,1,800,0\n"
          "gpu_memcpy,copy,1,150,15,2,75,75\n"
          "gpu_memset,memset,1,50,5,1,50,0\n");
    // On a summary too (nsys rows keep their kind under --group-by class).
    const auto nsys = run_cli({"eval", source_path("tests/data/profilers/handmade/nsys_gpumemtimesum_2020.csv"),
                               "--group-by", "class", "-s", "kind:memset=2", "--format", "csv"});
    REQUIRE(nsys.exit_code == 0);
    CHECK(nsys.out.find("\nmemset,memset,") != std::string::npos);
}

TEST_CASE("group by: an unknown grouping names the choices", "[group_by][cli]") {
    const auto r = run_cli({"eval", trace(), "--group-by", "kernel"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: --group-by: expected name, cat, class or regex:PATTERN (got 'kernel')\n");
}
