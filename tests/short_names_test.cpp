// Names people can read: real kernel names (from tests/data/profilers and the shared fixtures)
// read as nsys's base names do, never two phases shown alike, cut in the middle for a width.
#include <catch2/catch.hpp>

#include "model/short_names.hpp"

using namespace amdahl;

namespace {

using Names = std::vector<std::string>;

Names shorts(const std::vector<std::string_view>& names, std::size_t width = 0) { return short_names(names, width); }

}  // namespace

TEST_CASE("short names: the readings of a real kernel name, shortest first", "[short_names]") {
    CHECK(name_readings("void addition_kernel<float>(float*, float const*, float const*, int, int)") ==
          Names{"addition_kernel", "addition_kernel<float>",
                "void addition_kernel<float>(float*, float const*, float const*, int, int)"});
    CHECK(
        name_readings("void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
                      "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, (int)4>>(T3)") ==
        Names{"reduce_kernel", "native::reduce_kernel", "at::native::reduce_kernel",
              "reduce_kernel<512, 1, ReduceOp<float, MeanOps<float, float, float, float>, unsigned int, float, 4, 4>>",
              "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
              "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, (int)4>>(T3)"});
    // Anonymous namespaces, written either way, are no part of the name a person reads.
    CHECK(name_readings("void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float "
                        "const*, long)")
              .front() == "max_pool_forward_nchw");
    CHECK(name_readings("void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, "
                        "const T1 *, int, int, int, const bool *, int, bool)")[1] ==
          "softmax_warp_forward<float, float, float, 6, 0, 0>");
    // A return type that is itself a template, and a name with arguments only.
    // A function called just "kernel" keeps its class or namespace.
    CHECK(name_readings("std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, float, (bool)0>(T13)") ==
          Names{"gemvx::kernel", "internal::gemvx::kernel", "gemvx::kernel<int, int, float, 0>",
                "std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, float, (bool)0>(T13)"});
    CHECK(name_readings("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") ==
          Names{"ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"});
    // cutlass's wrapper says nothing: the kernel is its template argument.
    CHECK(name_readings("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8>("
                        "T1::Params)")
              .front() == "cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8");
    // A clone suffix and const after the arguments still read as a signature.
    CHECK(name_readings("void laplacian_kernel<double>(double*, int) [clone .kd]").front() == "laplacian_kernel");
}

TEST_CASE("short names: names that are no C++ signature are themselves", "[short_names]") {
    for (const char* name : {"gemm_qkv", "Memcpy HtoD (Pinned -> Device)", "Memset (Device)", "aten::mm",
                             "ampere_sgemm_128x64_tn", "Host launch gaps / framework overhead", "[CUDA memcpy HtoD]",
                             "train.py(42): forward", "ProfilerStep#1", "<built-in method add>", "a|b", "k<float"}) {
        INFO(name);
        CHECK(name_readings(name) == Names{name});
    }
    // Nothing to shorten: no list at all, so a million plain names cost nothing.
    CHECK(shorts({"gemm_qkv", "attention_softmax", "idle"}).empty());
}

TEST_CASE("short names: names that would collide move on together", "[short_names]") {
    // Three vectorized_elementwise_kernel instances differ only in their template arguments.
    const std::vector<std::string_view> names{
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, "
        "3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> "
        ">(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
        "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float const*, long)",
        "ampere_sgemm_32x32_sliced1x4_tn",
        "Memcpy HtoD (Pinned -> Device)",
    };
    CHECK(shorts(names) == Names{"vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3> >",
                                 "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >",
                                 "max_pool_forward_nchw", "ampere_sgemm_32x32_sliced1x4_tn",
                                 "Memcpy HtoD (Pinned -> Device)"});
    // The shortest distinguishing namespace suffix.
    CHECK(shorts({"void a::x::gemm<float>(float*)", "void b::x::gemm<float>(float*)", "void c::conv<float>(float*)"}) ==
          Names{"a::x::gemm", "b::x::gemm", "conv"});
    // A plain name and a signature with that base: the plain one keeps it.
    CHECK(shorts({"gemm", "void gemm<float>(float*)"}) == Names{"gemm", "gemm<float>"});
    // Signatures equal to the last template argument move on to the full names.
    CHECK(shorts({"void k<float>(float*)", "void k<float>(float**)"}) ==
          Names{"void k<float>(float*)", "void k<float>(float**)"});
}

TEST_CASE("short names: cut in the middle for a width, never alike", "[short_names]") {
    CHECK(cut_middle("cutlass_80_tensorop_s1688gemm_128x256_32x3_tn_align8", 30, 7) ==
          "cutlass\xe2\x80\xa6"
          "128x256_32x3_tn_align8");
    CHECK(cut_middle("short", 30, 7) == "short");
    CHECK(cut_middle("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3, 1) ==
          "\xc3\xa9\xe2\x80\xa6"
          "\xc3\xa9");  // code points
    CHECK(shorts({"cutlass_80_tensorop_s1688gemm_128x256_32x3_tn_align8", "x"}, 31) == Names{"cutlass_80\xe2\x80\xa6"
                                                                                             "8x256_32x3_tn_align8",
                                                                                             "x"});
    // Two names whose default cut coincides get a cut that keeps them apart.
    const std::string a = "family_" + std::string(40, 'a') + "_variant_one_tail";
    const std::string b = "family_" + std::string(40, 'b') + "_variant_one_tail";
    const Names cut = shorts({a, b}, 20);
    REQUIRE(cut.size() == 2);
    CHECK(cut[0] != cut[1]);
    // (a shorter head first: the end tells variants apart)
    CHECK(cut[0] ==
          "f\xe2\x80\xa6"
          "a_variant_one_tail");
    CHECK(cut[1] ==
          "f\xe2\x80\xa6"
          "b_variant_one_tail");
    // Names alike at both ends show a window around where they differ (cuBLAS's gemv kernels
    // differ in one template argument of many).
    const std::string gemv6 =
        "gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, 0, 1, 1, 0, 6, "
        "0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const __nv_bfloat16>>>";
    std::string gemv7 = gemv6;
    gemv7[gemv7.find(" 6,") + 1] = '7';
    CHECK(shorts({gemv6, gemv7}, 64) == Names{"gemvx::kernel<int, i\xe2\x80\xa6"
                                              ", 0, 1, 1, 0, 6, 0, cublasGemvParamsEx<int\xe2\x80\xa6",
                                              "gemvx::kernel<int, i\xe2\x80\xa6"
                                              ", 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<int\xe2\x80\xa6"});
    const std::string c = std::string(30, 'x') + "1" + std::string(30, 'y');
    const std::string d = std::string(30, 'x') + "2" + std::string(30, 'y');
    CHECK(shorts({c, d}, 20) == Names{"xxxxxx\xe2\x80\xa6"
                                      "xxxx1yyyyyyy\xe2\x80\xa6",
                                      "xxxxxx\xe2\x80\xa6"
                                      "xxxx2yyyyyyy\xe2\x80\xa6"});
    // Names no cut keeps apart stay whole.
    CHECK(shorts({c, d}, 6) == Names{c, d});
}
